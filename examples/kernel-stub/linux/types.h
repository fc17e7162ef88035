/*
 * A minimal stand-in for the kernel's <linux/types.h>, enough to compile
 * examples/kernel_ubox.c with -D__KERNEL__ -nostdinc outside a kernel tree:
 * the fixed-width types and bool the generated headers use.
 */
#ifndef EXAMPLE_STUB_LINUX_TYPES_H
#define EXAMPLE_STUB_LINUX_TYPES_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef u8 uint8_t;
typedef u16 uint16_t;
typedef u32 uint32_t;
typedef u64 uint64_t;
typedef signed long long int64_t;
typedef _Bool bool;
#define true 1
#define false 0

#endif
