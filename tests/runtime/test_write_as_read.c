/*
 * test_write_as_read - libregrt refuses a write that changes a field whose SVD writeConstraint is
 * writeAsRead ("only the last read value can be written", CMSIS-SVD.xsd) and lets one through
 * that gives it the value read: regc_write() (which reads first), regc_rmw() (its own read) and
 * regc_check_as_read(), on the simulator holding a value poked in.
 *
 * The truth is tests/svd/write-as-read.svd, read by hand (GUARD.LOCK: KEY [7:0] and SEQ [15:12]
 * writeAsRead, EN [8] and MODE [11:10] read-write, the rest no field), and the register's bits
 * are checked one by one against the fields' places in the C header regc writes from that file
 * (WAR_GUARD_LOCK_KEY_SHIFT, _MASK ...), not against the runtime's own tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "simutil.h"
#include "write_as_read_svd.h"        /* regc tests/svd/write-as-read.svd (-t c) */
#include "write_as_read_svd_tables.h" /* regc -t tables tests/svd/write-as-read.svd */

#define LOCK "GUARD.LOCK"

struct fx {
    regc_dev *d;
    regc_sim *sim;
    struct regc_ref lock, ctrl;
};

static void open_fx(struct fx *f)
{
    struct regc_options o = {.backend = "sim"};
    char err[256];
    assert_int_equal(regc_open(&f->d, &WAR_spec, &o, err, sizeof(err)), 0);
    f->sim = regc_dev_sim(f->d);
    f->lock = sim_ref(&WAR_spec, LOCK);
    f->ctrl = sim_ref(&WAR_spec, "GUARD.CTRL");
}

/* The fields' values, each at the place the header gives (the rest of the register 0). */
static uint64_t lock_value(uint64_t key, uint64_t en, uint64_t mode, uint64_t seq)
{
    return ((key << WAR_GUARD_LOCK_KEY_SHIFT) & WAR_GUARD_LOCK_KEY_MASK) |
           ((en << WAR_GUARD_LOCK_EN_SHIFT) & WAR_GUARD_LOCK_EN_MASK) |
           ((mode << WAR_GUARD_LOCK_MODE_SHIFT) & WAR_GUARD_LOCK_MODE_MASK) |
           ((seq << WAR_GUARD_LOCK_SEQ_SHIFT) & WAR_GUARD_LOCK_SEQ_MASK);
}

/* The bit of field value v (at 'shift', 'mask' in the register) that register bit i holds. */
static unsigned field_bit(unsigned i, uint64_t v, unsigned shift, uint64_t mask)
{
    return (mask >> i) & 1 ? (unsigned)(v >> (i - shift)) & 1 : 0;
}

/* The simulator's GUARD.LOCK, bit by bit: KEY, EN, MODE, SEQ at the header's places, else 0. */
static void expect_lock(struct fx *f, uint64_t key, uint64_t en, uint64_t mode, uint64_t seq)
{
    uint64_t got = sim_peek(f->sim, &WAR_spec, LOCK);
    for (unsigned i = 0; i < 32; i++) {
        unsigned want = field_bit(i, key, WAR_GUARD_LOCK_KEY_SHIFT, WAR_GUARD_LOCK_KEY_MASK) |
                        field_bit(i, en, WAR_GUARD_LOCK_EN_SHIFT, WAR_GUARD_LOCK_EN_MASK) |
                        field_bit(i, mode, WAR_GUARD_LOCK_MODE_SHIFT, WAR_GUARD_LOCK_MODE_MASK) |
                        field_bit(i, seq, WAR_GUARD_LOCK_SEQ_SHIFT, WAR_GUARD_LOCK_SEQ_MASK);
        if (((got >> i) & 1) != want)
            fail_msg("GUARD.LOCK = 0x%llx: bit %u is %u, want %u", (unsigned long long)got, i,
                     (unsigned)((got >> i) & 1), want);
    }
}

static void stats(struct fx *f, unsigned long *reads, unsigned long *writes)
{
    struct regc_stats st;
    regc_get_stats(f->d, &st);
    *reads = st.reads;
    *writes = st.writes;
}

/* The file's facts through the header: KEY 0x5A, EN 0, MODE 1, SEQ 3 at reset. */
static void t_header(void **state)
{
    (void)state;
    assert_int_equal(WAR_GUARD_LOCK_RESET, lock_value(0x5a, 0, 1, 3));
    assert_int_equal(WAR_GUARD_LOCK_ADDR, 0x40010008);
    struct fx f;
    open_fx(&f);
    expect_lock(&f, 0x5a, 0, 1, 3);
    regc_close(f.d);
}

/* regc_write() of a value that changes KEY: refused, the register and field named, nothing
 * written; the same value with KEY as read: written. */
static void t_write(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f);
    sim_poke(f.sim, &WAR_spec, LOCK, lock_value(0xa5, 0, 2, 6));
    unsigned long r0, w0, r1, w1;
    stats(&f, &r0, &w0);
    assert_int_equal(regc_write(f.d, &f.lock, lock_value(0x05, 1, 2, 6)), -EINVAL);
    assert_string_equal(
        regc_last_error(f.d),
        "refusing 0x6905 for 'GUARD.GUARD.LOCK': field 'KEY' [7:0] may only be written "
        "as read (writeAsRead): it reads 0xa5, the value gives it 0x5 (WAR System "
        "View Description (CMSIS-SVD), GUARD.LOCK)");
    stats(&f, &r1, &w1);
    assert_int_equal(r1 - r0, 1); /* the register was read to compare */
    assert_int_equal(w1 - w0, 0); /* and not written */
    expect_lock(&f, 0xa5, 0, 2, 6);

    /* only SEQ differs: SEQ is named */
    assert_int_equal(regc_write(f.d, &f.lock, lock_value(0xa5, 1, 2, 7)), -EINVAL);
    assert_non_null(strstr(regc_last_error(f.d), "field 'SEQ' [15:12] may only be written as read "
                                                 "(writeAsRead): it reads 0x6, the value gives it "
                                                 "0x7"));
    expect_lock(&f, 0xa5, 0, 2, 6);

    /* KEY and SEQ as read, EN and MODE changed: written */
    assert_int_equal(regc_write(f.d, &f.lock, lock_value(0xa5, 1, 1, 6)), 0);
    expect_lock(&f, 0xa5, 1, 1, 6);
    regc_close(f.d);
}

