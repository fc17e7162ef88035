/*
 * check - the driver of the checker: runs the passes in order, nothing else.
 * Model in, diagnostics out; no I/O, no libxml2. The rules themselves live
 * in check_names.c, check_refs.c, check_reg.c, check_addr.c, check_events.c,
 * check_rules.c, check_pmon.c, check_cpu.c, check_metrics.c and check_collision.c, one static
 * function per diagnostic; what they share is declared in check_int.h.
 */
#include "check.h"
#include "check_int.h"

int check_spec(struct arena *a, struct diag *dg, struct model_spec *s)
{
    return check_spec_with(a, dg, s, &(struct check_options){0});
}

int check_spec_with(struct arena *a, struct diag *dg, struct model_spec *s, struct check_options *o)
{
    struct check_ctx c = {
        .a = a,
        .dg = dg,
        .s = s,
        .collision_budget = o->collision_budget ? o->collision_budget : CHECK_COLLISION_BUDGET,
    };
    unsigned errors = dg->nerrors;
    check_names(&c);
    check_refs(&c);
    check_registers(&c);
    check_addresses(&c);
    check_events(&c);
    check_rules(&c);
    check_pmon(&c);
    check_cpus(&c);
    check_metrics(&c);
    check_name_collision(&c);
    o->collision_parts = c.collision_parts;
    return dg->nerrors > errors ? -1 : 0;
}
