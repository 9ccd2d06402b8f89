/* emulated_disk.h - a disk of a given write speed standing in for a TARGET@RATE.
 *
 * The disk is an ext4 file system in a sparse image file inside the target's directory,
 * on a loop device (direct I/O, so its traffic reaches the volume under it, not a second
 * page cache) whose writes the kernel's block throttle caps at RATE for every writer, the
 * kernel's own write-back included. chokepoint's files on it are written as onto any
 * disk: the page cache takes them, the kernel's write-back drains them at the cap by the
 * host's thresholds, expiry and flusher period, and an fsync waits for the rest. Nothing
 * here models the drain: the kernel does it.
 *
 * It needs root, loop devices, mkfs.ext4 and a block throttle that covers the kernel's
 * write-back (cgroup v1's blkio groups). Where one is missing, or the study writes
 * with O_DIRECT (--sync direct), the target keeps chokepoint's own pacing of each write
 * (measure/throttle.h), which behaves like O_DIRECT onto a disk of that speed, and one
 * line says why. */
#ifndef CP_MEASURE_EMULATED_DISK_H
#define CP_MEASURE_EMULATED_DISK_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/target.h"

/* Brings up an emulated disk for every directory target of targets[0..n) with a write
 * cap, unless direct_writes (then pacing stays), and points its disk_dir at it. A target
 * whose disk cannot be made keeps per-write pacing; a warning names it and the reason,
 * and *why (when not NULL) gets the first reason ("" when every disk came up). Removes
 * the leftovers of killed chokepoint processes first. Call after the targets are locked
 * and before anything is measured; pair with emulated_disks_down. Never fails. */
void emulated_disks_up(target_spec_t *targets, size_t n, bool direct_writes, char *why,
                       size_t why_cap);

/* Takes down every emulated disk of targets[0..n) (the cap, the mount, the image) and
 * clears their disk_dir. Safe when none is up, twice, and on NULL targets. */
void emulated_disks_down(target_spec_t *targets, size_t n);

#endif
