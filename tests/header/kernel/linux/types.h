/*
 * A stand-in for the kernel's <linux/types.h>, for the compile matrix's
 * __KERNEL__ configuration (built with -nostdinc, so no libc header is
 * reachable): like the kernel's, it provides the fixed-width integer types
 * and bool as typedefs of its own __uN types. It also defines 'current' as
 * the kernel does (<asm/current.h>, reachable from almost every driver), so a
 * header that names a parameter 'current' fails here as it would there.
 */
#ifndef REGC_TEST_LINUX_TYPES_H
#define REGC_TEST_LINUX_TYPES_H
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef u8 uint8_t;
typedef u16 uint16_t;
typedef u32 uint32_t;
typedef u64 uint64_t;
typedef _Bool bool;
struct task_struct;
struct task_struct *get_current(void);
#define current get_current()
#endif
