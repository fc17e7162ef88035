/* Unit tests for compiler/check*.c: small models built in C, exact messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "arena.h"
#include "buf.h"
#include "check.h"
#include "check_int.h"
#include "diag.h"
#include "model.h"
#include "model_builders.h"
#include "names.h"
#include "xmlload.h"

static struct arena A;
static struct diag dg;

/* A 32-bit register fully covered by 'en' [0] and 'rsv' [31:1]. */
static struct model_reg *mk_simple(struct model_block *b, const char *name, uint64_t addr,
                                   unsigned line)
{
    struct model_reg *r = mk_reg(b, name, 32, addr, line);
    mk_field(r, "en", 0, 0, "RW", line + 1);
    mk_field(r, "rsv", 31, 1, "RV", line + 2);
    return r;
}

static int setup(void **state)
{
    arena_init(&A);
    diag_init(&dg, NULL);
    mk_begin(&A, diag_add_file(&dg, "t.xml"));
    return 0;
}

static int teardown(void **state)
{
    diag_release(&dg);
    arena_release(&A);
    return 0;
}

/* Runs the checker and compares everything it printed. */
static int run(struct model_spec *s, const char *expected)
{
    int rc = check_spec(&A, &dg, s);
    assert_string_equal(dg.text.s, expected);
    return rc;
}

/* ------------------------------------------------------------------ tests */

static void test_clean_spec_passes_and_fills_reset(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_reg *r = mk_reg(mk_block(s, "ubox", 3), "CTL", 32, 0xC10, 4);
    mk_field(r, "rsv", 31, 8, "RV", 5);
    mk_field(r, "ev_sel", 7, 4, "RW", 6)->reset = 0x5;
    mk_field(r, "en", 3, 0, "RW", 7)->reset = 0x1;
    assert_int_equal(run(s, ""), 0);
    assert_int_equal(r->reset, 0x51);
    assert_int_equal(dg.nerrors + dg.nwarnings, 0);
}

static void test_bad_identifier_and_keyword(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "1box", 3);
    struct model_reg *r = mk_reg(b, "CTL", 32, 0, 4);
    mk_field(r, "int", 0, 0, "RW", 5);
    mk_field(r, "a-b", 31, 1, "RW", 6);
    assert_int_equal(run(s, "t.xml:3: error: block name '1box' is not a C identifier\n"
                            "t.xml:5: error: field name 'int' is a C or C++ keyword\n"
                            "t.xml:6: error: field name 'a-b' is not a C identifier\n"),
                     -1);
}

static void test_keywords_of_cxx_and_c23(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_reg *r = mk_reg(mk_block(s, "b", 3), "class", 32, 0, 4);
    mk_field(r, "nullptr", 0, 0, "RW", 5);
    mk_field(r, "Int", 31, 1, "RW", 6);
    run(s, "t.xml:4: error: register name 'class' is a C or C++ keyword\n"
           "t.xml:5: error: field name 'nullptr' is a C or C++ keyword\n");
}

/* Every end of the (sorted) keyword table is found. */
static void test_keyword_table_lookup(void **state)
{
    static const char *const names[] = {"_Alignas", "_Bool", "_Thread_local", "alignas",
                                        "auto",     "int",   "typeof_unqual", "xor_eq",
                                        "wchar_t",  "while"};
    struct model_spec *s = mk_spec();
    struct model_reg *r = mk_reg(mk_block(s, "b", 3), "CTL", 64, 0, 4);
    for (unsigned i = 0; i < 10; i++)
        mk_field(r, names[i], i, i, "RW", 10 + i);
    mk_field(r, "rest", 63, 10, "RW", 20);
    check_spec(&A, &dg, s);
    assert_int_equal(dg.count[DIAG_C_KEYWORD], 10);
}

static void test_duplicate_field_but_reserved_may_repeat(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_reg *r = mk_reg(mk_block(s, "b", 3), "CTL", 32, 0, 4);
    MK_FIELDS(r, 5, {"en", 0, 0, "RW"}, {"rsv", 3, 1, "RV"}, {"rsv", 7, 4, "rsv"},
              {"ig", 15, 8, "ig"}, {"ig", 23, 16, "ig"}, {"en", 31, 24, "RW"});
    run(s, "t.xml:10: error: duplicate field 'en' in register 'CTL'\n"
           "t.xml:5: note: 'en' first defined here\n");
}

static void test_duplicates_in_every_scope(void **state)
{
    struct model_spec *s = mk_spec();
    mk_source(s, "doc", NULL, 3);
    struct model_block *b = mk_block(s, "b", 4);
    mk_inst(b, "i0", 0x100, 5);
    mk_inst(b, "i0", 0x200, 6);
    struct model_reg *r = mk_simple(b, "CTL", 0, 7);
    mk_simple(b, "CTL", 1, 10);
    struct model_field *f = r->fields[0];
    mk_value(f, "ON", 1, 13);
    mk_value(f, "ON", 0, 14);
    mk_rule(r, "r1", "en", 15, 0);
    mk_rule(r, "r1", "en", 16, 0);
    mk_block(s, "b", 17);
    struct model_events *t1 = mk_table(b, "CTL", "en", NULL, 18);
    struct model_events *t2 = mk_table(b, "CTL", "en", NULL, 19);
    struct model_event *e = mk_event(t1, NULL, "EV", 0, 20);
    mk_event(t1, e, "S", 0, 21);
    mk_event(t1, e, "S", 0, 22);
    mk_event(t2, NULL, "EV", 1, 23);
    run(s, "t.xml:3: error: duplicate source 'doc'\n"
           "t.xml:2: note: 'doc' first defined here\n"
           "t.xml:6: error: duplicate instance 'i0' in block 'b'\n"
           "t.xml:5: note: 'i0' first defined here\n"
           "t.xml:14: error: duplicate value 'ON' in field 'en'\n"
           "t.xml:13: note: 'ON' first defined here\n"
           "t.xml:16: error: duplicate rule 'r1' in register 'CTL'\n"
           "t.xml:15: note: 'r1' first defined here\n"
           "t.xml:10: error: duplicate register 'CTL' in block 'b'\n"
           "t.xml:7: note: 'CTL' first defined here\n"
           "t.xml:22: error: duplicate sub-event 'S' in event 'EV'\n"
           "t.xml:21: note: 'S' first defined here\n"
           "t.xml:23: error: duplicate event 'EV' in block 'b'\n"
           "t.xml:20: note: 'EV' first defined here\n"
           "t.xml:17: error: duplicate block 'b'\n"
           "t.xml:4: note: 'b' first defined here\n");
}

/*
 * One duplicate alone in its scope: check_names() skips the maps of the
 * scopes whose names make C names when the collision check's hashed walk
 * found every C name made once, so each such duplicate must make a C name
 * twice; the values of a reserved field make none and are still compared.
 */
