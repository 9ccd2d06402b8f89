/* parse.h - the command line's small languages: sizes, rates, thread lists, targets.
 *
 * Each parser takes a NUL-terminated string, fills its output only on success, and on
 * failure returns CP_EUSAGE with a message in err that quotes the text and gives the
 * accepted form. None of them allocates except parse_thread_list (caller frees). */
#ifndef CP_CLI_PARSE_H
#define CP_CLI_PARSE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/bounds.h"
#include "common/err.h"
#include "measure/series.h"
#include "measure/target.h"


/* A size: "512", "4K", "1.5G" (K M G T = powers of 1024; KiB MiB GiB TiB too) or "10MB"
 * (KB MB GB TB = powers of 1000). An optional "B" alone means bytes. Units are read in any
 * case ("10mb" = 10MB, "4k" = 4K). Must be >= 0 and fit in 63 bits; a fraction needs a
 * unit ("1.5" is CP_EUSAGE, "1.5G" is fine) and fractional byte counts are rounded down. */
int parse_size(const char *text, uint64_t *out, cp_err_t *err);

/* A rate in bytes per second: "400MB/s", "1.5GB/s", "200MiB/s", "1GiB/s", "800KB/s",
 * "100B/s". The unit is required; the value must be > 0. */
int parse_rate(const char *text, double *out_bps, cp_err_t *err);

/* A thread list: "4", "1,2,4", "1..8", or a mix "1,2,4..6". Each count in 1..1024; ranges
 * must not run backwards; duplicates are dropped; order is ascending. On success *out is a
 * malloc'd array of *count ints that the caller frees. */
int parse_thread_list(const char *text, int **out, size_t *count, cp_err_t *err);

/* A block or chunk size: a size (as parse_size) from 4K to 1G. `what` names it in the
 * message ("block size", "--block"). */
int parse_block_size(const char *text, const char *what, size_t *out, cp_err_t *err);

/* The default thread list, 1..the number of CPUs this process may run on (its affinity; the
 * online CPUs where that is unknown), as the oversubscription warning counts them. *out is
 * malloc'd (caller frees). */
int thread_list_all_cpus(int **out, size_t *count, cp_err_t *err);

/* The verdict tolerance: a fraction from 0 to below 1 ("0.10"). *out is set only on
 * success. */
int parse_tolerance(const char *text, double *out, cp_err_t *err);

/* A percentage option (--threshold, --fail-on-regression): 0 <= PCT < 100, '%' allowed
 * at the end ("2" or "2%"), as a fraction into *out. CP_EUSAGE naming `option` and the
 * text otherwise. */
int parse_percentage(const char *option, const char *text, double *out, cp_err_t *err);

/* A positive integer option value ("--reps 3"): digits only, 1..max. `what` names the
 * option in the message. */
int parse_positive_int(const char *text, const char *what, long max, long *out, cp_err_t *err);

/* Parses a TARGET "[NAME=]DIR[@CAP]". CAP is a RATE (an emulated write cap, as ever) or
 * keyed: "write=RATE", "read=RATE" or both, comma-separated in either order, into
 * rate_cap_bps and read_cap_bps (each key at most once; RATE as parse_rate). A text that a
 * kind claims as its own (target_parse_kind: the bare word "mem" is the memory target,
 * output counted and discarded) is that kind's; "mem" is reserved and may not name a
 * directory target. The name defaults to DIR. Only the syntax is checked here;
 * target_check() looks at the filesystem. CP_EUSAGE quoting the whole TARGET otherwise
 * (with the kinds' forms, target_forms_text, where the text fits none). */
int parse_target(const char *text, target_spec_t *out, cp_err_t *err);

/* Writes to out the paragraph of a command's --help that teaches TARGET: lead (the
 * command's words on the [NAME=]DIR form and its caps), a sentence for each kind given by
 * a text of its own (target_kinds_help; with volume_only only those with a volume, for a
 * command that measures volumes), then trail, wrapped as options_help_paragraph wraps. */
void parse_target_help(FILE *out, const char *lead, bool volume_only, const char *trail);

/* Parses -c LIST, comma-separated codecs and presets ("zstd:3,zstd-cli:3"), appending
 * them to the malloc'd list *out of *count series (NULL and 0 for a new one; the caller
 * frees *out), so that -c given twice adds both: a codec is a codec series, a preset a
 * command series (command_preset_expand). CP_EUSAGE for a bad or empty item or one already
 * in the list (*out then freed and NULL, *count 0). */
int parse_series_list(const char *text, series_spec_t **out, size_t *count, cp_err_t *err);

#endif
