/*
 * share - sharing the uncore PMU with other users of the hardware (share.h;
 * DESIGN "Sharing the hardware"; docs/monitoring.md "Sharing the hardware").
 *
 * Locks: flock(2) on DIR/<target>-<box>.lock for every box, and on
 * DIR/<target>-global.lock, exclusive when the flow freezes through the
 * global control (that stops every box) and shared otherwise. <target> names
 * the hardware: msr-pkg<P> (the package of the msr device's CPU), else
 * <backend>-cpu<N>. Locks are taken in name order, so sessions that wait
 * never wait for each other in a circle. runtime/lock.c opens DIR and the
 * files so that no other user can turn them against the caller.
 *
 * In use: a box's control or one of its counter controls with an RW or RW-V
 * bit set (the box's freeze fields excepted: a session leaves them set), or one of
 * its counters changing between two reads 'settle' apart. The global control
 * is not evidence: every box shares it.
 *
 * Saved and restored: the registers the flow writes that hold state (RW or
 * RW-V bits): every counter control and counter of a box the flow resets,
 * else those of the counters it uses, the box control, the event filters,
 * and the global control when the flow uses it. Status registers are not:
 * software can clear their bits, not set them.
 */
#include "share.h"

#include "grow.h"
#include "internal.h"
#include "lock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SHARE_MAX_BOXES 64
#define SHARE_SETTLE_MS 10

/* Restore ranks, in order: nothing counts until the last (docs/monitoring.md). */
enum share_rank {
    RANK_FILTER,      /* boxes that freeze: event filters, */
    RANK_CONTROL,     /* counter controls, */
    RANK_COUNTER,     /* counters, */
    RANK_BOX,         /* box controls, left frozen */
    RANK_LATE_FILTER, /* boxes nothing freezes (E5-2600 U-Box): filters, controls, counters */
    RANK_LATE_CONTROL,
    RANK_LATE_COUNTER,
    RANK_GLOBAL, /* the global control, left frozen */
    RANK__COUNT
};

struct share_reg {
    struct regc_ref ref;
    regc_dev *d;
    enum share_rank rank;
    int box;                       /* index into boxes; -1: the global control */
    const struct regc_counters *c; /* counter control or counter: its group */
    bool is_ctl, is_ctr;           /* both: one register holds control and count (Xeon 7100) */
    bool written;                  /* the flow writes it: restored */
    bool have;                     /* 'saved' holds what was read */
    uint64_t first, saved;         /* first read; the value to restore (counters: second read) */
    uint64_t evidence;             /* bits that, set, say the box is in use */
    uint64_t force_mask, force;    /* restore: these bits take these values (left frozen) */
};

struct share_box {
    const struct regc_block *b;
    const struct regc_instance *inst;
    regc_dev *d;
    bool late;   /* nothing can freeze it */
    bool resets; /* the flow's box reset clears all its counters and controls */
    char name[96];
};

struct regc__share {
    struct share_box box[SHARE_MAX_BOXES];
    unsigned nbox;
    struct share_reg *reg;
    unsigned nreg;
    size_t cap;
    int lock_fd[SHARE_MAX_BOXES + 1];
    unsigned nlock;
    char warning[1024];
};

static regc_dev *dev_for(const struct regc__share_target *t, const struct regc_reg *r)
{
    return t->pci && r->space == REGC_SPACE_PCI ? t->pci : t->d;
}

/* Bits that hold state software wrote and can read back: RW and RW-V fields. */
static uint64_t state_mask(const struct regc_reg *r)
{
    uint64_t m = 0;
    for (const struct regc_field *f = r->fields; f && f->name; f++) {
        enum regc_sem s = regc_field_sem(f);
        if (s == REGC_SEM_RW || s == REGC_SEM_RWV)
            m |= regc_field_mask(f);
    }
    return m;
}

/* The count of a counter register: its count field, or its low 'width' bits. */
static uint64_t count_of(const struct share_reg *x, uint64_t v)
{
    const struct regc_field *f =
        x->c->count_field ? regc_reg_field(x->ref.reg, x->c->count_field) : NULL;
    if (f)
        return regc_field_get(f, v);
    return x->c->width >= 64 ? v : v & ~(UINT64_MAX << x->c->width);
}

static const char *name_of(const struct share_reg *x, char *buf, size_t len)
{
    return regc_ref_name(&x->ref, buf, len);
}

