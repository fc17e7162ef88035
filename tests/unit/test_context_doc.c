/*
 * Unit tests for compiler/context_doc.c: the doc_* keys and the SVG
 * bit-field geometry, on trees written by hand as JSON (the stable keys
 * context_build() produces).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "context_doc.h"
#include "dt_json.h"
#include "regc/attr.h"

/* A tree of one block 'b' holding the register given as JSON text. */
static json_t *tree_with(const char *reg, const char *events)
{
    char text[4096];
    snprintf(text, sizeof text,
             "{\"blocks\": [{\"name\": \"Box_1\", \"instances\": [], \"registers\": [%s],"
             " \"events\": [%s]}]}",
             reg, events ? events : "");
    json_error_t err;
    json_t *t = json_loads(text, 0, &err);
    if (!t)
        fail_msg("bad test JSON: %s", err.text);
    t = apply_json(t, context_doc_keys);
    return t;
}

static json_t *reg0(json_t *t)
{
    return json_array_get(json_object_get(json_array_get(json_object_get(t, "blocks"), 0), "registers"), 0);
}

static json_t *box(json_t *t, size_t i)
{
    return json_array_get(json_object_get(json_object_get(reg0(t), "svg"), "boxes"), i);
}

static long long num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    assert_true(json_is_string(v));
    return json_string_value(v);
}

#define F(name, msb, lsb, acc) \
    "{\"name\": \"" name "\", \"msb\": " #msb ", \"lsb\": " #lsb ", \"access\": \"" acc "\", \"values\": []}"

static void test_32_bit_register(void **state)
{
    (void)state;
    json_t *t = tree_with("{\"name\": \"CTL\", \"width\": 32, \"rules\": [], \"instances\": [],"
                          " \"fields\": [" F("rsv", 31, 23, "RV") "," F("en", 22, 22, "RW") ","
                          F("ignored", 21, 8, "ig") "," F("ev_sel", 7, 0, "RW") "]}",
                          NULL);
    json_t *svg = json_object_get(reg0(t), "svg");
    assert_int_equal(num(svg, "rows"), 1);
    assert_int_equal(num(svg, "bits_per_row"), 32);
    assert_int_equal(num(svg, "width"), 2 * 12 + 32 * 22);
    assert_int_equal(json_array_size(json_object_get(svg, "boxes")), 4);
    /* bit 31 is leftmost; a box is as wide as its field */
    assert_int_equal(num(box(t, 0), "x"), 12);
    assert_int_equal(num(box(t, 0), "w"), 9 * 22);
    assert_string_equal(str(box(t, 0), "kind"), "reserved");
    assert_int_equal(num(box(t, 1), "x"), 12 + 9 * 22);
    assert_int_equal(num(box(t, 1), "w"), 22);
    assert_string_equal(str(box(t, 1), "kind"), "field");
    assert_string_equal(str(box(t, 2), "kind"), "ignored");
    assert_int_equal(num(box(t, 3), "x") + num(box(t, 3), "w"), 12 + 32 * 22);
    assert_string_equal(str(box(t, 3), "bits"), "7:0");
    assert_string_equal(str(box(t, 1), "bits"), "22");
    assert_true(json_is_false(json_object_get(box(t, 1), "vertical"))); /* "en" fits across */
    assert_string_equal(str(reg0(t), "doc_anchor"), "ctl");
    json_decref(t);
}

static void test_64_bit_register_splits_rows(void **state)
{
    (void)state;
    json_t *t = tree_with("{\"name\": \"WIDE\", \"width\": 64, \"rules\": [], \"instances\": [],"
                          " \"fields\": [" F("hi", 63, 40, "RW") "," F("cross", 39, 20, "RW") ","
                          F("lo", 19, 0, "WO") "]}",
                          NULL);
    json_t *svg = json_object_get(reg0(t), "svg");
    assert_int_equal(num(svg, "rows"), 2);
    json_t *boxes = json_object_get(svg, "boxes");
    assert_int_equal(json_array_size(boxes), 4); /* 'cross' has a box in each row */
    assert_int_equal(num(box(t, 1), "field"), 1);
    assert_int_equal(num(box(t, 2), "field"), 1);
    assert_int_equal(num(box(t, 1), "w"), 8 * 22);  /* bits 39:32 */
    assert_int_equal(num(box(t, 2), "w"), 12 * 22); /* bits 31:20 */
    assert_int_equal(num(box(t, 2), "x"), 12);
    assert_true(num(box(t, 2), "y") > num(box(t, 1), "y"));
    assert_string_equal(str(box(t, 2), "bits"), "39:20");
    json_decref(t);
}

