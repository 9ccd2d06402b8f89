#!/usr/bin/env bash
# Compares chokepoint's built-in engines with the zstd and xz CLIs through chokepoint itself:
# one `sweep` per engine and sync mode whose codec list holds both the built-in codec and the
# CLI's preset (zstd:3,zstd-cli:3; see `chokepoint sweep --help`), so both compress the same
# `mixed` fixture onto the same directory and into memory, timed the same way (input cache
# dropped, until the output's fsync per --sync), in one shuffled order. Prints per case the
# median input MB/s of both, the ratios chokepoint/CLI of wall seconds, user and system
# CPU, and a SHORT line per case that falls short of the goal (throughput at least the
# CLI's; system time onto a disk at most 1.2x the CLI's); then the same for whole
# processes with a warm input (onto a new file, over the last output, the same after
# freeing memory, and to /dev/null); then checks that chokepoint's peak RSS does not grow
# with the input.
#   scripts/bench-compress.sh [DIR] [SIZE] [REPS]     (defaults: build/bench, 1G, 3)
# Environment: CODECS (default "zstd:3 xz:6"), THREADS ("1 2"), SYNCS ("fsync none"),
# ENGINES ("blocks native"), BENCH_SWEEP=0 skips the sweeps, BENCH_LARGE=0 the 4 x SIZE
# memory check, BENCH_WARM=0 the warm-input whole-process comparison (WARM_RUNS, default
# 8), CHOKEPOINT another build of chokepoint to measure (default build/chokepoint). xz -6
# runs at a few MB/s per core, so a full 1 GiB xz:6 matrix takes hours on a small
# machine: CODECS="zstd:3 xz:1" is quicker. The runs tables stay in DIR/bench-*.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/bench}
size=${2:-1G}
reps=${3:-3}
cp=${CHOKEPOINT:-build/chokepoint}
[ -x "$cp" ] || scripts/setup.sh --with-bench
command -v zstd > /dev/null && command -v xz > /dev/null || scripts/setup.sh --with-bench
mkdir -p "$dir/out"

codec_list() { # zstd:3 xz:6 -> zstd:3,zstd-cli:3,xz:6,xz-cli:6
    local c out=""
    for c in ${CODECS:-zstd:3 xz:6}; do out+="${out:+,}$c,${c%%:*}-cli:${c#*:}"; done
    echo "$out"
}

# summarize CSV ENGINE SYNC: one line per target x codec x threads, the built-in codec
# against its CLI: median input MB/s of both, then chokepoint/CLI ratios of the median
# seconds (wall), the mean user and the mean system CPU seconds; then a SHORT line for
# each case where chokepoint's throughput is under the CLI's, or, on a directory target,
# its system time is over 1.2x the CLI's (the write path's goal, docs/method.md).
summarize() {
    awk -F, -v engine="$2" -v sync="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["valid"] == 1 {
            key = $c["target"] SUBSEP $c["codec"] SUBSEP $c["threads"]
            n[key]++; v[key, n[key]] = $c["bytes_per_s"] / 1e6; w[key, n[key]] = $c["seconds"]
            user[key] += $c["cpu_user_s"]; sys[key] += $c["cpu_sys_s"]
        }
        function median(arr, key,   i, j, t, a, m) {
            m = n[key]
            for (i = 1; i <= m; i++) a[i] = arr[key, i]
            for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        function ratio(a, b) { return b > 0 ? a / b : 0 }
        END {
            for (key in n) {
                split(key, k, SUBSEP)
                if (k[2] ~ /^cmd:/) continue
                split(k[2], cl, ":"); cli = k[1] SUBSEP "cmd:" cl[1] "-cli:" cl[2] SUBSEP k[3]
                if (!(cli in n)) continue
                a = median(v, key); b = median(v, cli)
                rw = ratio(median(w, key), median(w, cli))
                ru = ratio(user[key] / n[key], user[cli] / n[cli])
                rs = ratio(sys[key] / n[key], sys[cli] / n[cli])
                printf "%-5s %-7s T%-3s %-7s %-6s %9.1f %9.1f %6.3f %6.3f %6.3f %11.2f/%-5.2f %5.2f/%-5.2f\n",
                    k[1], k[2], k[3], engine, sync, a, b, rw, ru, rs,
                    user[key] / n[key], sys[key] / n[key], user[cli] / n[cli], sys[cli] / n[cli]
                if (a < b)
                    short[++ns] = sprintf("SHORT %s %s T%s %s %s: throughput %.1f%% under the CLI", k[1], k[2], k[3], engine, sync, 100 * (1 - a / b))
                if (k[1] != "mem" && rs > 1.2)
                    short[++ns] = sprintf("SHORT %s %s T%s %s %s: system time %.2fx the CLI (goal 1.2x)", k[1], k[2], k[3], engine, sync, rs)
            }
            for (i = 1; i <= ns; i++) print short[i] > "/dev/stderr"
        }' "$1" 2> "$1.short" | sort -k1,1 -k2,2 -k3,3V
    cat "$1.short" >> "$dir/short.txt"
}

