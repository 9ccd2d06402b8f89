/* replay_record.h - the proof, kept outside a results directory, that the caller made the
 * study in it: `run` writes a small record into the caller's own state directory when it
 * creates a study, named by a random token that meta.json keeps ("replay_token"); `run
 * --resume` replays a recorded --cmd, DIR@RATE targets or cwd only when the record for that
 * token is found there and names the resumed directory and the same command line. A
 * meta.json alone cannot prove who wrote it: a copy made by another user is theirs.
 *
 * The state directory is root's /var/lib/chokepoint/studies, any other user's
 * $XDG_STATE_HOME/chokepoint/studies (or ~/.local/state/chokepoint/studies): each directory
 * on the way below /var/lib, $XDG_STATE_HOME or $HOME is made 0700 when missing, opened by
 * descriptor without following a symlink, and must be the caller's and writable by nobody
 * else ($XDG_STATE_HOME or $HOME too, and $XDG_STATE_HOME is made 0700 when missing).
 * Records are left there (about 200 bytes each). */
#ifndef CP_REPLAY_RECORD_H
#define CP_REPLAY_RECORD_H

#include <jansson.h>
#include <stddef.h>

#include "common/err.h"

/* A token's text: 128 random bits in lowercase hex, and its NUL. */
#define REPLAY_TOKEN_SIZE 33

/* Writes a new record for the study in the directory abs_dir (its real path) with the
 * command line cmd (meta.json's "command_line") and cwd (meta.json's "cwd", or NULL): a
 * new token into token, then the record by that name, created O_EXCL|O_NOFOLLOW (mode
 * 0600) through the state directory's descriptor and synced. CP_OK, or CP_EUSAGE / CP_EIO
 * saying why the state directory or the record cannot be had (nothing is left half
 * written). */
int replay_record_write(const char *abs_dir, const json_t *cmd, const char *cwd,
                        char token[REPLAY_TOKEN_SIZE], cp_err_t *err);

/* NULL when the caller's state directory holds a record for token (a regular file of the
 * caller's, writable by nobody else) naming abs_dir and the same command line and cwd.
 * Otherwise why not, as a clause for a message, into buf (never echoing token). */
const char *replay_record_missing(const char *token, const char *abs_dir, const json_t *cmd,
                                  const char *cwd, char *buf, size_t cap);

/* Where the caller's records are kept, for messages: into buf, which it returns. */
const char *replay_record_dir_text(char *buf, size_t cap);

#endif
