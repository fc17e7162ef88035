/*
 * tables - the extra keys the descriptor-table template (templates/tables.mustache) needs.
 *
 * Mustache cannot quote: tables_annotate() walks a data tree (context.h) and,
 * beside every member K whose value is a string or null, adds "t_K": a C
 * string literal with its quotes (backslash, quote, '?' and control
 * characters escaped) or "NULL". Members naming an enum get the C constant
 * instead: t_space (REGC_SPACE_MSR...), t_access (REGC_ACCESS_RW_V...),
 * t_overflow (REGC_OVF_WRAP/STOP), t_preload, t_clear (REGC_CLEAR_...), when
 * the value is one of the enum's spellings (else the string literal; null:
 * "0"); an access also gets t_access_text, its spelling as a literal.
 * Objects with an "index" member (int or null) get t_index (-1 for null).
 * Keys already starting with "t_" or "c_" are left alone.
 */
#ifndef REGC_TABLES_H
#define REGC_TABLES_H

#include "arena.h"
#include "dt.h"

/* Adds the keys in place; 'tree' stays owned by the caller. */
void tables_annotate(struct arena *a, struct dt *tree);

/* 's' as a C string literal with quotes; caller releases with free(). */
char *tables_c_string(const char *s);

#endif
