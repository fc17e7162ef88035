#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

void *regc_grow(void *v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap && v)
        return v;
    size_t ncap = *cap < 4 ? 8 : 2 * *cap;
    if (ncap < need)
        ncap = need;
    if (size && ncap > SIZE_MAX / size)
        return NULL;
    size_t bytes = ncap * size;
    void *n = realloc(v, bytes ? bytes : 1);
    if (n)
        *cap = ncap;
    return n;
}
