/*
 * xmlsplit - where a large spec's text can be cut so that the pieces parse
 * on their own (the parallel load of xmlload.c).
 *
 * The cuts fall on start tags '<block' of the blocks that are children of
 * the root <regspec>. Piece k of a split file is the document
 *
 *     text[0, root_end) + text[cut[k], cut[k+1]) + "</regspec>"
 *
 * that is: the prolog and the root's start tag, then the piece's run of the
 * root's content, then a closing tag (the last piece has none: its run goes
 * to the end of the file, whose own '</regspec>' it holds). The first piece
 * starts at cut[0] == root_end, so it is simply the file up to cut[1].
 * Because the root's content model is zeroOrMore(choice(...)), each piece
 * validates against the same schema as the whole file.
 *
 * The scanner knows just enough XML to track the depth of elements:
 * comments, CDATA sections, processing instructions, quoted attribute
 * values, start, end and empty tags. It need not be perfect: see
 * xmlload.c ("A wrong cut") for why a cut in the wrong place can only make
 * a piece ill-formed, never parse into something else.
 */
#ifndef REGC_XMLSPLIT_H
#define REGC_XMLSPLIT_H

#include "jobs.h"

#include <stdbool.h>
#include <stddef.h>

struct xmlsplit {
    size_t root_end;               /* just past the '>' of the root's start tag */
    size_t cut[REGC_MAX_JOBS + 1]; /* piece k is text[cut[k], cut[k+1]); cut[n] is the length */
    unsigned n;                    /* number of pieces: 2 to REGC_MAX_JOBS */
};

/*
 * Cuts 'text' into at most 'pieces' pieces of about equal size. False (and
 * 'out' unspecified) when the text does not qualify: its root is not
 * <regspec>; it declares an encoding other than UTF-8; it has a DOCTYPE or
 * anything else the scanner does not expect before the root; it has an
 * element named 'include' (with or without a prefix; includes are loaded
 * serially); or it has fewer than two places to cut. text[len] must be
 * '\0' (the text may hold other NUL bytes).
 */
bool xmlsplit_find(const char *text, size_t len, unsigned pieces, struct xmlsplit *out);

#endif
