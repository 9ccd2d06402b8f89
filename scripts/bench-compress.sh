#!/usr/bin/env bash
# Compares chokepoint's built-in engines with the zstd and xz CLIs through chokepoint itself:
# one `sweep` per engine and sync mode whose codec list holds both the built-in codec and the
# CLI's preset (zstd:3,zstd-cli:3; see `chokepoint sweep --help`), so both compress the same
# `mixed` fixture onto the same directory and into memory, timed the same way (input cache
# dropped, until the output's fsync per --sync), in one shuffled order. Prints per case the
# median input MB/s of both, the ratio chokepoint/CLI, and the mean user and system CPU
# seconds of both; then checks that chokepoint's peak RSS does not grow with the input.
#   scripts/bench-compress.sh [DIR] [SIZE] [REPS]     (defaults: build/bench, 1G, 3)
# Environment: CODECS (default "zstd:3 xz:6"), THREADS ("1 2"), SYNCS ("fsync none"),
# ENGINES ("blocks native"), BENCH_LARGE=0 skips the 4 x SIZE memory check, BENCH_WARM=0
# the warm-input whole-process comparison (WARM_RUNS, default 8). xz -6 runs at a
# few MB/s per core, so a full 1 GiB xz:6 matrix takes hours on a small machine:
# CODECS="zstd:3 xz:1" is quicker. The runs tables stay in DIR/bench-*.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/bench}
size=${2:-1G}
reps=${3:-3}
cp=build/chokepoint
[ -x "$cp" ] || scripts/setup.sh --with-bench
command -v zstd > /dev/null && command -v xz > /dev/null || scripts/setup.sh --with-bench
mkdir -p "$dir/out"

codec_list() { # zstd:3 xz:6 -> zstd:3,zstd-cli:3,xz:6,xz-cli:6
    local c out=""
    for c in ${CODECS:-zstd:3 xz:6}; do out+="${out:+,}$c,${c%%:*}-cli:${c#*:}"; done
    echo "$out"
}

# summarize CSV ENGINE SYNC: one line per target x codec x threads, the built-in codec
# against its CLI.
summarize() {
    awk -F, -v engine="$2" -v sync="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["valid"] == 1 {
            key = $c["target"] SUBSEP $c["codec"] SUBSEP $c["threads"]
            n[key]++; v[key, n[key]] = $c["bytes_per_s"] / 1e6
            user[key] += $c["cpu_user_s"]; sys[key] += $c["cpu_sys_s"]
        }
        function median(key,   i, j, t, a, m) {
            m = n[key]
            for (i = 1; i <= m; i++) a[i] = v[key, i]
            for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        END {
            for (key in n) {
                split(key, k, SUBSEP)
                if (k[2] ~ /^cmd:/) continue
                split(k[2], cl, ":"); cli = k[1] SUBSEP "cmd:" cl[1] "-cli:" cl[2] SUBSEP k[3]
                if (!(cli in n)) continue
                a = median(key); b = median(cli)
                printf "%-5s %-7s T%-3s %-7s %-6s %9.1f %9.1f %7.3f %6.2f/%-6.2f %6.2f/%-6.2f\n",
                    k[1], k[2], k[3], engine, sync, a, b, (b > 0 ? a / b : 0),
                    user[key] / n[key], sys[key] / n[key], user[cli] / n[cli], sys[cli] / n[cli]
            }
        }' "$1" | sort -k1,1 -k2,2 -k3,3V
}

input="$dir/mixed-$size.bin"
[ -f "$input" ] || "$cp" fixture -o "$input" --size "$size" --kind mixed --seed 1 -q
threads=$(echo ${THREADS:-1 2} | tr ' ' ,)
printf '%s mixed fixture (%s bytes), %s reps, median input MB/s; CPU = mean user/sys seconds\n' \
    "$size" "$(stat -c %s "$input")" "$reps"
printf '%-5s %-7s %-4s %-7s %-6s %9s %9s %7s %13s %13s\n' target codec T engine sync chokepoint cli \
    ratio cp_cpu cli_cpu
for sync in ${SYNCS:-fsync none}; do
    for engine in ${ENGINES:-blocks native}; do
        csv="$dir/bench-$engine-$sync.csv"
        "$cp" sweep -i "$input" --codec "$(codec_list)" -T "$threads" --engine "$engine" \
            --sync "$sync" --reps "$reps" --seed 1 -q -o "$csv" --force disk="$dir/out" mem
        summarize "$csv" "$engine" "$sync"
    done
done

# Whole processes with a warm input and no fsync (the case where the CLI does least work
# beside compressing): `chokepoint compress` against `zstd -3 -T2`, alternating, onto the
# directory; median wall seconds of WARM_RUNS (default 8) each.
if [ "${BENCH_WARM:-1}" = 1 ]; then
    cat "$input" > /dev/null
    wall() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }
    median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
    : > "$dir/warm-cli"; : > "$dir/warm-blocks"; : > "$dir/warm-native"
    for _ in $(seq "${WARM_RUNS:-8}"); do
        wall sh -c "zstd -q -3 -T2 -c '$input' > '$dir/out/cli.zst'" >> "$dir/warm-cli"
        for engine in blocks native; do
            wall "$cp" compress -i "$input" -o "$dir/out/cp.zst" --codec zstd:3 -T 2 --engine "$engine" \
                --warm --sync none --force -q >> "$dir/warm-$engine"
        done
    done
    cli=$(median < "$dir/warm-cli")
    for engine in blocks native; do
        t=$(median < "$dir/warm-$engine")
        printf 'warm input, no fsync, zstd:3 T2, whole processes: %s %.3f s, zstd CLI %.3f s, throughput ratio %.3f\n' \
            "$engine" "$t" "$cli" "$(echo "$cli / $t" | bc -l)"
    done
    rm -f "$dir/out/cli.zst" "$dir/out/cp.zst"
fi

if [ "${BENCH_LARGE:-1}" = 1 ]; then
    command -v /usr/bin/time > /dev/null || scripts/setup.sh --with-bench
    # Peak RSS must not grow with the input: the same case on a 4x larger file.
    large=$(numfmt --from=iec "$size"); large=$((large * 4))
    big="$dir/mixed-large.bin"
    [ -f "$big" ] || "$cp" fixture -o "$big" --size "$large" --kind mixed --seed 1 -q
    for engine in blocks native; do
        small_rss=$(/usr/bin/time -f %M "$cp" compress -i "$input" -o /dev/null -T 2 --engine $engine -q 2>&1 >/dev/null | tail -1)
        large_rss=$(/usr/bin/time -f %M "$cp" compress -i "$big" -o /dev/null -T 2 --engine $engine -q 2>&1 >/dev/null | tail -1)
        printf 'peak RSS zstd:3 T2 %s: %s input %.1f MB, 4x input %.1f MB, ratio %.3f\n' "$engine" "$size" \
            "$(echo "$small_rss / 1024" | bc -l)" "$(echo "$large_rss / 1024" | bc -l)" "$(echo "$large_rss / $small_rss" | bc -l)"
    done
    rm -f "$big"
fi