/* ---- what the flow will write */

static struct share_reg *find_reg(struct regc__share *sh, const struct regc_ref *r)
{
    for (unsigned i = 0; i < sh->nreg; i++) {
        const struct regc_ref *o = &sh->reg[i].ref;
        if (o->reg == r->reg && o->instance == r->instance && o->index == r->index)
            return &sh->reg[i];
    }
    return NULL;
}

/* The entry for r (new, or the one already listed). NULL: out of memory. */
static struct share_reg *add_reg(struct regc__share *sh, const struct regc__share_target *t,
                                 const struct regc_ref *r, enum share_rank rank, int box)
{
    struct share_reg *x = find_reg(sh, r);
    if (x)
        return x;
    struct share_reg *n = regc_grow(sh->reg, &sh->cap, (size_t)sh->nreg + 1, sizeof(*n));
    if (!n)
        return NULL;
    sh->reg = n;
    x = &sh->reg[sh->nreg++];
    bool late = box >= 0 && sh->box[box].late && rank <= RANK_COUNTER;
    *x = (struct share_reg){.ref = *r,
                            .d = dev_for(t, r->reg),
                            .rank = late ? rank + (RANK_LATE_FILTER - RANK_FILTER) : rank,
                            .box = box};
    return x;
}

static int ref_in(const struct regc_spec *s, const struct share_box *bx, const char *name,
                  struct regc_ref *out)
{
    const struct regc_reg *r = regc_block_reg(bx->b, name);
    if (!r)
        return -ENOENT;
    return regc_ref_make(out, s, bx->b, bx->inst, r, r->is_array ? (int)r->first : -1);
}

static int find_box(struct regc__share *sh, const struct regc__share_target *t,
                    const struct regc_pmon_info *in)
{
    for (unsigned k = 0; k < sh->nbox; k++)
        if (sh->box[k].b == in->block && sh->box[k].inst == in->instance)
            return (int)k;
    if (sh->nbox == SHARE_MAX_BOXES)
        return -1;
    const struct regc_spec *s = regc_dev_spec(t->d);
    const struct regc_global_control *gc = s->pmon_global ? s->pmon_global->control : NULL;
    const struct regc_box_control *bc = in->block->pmon->box_control;
    struct share_box *bx = &sh->box[sh->nbox];
    *bx = (struct share_box){.b = in->block,
                             .inst = in->instance,
                             .d = dev_for(t, in->ctl.reg),
                             .late = !(gc && (gc->freeze || gc->enable)) &&
                                     !(bc && (bc->freeze || bc->enable)),
                             .resets = bc && (bc->reset_counters || bc->reset_controls)};
    snprintf(bx->name, sizeof(bx->name), "%s%s%s", in->block->name, in->instance ? "." : "",
             in->instance ? in->instance->name : "");
    return (int)sh->nbox++;
}

/* Every counter of the box: controls and counters, in array order. */
static int add_counters(struct regc__share *sh, const struct regc__share_target *t, int k)
{
    const struct share_box *bx = &sh->box[k];
    const struct regc_spec *s = regc_dev_spec(t->d);
    for (const struct regc_counters *c = bx->b->pmon->counters; c->control; c++) {
        const struct regc_reg *r = regc_block_reg(bx->b, c->control);
        unsigned n = r && r->is_array ? r->count : 1;
        for (unsigned i = 0; r && i < n; i++) {
            struct regc_ref ctl, ctr;
            if (regc_counter_refs(s, bx->b, bx->inst, c, r->is_array ? r->first + i : 0, &ctl,
                                  &ctr))
                continue;
            struct share_reg *xc = add_reg(sh, t, &ctl, RANK_CONTROL, k);
            size_t ic = xc ? (size_t)(xc - sh->reg) : 0;
            struct share_reg *xr = xc ? add_reg(sh, t, &ctr, RANK_COUNTER, k) : NULL;
            if (!xr)
                return -ENOMEM;
            xc = &sh->reg[ic]; /* the second add may have moved the array */
            xc->c = xr->c = c;
            xc->is_ctl = xr->is_ctr = true;
            xc->written = xr->written = bx->resets;
        }
    }
    return 0;
}

