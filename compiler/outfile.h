/*
 * outfile - write an output file atomically, and never over an input.
 *
 * The data goes to FILE.tmp.XXXXXX in the same directory (mkstemp), is
 * flushed to the disk (fsync), then renamed over FILE, and the directory is
 * flushed too; on any error the temporary file is removed and FILE is left
 * as it was, so a failed run never leaves a partial output behind. SIGINT,
 * SIGTERM and SIGHUP (unless ignored) remove the temporary file while it
 * exists, then end the process as they would have.
 *
 * A file replaced keeps its permission bits (not set-user-ID, set-group-ID
 * or sticky) and, as far as the caller may give them, its owner and group; a
 * new file gets 0666 minus the umask, like a file made by fopen. A symbolic
 * link is kept and the file it leads to (through any chain of links)
 * replaced, or created when it does not exist. A directory, or a path ending
 * in '/', is refused (EISDIR). A path that exists and is neither a regular
 * file nor a directory (a device such as /dev/null, a FIFO) is written in
 * place instead; "-", /dev/stdout, /dev/stderr, /dev/fd/N and
 * /proc/self/fd/N write to that descriptor.
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

/* The same for a text in parts: the file holds parts[0], parts[1], ... in order. */
struct outfile_part {
    const char *data;
    size_t len;
};
int outfile_write_parts(struct diag *dg, const char *path, const struct outfile_part *parts,
                        size_t nparts);

/*
 * The same written as it is made: outfile_open() starts the output (NULL
 * after reporting DIAG_IO, as above), outfile_add() appends to it,
 * outfile_commit() puts it in place as outfile_write() does (0, or -1 after
 * reporting a write error, also one of an earlier outfile_add()), and
 * outfile_abort() drops it, leaving the file as it was. Either one frees
 * the handle. A regular file's text goes to its temporary file as it comes,
 * never held whole in memory; standard output, devices and FIFOs are
 * written at the commit. One output open at a time (the signal guard
 * above covers one temporary file).
 */
struct outfile;
struct outfile *outfile_open(struct diag *dg, const char *path);
void outfile_add(struct outfile *f, const char *data, size_t len);
int outfile_commit(struct diag *dg, struct outfile *f);
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
