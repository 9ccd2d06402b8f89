/* cleanup.h - interrupt handling and the list of files chokepoint must not leave behind.
 *
 * SIGINT, SIGTERM and SIGHUP set a flag that long-running loops poll with cp_interrupted(); they
 * then unwind normally, remove what they created and return CP_EINTR (exit 130). A second
 * signal while unwinding removes every registered file from the handler and exits 130
 * at once, so a stuck write cannot keep junk on a disk. */
#ifndef CP_CLEANUP_H
#define CP_CLEANUP_H

#include <stdbool.h>

#include "common/held_setting.h"

/* Installs the SIGINT/SIGTERM/SIGHUP handlers. Safe to call more than once. */
void cp_signals_install(void);

/* True once SIGINT, SIGTERM or SIGHUP has been received. Async-signal-safe. */
bool cp_interrupted(void);

/* For tests: pretend a signal arrived (or clear the flag). */
void cp_set_interrupted(bool on);

/* Registers a path to delete if the process is interrupted or fails. Returns a slot id
 * (>= 0) for cp_cleanup_forget, or -1 when all slots are used (the path is not tracked). */
int cp_cleanup_track(const char *path);

/* Like cp_cleanup_track, for a temporary file of results that must survive an interrupt
 * (rows already measured): on a second signal it is hard-linked to final_path (when that
 * name is free) and the temporary name removed, instead of being deleted. -1 when no slot
 * is free or a path is too long. */
int cp_cleanup_track_promote(const char *path, const char *final_path);

/* Stops tracking slot id (the file was renamed into place or deleted by its owner). */
void cp_cleanup_forget(int id);

/* Unlinks the tracked file in slot id, if any, and forgets it. */
void cp_cleanup_unlink(int id);

/* Unlinks every tracked file, promoting the ones tracked with cp_cleanup_track_promote
 * (async-signal-safe). */
void cp_cleanup_unlink_all(void);

/* Registers undo, an async-signal-safe function that takes down something the system
 * would otherwise keep after the process ends (a mount, a block throttle rule), to be
 * called by a second signal before the tracked files are removed. Registering one twice
 * keeps one entry. Returns 0, or -1 when no slot is free. Its owner still undoes it on
 * the normal path. */
int cp_cleanup_on_abort(void (*undo)(void));

/* Remembers a kernel setting this process holds raised (common/held_setting.h) so that it
 * is released when the process exits (the first call registers cp_cleanup_settings_restore
 * with atexit, in whatever program raised it) or is ended by a second signal. h must live until then (static storage). Returns
 * 0, or -1 when no slot is free (then release it yourself). */
int cp_cleanup_remember_setting(held_setting_t *h);

/* Releases every remembered setting (held_setting_release: the last live holder puts the
 * original value back), once each. Async-signal-safe. */
void cp_cleanup_settings_restore(void);

/* In a child just forked that will not exec: drops the child's copies of the remembered
 * settings' holds (held_setting_forget_in_child), so that the parent, when it ends, is
 * the last holder. Async-signal-safe. */
void cp_cleanup_settings_forget_in_child(void);

/* In a child just forked that will not exec and outlives this process (the guardian):
 * drops the child's copies of the holds as cp_cleanup_settings_forget_in_child does, but
 * remembers the settings, so cp_cleanup_settings_restore_orphaned can put them back once
 * the parent died. Async-signal-safe. */
void cp_cleanup_settings_orphan_in_child(void);

/* In that child, once the parent died without releasing them: puts each remembered
 * setting back when no live process holds it any more (held_setting_put_back_orphaned).
 * Async-signal-safe. */
void cp_cleanup_settings_restore_orphaned(void);

#endif
