/*
 * The translation unit the compile matrix builds for each header: it only
 * includes it (HEADER is defined on the command line), so every macro and
 * static inline function is parsed under the configuration's warnings. With
 * PROBE_START it is a whole freestanding program (no libc, no crt0).
 */
#include HEADER

int regc_probe(void);
int regc_probe(void)
{
    return 0;
}

#ifdef PROBE_START
void _start(void);
void _start(void)
{
    for (;;) {
    }
}
#endif
