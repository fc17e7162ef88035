#include "templates.h"

#include <string.h>

const struct embedded_template *templates_find(const char *name)
{
    for (size_t i = 0; i < embedded_template_count; i++)
        if (strcmp(embedded_templates[i].name, name) == 0)
            return &embedded_templates[i];
    return NULL;
}
