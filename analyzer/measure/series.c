/* series.c - a sweep's series (series.h): making one from a codec or a command, growing a
 * list, and its name in rows. */
#include "measure/series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

series_spec_t series_of_codec(const codec_spec_t *codec)
{
    series_spec_t s;
    memset(&s, 0, sizeof s);
    s.kind = SERIES_CODEC;
    s.codec = *codec;
    return s;
}

series_spec_t series_of_command(const command_series_t *command)
{
    series_spec_t s;
    memset(&s, 0, sizeof s);
    s.kind = SERIES_COMMAND;
    (void)codec_parse("copy", &s.codec, NULL); /* a built-in name: cannot fail */
    s.command = *command;
    return s;
}

int series_list_append(series_spec_t **list, size_t *count, const series_spec_t *s,
                       cp_err_t *err)
{
    char name[COMMAND_SERIES_MAX], other[COMMAND_SERIES_MAX];
    series_format(s, name, sizeof name);
    for (size_t i = 0; i < *count; i++) {
        series_format(&(*list)[i], other, sizeof other);
        if (strcmp(name, other) == 0)
            return cp_err_set(err, CP_EUSAGE, "codec '%s' is given twice", name);
    }
    series_spec_t *grown = realloc(*list, (*count + 1) * sizeof *grown);
    if (grown == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory for the codec list");
    *list = grown;
    grown[(*count)++] = *s;
    return CP_OK;
}

void series_format(const series_spec_t *s, char *buf, size_t size)
{
    if (s->kind == SERIES_COMMAND)
        snprintf(buf, size, "%s", s->command.series);
    else
        codec_format(&s->codec, buf, size);
}
