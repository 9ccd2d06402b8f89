/* series.h - one series of a sweep: what a run does to its input, the same at every
 * target and thread count. Either a built-in codec (codecs/codec.h) run through the
 * pipeline, or the user's own command (measure/command_job.h: a --cmd template or a preset).
 * The command line builds the list (cli/parse.h parse_series_list); the sweep runs it. */
#ifndef CP_SERIES_H
#define CP_SERIES_H

#include <stddef.h>

#include "codecs/codec.h"
#include "common/err.h"
#include "measure/command_job.h"

typedef enum series_kind {
    SERIES_CODEC,   /* codec runs through the pipeline */
    SERIES_COMMAND, /* cmd runs with /bin/sh; codec is "copy", or for a decompression the
                     * built-in codec whose archive the command restores */
} series_kind_t;

typedef struct series_spec {
    series_kind_t kind;
    codec_spec_t codec;
    command_series_t command; /* SERIES_COMMAND only; zeroed otherwise */
} series_spec_t;

/* A codec series of codec. */
series_spec_t series_of_codec(const codec_spec_t *codec);

/* A command series of command, with the "copy" codec beside it. */
series_spec_t series_of_command(const command_series_t *command);

/* Appends *s to the malloc'd list *list of *count series (the caller frees *list).
 * The list unchanged on failure: CP_EUSAGE "codec 'X' is given twice" when a series of
 * its name is already there, CP_ENOMEM when out of memory. */
int series_list_append(series_spec_t **list, size_t *count, const series_spec_t *s,
                       cp_err_t *err);

/* The series' name in rows and reports: "zstd:3", or "cmd:NAME" for a command. */
void series_format(const series_spec_t *s, char *buf, size_t size);

#endif
