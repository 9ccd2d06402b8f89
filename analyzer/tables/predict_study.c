/* predict_study.c - the study predict starts from: the results directory or runs table
 * loaded and analysed, and the page-cache settings of the meta.json beside it
 * (predict_study.h). */
#include "tables/predict_study.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/tempfile.h"

int predict_study_load(const char *path, predict_study_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    out->writeback = (predict_writeback_t){NAN, NAN, NAN, NAN};
    analysis_options_t options = analysis_defaults();
    int rc = compare_input_load(path, &options, &out->input, err);
    if (rc != CP_OK)
        return rc;
    /* compare_input_load read the meta.json beside the runs table into its environment. */
    const study_env_t *env = &out->input->env;
    char dir[PATH_MAX], base[PATH_MAX];
    if (env->known && tempfile_split_path(out->input->runs_path, dir, base, NULL) == CP_OK &&
        (size_t)snprintf(out->meta_path, sizeof out->meta_path, "%s/meta.json", dir) >=
            sizeof out->meta_path)
        out->meta_path[0] = '\0';
    snprintf(out->hostname, sizeof out->hostname, "%s", env->hostname);
    out->writeback_known = env->known && env->dirty_background_bytes >= 0.0 &&
                           env->dirty_bytes >= 0.0;
    if (out->writeback_known)
        out->writeback = (predict_writeback_t){env->dirty_background_bytes, env->dirty_bytes,
                                                env->dirty_expire_s, env->dirty_writeback_s};
    return CP_OK;
}

void predict_study_release(predict_study_t *s)
{
    if (s == NULL)
        return;
    compare_input_free(s->input);
    s->input = NULL;
}
