/* cleanup.c - the interrupt flag and handlers, and the list of files and settings put back
 * or removed when chokepoint exits or is interrupted (cleanup.h). */
#include "common/cleanup.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLEANUP_SLOTS 64

/* Fixed storage so the signal handler never touches the heap. A slot is live while its
 * flag is set; the path is written before the flag is raised. */
static char cleanup_paths[CLEANUP_SLOTS][PATH_MAX];
static char cleanup_promote_to[CLEANUP_SLOTS][PATH_MAX]; /* "" = delete */
static atomic_int cleanup_live[CLEANUP_SLOTS];
static volatile sig_atomic_t interrupted_flag;

#define SETTING_SLOTS 4
static held_setting_t *_Atomic held_settings[SETTING_SLOTS];

#define UNDO_SLOTS 4
static void (*_Atomic undo_on_abort[UNDO_SLOTS])(void);

/* Calls every function registered with cp_cleanup_on_abort, once each. */
static void run_undos(void)
{
    for (int i = 0; i < UNDO_SLOTS; i++) {
        void (*undo)(void) = atomic_exchange(&undo_on_abort[i], NULL);
        if (undo != NULL)
            undo();
    }
}

static void on_signal(int sig)
{
    (void)sig;
    if (interrupted_flag) {
        run_undos();
        cp_cleanup_unlink_all();
        cp_cleanup_settings_restore();
        _exit(130);
    }
    interrupted_flag = 1;
}

void cp_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL); /* a closed terminal or ssh session: unwind the same */
    signal(SIGPIPE, SIG_IGN);
}

bool cp_interrupted(void) { return interrupted_flag != 0; }

void cp_set_interrupted(bool on) { interrupted_flag = on ? 1 : 0; }

/* Claims a free slot of live[0..n): marks it 2 (being written; the caller fills it and
 * stores 1, live) and returns its index, or -1 when all are taken. */
static int claim_slot(atomic_int *live, int n)
{
    for (int i = 0; i < n; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&live[i], &expected, 2))
            return i;
    }
    return -1;
}

static int track(const char *path, const char *promote_to)
{
    if (strlen(path) >= PATH_MAX || strlen(promote_to) >= PATH_MAX)
        return -1;
    int i = claim_slot(cleanup_live, CLEANUP_SLOTS);
    if (i >= 0) {
        strcpy(cleanup_paths[i], path);
        strcpy(cleanup_promote_to[i], promote_to);
        atomic_store(&cleanup_live[i], 1);
    }
    return i;
}

int cp_cleanup_track(const char *path) { return track(path, ""); }

int cp_cleanup_track_promote(const char *path, const char *final_path)
{
    return track(path, final_path);
}

void cp_cleanup_forget(int id)
{
    if (id >= 0 && id < CLEANUP_SLOTS)
        atomic_store(&cleanup_live[id], 0);
}

void cp_cleanup_unlink(int id)
{
    if (id >= 0 && id < CLEANUP_SLOTS && atomic_load(&cleanup_live[id]) == 1) {
        unlink(cleanup_paths[id]);
        atomic_store(&cleanup_live[id], 0);
    }
}

void cp_cleanup_unlink_all(void)
{
    for (int i = 0; i < CLEANUP_SLOTS; i++) {
        if (atomic_load(&cleanup_live[i]) != 1)
            continue;
        /* link() never replaces: when the final name is taken the rows stay under the
         * temporary name rather than being lost. */
        if (cleanup_promote_to[i][0] == '\0' || link(cleanup_paths[i], cleanup_promote_to[i]) == 0)
            unlink(cleanup_paths[i]);
    }
}

int cp_cleanup_on_abort(void (*undo)(void))
{
    for (int i = 0; i < UNDO_SLOTS; i++) {
        if (atomic_load(&undo_on_abort[i]) == undo)
            return 0;
        void (*expected)(void) = NULL;
        if (atomic_compare_exchange_strong(&undo_on_abort[i], &expected, undo))
            return 0;
    }
    return -1;
}

int cp_cleanup_remember_setting(held_setting_t *h)
{
    /* Released at exit by whatever process raised it: chokepoint's main, a unit test that
     * runs a job, a program that links the layers. Registered once, with the first. */
    static atomic_flag registered = ATOMIC_FLAG_INIT;
    if (!atomic_flag_test_and_set(&registered))
        atexit(cp_cleanup_settings_restore);
    for (int i = 0; i < SETTING_SLOTS; i++) {
        held_setting_t *expected = NULL;
        if (atomic_compare_exchange_strong(&held_settings[i], &expected, h))
            return 0;
    }
    return -1;
}

void cp_cleanup_settings_restore(void)
{
    for (int i = 0; i < SETTING_SLOTS; i++) {
        held_setting_t *h = atomic_exchange(&held_settings[i], NULL);
        if (h != NULL)
            held_setting_release(h);
    }
}

void cp_cleanup_settings_forget_in_child(void)
{
    for (int i = 0; i < SETTING_SLOTS; i++) {
        held_setting_t *h = atomic_exchange(&held_settings[i], NULL);
        if (h != NULL)
            held_setting_forget_in_child(h);
    }
}

void cp_cleanup_settings_orphan_in_child(void)
{
    for (int i = 0; i < SETTING_SLOTS; i++) {
        held_setting_t *h = atomic_load(&held_settings[i]);
        if (h != NULL)
            held_setting_forget_in_child(h);
    }
}

void cp_cleanup_settings_restore_orphaned(void)
{
    for (int i = 0; i < SETTING_SLOTS; i++) {
        held_setting_t *h = atomic_exchange(&held_settings[i], NULL);
        if (h != NULL)
            held_setting_put_back_orphaned(h);
    }
}