static void test_duplicate_alone_in_each_scope(void **state)
{
    (void)state;
    for (int kind = 0; kind < 7; kind++) {
        struct diag d;
        diag_init(&d, NULL);
        mk_begin(&A, diag_add_file(&d, "t.xml"));
        struct model_spec *s = mk_spec();
        struct model_block *b = mk_block(s, "b", 4);
        mk_inst(b, "i0", 0x100, 5);
        if (kind == 0)
            mk_inst(b, "i0", 0x200, 6);
        struct model_reg *r = mk_reg(b, "CTL", 32, 0, 7);
        struct model_field *en = mk_field(r, "en", 0, 0, "RW", 8);
        struct model_field *rsv = mk_field(r, "rsv", 7, 1, "rsv", 9);
        mk_field(r, kind == 1 ? "en" : "hi", 31, 8, "RW", 10);
        mk_value(en, "ON", 1, 11);
        mk_value(en, kind == 2 ? "ON" : "OFF", 0, 12);
        mk_rule(r, "r1", "en", 13, 0);
        if (kind == 3)
            mk_rule(r, "r1", "en", 14, 0);
        mk_simple(b, kind == 4 ? "CTL" : "CTL2", 4, 15);
        if (kind == 5) {
            mk_value(rsv, "X", 1, 16);
            mk_value(rsv, "X", 2, 17);
        }
        struct model_events *t = mk_table(b, "CTL", "en", NULL, 18);
        mk_event(t, NULL, "EV", 0, 19);
        mk_event(t, NULL, kind == 6 ? "EV" : "EW", 1, 20);
        check_spec(&A, &d, s);
        assert_int_equal(d.count[DIAG_DUPLICATE_NAME], 1);
        diag_release(&d);
    }
}

static void test_name_collision(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *r1 = mk_reg(b, "A_B", 32, 0, 4);
    mk_field(r1, "C", 31, 0, "RW", 5);
    struct model_reg *r2 = mk_reg(b, "A", 32, 1, 6);
    mk_field(r2, "B_C", 31, 0, "RW", 7);
    run(s, "t.xml:7: error: generated C name 'T_A_B_C_SHIFT' is also generated for another "
           "object\n"
           "t.xml:5: note: 'T_A_B_C_SHIFT' first generated here\n");
}

/*
 * Collisions come in the order names_foreach() makes the names, the first
 * name of each colliding object named in the note: across blocks, a name
 * made three times, a value colliding with its own field (the same object:
 * not reported) or at a line of its own (reported), and one pair of objects
 * reported again when another pair came between its names.
 */
static void test_name_collisions_in_order(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b1 = mk_block(s, "b1", 3);
    mk_field(mk_reg(b1, "P_Q", 32, 0, 4), "R", 31, 0, "RW", 5);
    struct model_reg *m = mk_reg(b1, "M", 32, 1, 6);
    struct model_field *f = mk_field(m, "F", 15, 0, "RW", 7);
    mk_value(f, "SIZE", 1, 8);
    struct model_field *g = mk_field(m, "G", 31, 16, "RW", 9);
    mk_value(g, "SHIFT", 1, 9);
    mk_value(g, "MASK", 2, 10);
    mk_field(mk_reg(b1, "S_T", 32, 2, 11), "U", 31, 0, "RW", 12);
    struct model_block *b2 = mk_block(s, "b2", 13);
    mk_field(mk_reg(b2, "P", 32, 3, 14), "Q_R", 31, 0, "RW", 15);
    mk_field(mk_reg(b2, "M_F", 32, 4, 16), "x", 31, 0, "RW", 17);
    mk_field(mk_reg(b2, "S", 32, 5, 18), "T_U", 31, 0, "RW", 19);
    mk_field(mk_reg(b2, "S_T_U", 32, 6, 20), "y", 31, 0, "RW", 21);
    run(s, "t.xml:10: error: generated C name 'T_M_G_MASK' is also generated for another object\n"
           "t.xml:9: note: 'T_M_G_MASK' first generated here\n"
           "t.xml:15: error: generated C name 'T_P_Q_R_SHIFT' is also generated for another "
           "object\n"
           "t.xml:5: note: 'T_P_Q_R_SHIFT' first generated here\n"
           "t.xml:16: error: generated C name 'T_M_F_WIDTH' is also generated for another object\n"
           "t.xml:7: note: 'T_M_F_WIDTH' first generated here\n"
           "t.xml:16: error: generated C name 'T_M_F_SIZE' is also generated for another object\n"
           "t.xml:8: note: 'T_M_F_SIZE' first generated here\n"
           "t.xml:16: error: generated C name 'T_M_F_RESET' is also generated for another object\n"
           "t.xml:7: note: 'T_M_F_RESET' first generated here\n"
           "t.xml:19: error: generated C name 'T_S_T_U_SHIFT' is also generated for another "
           "object\n"
           "t.xml:12: note: 'T_S_T_U_SHIFT' first generated here\n"
           "t.xml:20: error: generated C name 'T_S_T_U_WIDTH' is also generated for another "
           "object\n"
           "t.xml:12: note: 'T_S_T_U_WIDTH' first generated here\n");
}

static void test_unknown_refs(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    mk_inst(b, "i0", 0x100, 4);
    struct model_reg *r = mk_simple(b, "CTL", 0, 5);
    r->cite.src = "nodoc";
    mk_at(r, "i9", 0x500, 8);
    struct model_events *t = mk_table(b, "NOPE", "ev", NULL, 9);
    struct model_events *t2 = mk_table(b, "CTL", "ev", "en", 10);
    struct model_event *e = mk_event(t2, NULL, "EV", 0, 11);
    mk_set(e, "OTHER", "x", 1, 12);
    mk_set(e, NULL, "y", 1, 13);
    (void)t;
    run(s, "t.xml:5: error: unknown source 'nodoc'; did you mean 'doc'?\n"
           "t.xml:8: error: unknown instance 'i9' in block 'b'\n"
           "t.xml:9: error: unknown register 'NOPE' in block 'b'\n"
           "t.xml:10: error: unknown field 'ev' in register 'CTL'; did you mean 'en'?\n"
           "t.xml:5: note: register 'CTL' defined here\n"
           "t.xml:12: error: unknown register 'OTHER' in block 'b'\n"
           "t.xml:13: error: unknown field 'y' in register 'CTL'\n"
           "t.xml:5: note: register 'CTL' defined here\n");
    assert_ptr_equal(t2->reg, r);
    assert_ptr_equal(t2->umask_field, r->fields[0]);
    assert_null(t2->code_field);
}

static void test_at_for_every_instance_or_none(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    struct model_instance *i0 = mk_inst(b, "i0", 0x100, 4);
    mk_inst(b, "i1", 0x200, 5);
    mk_inst(b, "i2", 0x300, 6);
    struct model_reg *r = mk_simple(b, "CTL", 0, 7);
    mk_at(r, "i0", 0x1000, 10);
    run(s, "t.xml:7: error: register 'CTL' has no <at> for instance 'i1' (give one for every "
           "instance or none)\n"
           "t.xml:7: error: register 'CTL' has no <at> for instance 'i2' (give one for every "
           "instance or none)\n");
    assert_ptr_equal(r->ats[0]->instance, i0);
}

