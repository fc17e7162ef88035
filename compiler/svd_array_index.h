/*
 * svd_array_index - svdconv's checks of the values of a dimArrayIndex (a regspec's
 * <array-index>), one check for the SVD reader and the regspec loader (docs/svd.md).
 */
#ifndef REGC_SVD_ARRAY_INDEX_H
#define REGC_SVD_ARRAY_INDEX_H

#include "arena.h"
#include "diag.h"
#include "model.h"

/*
 * 'ix' without each value that is no index of an array of 'dim' elements (at or past 'dim':
 * svdconv's M230, svd-array-index) and each name given a second time (M337, svd-duplicate, the
 * later dropped), with a warning naming it; 'what' names the index in the messages ("the
 * dimArrayIndex of cluster 'CH[%s]'"). A value dropped for its range does not count as given.
 * 'ix' is left as it is: returns NULL when it keeps every value, else a copy of it without the
 * values dropped, owned by 'a'.
 */
struct model_array_index *svd_array_index_check(struct arena *a, struct diag *dg,
                                                const struct model_array_index *ix, uint64_t dim,
                                                const char *what);

#endif
