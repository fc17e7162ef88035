/*
 * check_collision - no two objects get the same generated C name (names.h):
 * one walk over names_foreach() with a map of the names seen.
 *
 * A threaded version (hashes without strings, sharded over -j jobs, 503
 * lines) saved less than the 5% the speed rule asks for on the full bench
 * spec, and no real spec comes near its threshold: docs/performance.md.
 */
#include "check_int.h"
#include "names.h"
#include "util.h"

struct collision_ctx {
    struct check_ctx *c;
    struct arena *a;     /* the names and their positions */
    struct regc_map seen; /* name -> its first struct srcpos */
    struct srcpos last_a, last_b; /* the last pair reported, so one pair is reported once */
};

static bool same_pos(struct srcpos a, struct srcpos b)
{
    return a.file == b.file && a.line == b.line && a.col == b.col;
}

static void collision_add(void *ctx, const char *ident, struct srcpos pos)
{
    struct collision_ctx *cc = ctx;
    bool found;
    struct regc_map_entry *e = xmap_put_str(&cc->seen, ident, &found);
    if (!found) {
        struct srcpos *first = arena_alloc(cc->a, sizeof(*first));
        *first = pos;
        e->val = first;
        return;
    }
    struct srcpos first = *(const struct srcpos *)e->val;
    if (same_pos(first, pos) || (same_pos(cc->last_a, first) && same_pos(cc->last_b, pos)))
        return;
    cc->last_a = first;
    cc->last_b = pos;
    diag_report(cc->c->dg, DIAG_NAME_COLLISION, pos,
                "generated C name '%s' is also generated for another object", ident);
    diag_note(cc->c->dg, first, "'%s' first generated here", ident);
}

/*
 * Duplicate names in one scope always collide too; those are reported once,
 * as duplicate-name, so this pass runs only when there were none.
 */
void check_name_collision(struct check_ctx *c)
{
    if (c->dg->count[DIAG_DUPLICATE_NAME] > 0 || !c->s->prefix)
        return;
    struct arena names = ARENA_INIT; /* freed when compared */
    struct collision_ctx cc = {.c = c, .a = &names, .seen = REGC_MAP_INIT};
    names_foreach(&names, c->s, c->s->prefix, collision_add, &cc);
    regc_map_release(&cc.seen);
    arena_release(&names);
}