static void test_instance_without_locator(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    mk_inst(b, "i0", 0x100, 4)->has_base = false;
    struct model_reg *p = mk_simple(b, "PCTL", 0x40, 5);
    p->space = SPACE_PCI;
    p->size = 32;
    mk_simple(b, "MCTL", 0x10, 8);
    mk_simple(b, "MCTL2", 0x11, 11);
    run(s, "t.xml:4: error: instance 'i0' gives no PCI locator (vendor, device), "
           "which pci register 'PCTL' needs\n"
           "t.xml:4: error: instance 'i0' gives no base, which msr register 'MCTL' needs\n");
}

static void test_bad_width_and_size(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *r1 = mk_reg(b, "R1", 40, 0, 4);
    r1->gaps = "RV";
    struct model_reg *r2 = mk_reg(b, "R2", 32, 1, 5);
    r2->size = 16;
    r2->gaps = "RV";
    struct model_reg *r3 = mk_reg(b, "R3", 64, 2, 6);
    r3->size = 32;
    r3->gaps = "RV";
    run(s, "t.xml:4: error: register 'R1' has width 40; allowed widths are 8, 16, 32, 44, 48 and "
           "64\n"
           "t.xml:5: error: register 'R2' has access size 16; allowed sizes are 32 and 64\n"
           "t.xml:6: error: register 'R3' is 64 bits wide but accessed in 32 bits\n");
    assert_int_equal(r1->nfields, 1);
    assert_string_equal(r1->fields[0]->name, "rsv");
    assert_int_equal(r1->fields[0]->access, REGC_ACCESS_RV);
    assert_int_equal(r1->fields[0]->msb, 39);
}

static void test_citations_resolved_everywhere(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *r = mk_simple(b, "CTL", 0, 4);
    r->fields[0]->cite = &(struct model_cite){.src = "perfmon", .pos = r->fields[0]->pos};
    struct model_events *t = mk_table(b, "CTL", "en", NULL, 7);
    struct model_event *e = mk_event(t, NULL, "EV", 1, 8);
    struct model_event *sub = mk_event(t, e, "S", 0, 9);
    sub->cite.src = "kernel";
    sub->cite.pos = sub->pos;
    run(s, "t.xml:5: error: unknown source 'perfmon'\n"
           "t.xml:9: error: unknown source 'kernel'\n");
    assert_ptr_equal(r->cite.source, s->sources[0]);
    assert_ptr_equal(t->cite.source, s->sources[0]);
    assert_null(sub->cite.source);
}

static void test_field_outside_and_overlap(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_reg *r = mk_reg(mk_block(s, "b", 3), "CTL", 32, 0, 4);
    MK_FIELDS(r, 5, {"rsv", 31, 14, "RV"}, {"rsv", 13, 8, "RV"}, {"inc_sel", 13, 9, "RW"},
              {"lo", 7, 0, "RW"}, {"hi", 40, 33, "RW"});
    run(s, "t.xml:9: error: field 'hi' [40:33] lies outside register 'CTL' (width 32)\n"
           "t.xml:7: error: field 'inc_sel' [13:9] overlaps field 'rsv' [13:8]\n"
           "t.xml:6: note: field 'rsv' defined here\n");
}

static void test_unknown_access(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_reg *r = mk_reg(mk_block(s, "b", 3), "CTL", 32, 0, 4);
    mk_field(r, "en", 31, 0, "RW-S", 5);
    run(s, "t.xml:5: error: field 'en' has unknown access 'RW-S'; accepted: RW, RO, RO-V, WO, "
           "RW-V, RWS, RW1C, RW1S, RV, rsv, RV1, ig, gap, RW0C, RW0S, RW1T, RW0T, RWAC, RWAS, "
           "RWO, WOO\n");
}

static void test_resets(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *r = mk_reg(b, "CTL", 32, 0, 4);
    mk_field(r, "mode", 1, 0, "RW", 5)->reset = 4;
    mk_field(r, "rsv", 31, 2, "RV", 6)->reset = 1;
    struct model_reg *r2 = mk_simple(b, "R2", 1, 7);
    r2->has_reset = true;
    r2->reset = UINT64_C(0x100000000);
    struct model_reg *r3 = mk_simple(b, "R3", 2, 10);
    r3->has_reset = true;
    r3->reset = 0x10;
    r3->fields[0]->reset = 1;
    struct model_reg *r4 = mk_simple(b, "R4", 3, 13);
    r4->has_reset = true;
    r4->reset = 1;
    r4->fields[0]->reset = 1;
    struct model_reg *r5 = mk_simple(b, "R5", 4, 16); /* no mismatch on top of the field's error */
    r5->has_reset = true;
    r5->reset = 1;
    r5->fields[0]->reset = 2;
    run(s, "t.xml:5: error: reset 0x4 of field 'mode' does not fit its 2 bits\n"
           "t.xml:6: error: reserved field 'rsv' [31:2] has non-zero reset 0x1\n"
           "t.xml:7: error: reset 0x100000000 of register 'R2' does not fit its width of 32 "
           "bits\n"
           "t.xml:10: error: register 'R3' has reset 0x10 but its fields' resets make 0x1\n"
           "t.xml:17: error: reset 0x2 of field 'en' does not fit its 1 bits\n");
}

static void test_bits_uncovered(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *r = mk_reg(b, "X", 32, 0, 4);
    mk_field(r, "a", 28, 17, "RW", 5);
    mk_field(r, "b", 15, 0, "RW", 6);
    struct model_reg *r2 = mk_reg(b, "Y", 8, 1, 7);
    mk_field(r2, "a", 7, 1, "RW", 8);
    struct model_reg *r3 = mk_reg(b, "Z", 16, 2, 9);
    run(s, "t.xml:4: error: bits 31:29, 16 of register 'X' are covered by no field\n"
           "t.xml:7: error: bit 0 of register 'Y' is covered by no field\n"
           "t.xml:9: error: bits 15:0 of register 'Z' are covered by no field\n");
    assert_int_equal(r3->nfields, 0);
}

/*
 * gaps="gap" and access "gap" (docs/regspec.md, "gap"): bits not known to be 0, so a gap may
 * have reset bits (the register's, for a filled gap) where a reserved range may not.
 */
