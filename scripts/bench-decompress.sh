#!/usr/bin/env bash
# Compares chokepoint's decompression (`sweep --decompress`) with the zstd and xz CLIs
# restoring the same archive, all timed by chokepoint itself: the CLI through `--cmd` with
# the archive as its input (so its page cache is dropped before every run, as chokepoint's
# archive is), chokepoint with its own archive (the same frames: `compress` writes what
# `--decompress` restores). Two cases on one directory:
#   to memory: the archive read from the directory, the restored bytes discarded
#              (chokepoint's default; the CLI writes to /dev/null, then a one-line
#              {output} so the run counts as done);
#   onto disk: the restored bytes written back to the directory and fsynced
#              (chokepoint --layout same; the CLI's disk target).
# Prints per case and T the median restored MB/s of both, the ratio chokepoint/CLI (both
# at T: the CLI gets -T T, which zstd's ignores when decoding), the ratios of the mean
# user and system CPU seconds and both means, and a SHORT line per case that falls short
# of the goal (restored at least as fast as the CLI; onto disk, system time at most 1.2x
# the CLI's).
#   scripts/bench-decompress.sh [DIR] [SIZE] [REPS]   (defaults: build/bench, 1G, 5)
# Environment: CODECS (default "zstd:3"; xz:1 is a quick xz case), THREADS ("1 2"),
# ENGINE (blocks, the default: independent frames, which the CLIs decode one after another;
# native: the library's own stream, as `zstd -T`/`xz -T` write it, which xz's CLI and
# chokepoint's native engine decode with T threads).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/bench}
size=${2:-1G}
reps=${3:-5}
cp=build/chokepoint
[ -x "$cp" ] || scripts/setup.sh --with-bench
command -v zstd > /dev/null && command -v xz > /dev/null || scripts/setup.sh --with-bench
mkdir -p "$dir/out"
threads=$(echo ${THREADS:-1 2} | tr ' ' ,)
engine=${ENGINE:-blocks}

# medians CSV [BYTES]: "target threads median_restored_MBps mean_user mean_sys" per target x
# threads; restored bytes are BYTES when given (the CLI into /dev/null), else input_bytes
# (chokepoint's rows, restored bytes) or, for command rows, output_bytes.
medians() {
    awk -F, -v known="${2:-0}" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["valid"] == 1 {
            key = $c["target"] " " $c["threads"]
            bytes = known > 0 ? known : $c["codec"] ~ /^cmd:/ ? $c["output_bytes"] : $c["input_bytes"]
            n[key]++; v[key, n[key]] = bytes / $c["seconds"] / 1e6
            user[key] += $c["cpu_user_s"]; sys[key] += $c["cpu_sys_s"]
        }
        END {
            for (key in n) {
                m = n[key]
                for (i = 1; i <= m; i++) a[i] = v[key, i]
                for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
                med = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
                printf "%s %.1f %.2f %.2f\n", key, med, user[key] / m, sys[key] / m
            }
        }' "$1" | sort -k1,1 -k2,2n
}

input="$dir/mixed-$size.bin"
[ -f "$input" ] || "$cp" fixture -o "$input" --size "$size" --kind mixed --seed 1 -q
printf '%s mixed fixture, engine %s, %s reps, median restored MB/s; CPU = mean user/sys seconds\n' \
    "$size" "$engine" "$reps"
echo "ratios: chokepoint / CLI of the median restored MB/s (rate), mean user and mean system CPU"
printf '%-8s %-10s %-3s %10s %9s %7s %6s %6s %11s %11s\n' codec case T chokepoint cli rate user sys cp_cpu cli_cpu
short=$dir/short-d.txt
: > "$short"
for codec in ${CODECS:-zstd:3}; do
    prog=${codec%%:*}
    ext=.zst; [ "$prog" = xz ] && ext=.xz
    archive="$dir/out/archive$ext"
    "$cp" compress -i "$input" -o "$archive" --codec "$codec" --engine "$engine" -T 2 --force \
        -q > /dev/null
    # The CLI, reading the archive from the directory: to /dev/null, and onto the directory.
    "$cp" sweep -i "$archive" --cmd "$prog -q -d -T{threads} -c {input} > /dev/null && echo restored > {output}" \
        --cmd-name "$prog-d-null" -T "$threads" --reps "$reps" --seed 1 -q \
        -o "$dir/bench-d-cli-mem.csv" --force disk="$dir/out"
    "$cp" sweep -i "$archive" --cmd "$prog -q -d -T{threads} -c {input} > {output}" \
        --cmd-name "$prog-d" -T "$threads" --reps "$reps" --seed 1 -q \
        -o "$dir/bench-d-cli-disk.csv" --force disk="$dir/out"
    rm -f "$archive"
    "$cp" sweep -i "$input" --decompress --codec "$codec" --engine "$engine" -T "$threads" \
        --reps "$reps" --seed 1 -q -o "$dir/bench-d-split.csv" --force disk="$dir/out"
    "$cp" sweep -i "$input" --decompress --layout same --codec "$codec" --engine "$engine" \
        -T "$threads" --reps "$reps" --seed 1 -q -o "$dir/bench-d-same.csv" --force disk="$dir/out"
    for case in memory disk; do
        csv=$dir/bench-d-split.csv cli=$dir/bench-d-cli-mem.csv known=$(stat -c %s "$input")
        [ "$case" = disk ] && { csv=$dir/bench-d-same.csv cli=$dir/bench-d-cli-disk.csv known=0; }
        # chokepoint's and the CLI's medians side by side, joined on T
        join -j 1 <(medians "$csv" | cut -d' ' -f2- | sort -k1,1) \
                  <(medians "$cli" "$known" | cut -d' ' -f2- | sort -k1,1) | sort -n |
        while read -r t rate u s base bu bs; do
            awk -v c="$codec" -v k="to-$case" -v t="$t" -v r="$rate" -v b="$base" -v u="$u" \
                -v s="$s" -v bu="$bu" -v bs="$bs" -v short="$short" 'BEGIN {
                ru = bu > 0 ? u / bu : 0; rs = bs > 0 ? s / bs : 0
                printf "%-8s %-10s %-3s %10.1f %9.1f %7.3f %6.3f %6.3f %5.2f/%-5.2f %5.2f/%-5.2f\n",
                    c, k, t, r, b, r / b, ru, rs, u, s, bu, bs
                if (r < b) printf "SHORT %s %s T%s: restored %.1f%% slower than the CLI\n", c, k, t, 100 * (1 - r / b) >> short
                if (k == "to-disk" && rs > 1.2) printf "SHORT %s %s T%s: system time %.2fx the CLI (goal 1.2x)\n", c, k, t, rs >> short
            }'
        done
    done
done

if [ -s "$short" ]; then
    echo "cases short of the goal (restored at least as fast as the CLI; system time onto disk at most 1.2x):"
    cat "$short"
else
    echo "no case short of the goal (restored at least as fast as the CLI; system time onto disk at most 1.2x)"
fi