/* regc_rmw(): another field changed keeps KEY and SEQ as read; KEY in the mask with another
 * value is refused after the one read. */
static void t_rmw(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f);
    sim_poke(f.sim, &WAR_spec, LOCK, lock_value(0x3c, 0, 0, 9));
    uint64_t written;
    unsigned long r0, w0, r1, w1;
    stats(&f, &r0, &w0);
    assert_int_equal(regc_rmw(f.d, &f.lock, WAR_GUARD_LOCK_EN_MASK | WAR_GUARD_LOCK_MODE_MASK,
                              lock_value(0, 1, 3, 0), &written),
                     0);
    stats(&f, &r1, &w1);
    assert_int_equal(r1 - r0, 1); /* one read for the rmw and the check both */
    assert_int_equal(w1 - w0, 1);
    assert_int_equal(written, lock_value(0x3c, 1, 3, 9));
    expect_lock(&f, 0x3c, 1, 3, 9);

    assert_int_equal(
        regc_rmw(f.d, &f.lock, WAR_GUARD_LOCK_KEY_MASK, lock_value(0x11, 0, 0, 0), &written),
        -EINVAL);
    assert_non_null(strstr(regc_last_error(f.d),
                           "for 'GUARD.GUARD.LOCK': field 'KEY' [7:0] may only "
                           "be written as read (writeAsRead): it reads "
                           "0x3c, the value gives it 0x11"));
    expect_lock(&f, 0x3c, 1, 3, 9);

    /* KEY in the mask with the value it holds: written */
    assert_int_equal(regc_rmw(f.d, &f.lock, WAR_GUARD_LOCK_KEY_MASK | WAR_GUARD_LOCK_EN_MASK,
                              lock_value(0x3c, 0, 0, 0), &written),
                     0);
    expect_lock(&f, 0x3c, 0, 3, 9);
    regc_close(f.d);
}

/* A register without such fields is written without a read; a failed read refuses the write. */
static void t_reads(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f);
    unsigned long r0, w0, r1, w1;
    stats(&f, &r0, &w0);
    assert_int_equal(regc_write(f.d, &f.ctrl, WAR_GUARD_CTRL_GO_MASK), 0);
    stats(&f, &r1, &w1);
    assert_int_equal(r1 - r0, 0);
    assert_int_equal(w1 - w0, 1);

    regc_sim_fail_nth(f.sim, 1, EIO); /* the next access: the read before the write */
    assert_int_equal(regc_write(f.d, &f.lock, lock_value(0x5a, 1, 1, 3)), -EIO);
    regc_sim_faults_clear(f.sim);
    stats(&f, &r0, &w0);
    assert_int_equal(r0 - r1, 1); /* the read failed */
    assert_int_equal(w0 - w1, 0); /* and nothing was written */
    expect_lock(&f, 0x5a, 0, 1, 3);
    regc_close(f.d);
}

/* The pure check, and the tables' classes against the header's masks. */
static void t_pure(void **state)
{
    (void)state;
    const struct regc_reg *r = sim_ref(&WAR_spec, LOCK).reg;
    char msg[256];
    uint64_t old = lock_value(0x5a, 0, 1, 3);
    assert_int_equal(
        regc_check_as_read(&WAR_spec, r, NULL, old, lock_value(0x5a, 1, 2, 3), msg, sizeof(msg)),
        0);
    assert_string_equal(msg, "");
    assert_int_equal(
        regc_check_as_read(NULL, r, "L", old, lock_value(0x5b, 0, 1, 3), msg, sizeof(msg)),
        -EINVAL);
    assert_string_equal(
        msg, "refusing 0x345b for 'L': field 'KEY' [7:0] may only be written as "
             "read (writeAsRead): it reads 0x5a, the value gives it 0x5b (svd, GUARD.LOCK)");
    assert_int_equal(regc_reg_as_read_mask(r), WAR_GUARD_LOCK_KEY_MASK | WAR_GUARD_LOCK_SEQ_MASK);
    assert_int_equal(regc_reg_class_mask(r, REGC_MASK_WRITABLE), WAR_GUARD_LOCK_WRITABLE_MASK);
    /* the header's preserve mask also has the bits no field describes (the tables' gap fields) */
    assert_int_equal(regc_reg_class_mask(r, REGC_MASK_PRESERVE), WAR_GUARD_LOCK_PRESERVE_MASK);
    assert_int_equal(regc_reg_as_read_mask(sim_ref(&WAR_spec, "GUARD.CTRL").reg), 0);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_header), cmocka_unit_test(t_write), cmocka_unit_test(t_rmw),
        cmocka_unit_test(t_reads),  cmocka_unit_test(t_pure),
    };
    return cmocka_run_group_tests_name("write_as_read", t, NULL, NULL);
}