static void test_gap_class_keeps_reset(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *r = mk_reg(b, "X", 32, 0, 4);
    r->gaps = "gap";
    r->has_reset = true;
    r->reset = 0x80000101;
    mk_field(r, "en", 0, 0, "RW", 5)->reset = 1;
    mk_field(r, "hi", 31, 24, "gap", 6)->reset = 0x80;
    assert_int_equal(run(s, ""), 0);
    assert_int_equal(r->nfields, 3);
    const struct model_field *f = model_find_field(r, "gap");
    assert_non_null(f);
    assert_true(f->implicit);
    assert_int_equal(f->access, REGC_ACCESS_GAP);
    assert_int_equal(f->lsb, 1);
    assert_int_equal(f->msb, 23);
    assert_int_equal(f->reset, 0x80); /* bit 8 of 0x80000101, right-aligned at bit 1 */
    struct model_masks m = model_reg_masks(r);
    assert_int_equal(m.preserve, 0xfffffffe);
    assert_int_equal(m.mbz & 0xffffffff, 0); /* (bits 63:32: the access size above the width) */
    assert_int_equal(m.keep & 0xfffffffe, 0xfffffffe);
}

static void test_gaps_fill_implicit_fields(void **state)
{
    struct model_spec *s = mk_spec();
    s->gaps = "ig";
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *r = mk_reg(b, "X", 32, 0, 4);
    r->gaps = "ig";
    mk_field(r, "a", 28, 17, "RW", 5);
    mk_field(r, "b", 15, 0, "RW", 6)->reset = 3;
    /* written high bits first, so the gaps go where they are in that order */
    struct model_reg *up = mk_reg(b, "Y", 32, 8, 7);
    up->gaps = "RV";
    mk_field(up, "lo", 3, 0, "RW", 8);
    mk_field(up, "mid", 15, 8, "RW", 9);
    assert_int_equal(run(s, ""), 0);
    assert_int_equal(r->nfields, 4);
    const struct model_field *f = r->fields[2];
    assert_true(f->implicit);
    assert_string_equal(f->name, "ig");
    assert_int_equal(f->access, REGC_ACCESS_IG);
    assert_int_equal(f->lsb, 16);
    assert_int_equal(f->msb, 16);
    assert_ptr_equal(f->reg, r);
    assert_int_equal(f->pos.line, 4);
    assert_true(r->fields[0]->implicit);
    assert_int_equal(r->fields[0]->lsb, 29);
    assert_int_equal(r->fields[0]->msb, 31);
    assert_string_equal(r->fields[1]->name, "a");
    assert_string_equal(r->fields[3]->name, "b");
    assert_int_equal(r->reset, 3);
    /* written low bits first: the gaps 7:4 and 31:16 follow that order */
    assert_int_equal(up->nfields, 4);
    const unsigned lsb[] = {0, 4, 8, 16}, msb[] = {3, 7, 15, 31};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(up->fields[i]->lsb, lsb[i]);
        assert_int_equal(up->fields[i]->msb, msb[i]);
        assert_int_equal(up->fields[i]->implicit, i == 1 || i == 3);
    }
}

static void test_bad_gaps_value(void **state)
{
    struct model_spec *s = mk_spec();
    s->gaps = "RW";
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *r = mk_reg(b, "X", 32, 0, 4);
    r->gaps = "RW";
    mk_field(r, "a", 15, 0, "RW", 5);
    struct model_reg *r2 = mk_reg(b, "Y", 32, 1, 6);
    r2->gaps = "RO";
    mk_field(r2, "a", 15, 0, "RW", 7);
    run(s, "t.xml:1: error: gaps value 'RW' of the spec is not RV, rsv, ig or gap\n"
           "t.xml:6: error: gaps value 'RO' of register 'Y' is not RV, rsv, ig or gap\n");
    assert_int_equal(r->nfields, 1);
}

static void test_value_too_wide(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_reg *r = mk_reg(mk_block(s, "b", 3), "CTL", 32, 0, 4);
    struct model_field *f = mk_field(r, "mode", 1, 0, "RW", 5);
    mk_value(f, "UP", 3, 6);
    mk_value(f, "BIG", 4, 7);
    mk_field(r, "rsv", 31, 2, "RV", 8);
    run(s, "t.xml:7: error: value 'BIG' (0x4) of field 'mode' does not fit its 2 bits\n");
}

static void test_event_values_too_wide(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *r = mk_reg(b, "CTL", 32, 0, 4);
    MK_FIELDS(r, 5, {"rsv", 31, 21, "RV"}, {"thresh", 20, 16, "RW"}, {"umask", 15, 8, "RW"},
              {"ev_sel", 7, 0, "RW"});
    struct model_reg *f = mk_reg(b, "FILTER", 32, 1, 9);
    mk_field(f, "tid", 31, 0, "RW", 10);
    struct model_events *t = mk_table(b, "CTL", "ev_sel", "umask", 11);
    struct model_event *e = mk_event(t, NULL, "BIG", 0x100, 12);
    struct model_event *sub = mk_event(t, e, "S", 0, 13);
    sub->has_umask = true;
    sub->umask = 0x1FF;
    mk_set(e, NULL, "thresh", 32, 14);
    mk_set(e, NULL, "thresh", 31, 15);
    mk_set(sub, "FILTER", "tid", UINT64_C(0x100000000), 16);
    run(s, "t.xml:12: error: code 0x100 of event 'BIG' does not fit field 'ev_sel' (8 bits)\n"
           "t.xml:14: error: value 0x20 for field 'thresh' of event 'BIG' does not fit its 5 "
           "bits\n"
           "t.xml:13: error: umask 0x1FF of event 'BIG.S' does not fit field 'umask' (8 bits)\n"
           "t.xml:16: error: value 0x100000000 for field 'tid' of event 'BIG.S' does not fit its "
           "32 bits\n");
    assert_ptr_equal(sub->sets[0]->reg, f);
    assert_ptr_equal(sub->sets[0]->field, f->fields[0]);
}

static void test_umask_without_umask_field(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    mk_simple(b, "CTL", 0, 4);
    struct model_events *t = mk_table(b, "CTL", "en", NULL, 7);
    struct model_event *e = mk_event(t, NULL, "EV", 1, 8);
    e->has_umask = true;
    e->umask = 0x8;
    run(s, "t.xml:8: error: umask 0x8 of event 'EV' has no field: its table gives no "
           "umask-field\n");
}

static void test_duplicate_at(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    mk_inst(b, "i0", 0x100, 4);
    struct model_reg *r = mk_simple(b, "CTL", 0, 5);
    mk_at(r, "i0", 0x1000, 8);
    mk_at(r, "i0", 0x2000, 9);
    run(s, "t.xml:9: error: duplicate <at> for instance 'i0' in register 'CTL'\n"
           "t.xml:8: note: 'i0' first defined here\n");
}

