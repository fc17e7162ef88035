/*
 * outfile - write an output file atomically.
 *
 * The data goes to FILE.tmp.XXXXXX in the same directory (mkstemp), which is
 * then renamed over FILE; on any error the temporary file is removed and FILE
 * is left as it was, so a failed run never leaves a partial output behind.
 * The new file gets mode 0666 minus the umask, like a file made by fopen.
 * A path that exists and is neither a regular file nor a directory (a device
 * such as /dev/null, a FIFO) is written in place instead; "-", /dev/stdout,
 * /dev/stderr, /dev/fd/N and /proc/self/fd/N write to that descriptor; a
 * symbolic link is kept and the file it points to replaced.
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

#endif
