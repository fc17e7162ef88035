/*
 * digit - the value of one digit character (0-9, a-f, A-F; 99 for anything
 * else), the one piece the two number readers share: the spec language's
 * (common/expr.c: 0x, 0b, '_' between digits) and the one for numbers a
 * user types (runtime/num.c: sign, octal and space refused, saturation).
 * Each keeps its own grammar around it.
 */
#ifndef REGC_DIGIT_H
#define REGC_DIGIT_H

static inline int regc_digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

#endif
