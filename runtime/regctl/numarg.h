/* runtime/regctl/numarg.h - a number from the command line, with regctl's wording of a refusal. */
#ifndef REGCTL_NUMARG_H
#define REGCTL_NUMARG_H

#include <stdint.h>

#include "regc/num.h"

/*
 * 'text' as a number in [min, max] (regc/num.h, 'flags' REGC_NUM_DEC...)
 * into *out: 0, or 2 (a usage error) after "regctl: WHAT 'TEXT': REASON"
 * on stderr ("regctl: --cpu '4294967297': too large: at most 2147483647").
 */
int regctl_num(const char *what, const char *text, uint64_t min, uint64_t max, unsigned flags,
               uint64_t *out);

/* The same for a signed number. */
int regctl_num_signed(const char *what, const char *text, int64_t min, int64_t max, int64_t *out);

/*
 * A duration with its unit, Ns, Nms or Nus (N decimal), or 0, at most max_s
 * seconds, into *ns: 0, or 2 after "regctl: WHAT 'TEXT': REASON (want 1s,
 * 250ms, 0; at most MAX_Ss)". A number without its unit is refused, naming
 * both readings ("write 1000ms or 1000s"), then 'hint' when not NULL (the
 * option that takes a bare number); seconds and milliseconds are too easy
 * to confuse (perf's -I is milliseconds).
 */
int regctl_duration(const char *what, const char *text, uint64_t max_s, const char *hint,
                    long long *ns);

#endif
