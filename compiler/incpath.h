/*
 * incpath - where an <include href> may lead.
 *
 * An include is looked for inside a root: first the including file's own
 * root, at HREF relative to the including file's folder; when it is not
 * there, in each -I directory in order, at HREF relative to that directory
 * (as a C compiler looks for #include "x.h"). The spec's folder is root 0,
 * the -I directories roots 1...; a file found in a root includes relative to
 * its folder within that root.
 *
 * A path never leaves its root: it is opened by the kernel beneath the
 * root's directory (openat2 RESOLVE_BENEATH), so neither '..' past the root
 * nor a symbolic link leading out of it (absolute, or climbing out) is
 * followed; a link that stays inside is. Where openat2 is missing, the path
 * is taken apart instead: '..' is resolved in the text, and any symbolic
 * link on the way is refused. Either way the check and the open are one
 * step: nothing renamed meanwhile can move the file opened out of its root.
 */
#ifndef REGC_INCPATH_H
#define REGC_INCPATH_H

#include "util.h"

#include <stddef.h>

struct incpath;

/* The roots for the spec at 'spec' and the -I directories 'dirs' (borrowed: must outlive it). */
struct incpath *incpath_new(const char *spec, const char *const *dirs, size_t ndirs);
void incpath_free(struct incpath *ip);

/* The spec's place: root 0, its name in its folder (borrowed from 'spec'). */
const char *incpath_spec_rel(const char *spec);

/* The directory of root 'root' as given ("." for a spec without a folder). */
const char *incpath_root_dir(const struct incpath *ip, int root);

/*
 * Opens 'href' included by the file at 'from_rel' in root 'from_root'.
 * Returns the descriptor (a regular file, checked as util_input_fd() does)
 * with the file's root in '*root', its name in that root in '*rel'
 * (xmalloc'd) and its size in '*size'; or -1 with 'in->err' and 'in->why'.
 * in->err is EXDEV when the path leads out of its root (in->why says how).
 */
int incpath_open(const struct incpath *ip, int from_root, const char *from_rel, const char *href,
                 int *root, char **rel, size_t *size, struct util_file *in);

/*
 * The way without openat2, used when the kernel lacks it (ENOSYS): opens
 * 'rel' beneath 'dirfd' read-only, '..' resolved in the text (past the
 * root: EXDEV), every component O_NOFOLLOW (a symbolic link: EXDEV). -1
 * with errno. Declared here so that the tests run it on any kernel.
 */
int incpath_open_by_parts(int dirfd, const char *rel);

#endif
