/* presets.h - the command presets: the compression programs (zstd, xz, pigz command-line
 * tools) a sweep can time by name with -c ("zstd-cli:3"), each with its level range, the
 * shell template that compresses with it, and the template and built-in codec that
 * restore its archives. Pure data and lookup: measure/command_job.c turns an entry into a
 * command series and runs it. */
#ifndef CP_CODECS_PRESETS_H
#define CP_CODECS_PRESETS_H

#include <stdbool.h>
#include <stdio.h>

#include "common/err.h"

typedef struct preset {
    const char *name;     /* "zstd-cli": what -c matches before the ':' */
    int min_level, max_level;
    bool extreme;         /* accepts an "e" after the level (xz) */
    const char *program;  /* the compress template before the level ("zstd -q -") */
    const char *rest;     /* the compress template after it */
    const char *codec;    /* the built-in codec writing the same format; NULL: none */
    const char *restore;  /* the template restoring such an archive; NULL: none */
} preset_t;

/* The preset spec names ("zstd-cli:3", "pigz"; the part before ':' is matched), or NULL
 * when none does. The entry is static. */
const preset_t *preset_find(const char *spec);

/* Reads the level of spec ("zstd-cli:3", "xz-cli:6e") for preset p into *level and
 * *extreme. CP_EUSAGE "bad preset 'SPEC': expected NAME:MIN..MAX[e]" when it is missing,
 * malformed or out of range. */
int preset_level(const preset_t *p, const char *spec, long *level, bool *extreme,
                 cp_err_t *err);

/* Writes one line per preset for --help texts to out, in the table's order: its name
 * and level range ("zstd-cli:1..19") and the command it runs, with L for the level,
 * indented to column 27. */
void presets_write_help(FILE *out);

#endif
