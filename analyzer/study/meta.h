/* meta.h - the status rules of a study's meta.json. While `run` works, meta.json says
 * "running" and the stage reached ("fixture", "probe", "sweep", "analyze"); at the end
 * "complete" (stage "done"), "interrupted" or "failed" (the stage that stopped). A reader
 * adds one state of its own: "abandoned", recorded as running while no live process holds
 * the directory's lock (the process died). The file itself is read and written by
 * tables/meta_json.h (meta_read, meta_write). */
#ifndef CP_STUDY_META_H
#define CP_STUDY_META_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Writes meta to DIR/meta.json; a write that fails is a warning (the study goes on). */
void study_meta_write(const json_t *meta, const char *dir);

/* Records in meta that the study is running at stage and writes DIR/meta.json; a write
 * that fails is a warning (the study goes on). */
void study_meta_running(json_t *meta, const char *dir, const char *stage);

/* Records in meta that stage stopped with rc (CP_EINTR: "interrupted", else "failed");
 * meta.json is written by study_meta_end. */
void study_meta_stopped(json_t *meta, int rc, const char *stage);

/* The last record of a study: "complete" at "done" when rc is CP_OK (otherwise the
 * study_meta_stopped record stays), and whether some runs failed; writes DIR/meta.json, a
 * failure being a warning. */
void study_meta_end(json_t *meta, const char *dir, int rc, bool some_runs_failed);

/* What a results directory's meta.json says: "complete", "running", "interrupted",
 * "failed", or "abandoned" (it says running, but no live process holds the directory's
 * lock: the process died). NULL when dir holds no readable meta.json. *stage (may be NULL)
 * gets the stage reached (static storage, "" when unknown). */
const char *study_dir_status(const char *dir, const char **stage);

/* One sentence for analyze, plot and the report when dir's study did not complete
 * ("abandoned: its process died during stage 'sweep' ...; 'chokepoint run --resume DIR'
 * continues it"), written into buf; NULL when it completed or dir has no meta.json. */
const char *study_dir_note(const char *dir, char *buf, size_t cap);

#endif
