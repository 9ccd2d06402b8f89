/* study.h - the whole study into one results directory: fixture (when no input is given),
 * probe, sweep, analysis and plots, with meta.json kept up to date at every stage so an
 * interrupted or failed study says where it stopped.
 *
 * The command line (cli/cmd_run.c) fills a study_t's parameters; study_execute does the
 * rest, in a session (study/session.h) that owns the results directory. `run --resume`
 * reads the recorded study back with study/study_resume.h. The caller owns the study_t's
 * series and threads arrays and frees them (cli/cmd_run.c) after study_execute. */
#ifndef CP_STUDY_STUDY_H
#define CP_STUDY_STUDY_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/dirlock.h"
#include "common/err.h"
#include "measure/sweep.h"
#include "measure/target.h"
#include "measure/volume.h"
#include "report/plot.h"

#define RUN_DEFAULT_FIXTURE ((uint64_t)1 << 30)
#define RUN_QUICK_FIXTURE ((uint64_t)64 << 20)
#define RUN_MIN_FIXTURE ((uint64_t)1 << 20) /* smaller studies time only overheads */
#define RUN_MAX_TARGETS 64
/* The generated input is the same bytes on every machine, so studies compare; --seed
 * shuffles the run and probe orders only. */
#define RUN_FIXTURE_SEED 1
#define STUDY_PATH_MAX (PATH_MAX + 32) /* the results directory plus a file name */

/* Everything one study needs; filled from the command line, then by each stage. */
typedef struct study {
    const char *input_arg;
    uint64_t fixture_size;
    bool fixture_size_given;
    sweep_params_t sweep;
    series_spec_t *series; /* what runs (s->sweep.series once it runs) */
    int *threads;
    target_spec_t targets[RUN_MAX_TARGETS];
    volume_info_t volumes[RUN_MAX_TARGETS];
    size_t n_targets;
    bool reps_given, seed_given, probe, keep_input, quick;
    plot_format_t format;
    const char *out_arg;
    bool out_reused;          /* --out named an existing empty directory, used as it is */
    char dir[PATH_MAX];
    char input[STUDY_PATH_MAX];
    bool made_input;
    uint64_t input_size;
    json_t *meta;
    bool some_failed;
    bool resume;              /* run --resume: s->meta is the recorded one, out_arg the dir */
    uint64_t max_memory;      /* --max-memory; 0: the memory available when it starts */
    dirlock_t lock;           /* held on dir while the study writes it */
    target_locks_t target_locks; /* held on every directory target while the study runs */
    char shm_dir[PATH_MAX];   /* the default 'shm' target's directory of the study's own in
                                 /dev/shm, removed at the end; "" when none */
    struct study_done *done;  /* resume: runs measured before (study_resume.h) */
} study_t;

/* Opens the study's session (session_open: the input checked, the targets locked, the
 * results directory made or resumed, meta.json recorded), runs every stage and closes the
 * session. CP_OK when the study completed (runs that failed are recorded and set
 * some_failed); otherwise the first error, with meta.json saying which stage stopped. The
 * generated fixture is removed unless keep_input. */
int study_execute(study_t *s, int argc, char **argv, cp_err_t *err);

#endif
