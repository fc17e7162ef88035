/*
 * outfile - write an output file atomically.
 *
 * The data goes to FILE.tmp.XXXXXX in the same directory (mkstemp), which is
 * then renamed over FILE; on any error the temporary file is removed and FILE
 * is left as it was, so a failed run never leaves a partial output behind.
 * The new file gets mode 0666 minus the umask, like a file made by fopen.
 */
#ifndef REGC_OUTFILE_H
#define REGC_OUTFILE_H

#include "diag.h"

#include <stddef.h>

/*
 * Writes 'len' bytes of 'data' to 'path'; "-" means standard output.
 * Returns 0, or -1 after reporting DIAG_IO ("cannot write 'PATH': reason").
 */
int outfile_write(struct diag *dg, const char *path, const char *data, size_t len);

#endif
