/*
 * sweep_lock.h - one `vimana sweep` at a time in a results folder.
 *
 * A sweep writes its files under fixed names (DIR/points/NNNN/result.json
 * through result.json.tmp, DIR/.results.csv, ...): two sweeps into one
 * --out would overwrite each other's half-written files. The first takes
 * an flock(2) on DIR/.sweep.lock; the second is refused at once. The
 * kernel drops the lock when its holder exits, however it ends, so a
 * killed sweep leaves no stale lock behind (the empty file stays).
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_LOCK_H
#define VIMANA_CMD_SWEEP_SWEEP_LOCK_H

#include <stddef.h>

/* The lock file's name inside the results folder. */
#define SWEEP_LOCK_NAME ".sweep.lock"

/* Takes the lock of the existing folder `dir`. Returns an open descriptor
 * (close it, or exit, to release), or -1 with one line in why: "DIR: another
 * vimana sweep is writing into this folder (process PID); wait for it or
 * choose another --out", or "DIR/.sweep.lock: cannot open: REASON". */
int sweep_lock_take(const char *dir, char *why, size_t len);

#endif
