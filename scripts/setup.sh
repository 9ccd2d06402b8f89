#!/usr/bin/env bash
# Installs every Debian package chokepoint needs to build, test and plot, then builds it
# into build/. Idempotent: when everything is installed and built, it only re-runs make.
#   scripts/setup.sh [--build-dir DIR] [extra cmake -D options...]
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=build
if [ "${1:-}" = "--build-dir" ]; then
    build_dir=$2
    shift 2
fi

packages=(
    build-essential cmake pkg-config        # toolchain
    libzstd-dev liblzma-dev                 # codecs
    libgsl-dev libjansson-dev libcsv-dev libxxhash-dev   # fitting, JSON, CSV, hashing
    libcmocka-dev                           # unit tests
    zstd xz-utils fio                       # peer tools the tests and benchmarks compare with
    gnuplot-nox                             # plots
    clang libclang-rt-14-dev                # fuzzing and sanitizer builds
    valgrind util-linux procps file time bc # memory checks, mount/losetup, ps, file types, benchmarks
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if [ ! -f "$build_dir/CMakeCache.txt" ]; then
    cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >&2
fi
cmake --build "$build_dir" -j "$(nproc)" >&2