static void test_event_counter(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *r = mk_simple(b, "CTL", 0, 4);
    mk_array(r, 4, 1);
    struct model_reg *one = mk_simple(b, "ONE", 0x10, 7);
    struct model_events *t = mk_table(b, "CTL", "en", NULL, 10);
    struct model_event *ok = mk_event(t, NULL, "OK", 0, 11);
    ok->has_counters = true;
    ok->counter_mask = 0xF;
    struct model_event *bad = mk_event(t, NULL, "BAD", 0, 12);
    bad->has_counters = true;
    bad->counter_mask = 0x30;
    struct model_event *sub = mk_event(t, bad, "INHERITS", 0, 15);
    sub->has_counters = true;
    sub->counter_mask = bad->counter_mask;
    struct model_event *own = mk_event(t, bad, "OWN", 0, 16);
    own->has_counters = true;
    own->counter_mask = 0x100;
    struct model_events *t1 = mk_table(b, "ONE", "en", NULL, 13);
    struct model_event *e1 = mk_event(t1, NULL, "E1", 0, 14);
    e1->has_counters = true;
    e1->counter_mask = 0x2;
    (void)one;
    run(s, "t.xml:12: error: event 'BAD' names counter 4, but register 'CTL' has counters 0-3\n"
           "t.xml:16: error: event 'BAD.OWN' names counter 8, but register 'CTL' has counters "
           "0-3\n"
           "t.xml:14: error: event 'E1' names counter 1, but register 'ONE' has only counter "
           "0\n");
}

static void test_missing_source_is_a_warning(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    b->cite.src = "doc"; /* does not count for its registers */
    struct model_reg *r = mk_simple(b, "CTL", 0, 4);
    r->cite.src = NULL;
    mk_table(b, "CTL", "en", NULL, 7)->cite.src = NULL;
    assert_int_equal(run(s, "t.xml:4: warning: register 'CTL' cites no source "
                            "[-Wmissing-source]\n"
                            "t.xml:7: warning: event table of register 'CTL' cites no source "
                            "[-Wmissing-source]\n"),
                     0);
    assert_int_equal(dg.nwarnings, 2);
}

static void test_address_collision(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    mk_inst(b, "i0", 0x100, 4);
    mk_inst(b, "i1", 0x110, 5);
    struct model_reg *a = mk_simple(b, "A", 0, 6);
    mk_array(a, 4, 1);
    mk_simple(b, "B", 0x12, 9);
    struct model_block *g = mk_block(s, "g", 12);
    mk_simple(g, "C", 0x113, 13);
    run(s, "t.xml:9: error: register 'B' (instance 'i0') has the same msr address 0x112 as "
           "register 'A' (element 2, instance 'i1')\n"
           "t.xml:6: note: register 'A' defined here\n"
           "t.xml:13: error: register 'C' has the same msr address 0x113 as register 'A' "
           "(element 3, instance 'i1')\n"
           "t.xml:6: note: register 'A' defined here\n");
}

static struct model_reg *pci_reg(struct model_block *b, const char *name, uint64_t off,
                                 unsigned line)
{
    struct model_reg *r = mk_simple(b, name, off, line);
    r->space = SPACE_PCI;
    r->size = 32;
    return r;
}

static void test_pci_collides_only_under_one_locator(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    pci_inst(mk_inst(b, "q0", 0, 4), 8, 2);
    pci_inst(mk_inst(b, "q1", 0, 5), 9, 2);
    pci_reg(b, "A", 0xD8, 6);
    struct model_block *c = mk_block(s, "c", 9);
    pci_inst(mk_inst(c, "x0", 0, 10), 9, 2);
    pci_reg(c, "B", 0xD8, 11);
    struct model_reg *m = mk_simple(c, "M", 0xD8, 14); /* msr: another space */
    mk_inst(c, "x1", 0x1000, 17);
    (void)m;
    run(s, "t.xml:10: error: instance 'x0' gives no base, which msr register 'M' needs\n"
           "t.xml:17: error: instance 'x1' gives no PCI locator (vendor, device), "
           "which pci register 'B' needs\n"
           "t.xml:11: error: register 'B' (instance 'x0') has the same pci address 0xD8 as "
           "register 'A' (instance 'q1')\n"
           "t.xml:6: note: register 'A' defined here\n");
}

/*
 * The order of the reports and who is named: per block, its PCI
 * ambiguities, then its registers' first collisions in the order the
 * registers come; an address made three times names its first register each
 * time; a register colliding twice is reported once (T: with R's element 0,
 * not again with its element 2); an instance found ambiguous (p1, n1) is
 * left out of the address comparison.
 */
static void test_address_collisions_in_order(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *p = mk_block(s, "p", 3);
    pci_inst(mk_inst(p, "p0", 0, 4), 8, 2);
    pci_inst(mk_inst(p, "p1", 0, 5), 8, 2);
    p->instances[0]->has_dev = p->instances[1]->has_dev = false;
    pci_reg(p, "X", 0x10, 6);
    struct model_block *m = mk_block(s, "m", 20);
    mk_array(mk_simple(m, "R", 0x200, 21), 3, 1);
    mk_simple(m, "S", 0x201, 24);
    mk_array(mk_simple(m, "T", 0x200, 27), 2, 2);
    mk_simple(m, "U", 0x201, 30);
    struct model_block *n = mk_block(s, "n", 40);
    pci_inst(mk_inst(n, "n0", 0, 41), 8, 2);
    pci_inst(mk_inst(n, "n1", 0, 42), 8, 2);
    n->instances[0]->has_dev = n->instances[1]->has_dev = false;
    pci_reg(n, "Y", 0x10, 43);
    run(s, "t.xml:5: error: instances 'p0' and 'p1' of block 'p' may be one PCI device "
           "(8086:3c46; a dev= or func= left out matches any slot): give each a dev= and func= "
           "that tell them apart\n"
           "t.xml:4: note: instance 'p0' defined here\n"
           "t.xml:24: error: register 'S' has the same msr address 0x201 as register 'R' "
           "(element 1)\n"
           "t.xml:21: note: register 'R' defined here\n"
           "t.xml:27: error: register 'T' (element 0) has the same msr address 0x200 as register "
           "'R' (element 0)\n"
           "t.xml:21: note: register 'R' defined here\n"
           "t.xml:30: error: register 'U' has the same msr address 0x201 as register 'R' "
           "(element 1)\n"
           "t.xml:21: note: register 'R' defined here\n"
           "t.xml:42: error: instances 'n0' and 'n1' of block 'n' may be one PCI device "
           "(8086:3c46; a dev= or func= left out matches any slot): give each a dev= and func= "
           "that tell them apart\n"
           "t.xml:41: note: instance 'n0' defined here\n"
           "t.xml:43: error: register 'Y' (instance 'n0') has the same pci address 0x10 as "
           "register 'X' (instance 'p0')\n"
           "t.xml:6: note: register 'X' defined here\n");
}

