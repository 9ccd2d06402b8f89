/* command_job.h - one measured run of the user's own command (`--cmd TEMPLATE` or a
 * preset, codecs/presets.h): the template's {input}, {output} and {threads} substituted
 * shell-quoted, run with /bin/sh -c in its own process group, timed like codec_job
 * (input page cache dropped first, start .. the child's exit, then the output's fsync)
 * and recorded in the same compress_record_t, so sweep rows, runs.csv and the reports
 * take it unchanged. */
#ifndef CP_COMMAND_JOB_H
#define CP_COMMAND_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "codecs/codec.h"
#include "codecs/presets.h"
#include "common/err.h"
#include "measure/codec_job.h"
#include "measure/sink.h"

#define CMD_TEMPLATE_MAX 4096
#define COMMAND_SERIES_MAX 32   /* "cmd:NAME" with its NUL, as compress_record_t.codec */
#define CMD_STDERR_FIRST 200 /* bytes of the first line of the command's stderr and */
#define CMD_STDERR_TAIL 400  /* of its end, kept in an error message */
#define CMD_ERROR_STDERR 420 /* of the error message, at most, for both */

/* One command series of a sweep: the template and its name in reports ("cmd:NAME"). */
typedef struct cmd_series {
    char template_text[CMD_TEMPLATE_MAX];
    char series[COMMAND_SERIES_MAX];
    char preset[COMMAND_SERIES_MAX]; /* the preset it came from ("zstd-cli:3"); "" for --cmd */
    bool restores;               /* the template restores an archive (command_series_restore) */
} command_series_t;

/* Checks a template: {input} and {output} each appear at least once and no placeholder is
 * written inside quotes (chokepoint quotes them itself). CP_EUSAGE saying why otherwise. */
int command_template_check(const char *template_text, cp_err_t *err);

/* Writes s single-quoted for /bin/sh into out (a ' becomes '\''), NUL-terminated.
 * Returns the length written, or -1 when it would not fit in cap (out is then "" ). */
long command_shell_quote(const char *s, char *out, size_t cap);

/* Substitutes {input}, {output} (shell-quoted) and {threads} in template_text into out;
 * other braces are left as they are. CP_OK, or CP_EUSAGE when the result exceeds cap. */
int command_template_expand(const char *template_text, const char *input, const char *output,
                        int threads, char *out, size_t cap, cp_err_t *err);

/* Fills s from --cmd TEMPLATE and --cmd-name NAME (NULL: the basename of the template's
 * first word). CP_EUSAGE for a bad template or a name that does not fit. */
int command_series_make(const char *template_text, const char *name, command_series_t *s,
                    cp_err_t *err);

/* True when spec names a preset ("zstd-cli:3", "xz-cli:6e", "pigz:6"; the part before
 * ':' is what is matched). */
bool command_preset_is(const char *spec);

/* Expands a preset spec into its template and series ("cmd:zstd-cli:3"). CP_EUSAGE for
 * an unknown preset or a level out of its range. */
int command_preset_expand(const char *spec, command_series_t *s, cp_err_t *err);

/* Turns a preset's series into its decompression: the program restoring {input}, an
 * archive of the built-in codec the preset's format matches, which is stored in
 * *archive_codec ("zstd-cli:3": `zstd -q -d -c < {input} > {output}` and zstd:3; "xz-cli:6":
 * `xz -q -d -T{threads} ...` and xz:6). CP_EUSAGE for a --cmd template (its format is
 * unknown) or a preset no built-in codec writes (pigz). */
int command_series_restore(command_series_t *s, codec_spec_t *archive_codec, cp_err_t *err);

typedef struct command_job {
    const char *input_path;
    const command_series_t *command;
    int threads;
    /* Exactly one destination: */
    /* {output} is a temporary file in the target's output directory (its ops'
     * output_dir), removed after the run; a FIFO as for discard when it has none (mem) */
    const target_spec_t *target;
    bool discard; /* {output} is a FIFO chokepoint reads and counts (a restore into memory) */
    sync_mode_t sync;        /* fsync or none; direct cannot reach a command's writes and
                                falls back to fsync (rec->sync_fell_back) */
    bool warm;               /* keep the input's page cache */
    /* A decompression (command_series_restore): the input is an archive that must restore to
     * exactly this many bytes, else the run fails. The record then counts the restored
     * bytes as its input and the archive as its output, as codec_job does. 0: none. */
    uint64_t restores_bytes;
} command_job_t;

/* Runs the command once and fills rec: codec is the series name, run.seconds the start
 * .. exit (pipeline_s) plus the output's fsync and close (flush_s), cpu_* and
 * max_rss_bytes the children's (wait4), run.output_bytes what reached {output}.
 * A non-zero exit, a kill or an empty output is CP_EIO with the command's last stderr
 * lines in err; an interrupt kills the child's process group and returns CP_EINTR. Every
 * file it creates is removed before it returns. */
int command_job_run(const command_job_t *job, compress_record_t *rec, cp_err_t *err);

#endif
