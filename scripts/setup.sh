#!/usr/bin/env bash
# Installs the Debian packages chokepoint needs, then builds it into build/. Idempotent:
# when everything is installed and built, it only re-runs make.
#   scripts/setup.sh [--build-dir DIR] [--with-tests] [--with-fuzz] [--with-bench]
#                    [--packages-only] [extra cmake -D options...]
# With no --with-* option it installs what the build and the main job (`chokepoint run`,
# plots included) need. The groups add:
#   --with-tests   the unit-test library and the tools the test suite and the sanitizer
#                  builds (scripts/test.sh, scripts/ci-sanitize.sh) use
#   --with-fuzz    clang, the clang runtime and OpenMP runtime matching its version
#                  (scripts/fuzz.sh, scripts/tsan-pipeline.sh)
#   --with-bench   the peer and measuring tools of the bench-*.sh and valgrind scripts
# --packages-only installs and stops (no build).
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=build
with_tests=0 with_fuzz=0 with_bench=0 packages_only=0
while [ $# -gt 0 ]; do
    case $1 in
    --build-dir) build_dir=$2; shift 2 ;;
    --with-tests) with_tests=1; shift ;;
    --with-fuzz) with_fuzz=1; shift ;;
    --with-bench) with_bench=1; shift ;;
    --packages-only) packages_only=1; shift ;;
    *) break ;;
    esac
done

packages=(
    build-essential cmake pkg-config        # toolchain
    libzstd-dev liblzma-dev                 # codecs
    libgsl-dev libjansson-dev libcsv-dev libxxhash-dev   # fitting, JSON, CSV, hashing
    libmount-dev                            # the mount table (util-linux libmount)
    gnuplot-nox                             # plots
    e2fsprogs                               # mkfs.ext4: an emulated disk (DIR@RATE, as root)
)
if [ $with_tests = 1 ]; then
    # cmocka for the unit tests; zstd, xz and pigz to check what chokepoint writes and to
    # run the CLI presets; setpriv (util-linux) to check permission errors as root; mount,
    # losetup, mkfs.ext4, ps and file types for the volume, lab and signal tests; jq and
    # python3 to read the JSON the tests check; fio and hyperfine, whose JSON `chokepoint
    # import` reads, run for real. The sanitizer build uses gcc's ASan and UBSan, which
    # come with build-essential.
    packages+=(libcmocka-dev zstd xz-utils pigz util-linux e2fsprogs procps file jq python3
               fio hyperfine)
fi
if [ $with_fuzz = 1 ]; then
    packages+=(clang)
fi
if [ $with_bench = 1 ]; then
    # zstd, xz and pigz: the programs behind the --codec zstd-cli/xz-cli/pigz presets.
    packages+=(zstd xz-utils pigz fio valgrind time bc jq util-linux e2fsprogs)
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
updated=0
install_missing() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    echo "setup: installing ${missing[*]}" >&2
    if [ $updated = 0 ]; then
        $SUDO apt-get update -qq
        updated=1
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}
install_missing "${packages[@]}"
if [ $with_fuzz = 1 ]; then
    # libFuzzer and the sanitizer runtimes ship apart from clang, versioned like it: take
    # the one matching the clang just found rather than pinning a version here.
    major=$(clang --version | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -n 1)
    [ -n "$major" ] || { echo "setup: cannot tell the version of clang" >&2; exit 1; }
    install_missing "libclang-rt-$major-dev" "libomp-$major-dev"
fi
[ $packages_only = 0 ] || exit 0

# The tests need cmocka: build them when asked for, or when an earlier setup left them on
# in this build directory, or when cmocka happens to be installed.
testing=OFF
if [ $with_tests = 1 ] || pkg-config --exists cmocka; then
    testing=ON
fi
cached=$(sed -n 's/^BUILD_TESTING:BOOL=//p' "$build_dir/CMakeCache.txt" 2>/dev/null || true)
if [ -z "$cached" ] || { [ "$testing" = ON ] && [ "$cached" != ON ]; }; then
    cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING="$testing" "$@" >&2
fi
cmake --build "$build_dir" -j "$(nproc)" >&2