static void test_44_bit_register_shades_unimplemented(void **state)
{
    (void)state;
    json_t *t = tree_with("{\"name\": \"CTR\", \"width\": 44, \"rules\": [], \"instances\": [],"
                          " \"fields\": [" F("count", 43, 0, "RW-V") "]}",
                          NULL);
    json_t *boxes = json_object_get(json_object_get(reg0(t), "svg"), "boxes");
    assert_int_equal(json_array_size(boxes), 3);
    json_t *u = box(t, 2);
    assert_string_equal(str(u, "kind"), "unimplemented");
    assert_true(json_is_false(json_object_get(u, "is_field")));
    assert_int_equal(num(u, "field"), -1);
    assert_string_equal(str(u, "bits"), "63:44");
    assert_int_equal(num(u, "x"), 12);
    assert_int_equal(num(u, "w"), 20 * 22);
    json_decref(t);
}

static void test_narrow_labels_turn_and_shorten(void **state)
{
    (void)state;
    json_t *t = tree_with("{\"name\": \"R\", \"width\": 16, \"rules\": [], \"instances\": [],"
                          " \"fields\": [" F("a_name_much_longer_than_any_box_can_hold", 15, 10, "RW")
                          "," F("mid", 9, 2, "RW") "," F("edge_det", 1, 1, "RW") "," F("x_really_long_one_bit_name", 0, 0, "RW1C") "]}",
                          NULL);
    json_t *svg = json_object_get(reg0(t), "svg");
    assert_int_equal(num(svg, "width"), 2 * 12 + 16 * 22);
    /* a wide box shortens the label with an ellipsis, across */
    const char *l0 = str(box(t, 0), "label");
    assert_true(json_is_false(json_object_get(box(t, 0), "vertical")));
    assert_true(strlen(l0) < strlen("a_name_much_longer_than_any_box_can_hold"));
    assert_non_null(strstr(l0, "\xe2\x80\xa6"));
    assert_string_equal(str(box(t, 0), "name"), "a_name_much_longer_than_any_box_can_hold");
    /* one-bit boxes turn their label; the box grows to hold it, up to a limit */
    assert_true(json_is_true(json_object_get(box(t, 2), "vertical")));
    assert_string_equal(str(box(t, 2), "label"), "edge_det");
    assert_true(num(box(t, 2), "h") >= 8 * 7);
    assert_true(num(box(t, 3), "h") <= 112);
    assert_non_null(strstr(str(box(t, 3), "label"), "\xe2\x80\xa6"));
    /* the label is centred in the box */
    assert_int_equal(num(box(t, 2), "lx"), num(box(t, 2), "x") + 11);
    assert_int_equal(num(box(t, 2), "ly"), num(box(t, 2), "y") + num(box(t, 2), "h") / 2);
    json_decref(t);
}

static void test_small_keys(void **state)
{
    (void)state;
    json_t *t = tree_with(
        "{\"name\": \"C\", \"width\": 8, \"rules\": [{\"name\": \"r\"}],"
        " \"instances\": [{\"instance\": \"box0\", \"index\": 1}, {\"instance\": null, \"index\": 2},"
        " {\"instance\": \"box1\", \"index\": null}, {\"instance\": null, \"index\": null}],"
        " \"fields\": [{\"name\": \"v\", \"msb\": 7, \"lsb\": 0, \"access\": \"RW\","
        " \"values\": [{\"name\": \"A\"}]}]}",
        "{\"counters\": [0, 1, 2, 3]}, {\"counters\": [0, 2]}, {\"counters\": [1, 2]}, {\"counters\": []}");
    json_t *blk = json_array_get(json_object_get(t, "blocks"), 0);
    assert_string_equal(str(blk, "doc_anchor"), "block-box_1");
    assert_string_equal(str(blk, "doc_events_anchor"), "events-of-box_1");
    assert_true(json_is_true(json_object_get(blk, "doc_has_events")));
    assert_true(json_is_false(json_object_get(blk, "doc_has_instances")));
    json_t *ev = json_object_get(blk, "events");
    assert_string_equal(str(json_array_get(ev, 0), "doc_counters"), "0-3");
    assert_string_equal(str(json_array_get(ev, 1), "doc_counters"), "0, 2");
    assert_string_equal(str(json_array_get(ev, 2), "doc_counters"), "1, 2");
    assert_string_equal(str(json_array_get(ev, 3), "doc_counters"), "");
    json_t *copies = json_object_get(reg0(t), "instances");
    assert_string_equal(str(json_array_get(copies, 0), "doc_label"), "box0 [1]");
    assert_string_equal(str(json_array_get(copies, 1), "doc_label"), "[2]");
    assert_string_equal(str(json_array_get(copies, 2), "doc_label"), "box1");
    assert_true(json_is_null(json_object_get(json_array_get(copies, 3), "doc_label")));
    assert_true(json_is_true(json_object_get(reg0(t), "doc_has_values")));
    assert_true(json_is_true(json_object_get(reg0(t), "doc_has_rules")));
    json_t *f = json_array_get(json_object_get(reg0(t), "fields"), 0);
    assert_true(json_is_true(json_object_get(f, "doc_has_values")));
    assert_int_equal(num(f, "doc_index"), 0);
    assert_int_equal(num(json_object_get(reg0(t), "svg"), "bits_per_row"), 8);
    json_decref(t);
}