input="$dir/mixed-$size.bin"
[ -f "$input" ] || "$cp" fixture -o "$input" --size "$size" --kind mixed --seed 1 -q
threads=$(echo ${THREADS:-1 2} | tr ' ' ,)
: > "$dir/short.txt"
if [ "${BENCH_SWEEP:-1}" = 1 ]; then
    printf '%s mixed fixture (%s bytes), %s reps, median input MB/s; CPU = mean user/sys seconds\n' \
        "$size" "$(stat -c %s "$input")" "$reps"
    printf '%s\n' "ratios: chokepoint / CLI of the median seconds (wall), mean user and mean system CPU"
    printf '%-5s %-7s %-4s %-7s %-6s %9s %9s %6s %6s %6s %17s %11s\n' target codec T engine sync chokepoint cli \
        wall user sys cp_user/sys cli_user/sys
    for sync in ${SYNCS:-fsync none}; do
        for engine in ${ENGINES:-blocks native}; do
            csv="$dir/bench-$engine-$sync.csv"
            "$cp" sweep -i "$input" --codec "$(codec_list)" -T "$threads" --engine "$engine" \
                --sync "$sync" --reps "$reps" --seed 1 -q -o "$csv" --force disk="$dir/out" mem
            summarize "$csv" "$engine" "$sync"
        done
    done
fi

