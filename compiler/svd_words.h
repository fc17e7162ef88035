/*
 * svd_words - CMSIS-SVD's words for access, modifiedWriteValues and
 * readAction, and the attribute class and access text a field gets from
 * them: one table for the SVD reader (svd_model.c), the regspec loader's
 * memory-mapped forms (xmlmmio.c) and the SVD and regspec writers.
 */
#ifndef REGC_SVD_WORDS_H
#define REGC_SVD_WORDS_H

#include "arena.h"
#include "model.h"

#include <stdbool.h>

/* modifiedWriteValues for 'e'; NULL for WRITE_STORES (SVD's "modify", the default). */
const char *svd_write_word(enum model_write_effect e);
/* The effect SVD's word 'w' names ("modify": WRITE_STORES); -1 when it names none. */
int svd_write_parse(const char *w);
/* readAction for 'e'; NULL for READ_NONE. */
const char *svd_read_word(enum model_read_effect e);
/* The effect readAction 'w' names; -1 when it names none. */
int svd_read_parse(const char *w);
/* <usage> of an enumeration set: read, write, or read-write for USAGE_ANY. */
const char *svd_usage_word(enum model_usage u);
/* 'w' is one of SVD's access words: read-only, write-only, read-write, writeOnce, read-writeOnce. */
bool svd_access_is_word(const char *w);

/*
 * Sets f's attribute class, write_once and access text from SVD access word
 * 'acc' (svd_access_is_word) and f's write_effect and read_effect, as the
 * SVD reader does: "read-write, oneToClear, readAction clear" is RW1C.
 * The text is owned by 'a'.
 */
void svd_field_access(struct arena *a, struct model_field *f, const char *acc);

#endif