/* Names and lists longer than any fixed buffer come out whole: an instance of 300 characters in
 * a copy's label, a block of 200 in an event's anchor, 150 counters in doc_counters. */
static void test_long_names_are_not_cut(void **state)
{
    (void)state;
    char inst[301], blk_name[201];
    memset(inst, 'i', 300);
    inst[300] = '\0';
    memset(blk_name, 'B', 200);
    blk_name[200] = '\0';
    json_t *counters = json_array();
    char want_counters[1024] = "";
    for (int k = 0; k < 150; k++) { /* 0, 2, 4, ...: no run */
        json_array_append_new(counters, json_integer(2 * k));
        snprintf(want_counters + strlen(want_counters), sizeof want_counters - strlen(want_counters),
                 "%s%d", k ? ", " : "", 2 * k);
    }
    json_t *t = json_pack("{s:[{s:s, s:[], s:[{s:s, s:i, s:[{s:s, s:i}], s:[]}], s:[{s:s, s:o}]}]}",
                          "blocks", "name", blk_name, "instances", "registers", "name", "C", "width",
                          8, "instances", "instance", inst, "index", 1, "fields", "events", "name",
                          "Ev", "counters", counters);
    assert_non_null(t);
    t = apply_json(t, context_doc_keys);
    json_t *blk = json_array_get(json_object_get(t, "blocks"), 0);
    json_t *ev = json_array_get(json_object_get(blk, "events"), 0);
    char want_label[320], want_anchor[220];
    snprintf(want_label, sizeof want_label, "%s [1]", inst);
    snprintf(want_anchor, sizeof want_anchor, "event-%s-ev", blk_name);
    assert_string_equal(str(json_array_get(json_object_get(reg0(t), "instances"), 0), "doc_label"),
                        want_label);
    assert_string_equal(str(ev, "doc_anchor"), want_anchor);
    assert_string_equal(str(ev, "doc_counters"), want_counters);
    json_decref(t);
}

static void test_incomplete_objects_are_left_alone(void **state)
{
    (void)state;
    json_error_t err;
    json_t *t = json_loads("{\"blocks\": [{\"registers\": [{}]}, {\"name\": \"b\","
                           " \"registers\": [{\"name\": \"R\"}, {\"name\": \"S\", \"width\": 99,"
                           " \"fields\": [{\"name\": \"f\", \"msb\": 200, \"lsb\": 0}]}]}]}",
                           0, &err);
    assert_non_null(t);
    t = apply_json(t, context_doc_keys);
    json_t *b0 = json_array_get(json_object_get(t, "blocks"), 0);
    assert_null(json_object_get(b0, "doc_anchor"));
    json_t *regs = json_object_get(json_array_get(json_object_get(t, "blocks"), 1), "registers");
    assert_null(json_object_get(json_array_get(regs, 0), "svg"));
    /* a field outside the register is not drawn; the bits are unimplemented */
    json_t *boxes = json_object_get(json_object_get(json_array_get(regs, 1), "svg"), "boxes");
    assert_int_equal(json_array_size(boxes), 2);
    assert_string_equal(str(json_array_get(boxes, 0), "kind"), "unimplemented");
    json_decref(t);
    context_doc_keys(NULL, NULL);
}

/* The legend lists attr.h's table: every spelling once, in order, with its words. */
static void test_access_legend(void **state)
{
    (void)state;
    json_t *t = tree_with("{}", NULL);
    json_t *legend = json_object_get(t, "doc_access_legend");
    assert_int_equal(json_array_size(legend), REGC_ACCESS__COUNT);
    for (size_t i = 0; i < json_array_size(legend); i++) {
        json_t *row = json_array_get(legend, i);
        assert_string_equal(str(row, "access"), regc_access_text((enum regc_access)i));
        assert_string_equal(str(row, "meaning"), regc_access_meaning((enum regc_access)i));
        assert_true(json_is_true(json_object_get(row, "first")) == (i == 0));
        assert_true(json_is_true(json_object_get(row, "last")) == (i + 1 == REGC_ACCESS__COUNT));
    }
    assert_string_equal(str(json_array_get(legend, 0), "access"), "RW");
    assert_string_equal(str(json_array_get(legend, 0), "meaning"), "read/write");
    json_t *w1c = json_array_get(legend, REGC_ACCESS_RW1C);
    assert_string_equal(str(w1c, "meaning"), "write 1 to clear");
    json_decref(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_32_bit_register),
        cmocka_unit_test(test_64_bit_register_splits_rows),
        cmocka_unit_test(test_44_bit_register_shades_unimplemented),
        cmocka_unit_test(test_narrow_labels_turn_and_shorten),
        cmocka_unit_test(test_small_keys),
        cmocka_unit_test(test_long_names_are_not_cut),
        cmocka_unit_test(test_incomplete_objects_are_left_alone),
        cmocka_unit_test(test_access_legend),
    };
    return cmocka_run_group_tests_name("context_doc", tests, NULL, NULL);
}