static int add_box_control(struct regc__share *sh, const struct regc__share_target *t, int k)
{
    const struct share_box *bx = &sh->box[k];
    const struct regc_box_control *bc = bx->b->pmon->box_control;
    struct regc_ref r;
    if (!bc || ref_in(regc_dev_spec(t->d), bx, bc->reg, &r))
        return 0;
    struct share_reg *x = add_reg(sh, t, &r, RANK_BOX, k);
    if (!x)
        return -ENOMEM;
    uint64_t frz = regc__field_mask_named(r.reg, bc->freeze) |
                   regc__field_mask_named(r.reg, bc->freeze_enable);
    x->written = true;
    x->evidence = state_mask(r.reg) & ~frz;
    if (!t->global && !bx->late) { /* frozen per box: freeze and freeze-enable set, enable 0 */
        x->force_mask = frz | regc__field_mask_named(r.reg, bc->enable);
        x->force = frz;
    }
    return 0;
}

/* Event i's counter and control. */
static void add_event(struct regc__share *sh, const struct regc_pmon_info *in)
{
    struct share_reg *xc = find_reg(sh, &in->ctl), *xr = find_reg(sh, &in->ctr);
    if (xc)
        xc->written = true;
    if (xr)
        xr->written = true;
}

/* The instance a box's registers are reached in: a box of an event without one is the first. */
static const struct regc_instance *box_inst(const struct share_box *bx)
{
    if (!bx->inst && bx->b->instances && bx->b->instances->name)
        return bx->b->instances;
    return bx->inst;
}

/* The filter registers the events set, each in the box it belongs to. */
static int add_filters(struct regc__share *sh, const struct regc__share_target *t)
{
    for (unsigned i = 0; i < t->nfilters; i++) {
        const struct regc_ref *r = &t->filters[i];
        unsigned k = 0;
        while (k < sh->nbox && !(sh->box[k].b == r->block && box_inst(&sh->box[k]) == r->instance))
            k++;
        if (k == sh->nbox)
            return -ENOENT; /* the session gives only filters of its events' boxes */
        struct share_reg *x = add_reg(sh, t, r, RANK_FILTER, (int)k);
        if (!x)
            return -ENOMEM;
        x->written = true;
    }
    return 0;
}

static int add_global(struct regc__share *sh, const struct regc__share_target *t)
{
    const struct regc_spec *s = regc_dev_spec(t->d);
    const struct regc_global_control *gc = s->pmon_global ? s->pmon_global->control : NULL;
    const struct regc_block *b = gc ? regc_spec_block(s, gc->block) : NULL;
    const struct regc_reg *g = b ? regc_block_reg(b, gc->reg) : NULL;
    struct regc_ref r;
    if (!t->global || !g || regc_ref_make(&r, s, b, NULL, g, g->is_array ? (int)g->first : -1))
        return 0;
    struct share_reg *x = add_reg(sh, t, &r, RANK_GLOBAL, -1);
    if (!x)
        return -ENOMEM;
    x->written = true;
    x->force_mask = regc__field_mask_named(g, gc->freeze) |
                    regc__field_mask_named(g, gc->unfreeze) | regc__field_mask_named(g, gc->enable);
    x->force = regc__field_mask_named(g, gc->freeze);
    return 0;
}

static int collect(struct regc__share *sh, const struct regc__share_target *t)
{
    for (unsigned i = 0; i < t->nev; i++) {
        const struct regc_pmon_info *in = &t->ev[i];
        unsigned before = sh->nbox;
        int k = find_box(sh, t, in);
        if (k < 0)
            return -ENOSPC;
        bool added = sh->nbox > before;
        int rc = added ? add_box_control(sh, t, k) : 0;
        if (!rc && added)
            rc = add_counters(sh, t, k);
        if (rc)
            return rc;
        add_event(sh, in);
    }
    int frc = add_filters(sh, t);
    if (frc)
        return frc;
    for (unsigned i = 0; i < sh->nreg; i++) {
        struct share_reg *x = &sh->reg[i];
        const struct regc_field *cf =
            x->is_ctr && x->c->count_field ? regc_reg_field(x->ref.reg, x->c->count_field) : NULL;
        if (x->is_ctl)
            x->evidence = state_mask(x->ref.reg) & ~(cf ? regc_field_mask(cf) : 0);
    }
    return add_global(sh, t);
}

/* ---- locks */