static void test_address_overflow(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "b", 3);
    struct model_reg *a = mk_simple(b, "A", 0xFFFFFFFE, 4);
    mk_array(a, 4, 1);
    struct model_reg *p = pci_reg(b, "P", 0xFFC, 7);
    p->size = 64;
    pci_reg(b, "P2", 0xFFC, 10)->address = 0xFF8;
    struct model_reg *m = mk_simple(b, "M", UINT64_MAX - 1, 13);
    m->space = SPACE_MMIO;
    m->size = 32;
    struct model_block *c = mk_block(s, "c", 16);
    mk_inst(c, "i0", 0, 17);
    mk_inst(c, "i1", 0xFFFFFFFF, 18);
    mk_simple(c, "X", 1, 19);
    run(s, "t.xml:4: error: register 'A' does not fit the 32-bit msr address space (it ends at "
           "0x100000002)\n"
           "t.xml:7: error: register 'P' does not fit the 4096-byte pci configuration space (it "
           "ends at 0x1004)\n"
           "t.xml:13: error: register 'M' does not fit the 64-bit mmio address space (its "
           "address overflows 64 bits)\n"
           "t.xml:19: error: register 'X' of instance 'i1' does not fit the 32-bit msr address "
           "space (it ends at 0x100000001)\n");
}

static void test_rules(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_reg *r = mk_reg(mk_block(s, "b", 3), "CTL", 32, 0, 4);
    MK_FIELDS(r, 5, {"rsv", 31, 29, "RV"}, {"thresh", 28, 24, "RW"}, {"count_mode", 23, 22, "RW"},
              {"invert", 21, 0, "RW"});
    mk_rule(r, "ok", "invert -> thresh != 0 && count_mode <= 3 && 31 >= thresh", 9, 0);
    mk_rule(r, "unknown", "invert -> tresh != 0", 10, 20);
    mk_rule(r, "reserved", "!rsv", 11, 0);
    mk_rule(r, "mode", "count_mode == 4 || (thresh > 31)", 12, 10);
    mk_rule(r, "mirror", "0x20 <= thresh || 31 < thresh || 0b11 == count_mode", 13, 0);
    mk_rule(r, "escaped", "invert && 1 < 2 && tresh", 14, 10); /* &amp;&amp; and &lt; in XML */
    mk_rule(r, "paren", "!((thresh) >= 0x20)", 15, 0);
    mk_rule(r, "broken", "thresh ==", 16, 0)->expr = NULL; /* rule-syntax, from the loader */
    run(s, "t.xml:10:30: error: rule 'unknown' names 'tresh', which is not a field of register "
           "'CTL'; did you mean 'thresh'?\n"
           "t.xml:11: error: rule 'reserved' names reserved field 'rsv' of register 'CTL'\n"
           "t.xml:12:10: error: rule 'mode' compares field 'count_mode' (2 bits, at most 0x3) "
           "with 4, which it cannot hold\n"
           "t.xml:12:30: error: rule 'mode' compares field 'thresh' (5 bits, at most 0x1F) with "
           "31, which it cannot hold\n"
           "t.xml:13: error: rule 'mirror' compares field 'thresh' (5 bits, at most 0x1F) with "
           "0x20, which it cannot hold\n"
           "t.xml:13: error: rule 'mirror' compares field 'thresh' (5 bits, at most 0x1F) with "
           "31, which it cannot hold\n"
           "t.xml:14:48: error: rule 'escaped' names 'tresh', which is not a field of register "
           "'CTL'; did you mean 'thresh'?\n"
           "t.xml:15: error: rule 'paren' compares field 'thresh' (5 bits, at most 0x1F) with "
           "0x20, which it cannot hold\n");
}

/* A block with CTL{3-0} (en [0], thresh [5:1], rsv [31:6]) and CTR{3-0} (count [43:0]). */
static struct model_block *pmon_block(struct model_spec *s, const char *name, unsigned line)
{
    struct model_block *b = mk_block(s, name, line);
    struct model_reg *ctl = mk_reg(b, "CTL", 32, 0x10, line + 1);
    MK_FIELDS(ctl, line + 2, {"en", 0, 0, "RW"}, {"thresh", 5, 1, "RW"}, {"rsv", 31, 6, "RV"});
    mk_array(ctl, 4, 1);
    struct model_reg *ctr = mk_reg(b, "CTR", 48, 0x20, line + 5);
    MK_FIELDS(ctr, line + 6, {"count", 43, 0, "RW-V"}, {"rsv", 47, 44, "RV"});
    mk_array(ctr, 4, 1);
    return b;
}

static void test_pmon_counters(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = pmon_block(s, "b", 3);
    struct model_counters *ok = mk_counters(b, "CTL", "CTR", 44, 20);
    ok->count_field.name = "count";
    ok->enable.name = "en";
    struct model_counters *k = mk_counters(b, "CTL", "CTR", 48, 21);
    k->count_field.name = "count";
    k->enable.name = "thresh";
    k->reset.name = "rsv";
    k->pmi.name = "nope";
    mk_counters(b, "CTL", "CTR", 64, 22);
    struct model_reg *one = mk_simple(b, "ONE", 0x30, 23);
    (void)one;
    mk_counters(b, "ONE", "CTR", 32, 26);
    mk_counters(b, "CTL", "MISSING", 32, 27);
    mk_counters(b, "CTL", NULL, 32, 28);
    run(s, "t.xml:21: error: unknown field 'nope' in register 'CTL'\n"
           "t.xml:4: note: register 'CTL' defined here\n"
           "t.xml:21: error: counter width 48 is wider than field 'count' of register 'CTR' (44 "
           "bits)\n"
           "t.xml:21: error: enable field 'thresh' has 5 bits; it must have 1\n"
           "t.xml:21: error: reset role names reserved field 'rsv'\n"
           "t.xml:22: error: counter width 64 is wider than register 'CTR' (48 bits)\n"
           "t.xml:26: error: control 'ONE' has 1 elements but counter 'CTR' has 4\n"
           "t.xml:27: error: unknown register 'MISSING' in block 'b'\n"
           "t.xml:28: error: control 'CTL' has no counter\n");
    assert_ptr_equal(ok->enable.field, b->regs[0]->fields[0]);
    assert_ptr_equal(ok->count_field.field, b->regs[1]->fields[0]);
    assert_ptr_equal(ok->control, b->regs[0]);
}

static void test_pmon_box_control_and_status(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = pmon_block(s, "b", 3);
    mk_counters(b, "CTL", "CTR", 44, 20);
    struct model_reg *box = mk_reg(b, "BOX", 32, 0x40, 21);
    MK_FIELDS(box, 22, {"frz", 0, 0, "RW"}, {"rst", 2, 1, "WO"}, {"en4", 7, 4, "RW"},
              {"en3", 10, 8, "RW"}, {"ov", 13, 11, "RW1C"}, {"rsv", 31, 14, "RV"},
              {"rsv", 3, 3, "RV"});
    struct model_box_control *bc = arena_zalloc(&A, sizeof(*bc));
    bc->reg_name = "BOX";
    bc->freeze.name = "frz";
    bc->reset_counters.name = "rst";
    bc->enable.name = "en3";
    bc->pos = at_line(29);
    b->pmon->box_control = bc;
    struct model_box_status *bs = arena_zalloc(&A, sizeof(*bs));
    bs->reg_name = "BOX";
    bs->overflow.name = "ov";
    bs->pos = at_line(30);
    b->pmon->box_status = bs;
    run(s, "t.xml:29: error: reset-counters field 'rst' has 2 bits; it must have 1\n"
           "t.xml:29: error: enable field 'en3' has 3 bits; it must have 1 or one per counter "
           "(4)\n"
           "t.xml:30: error: overflow field 'ov' has 3 bits, fewer than the block's 4 counters\n");
    assert_ptr_equal(bc->reg, box);
}

