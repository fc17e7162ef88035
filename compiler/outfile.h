/*
 * outfile - write an output file atomically, never over an input, and only
 * where a careful compiler would.
 *
 * The data goes to FILE.tmp.XXXXXX in the same directory (created
 * O_EXCL|O_NOFOLLOW), is flushed to the disk (fsync), then renamed over
 * FILE, and the directory is flushed too; on any error the temporary file is
 * removed and FILE is left as it was, so a failed run never leaves a partial
 * output behind. SIGINT, SIGTERM and SIGHUP (unless ignored) remove the
 * temporary files while they exist, then end the process as they would have.
 *
 * Where FILE is: the path is walked one component at a time, each opened
 * O_NOFOLLOW relative to the directory before it, and every later step
 * (temporary file, rename) is made relative to the directory found, so a
 * path changed under regc cannot move the output. A symbolic link is
 * followed as the kernel follows it with fs.protected_symlinks=1, whatever
 * that sysctl says: not in a world-writable sticky directory (such as /tmp)
 * unless it belongs to regc's user or to the directory's owner. A file there
 * is replaced only on the same terms (fs.protected_regular). Refused:
 * "cannot write 'PATH': refused: a symbolic link of another user in a
 * world-writable sticky directory (not followed)", "...: refused: a file of
 * another user in a world-writable sticky directory (not replaced)". A
 * FIFO, socket or device other than /dev/null is refused before it is opened
 * ("cannot write 'PATH': Is a FIFO, not a regular file"); a directory, or a
 * path ending in '/', is refused (EISDIR). /dev/null is written in place;
 * "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N write to
 * that descriptor.
 *
 * A file replaced keeps its permission bits (not set-user-ID, set-group-ID
 * or sticky) and, as far as the caller may give them, its owner and group; a
 * new file gets 0666 minus the umask, like a file made by fopen.
 */
#ifndef REGC_OUTFILE_H
#define REGC_OUTFILE_H

#include "diag.h"

#include <stddef.h>

/*
 * Writes 'len' bytes of 'data' to 'path'.
 * Returns 0, or -1 after reporting DIAG_IO ("cannot write 'PATH': reason").
 */
int outfile_write(struct diag *dg, const char *path, const char *data, size_t len);

/*
 * The same written as it is made: outfile_open() starts the output (NULL
 * after reporting DIAG_IO, as above), outfile_add() appends to it,
 * outfile_commit() puts it in place as outfile_write() does (0, or -1 after
 * reporting a write error, also one of an earlier outfile_add()), and
 * outfile_abort() drops it, leaving the file as it was. Either one frees
 * the handle. A regular file's text goes to its temporary file as it comes,
 * never held whole in memory; standard output and /dev/null are written at
 * the commit. At most 8 outputs open at a time.
 *
 * outfile_commit_all() commits several outputs together (-o and its
 * dependency file): all or none. Every temporary file is completed first
 * (mode, fsync), standard output written, then each is renamed in order;
 * before a file is replaced while others still follow, a hard link
 * FILE.bak.XXXXXX keeps the old one, and when a later rename fails the
 * outputs already renamed are put back from it (or removed, when new) and
 * the error reported. The links are removed once all are in place. Not
 * covered: standard output, written before the renames, and a crash or
 * SIGKILL between two renames (the .bak link then remains beside the file).
 * Frees every handle.
 */
struct outfile;
struct outfile *outfile_open(struct diag *dg, const char *path);
void outfile_add(struct outfile *f, const char *data, size_t len);
int outfile_commit(struct diag *dg, struct outfile *f);
int outfile_commit_all(struct diag *dg, struct outfile **files, size_t n);
void outfile_abort(struct outfile *f);

/*
 * Before writing: refuses outputs that are one of the inputs, or one
 * another, compared as files (device and inode, after symbolic links; an
 * output not there yet is compared by its directory and name, and is no
 * input). Devices, FIFOs and standard output are not compared. Returns 0,
 * or -1 after reporting the first such output as DIAG_IO ("cannot write
 * 'OUT': it is the input 'IN'", "...: it is also the output 'OTHER'").
 */
int outfile_check(struct diag *dg, const char *const *outputs, size_t nout,
                  const char *const *inputs, size_t nin);

#endif