# Whole processes with a warm input and no fsync (the case where the CLI does least work
# beside compressing): `chokepoint compress` against `zstd -3 -T2`, alternating, into
# their own file each: disk, a new file (the last run's output deleted just before);
# over, over the last run's output (`compress --force`, the CLI's `>` truncating it);
# freed, the same right after a file of the output's size was deleted; and /dev/null.
# Where the page cache's new memory comes from matters on a virtual machine that hands
# long-free memory back to its host (docs/method.md, "The write path"), so before each
# over and freed run three files of the output's size are written (using up what earlier
# deletions freed) and the machine left 3 s; freed then deletes one; all go after the
# run. Medians of
# WARM_RUNS (default 8) wall,
# user and system seconds (/usr/bin/time) and the ratios chokepoint / CLI; for chokepoint
# also the medians of its own timed window (--json `seconds`), of the system time inside
# it (`cpu_sys_s`), of the process's wall time outside it, and of `replaced_s` (removing
# the old output after the clock).
if [ "${BENCH_WARM:-1}" = 1 ]; then
    command -v /usr/bin/time > /dev/null || scripts/setup.sh --with-bench
    cat "$input" > /dev/null
    median() { sort -g | awk '{ v[NR] = $1 } END { print (NR == 0 ? "nan" : NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
    out_of() { [ "$2" = null ] && echo /dev/null || echo "$dir/out/$1-$2.zst"; }
    timed() { # timed WHO DEST CMD...: appends "wall user sys" of one run to warm-DEST-WHO, its stdout to .json
        local f=$dir/warm-$2-$1 out
        out=$(out_of "$1" "$2")
        case $2 in
            disk) rm -f "$out" ;;
            over | freed)
                rm -f "$dir"/out/filler*
                for k in 1 2 3; do head -c "$(stat -c %s "$out")" /dev/zero > "$dir/out/filler$k"; done
                sleep 3
                [ "$2" = over ] || rm "$dir/out/filler1" ;;
        esac
        shift 2
        /usr/bin/time -f '%e %U %S' -a -o "$f" "$@" >> "$f.json" 2> /dev/null
        rm -f "$dir"/out/filler*
    }
    dests="disk over freed null"
    rm -f "$dir"/warm-* "$dir"/out/*.zst
    for dest in over freed; do # their first runs find an output too
        for engine in ${ENGINES:-blocks native}; do
            "$cp" compress -i "$input" -o "$(out_of "$engine" $dest)" -T 2 --warm --sync none -q > /dev/null
        done
        zstd -q -3 -T2 -c "$input" > "$(out_of cli $dest)"
    done
    for _ in $(seq "${WARM_RUNS:-8}"); do
        for dest in $dests; do
            timed cli "$dest" sh -c "zstd -q -3 -T2 -c '$input' > '$(out_of cli "$dest")'"
            for engine in ${ENGINES:-blocks native}; do
                opts=(--sync none --force)
                [ "$dest" = null ] && opts=()
                timed "$engine" "$dest" "$cp" compress -i "$input" -o "$(out_of "$engine" "$dest")" \
                    --codec zstd:3 -T 2 --engine "$engine" --warm "${opts[@]}" --json -q
            done
        done
    done
    col() { cut -d' ' -f"$2" < "$1" | median; }
    field() { grep -o "\"$2\":[-0-9.e]*" "$1.json" | cut -d: -f2 | median; }
    outside() { grep -o '"seconds":[-0-9.e]*' "$1.json" | cut -d: -f2 | paste -d' ' "$1" - | awk '{ print $1 - $4 }' | median; }
    printf 'warm input, no fsync, zstd:3 T2, whole processes, medians of %s: chokepoint / CLI\n' "${WARM_RUNS:-8}"
    printf 'write-back: vm.dirty_bytes %s, dirty_ratio %s, dirty_background_bytes %s, dirty_background_ratio %s\n' \
        "$(cat /proc/sys/vm/dirty_bytes)" "$(cat /proc/sys/vm/dirty_ratio)" \
        "$(cat /proc/sys/vm/dirty_background_bytes)" "$(cat /proc/sys/vm/dirty_background_ratio)"
    printf '%-5s %-7s %6s %6s %6s %7s %7s %7s %7s %7s %8s %8s\n' dest engine wall user sys wall_r user_r sys_r \
        window win_sys outside replaced
    for dest in $dests; do
        c=$dir/warm-$dest-cli
        for engine in ${ENGINES:-blocks native}; do
            e=$dir/warm-$dest-$engine
            w=$(col "$e" 1) u=$(col "$e" 2) s=$(col "$e" 3)
            rw=$(echo "$w / $(col "$c" 1)" | bc -l)
            ru=$(echo "$u / $(col "$c" 2)" | bc -l)
            rs=$(echo "$s / $(col "$c" 3)" | bc -l)
            printf '%-5s %-7s %6.2f %6.2f %6.2f %7.3f %7.3f %7.3f %7.3f %7.3f %8.3f %8.3f\n' "$dest" "$engine" \
                "$w" "$u" "$s" "$rw" "$ru" "$rs" "$(field "$e" seconds)" "$(field "$e" cpu_sys_s)" \
                "$(outside "$e")" "$(field "$e" replaced_s)"
            awk -v rw="$rw" -v rs="$rs" -v d="$dest" -v e="$engine" 'BEGIN {
                if (rw > 1) printf "SHORT warm %s %s: wall %.1f%% over the CLI\n", d, e, 100 * (rw - 1)
                if (d != "null" && rs > 1.2) printf "SHORT warm %s %s: system time %.2fx the CLI (goal 1.2x)\n", d, e, rs
            }' >> "$dir/short.txt"
        done
        printf '%-5s %-7s %6.2f %6.2f %6.2f\n' "$dest" cli "$(col "$c" 1)" "$(col "$c" 2)" "$(col "$c" 3)"
    done
    rm -f "$dir"/out/*.zst "$dir"/out/filler*
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

if [ -s "$dir/short.txt" ]; then
    echo "cases short of the goal (throughput at least the CLI's; system time onto disk at most 1.2x):"
    cat "$dir/short.txt"
else
    echo "no case short of the goal (throughput at least the CLI's; system time onto disk at most 1.2x)"
fi
