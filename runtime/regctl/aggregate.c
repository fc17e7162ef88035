/*
 * aggregate - --per-box for `regctl monitor` (aggregate.h). Without it the session sums an
 * event's boxes itself (regc_pmon_every_box); with it each box is an event of its own, so every
 * output form (text, --socket, --csv, --json) shows it as a column without knowing of boxes.
 */
#include "aggregate.h"
#include "fail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regc/pmon.h"

int regctl_agg_per_box(const struct regc_spec *s, const char *const *events, unsigned n,
                       char ***out, unsigned *n_out)
{
    char **all = NULL;
    size_t count = 0;
    for (unsigned i = 0; i < n; i++) {
        char **boxes;
        unsigned k;
        char **grown = NULL;
        if (regc_pmon_boxes(s, events[i], &boxes, &k) == 0) {
            grown = realloc(all, (count + k) * sizeof(*all));
            if (!grown)
                regc_pmon_boxes_free(boxes, k);
        }
        if (!grown) {
            regc_pmon_boxes_free(all, (unsigned)count);
            return regctl_fail(1, "monitor: out of memory");
        }
        all = grown;
        memcpy(all + count, boxes, k * sizeof(*boxes));
        free(boxes); /* the strings now belong to 'all' */
        count += k;
    }
    *out = all;
    *n_out = (unsigned)count;
    return 0;
}