/* The lock directory, or NULL: no locks (dry runs; the sim backend unless given one). */
static const char *lock_dir(const struct regc__share_target *t, const struct regc__where *w,
                            char *buf, size_t len)
{
    if (w->dry_run)
        return NULL;
    if (t->opt->lock_dir)
        return t->opt->lock_dir;
    if (strcmp(regc_dev_backend(t->d), "sim") == 0)
        return NULL;
    return regc__root(NULL, "REGC_LOCK_DIR", regc__lock_default_dir(buf, len));
}

/* "msr-pkg<P>" when d is the msr driver's device of a CPU whose package is known, else
 * "<backend>-cpu<N>". */
static void target_of(regc_dev *d, char *buf, size_t len)
{
    struct regc__where w;
    regc__dev_where(d, &w);
    const char *be = regc_dev_backend(d);
    snprintf(buf, len, "%s-cpu%d", be, w.cpu);
    if (strcmp(be, "msr") != 0)
        return;
    char path[PATH_MAX + 64], pkg[32];
    struct stat st;
    snprintf(path, sizeof(path), "%s/%d/msr", w.msr_root, w.cpu);
    if (stat(path, &st) != 0) {
        snprintf(path, sizeof(path), "%s/%d/msr_safe", w.msr_root, w.cpu);
        if (stat(path, &st) != 0)
            return;
    }
    snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/physical_package_id",
             w.sysfs_root, w.cpu);
    if (S_ISCHR(st.st_mode) && regc__read_text(path, pkg, sizeof(pkg)) == 0 && pkg[0] &&
        pkg[strspn(pkg, "0123456789")] == '\0') /* a number: part of a file name */
        snprintf(buf, len, "msr-pkg%s", pkg);
}

struct share_lockreq {
    char key[256], what[128];
    bool exclusive;
};

static int cmp_lockreq(const void *a, const void *b)
{
    return strcmp(((const struct share_lockreq *)a)->key, ((const struct share_lockreq *)b)->key);
}

static void unlock_all(struct regc__share *sh)
{
    while (sh->nlock)
        close(sh->lock_fd[--sh->nlock]); /* closing the last descriptor releases the flock */
}

static int lock_all(struct regc__share *sh, const struct regc__share_target *t, char *err,
                    size_t len)
{
    struct regc__where w;
    regc__dev_where(t->d, &w);
    char dflt[PATH_MAX];
    const char *dir = lock_dir(t, &w, dflt, sizeof(dflt));
    if (!dir)
        return 0;
    struct share_lockreq q[SHARE_MAX_BOXES + 1];
    unsigned n = 0;
    char tg[96];
    for (unsigned k = 0; k < sh->nbox; k++, n++) {
        target_of(sh->box[k].d, tg, sizeof(tg));
        snprintf(q[n].key, sizeof(q[n].key), "%s-%s", tg, sh->box[k].name);
        snprintf(q[n].what, sizeof(q[n].what), "box '%s'", sh->box[k].name);
        q[n].exclusive = true;
    }
    const struct regc_spec *s = regc_dev_spec(t->d);
    const struct regc_global_control *gc = s->pmon_global ? s->pmon_global->control : NULL;
    const struct regc_block *gb = gc ? regc_spec_block(s, gc->block) : NULL;
    const struct regc_reg *gr = gb ? regc_block_reg(gb, gc->reg) : NULL;
    if (gr) { /* every box answers to it: exclusive when this flow freezes through it */
        target_of(dev_for(t, gr), tg, sizeof(tg));
        snprintf(q[n].key, sizeof(q[n].key), "%s-global", tg);
        snprintf(q[n].what, sizeof(q[n].what), "the global control");
        q[n++].exclusive = t->global;
    }
    qsort(q, n, sizeof(q[0]), cmp_lockreq);
    struct regc__lockdir ld;
    int rc = regc__lockdir_open(&ld, dir, err, len);
    for (unsigned i = 0; !rc && i < n; i++) {
        char name[sizeof(q[i].key) + 8];
        snprintf(name, sizeof(name), "%.*s.lock", (int)sizeof(q[i].key) - 1, q[i].key);
        int fd = regc__lock_take(&ld, name, q[i].what, q[i].exclusive, t->opt->lock_wait, err, len);
        if (fd < 0)
            rc = fd;
        else
            sh->lock_fd[sh->nlock++] = fd;
    }
    regc__lockdir_close(&ld);
    if (rc)
        unlock_all(sh);
    return rc;
}

/* ---- in use? */