static void test_pmon_global(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *u = mk_block(s, "ubox", 3);
    struct model_reg *gctl = mk_reg(u, "GCTL", 32, 0x100, 4);
    MK_FIELDS(gctl, 5, {"frz_all", 0, 0, "WO"}, {"unfrz", 2, 1, "WO"}, {"rsv", 31, 3, "RV"});
    struct model_reg *gst = mk_reg(u, "GSTATUS", 32, 0x101, 8);
    MK_FIELDS(gst, 9, {"ov_c", 7, 0, "RW1C"}, {"ov_u", 8, 8, "RW1C"}, {"ov_m", 10, 9, "RW1C"},
              {"rsv", 31, 11, "RV"});
    struct model_block *cb = mk_block(s, "cbox", 13);
    for (unsigned i = 0; i < 8; i++)
        mk_inst(cb, arena_printf(&A, "c%u", i), 0x200 + 0x10 * i, 14 + i);
    struct model_block *mb = mk_block(s, "mbox", 22);
    mk_inst(mb, "m0", 0x400, 23);
    mk_inst(mb, "m1", 0x500, 24);
    mk_inst(mb, "m2", 0x600, 25);
    s->pmon_global = arena_zalloc(&A, sizeof(*s->pmon_global));
    struct model_global_control *gc = arena_zalloc(&A, sizeof(*gc));
    gc->block_name = "ubox";
    gc->reg_name = "GCTL";
    gc->freeze.name = "frz_all";
    gc->unfreeze.name = "unfrz";
    gc->pos = at_line(26);
    s->pmon_global->control = gc;
    struct model_global_status *gs = arena_zalloc(&A, sizeof(*gs));
    gs->block_name = "ubox";
    gs->reg_name = "GSTATUS";
    gs->clear = CLEAR_REGISTER;
    gs->clear_reg_name = "GCTL";
    gs->clear_field.name = "frz_all";
    gs->pos = at_line(27);
    s->pmon_global->status = gs;
    const char *boxes[][3] = {{"cbox", "ov_c", NULL},
                              {"ubox", "ov_u", NULL},
                              {"mbox", "ov_m", NULL},
                              {"mbox", "ov_m", "m7"},
                              {"qbox", "ov_q", NULL}};
    for (unsigned i = 0; i < 5; i++) {
        struct model_box_overflow *bo = MK_ADD(gs->boxes, gs->nboxes);
        bo->block_name = boxes[i][0];
        bo->field_name = boxes[i][1];
        bo->instance_name = boxes[i][2];
        bo->pos = at_line(28 + i);
    }
    run(s, "t.xml:26: error: unfreeze field 'unfrz' has 2 bits; it must have 1\n"
           "t.xml:30: error: box-overflow field 'ov_m' has 2 bits; it must have 1 or one per "
           "instance of block 'mbox' (3)\n"
           "t.xml:31: error: unknown instance 'm7' in block 'mbox'\n"
           /* cbox, ubox and mbox (ov_c, ov_u, ov_m) are one edit away each: a tie, no suggestion */
           "t.xml:32: error: unknown block 'qbox'\n"
           "t.xml:32: error: unknown field 'ov_q' in register 'GSTATUS'\n"
           "t.xml:8: note: register 'GSTATUS' defined here\n");
    assert_ptr_equal(gs->boxes[0]->block, cb);
    assert_ptr_equal(gs->boxes[0]->field, gst->fields[0]);
    assert_ptr_equal(gc->reg, gctl);
    assert_ptr_equal(gs->clear_reg, gctl);
    assert_ptr_equal(gs->clear_field.field, gctl->fields[0]);
}

/*
 * 2048 registers x 16 instances check clean. That the address and name checks
 * stay linear is judged by a count, not a time: tests/perf/run-perf.sh, the
 * instructions of `regc --check` from 256 to 1,024 registers of 16 instances.
 */
static void test_large_spec_is_fast(void **state)
{
    struct model_spec *s = mk_spec();
    struct model_block *b = mk_block(s, "big", 3);
    for (unsigned i = 0; i < 16; i++)
        mk_inst(b, arena_printf(&A, "i%u", i), 0x10000 * i, 4);
    for (unsigned i = 0; i < 2048; i++)
        mk_simple(b, arena_printf(&A, "R%u", i), i, 10 + 3 * i);
    assert_int_equal(run(s, ""), 0);
}

/*
 * 16 blocks of 16 registers of 8 fields, with generated names colliding
 * inside each block, across blocks, and between a field's value and a register.
 */
static struct model_spec *mk_colliding_spec(void)
{
    struct model_spec *s = mk_spec();
    for (unsigned b = 0; b < 16; b++) {
        struct model_block *blk = mk_block(s, arena_printf(&A, "blk%u", b), 1000 * b + 3);
        unsigned line = 1000 * b + 10;
        for (unsigned r = 0; r < 16; r++, line += 10) {
            struct model_reg *reg =
                mk_reg(blk, arena_printf(&A, "B%u_R%u", b, r), 32, 100 * b + r, line);
            for (unsigned k = 0; k < 8; k++)
                mk_field(reg, arena_printf(&A, "f%u", k), 4 * k + 3, 4 * k, "RW", line + 1 + k);
        }
        mk_field(mk_reg(blk, arena_printf(&A, "C%u_X", b), 32, 100 * b + 20, line), "Y", 31, 0,
                 "RW", line + 1);
        mk_field(mk_reg(blk, arena_printf(&A, "C%u", b), 32, 100 * b + 21, line + 2), "X_Y", 31, 0,
                 "RW", line + 3);
        struct model_field *f =
            mk_field(mk_reg(blk, arena_printf(&A, "D%u", b), 32, 100 * b + 22, line + 4), "E", 31,
                     0, "RW", line + 5);
        mk_value(f, "WIDTH", 0, line + 6);
        mk_field(mk_reg(blk, arena_printf(&A, "D%u_E", (b + 5) % 16), 32, 100 * b + 23, line + 7),
                 "z", 31, 0, "RW", line + 8);
    }
    return s;
}

/*
 * Two different names whose 64-bit hashes (check_collision.c: names.h's
 * names_hash64()) are equal: the check must compare the names and report
 * nothing. The hash is polynomial mod 2^64 with an odd base, mixed at the
 * end by steps that can be undone, and such a hash gives the same value to
 * the Thue-Morse word of 2^11 letters and its complement (their difference
 * is a product of eleven factors B^(2^i) - 1, each divisible by 2^(i+1):
 * 2^66 in all); a common prefix keeps them equal. The first assertion says
 * whether the hash still pairs them.
 */
