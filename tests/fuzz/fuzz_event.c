/*
 * libFuzzer target for regctl's event parser: regc_pmon_add() (runtime/pmon.c),
 * which takes every event regctl monitors, "BLOCK[INSTANCE]:EVENT[.SUB][,FIELD=VALUE...]".
 *
 * The input's first byte picks a spec of regspec/ (their descriptor tables),
 * the rest is split at newlines into event strings added to one session on
 * the simulator. Every refusal must say why (regc_pmon_error() not empty)
 * with a negative errno; when events were added, the whole flow runs
 * (start, a poll, a sample, release), and a failure there must say why too.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regc/pmon.h"
#include "regc/regc.h"
#include "regc_specs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void must_say_why(regc_pmon_session *p, int rc)
{
    if (rc > 0 || (rc < 0 && !regc_pmon_error(p)[0]))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t nspecs = 0;
    while (regc_specs[nspecs])
        nspecs++;
    if (size < 1 || size > 4096)
        return 0;
    const struct regc_spec *spec = regc_specs[data[0] % nspecs];
    regc_dev *d;
    struct regc_options opt = {.backend = "sim"};
    if (regc_open(&d, spec, &opt, NULL, 0) != 0)
        abort();
    regc_pmon_session *p;
    if (regc_pmon_new(&p, d) != 0)
        abort();
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        must_say_why(p, regc_pmon_add(p, line));
    }
    if (regc_pmon_count(p) > 0) {
        struct regc_pmon_opts po = {.sample = (data[0] & 0x80) ? 1000 : 0, .settle_ms = -1};
        int rc = regc_pmon_start(p, &po);
        must_say_why(p, rc);
        if (rc == 0) {
            unsigned count = regc_pmon_count(p), n;
            uint64_t *totals = calloc(count, sizeof(*totals));
            unsigned *which = calloc(count, sizeof(*which));
            if (!totals || !which)
                abort();
            must_say_why(p, regc_pmon_poll(p, totals));
            must_say_why(p, regc_pmon_sample(p, which, count, &n));
            free(totals);
            free(which);
            must_say_why(p, regc_pmon_release(p));
        }
    }
    regc_pmon_free(p);
    regc_close(d);
    free(text);
    return 0;
}
