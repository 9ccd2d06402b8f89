#!/usr/bin/env bash
# Sets up chokepoint (scripts/setup.sh) and runs the main job on the built-in default: a
# generated `mixed` fixture, compressed with 1..N threads to the local targets (the
# results volume, /dev/shm when present, and memory), then analysed and plotted into
# results/<stamp>-<host>/. Extra arguments go to `chokepoint run`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/chokepoint run "$@"
