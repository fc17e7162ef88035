/*
 * specpath - a spec named without a path: `regc xeon7500_mbox -o mbox.h`.
 *
 * An argument with a '/' in it, or ending in .xml or .svd, is a path and is
 * used as given. Any other is a bare NAME, looked up as NAME.xml in, in
 * order: each directory of $REGC_SPEC_PATH (colon-separated; ignored in a
 * set-user-ID run), the installed specs beside the running regc
 * (BINDIR/../share/regc/regspec, which `make install` fills), and a source
 * tree's regspec/ beside its build directory (build/../regspec). The first
 * that exists wins. A file called NAME in the current directory is never
 * taken for it silently: when the search finds NAME.xml, a note says which
 * was used ("write './NAME' for that one"); when it finds none, that is an
 * error (DIAG_IO) rather than the file here. When neither exists the name
 * is used as given, so the loader reports it as a file that cannot be read.
 */
#ifndef REGC_SPECPATH_H
#define REGC_SPECPATH_H

#include "diag.h"
#include "regc/suggest.h"

#include <stdbool.h>

/*
 * The path to load for spec argument 'arg': 'arg' itself, or a string the
 * caller releases with free(); NULL after reporting into 'dg'.
 */
char *specpath_find(struct diag *dg, const char *arg);

/*
 * For a NAME that specpath_find() found nowhere: offers 'sg' (set up here,
 * for 'arg', which must outlive it) the NAME of every NAME.xml in the same
 * directories. True when one is close enough to offer ("did you mean":
 * regc_suggest_best(), regc_suggest_text()); false for a path.
 */
bool specpath_suggest(const char *arg, struct regc_suggest *sg);

#endif
