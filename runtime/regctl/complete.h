/*
 * complete.h - `regctl __complete WORD...`: the candidates for the last
 * word, one per line, from the same tables as parsing and help (cmdline.h)
 * and the compiled-in specs, for tools/completion/regctl.bash. Candidates
 * end in '.', ':' or '=' where the word goes on (the script then adds no
 * space). A line "@dirs" asks the shell for directory names instead.
 */
#ifndef REGCTL_COMPLETE_H
#define REGCTL_COMPLETE_H

#include "cmdline.h"

/* words: what follows "regctl" on the line, the last one being completed (may be ""). 0. */
int regctl_complete(const struct cmdline *cl, int nwords, char **words);

#endif
