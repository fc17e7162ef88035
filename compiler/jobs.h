/*
 * jobs - the compiler's threads: run one function on N threads and wait.
 *
 * Parts of a run that split by block (loading a large spec) hand their
 * pieces to jobs_run(). Each thread gets its own slot
 * number, so callers keep per-thread state in an array instead of sharing
 * it; the slot-0 call runs on the calling thread. Nothing here decides what
 * is split: the caller does, and falls back to one thread when it must.
 */
#ifndef REGC_JOBS_H
#define REGC_JOBS_H

/* The most threads -j accepts and jobs_default() returns. */
#define REGC_MAX_JOBS 16

/* Online CPUs, from 1 to REGC_MAX_JOBS: the default of -j. */
unsigned jobs_default(void);

typedef void jobs_fn(void *arg, unsigned slot);

/*
 * Calls fn(arg, slot) for every slot in [0, n) at once, slot 0 on the
 * calling thread, and returns when all have returned. Where a thread cannot
 * be started, its slot runs on the calling thread after the others
 * (so every slot runs exactly once; the work is the same, only slower).
 */
void jobs_run(unsigned n, jobs_fn *fn, void *arg);

#endif
