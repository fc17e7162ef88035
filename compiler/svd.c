/*
 * svd - the SVD reader's driver: read the file, parse, derive, build.
 */
#include "svd.h"
#include "svd_int.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Files larger than this are refused (the largest public SVD is under 30 MiB). */
#define SVD_MAX_BYTES ((size_t)256 << 20)

bool svd_file_is_svd(const char *path)
{
    struct util_file f;
    size_t size;
    int fd = util_open_input(path, &f, &size);
    if (fd < 0)
        return false;
    char head[4096];
    ssize_t n = read(fd, head, sizeof(head));
    close(fd);
    return n > 0 && svd_is_device(head, (size_t)n);
}

struct model_spec *svd_load(struct arena *a, struct diag *dg, const char *path)
{
    struct util_file f;
    if (util_read_input(path, SVD_MAX_BYTES, &f) < 0) {
        uint32_t file = diag_add_file(dg, path);
        diag_report(dg, DIAG_IO, (struct srcpos){file, 0, 0}, "cannot read file: %s", f.why);
        return NULL;
    }
    uint32_t file = diag_add_source(dg, path, f.text, f.len);
    struct svd_reader rd = {a, dg, file, NULL, 0, 0, NULL};
    struct model_spec *s = NULL;
    if (svd_parse(&rd, f.text, f.len) == 0) {
        svd_derive(&rd);
        s = svd_build(&rd, path);
    }
    diag_drop_source(dg, file, false);
    free(f.text);
    return s;
}

void svd_strict(struct diag *dg)
{
    static const enum diag_code warnings[] = {
        DIAG_SVD_UNKNOWN,        DIAG_SVD_DUPLICATE,      DIAG_SVD_FIELD_OUTSIDE, DIAG_SVD_OVERLAP,
        DIAG_SVD_VALUE_TOO_WIDE, DIAG_SVD_RESET_TOO_WIDE, DIAG_SVD_INTERRUPT,     DIAG_SVD_ACCESS,
        DIAG_SVD_NAME,           DIAG_SVD_ADDRESS_UNIT,
        DIAG_SVD_OUTSIDE_BLOCK,  DIAG_SVD_CLUSTER_STRIDE, DIAG_SVD_WRITE_CONSTRAINT,
        DIAG_SVD_OUT_DROPPED,    DIAG_REGSPEC_OUT_DROPPED, DIAG_SVD_ARRAY_INDEX};
    for (size_t i = 0; i < ARRAY_SIZE(warnings); i++)
        if (dg->sev[warnings[i]] != SEV_IGNORE)
            dg->sev[warnings[i]] = SEV_ERROR;
}
