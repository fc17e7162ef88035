/*
 * Zero-cost test, hand-written side: the functions of generated.c with the
 * masks and shifts of tests/golden/features.xml typed by hand, as a driver
 * author would without the header.
 */
#include <stdint.h>

uint64_t zc_get(uint64_t v);
uint64_t zc_get(uint64_t v)
{
    return (v >> 8) & 0xff;
}

uint64_t zc_get_macro(uint64_t v);
uint64_t zc_get_macro(uint64_t v)
{
    return (v >> 24) & 0x1f;
}

uint64_t zc_set(uint64_t v, uint64_t x);
uint64_t zc_set(uint64_t v, uint64_t x)
{
    return (v & ~(UINT64_C(0x1f) << 24)) | ((x << 24) & (UINT64_C(0x1f) << 24));
}

uint64_t zc_program(uint64_t v, uint64_t code, uint64_t umask, uint64_t en);
uint64_t zc_program(uint64_t v, uint64_t code, uint64_t umask, uint64_t en)
{
    uint64_t mask = UINT64_C(0xff);
    v = (v & ~mask) | (code & mask);
    mask = UINT64_C(0xff) << 8;
    v = (v & ~mask) | ((umask << 8) & mask);
    mask = UINT64_C(1) << 22;
    v = (v & ~mask) | ((en << 22) & mask);
    return v;
}

uint64_t zc_enable(uint64_t v);
uint64_t zc_enable(uint64_t v)
{
    return v | (UINT64_C(1) << 22);
}

uint64_t zc_event(uint64_t v);
uint64_t zc_event(uint64_t v)
{
    return (v & ~UINT64_C(0xffff)) | 0x1000842;
}

uint32_t zc_addr(unsigned i);
uint32_t zc_addr(unsigned i)
{
    return 0x700 + i * 2;
}

uint32_t zc_write(uint32_t current, uint32_t wanted);
uint32_t zc_write(uint32_t current, uint32_t wanted)
{
    (void)wanted;
    return current & 0xe0;
}

uint32_t zc_clear_overflow(uint32_t current, unsigned counter);
uint32_t zc_clear_overflow(uint32_t current, unsigned counter)
{
    return (current & 0xe0) | (uint32_t)((UINT64_C(1) << counter) & 0xf);
}

unsigned zc_check(uint64_t v);
unsigned zc_check(uint64_t v)
{
    unsigned broken = 0;
    if (((v >> 23) & 1) && ((v >> 24) & 0x1f) == 0)
        broken |= 1;
    if (((v >> 18) & 3) == 3)
        broken |= 2;
    return broken;
}
