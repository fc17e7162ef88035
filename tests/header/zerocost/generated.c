/*
 * Zero-cost test, generated side: small driver-style functions written with
 * the generated accessors of the golden header (tests/golden/features.xml).
 * handwritten.c has the same functions with masks and shifts typed by hand;
 * run-zerocost.sh compares their -O2 instructions.
 */
#include "golden_features.h"

uint64_t zc_get(uint64_t v);
uint64_t zc_get(uint64_t v)
{
    return ft_u_ctl_umask_get(v);
}

uint64_t zc_get_macro(uint64_t v);
uint64_t zc_get_macro(uint64_t v)
{
    return FT_U_CTL_THRESH_GET(v);
}

uint64_t zc_set(uint64_t v, uint64_t x);
uint64_t zc_set(uint64_t v, uint64_t x)
{
    return ft_u_ctl_thresh_set(v, x);
}

uint64_t zc_program(uint64_t v, uint64_t code, uint64_t umask, uint64_t en);
uint64_t zc_program(uint64_t v, uint64_t code, uint64_t umask, uint64_t en)
{
    v = ft_u_ctl_ev_sel_set(v, code);
    v = ft_u_ctl_umask_set(v, umask);
    v = ft_u_ctl_en_set(v, en);
    return v;
}

uint64_t zc_enable(uint64_t v);
uint64_t zc_enable(uint64_t v)
{
    return v | FT_U_CTL_EN_VAL(1);
}

uint64_t zc_event(uint64_t v);
uint64_t zc_event(uint64_t v)
{
    return (v & ~(FT_U_CTL_EV_SEL_MASK | FT_U_CTL_UMASK_MASK)) | FT_EV_UBOX_MSG_DOORBELL;
}

uint32_t zc_addr(unsigned i);
uint32_t zc_addr(unsigned i)
{
    return ft_u_ctl_addr(i);
}

uint32_t zc_write(uint32_t current, uint32_t wanted);
uint32_t zc_write(uint32_t current, uint32_t wanted)
{
    return (uint32_t)ft_u_box_status_write_value(current, wanted, 0);
}

uint32_t zc_clear_overflow(uint32_t current, unsigned counter);
uint32_t zc_clear_overflow(uint32_t current, unsigned counter)
{
    return (uint32_t)ft_u_box_status_write_value(current, ft_u_box_status_ov_val(UINT64_C(1) << counter), FT_ACT_W1C);
}

unsigned zc_check(uint64_t v);
unsigned zc_check(uint64_t v)
{
    return ft_u_ctl_check(v);
}
