/*
 * depfile - make dependency files (-MD, -MF, -MT), like gcc's -MD -MP.
 *
 *     mbox.h: regspec/xeon7500_mbox.xml templates/c.mustache
 *     regspec/xeon7500_mbox.xml:
 *     templates/c.mustache:
 *
 * The phony rules keep make working when an input is deleted. Paths are
 * printed as given (relative stays relative), escaped for make.
 */
#ifndef REGC_DEPFILE_H
#define REGC_DEPFILE_H

#include "buf.h"

#include <stddef.h>

/* Appends the rule "target: inputs... templates..." and a phony rule per prerequisite. */
void depfile_format(struct buf *out, const char *target, const char *const *inputs,
                    size_t ninputs, const char *const *templates, size_t ntemplates);

#endif
