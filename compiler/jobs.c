#include "jobs.h"

#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

unsigned jobs_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > REGC_MAX_JOBS ? REGC_MAX_JOBS : (unsigned)n;
}

struct job {
    jobs_fn *fn;
    void *arg;
    unsigned slot;
    pthread_t thread;
    bool started;
};

static void *job_main(void *p)
{
    struct job *j = p;
    j->fn(j->arg, j->slot);
    return NULL;
}

void jobs_run(unsigned n, jobs_fn *fn, void *arg)
{
    if (n > REGC_MAX_JOBS)
        n = REGC_MAX_JOBS;
    struct job jobs[REGC_MAX_JOBS];
    for (unsigned i = 1; i < n; i++) {
        jobs[i] = (struct job){.fn = fn, .arg = arg, .slot = i};
        jobs[i].started = pthread_create(&jobs[i].thread, NULL, job_main, &jobs[i]) == 0;
    }
    if (n > 0)
        fn(arg, 0);
    for (unsigned i = 1; i < n; i++) {
        if (jobs[i].started)
            pthread_join(jobs[i].thread, NULL);
        else
            fn(arg, i);
    }
}
