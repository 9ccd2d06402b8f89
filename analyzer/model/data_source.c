/* data_source.c - the source column's words (data_source.h). */
#include "model/data_source.h"

#include <stddef.h>
#include <strings.h>

static const char *const names[] = {
    [DATA_SOURCE_UNKNOWN] = NULL,
    [DATA_SOURCE_CHOKEPOINT] = DATA_SOURCE_CHOKEPOINT_NAME,
    [DATA_SOURCE_FIO] = DATA_SOURCE_FIO_NAME,
    [DATA_SOURCE_HYPERFINE] = DATA_SOURCE_HYPERFINE_NAME,
};

data_source_t data_source_parse(const char *text)
{
    for (size_t i = 1; text != NULL && i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(text, names[i]) == 0)
            return (data_source_t)i;
    return DATA_SOURCE_UNKNOWN;
}

const char *data_source_name(data_source_t source)
{
    return (size_t)source < sizeof names / sizeof names[0] ? names[source] : NULL;
}