static bool on_hardware(const struct regc__share_target *t)
{
    struct regc__where w;
    regc__dev_where(t->d, &w);
    return !w.dry_run && strcmp(regc_dev_backend(t->d), "sim") != 0;
}

static int read_reg(struct share_reg *x, uint64_t *v, char *err, size_t len)
{
    int rc = regc_read(x->d, &x->ref, v);
    if (rc) {
        char nm[160];
        return regc__err(err, len, rc, "read %s: %s", name_of(x, nm, sizeof(nm)),
                         regc_last_error(x->d));
    }
    return 0;
}

/* Two reads of every counter, 'settle' apart (not on the simulator: nothing advances there). */
static int read_all(struct regc__share *sh, const struct regc__share_target *t, char *err,
                    size_t len)
{
    for (unsigned i = 0; i < sh->nreg; i++) {
        struct share_reg *x = &sh->reg[i];
        if (!state_mask(x->ref.reg))
            continue; /* nothing to read back (all WO): nothing to restore either */
        int rc = read_reg(x, &x->first, err, len);
        if (rc)
            return rc;
        x->saved = x->first;
        x->have = true;
    }
    int ms = t->opt->settle_ms ? t->opt->settle_ms : SHARE_SETTLE_MS;
    if (ms > 0 && on_hardware(t)) {
        struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
        nanosleep(&ts, NULL); /* a signal cuts it short: the reads still compare */
    }
    for (unsigned i = 0; i < sh->nreg; i++) {
        struct share_reg *x = &sh->reg[i];
        int rc = x->is_ctr && x->have ? read_reg(x, &x->saved, err, len) : 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* Appends the evidence of box k ("REG = 0xV", "REG advanced from 0xA to 0xB"); how many. */
static unsigned evidence(const struct regc__share *sh, unsigned k, char *buf, size_t len)
{
    unsigned n = 0;
    for (unsigned i = 0; i < sh->nreg; i++) {
        const struct share_reg *x = &sh->reg[i];
        if (x->box != (int)k || !x->have)
            continue;
        char nm[160], one[256] = "";
        if (x->first & x->evidence)
            snprintf(one, sizeof(one), "%s = 0x%llx", name_of(x, nm, sizeof(nm)),
                     (unsigned long long)x->first);
        else if (x->is_ctr && count_of(x, x->first) != count_of(x, x->saved))
            snprintf(one, sizeof(one), "%s advanced from 0x%llx to 0x%llx",
                     name_of(x, nm, sizeof(nm)), (unsigned long long)count_of(x, x->first),
                     (unsigned long long)count_of(x, x->saved));
        if (!one[0])
            continue;
        size_t at = strlen(buf);
        if (n < 3)
            snprintf(buf + at, len - at, "%s%s", n ? ", " : "", one);
        else if (n == 3)
            snprintf(buf + at, len - at, ", ...");
        n++;
    }
    return n;
}

static void warn(struct regc__share *sh, const char *line)
{
    size_t at = strlen(sh->warning);
    snprintf(sh->warning + at, sizeof(sh->warning) - at, "%s%s", at ? "\n" : "", line);
}

/* -EBUSY naming the first box in use, unless forced (then a warning per box). */
static int check_in_use(struct regc__share *sh, const struct regc__share_target *t, char *err,
                        size_t len)
{
    int first = -1;
    unsigned more = 0;
    char ev[400] = "", line[600];
    for (unsigned k = 0; k < sh->nbox; k++) {
        char e[400] = "";
        if (!evidence(sh, k, e, sizeof(e)))
            continue;
        if (t->opt->force) {
            snprintf(line, sizeof(line), "box '%s' is in use (%s): programming it as forced",
                     sh->box[k].name, e);
            warn(sh, line);
        } else if (first < 0) {
            first = (int)k;
            snprintf(ev, sizeof(ev), "%s", e);
        } else {
            more++;
        }
    }
    if (first < 0)
        return 0;
    if (!more)
        return regc__err(err, len, -EBUSY,
                         "box '%s' is in use (%s); refusing to program it unless forced",
                         sh->box[first].name, ev);
    return regc__err(err, len, -EBUSY,
                     "box '%s' is in use (%s), and %u more box%s; refusing to program them unless "
                     "forced",
                     sh->box[first].name, ev, more, more > 1 ? "es" : "");
}

/*
 * The kernel offers no way to see the events open on a PMU (no sysfs count,
 * nothing in /proc/PID/fdinfo for perf files), so its uncore PMUs are only
 * named: the events it has programmed show as controls in use.
 */
static void check_kernel(struct regc__share *sh, const struct regc__share_target *t)
{
    char names[512] = "";
    unsigned n = 0;
    for (unsigned k = 0; k < sh->nbox && on_hardware(t); k++) {
        struct regc__where w;
        regc__dev_where(sh->box[k].d, &w);
        struct regc_ref r = {.block = sh->box[k].b, .instance = sh->box[k].inst};
        char pmu[96], path[PATH_MAX + 128];
        regc__perf_pmu_name(&r, pmu, sizeof(pmu));
        snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", w.sysfs_root, pmu);
        if (access(path, F_OK) != 0)
            continue;
        size_t at = strlen(names);
        snprintf(names + at, sizeof(names) - at, "%s%s", n++ ? ", " : "", pmu);
    }
    if (!n)
        return;
    char line[700];
    snprintf(line, sizeof(line),
             "the kernel's uncore PMU%s %s can program %s too; perf events opened on %s would "
             "conflict (the kernel does not tell whether any are open)",
             n > 1 ? "s" : "", names, n > 1 ? "these boxes" : "this box", n > 1 ? "them" : "it");
    warn(sh, line);
}

/*
 * The locks could not be taken (rc, with its message in err). When the device itself refuses
 * the caller (no permission, no driver), that is the problem to name, not the lock directory
 * (a user other than root often has neither): a read of the first register tells, and its
 * error replaces the lock's. Only on this failure path: a run that locks reads nothing more.
 */
static int device_first(struct regc__share *sh, int rc, char *err, size_t len)
{
    uint64_t v;
    char derr[REGC_ERRLEN];
    for (unsigned i = 0; i < sh->nreg; i++) {
        if (!state_mask(sh->reg[i].ref.reg))
            continue;
        int drc = read_reg(&sh->reg[i], &v, derr, sizeof(derr));
        if (drc == -EACCES || drc == -EPERM || drc == -ENOENT || drc == -ENXIO || drc == -ENODEV)
            return regc__err(err, len, drc, "%s", derr);
        break;
    }
    return rc;
}

int regc__share_claim(struct regc__share **out, const struct regc__share_target *t, char *err,
                      size_t errlen)
{
    *out = NULL;
    if (strcmp(regc_dev_backend(t->d), "perf") == 0)
        return 0; /* the kernel arbitrates perf events */
    struct regc__share *sh = calloc(1, sizeof(*sh));
    if (!sh)
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    int rc = collect(sh, t);
    if (rc)
        regc__err(err, errlen, rc, rc == -ENOMEM ? "out of memory" : "too many boxes");
    if (!rc && (rc = lock_all(sh, t, err, errlen)) != 0)
        rc = device_first(sh, rc, err, errlen);
    if (!rc)
        rc = read_all(sh, t, err, errlen);
    if (!rc)
        rc = check_in_use(sh, t, err, errlen);
    if (rc) {
        unlock_all(sh);
        free(sh->reg);
        free(sh);
        return rc;
    }
    check_kernel(sh, t);
    *out = sh;
    return 0;
}

/* ---- restore */

static int restore_one(const struct share_reg *x, char *err, size_t len, int rc)
{
    uint64_t v = regc_rmw_value(x->ref.reg, x->saved, 0, 0); /* W1C, WO, reserved: 0 */
    v = (v & ~x->force_mask) | x->force;
    int wrc = regc_write_unchecked(x->d, &x->ref, v); /* values the hardware held: no rules */
    if (wrc && !rc) {
        char nm[160];
        return regc__err(err, len, wrc, "restoring %s: %s", name_of(x, nm, sizeof(nm)),
                         regc_last_error(x->d));
    }
    return rc;
}

int regc__share_restore(struct regc__share *sh, char *err, size_t errlen)
{
    if (!sh)
        return 0;
    int rc = 0;
    for (int rank = 0; rank < RANK__COUNT; rank++)
        for (unsigned i = 0; i < sh->nreg; i++) {
            const struct share_reg *x = &sh->reg[i];
            if ((int)x->rank == rank && x->written && x->have)
                rc = restore_one(x, err, errlen, rc);
        }
    unlock_all(sh);
    free(sh->reg);
    free(sh);
    return rc;
}

const char *regc__share_warning(const struct regc__share *sh)
{
    return sh ? sh->warning : "";
}