static void test_name_hashes_equal_names_different(void **state)
{
    (void)state;
    enum { LEN = 2048 };
    char *word[2];
    for (int w = 0; w < 2; w++) {
        word[w] = arena_alloc(&A, LEN + 2);
        word[w][0] = 'V';
        for (unsigned i = 0; i < LEN; i++) { /* letter i: the parity of i's one bits */
            unsigned ones = (unsigned)w;
            for (unsigned k = i; k; k &= k - 1)
                ones++;
            word[w][1 + i] = "AB"[ones & 1];
        }
        word[w][LEN + 1] = '\0';
    }
    char *name[2];
    for (int w = 0; w < 2; w++)
        name[w] = arena_printf(&A, "T_R_F_%s", word[w]);
    assert_string_not_equal(name[0], name[1]);
    assert_true(names_hash64(name[0]) == names_hash64(name[1]));
    struct model_spec *s = mk_spec();
    struct model_block *blk = mk_block(s, "b", 3);
    struct model_field *f = mk_field(mk_reg(blk, "R", 32, 0, 4), "F", 31, 0, "RW", 5);
    mk_value(f, word[0], 1, 6);
    mk_value(f, word[1], 2, 7);
    assert_int_equal(run(s, ""), 0);
}

/* Collisions inside every block, across blocks and between a value and a register: each reported. */
static void test_name_collisions_in_every_block(void **state)
{
    struct diag d;
    diag_init(&d, NULL);
    mk_begin(&A, diag_add_file(&d, "t.xml"));
    assert_int_equal(check_spec(&A, &d, mk_colliding_spec()), -1);
    assert_int_equal(d.nerrors, d.count[DIAG_NAME_COLLISION]);
    assert_true(d.count[DIAG_NAME_COLLISION] > 32);
    diag_release(&d);
}

/*
 * The collision check walks the names in parts when they are more than
 * its budget (struct check_options): budgets from 20,000 to 200 hashes split this
 * spec (28,375 names) into 2 to some 256 parts (it says how many), and every run must report exactly what the
 * one walk reports, in the same order.
 */
static void test_name_collisions_in_parts(void **state)
{
    (void)state;
    struct diag whole;
    diag_init(&whole, NULL);
    mk_begin(&A, diag_add_file(&whole, "t.xml"));
    struct check_options one = {0};
    assert_int_equal(check_spec_with(&A, &whole, mk_colliding_spec(), &one), -1);
    assert_true(whole.count[DIAG_NAME_COLLISION] > 32);
    assert_int_equal(one.collision_parts, 1);
    static const size_t budgets[] = {20000, 10000, 5000, 1000, 200};
    uint32_t parts = 0;
    for (size_t i = 0; i < sizeof(budgets) / sizeof(budgets[0]); i++) {
        struct diag d;
        diag_init(&d, NULL);
        mk_begin(&A, diag_add_file(&d, "t.xml"));
        struct check_options o = {.collision_budget = budgets[i]};
        assert_int_equal(check_spec_with(&A, &d, mk_colliding_spec(), &o), -1);
        assert_true(o.collision_parts >= 2 && o.collision_parts >= parts); /* a smaller budget,
                                                                            as many or more */
        parts = o.collision_parts;
        assert_string_equal(d.text.s, whole.text.s);
        diag_release(&d);
    }
    diag_release(&whole);
}

/*
 * Names made first before the collision check's set fills (and it halves
 * the part it keeps) and again after: the hashes kept must survive each
 * halving. 64 registers R<i> with a field F, some 9,000 names of other
 * registers, then 64 registers R<i>_F: each pair makes the name R<i>_F_WIDTH.
 */
static void test_name_collisions_kept_when_halved(void **state)
{
    (void)state;
    const char *text[2];
    for (int budgeted = 0; budgeted < 2; budgeted++) {
        struct diag d;
        diag_init(&d, NULL);
        mk_begin(&A, diag_add_file(&d, "t.xml"));
        struct model_spec *s = mk_spec();
        struct model_block *blk = mk_block(s, "blk", 1);
        unsigned line = 10;
        for (unsigned i = 0; i < 64; i++, line += 2)
            mk_field(mk_reg(blk, arena_printf(&A, "R%u", i), 32, 4 * i, line), "F", 31, 0, "RW",
                     line + 1);
        for (unsigned i = 0; i < 400; i++, line += 2)
            mk_field(mk_reg(blk, arena_printf(&A, "S%u", i), 32, 4 * (64 + i), line), "G", 31, 0,
                     "RW", line + 1);
        for (unsigned i = 0; i < 64; i++, line += 2)
            mk_field(mk_reg(blk, arena_printf(&A, "R%u_F", i), 32, 4 * (464 + i), line), "H", 31,
                     0, "RW", line + 1);
        struct check_options o = {.collision_budget = budgeted ? 2048 : 0};
        assert_int_equal(check_spec_with(&A, &d, s, &o), -1);
        assert_int_equal(d.count[DIAG_NAME_COLLISION], 64);
        assert_true(budgeted ? o.collision_parts >= 4 : o.collision_parts == 1);
        text[budgeted] = arena_strdup(&A, d.text.s);
        diag_release(&d);
    }
    assert_string_equal(text[1], text[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_clean_spec_passes_and_fills_reset),
        T(test_bad_identifier_and_keyword),
        T(test_keywords_of_cxx_and_c23),
        T(test_keyword_table_lookup),
        T(test_duplicate_field_but_reserved_may_repeat),
        T(test_duplicates_in_every_scope),
        T(test_duplicate_alone_in_each_scope),
        T(test_name_collision),
        T(test_name_collisions_in_order),
        T(test_unknown_refs),
        T(test_at_for_every_instance_or_none),
        T(test_instance_without_locator),
        T(test_bad_width_and_size),
        T(test_citations_resolved_everywhere),
        T(test_field_outside_and_overlap),
        T(test_unknown_access),
        T(test_resets),
        T(test_bits_uncovered),
        T(test_gap_class_keeps_reset),
        T(test_gaps_fill_implicit_fields),
        T(test_bad_gaps_value),
        T(test_value_too_wide),
        T(test_event_values_too_wide),
        T(test_umask_without_umask_field),
        T(test_duplicate_at),
        T(test_event_counter),
        T(test_missing_source_is_a_warning),
        T(test_address_collision),
        T(test_pci_collides_only_under_one_locator),
        T(test_address_collisions_in_order),
        T(test_address_overflow),
        T(test_rules),
        T(test_pmon_counters),
        T(test_pmon_box_control_and_status),
        T(test_pmon_global),
        T(test_large_spec_is_fast),
        T(test_name_collisions_in_every_block),
        T(test_name_collisions_in_parts),
        T(test_name_collisions_kept_when_halved),
        T(test_name_hashes_equal_names_different),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
