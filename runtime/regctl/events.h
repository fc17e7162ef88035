/* events.h - `regctl events`: find an event (events.c). */
#ifndef REGCTL_EVENTS_H
#define REGCTL_EVENTS_H

#include <stdbool.h>

/* regctl events [SPEC[.BLOCK]] [PATTERN]; argv after the command. Exit status: 0, 1 (no match), 2. */
int regctl_events(bool json, int argc, char **argv);

#endif
