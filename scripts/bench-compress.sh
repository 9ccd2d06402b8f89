#!/usr/bin/env bash
# Compares `chokepoint compress` with the zstd and xz CLIs on the same `mixed` fixture, same
# level and threads, writing to the same directory, with and without fsync. Prints median
# throughput (input MB/s) over REPS runs, the ratio chokepoint/CLI per case and the peak RSS
# of both (GNU time's "maximum resident set size"), for a SIZE and a 4 x SIZE input.
#   scripts/bench-compress.sh [DIR] [SIZE] [REPS]     (defaults: build/bench, 1G, 3)
# Environment: CODECS (default "zstd:3 xz:6"), THREADS ("1 2"), SYNCS ("fsync none"),
# BENCH_LARGE=0 skips the 4 x SIZE memory check. xz -6 runs at a few MB/s per core, so a
# full 1 GiB xz:6 matrix takes hours on a small machine: CODECS="zstd:3 xz:1" is quicker.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/bench}
size=${2:-1G}
reps=${3:-3}
cp=build/chokepoint
[ -x "$cp" ] || scripts/setup.sh --with-bench
mkdir -p "$dir"
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)"; exit 1; }

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# time_cmd OUTFILE CMD...: runs CMD, prints "seconds max_rss_kb"
time_cmd() {
    local out=$1; shift
    rm -f "$out"
    sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
    local t0 t1
    t0=$(date +%s.%N)
    /usr/bin/time -f "%M" -o "$dir/rss" "$@" > /dev/null 2>&1
    t1=$(date +%s.%N)
    echo "$(echo "$t1 - $t0" | bc -l) $(cat "$dir/rss")"
}

bench_size() {
    local sz=$1 input="$dir/mixed-$1.bin"
    [ -f "$input" ] || "$cp" fixture -o "$input" --size "$sz" --kind mixed --seed 1 -q
    local bytes; bytes=$(stat -c %s "$input")
    printf '\n%s mixed fixture (%s bytes), %s reps, median input MB/s; RSS = max resident MB\n' "$sz" "$bytes" "$reps"
    printf '%-30s %10s %10s %7s %9s %9s\n' case chokepoint cli ratio cp_rss cli_rss
    local codec threads engine sync
    for codec in ${CODECS:-zstd:3 xz:6}; do
      for threads in ${THREADS:-1 2}; do
        for sync in ${SYNCS:-fsync none}; do
          for engine in native blocks; do
            local name=${codec%%:*} level=${codec##*:} ext
            [ "$name" = zstd ] && ext=zst || ext=xz
            local cpt=() cli=() cprss=() clirss=() r
            for ((i = 0; i < reps; i++)); do
                r=$(time_cmd "$dir/o.$ext" "$cp" compress -i "$input" -o "$dir/o.$ext" --force -c "$codec" -T "$threads" --engine "$engine" --sync "$sync" -q)
                cpt+=("$(echo "$bytes / ${r% *} / 1000000" | bc -l)"); cprss+=("${r#* }")
                if [ "$name" = zstd ]; then
                    r=$(time_cmd "$dir/o.$ext" bash -c "zstd -q -$level -T$threads -c '$input' > '$dir/o.$ext' $( [ $sync = fsync ] && echo "&& sync -d '$dir/o.$ext'")")
                else
                    r=$(time_cmd "$dir/o.$ext" bash -c "xz -q -$level -T$threads -c '$input' > '$dir/o.$ext' $( [ $sync = fsync ] && echo "&& sync -d '$dir/o.$ext'")")
                fi
                cli+=("$(echo "$bytes / ${r% *} / 1000000" | bc -l)"); clirss+=("${r#* }")
            done
            local a b
            a=$(printf '%s\n' "${cpt[@]}" | median); b=$(printf '%s\n' "${cli[@]}" | median)
            printf '%-30s %10.1f %10.1f %7.3f %9.1f %9.1f\n' "$codec T$threads $engine $sync" "$a" "$b" \
                "$(echo "$a / $b" | bc -l)" "$(printf '%s\n' "${cprss[@]}" | median | awk '{print $1/1024}')" \
                "$(printf '%s\n' "${clirss[@]}" | median | awk '{print $1/1024}')"
          done
        done
      done
    done
    rm -f "$dir/o.zst" "$dir/o.xz"
}

bench_size "$size"
if [ "${BENCH_LARGE:-1}" = 1 ]; then
    # Peak RSS must not grow with the input: the same case on a 4x larger file.
    large=$(numfmt --from=iec "$size"); large=$((large * 4))
    input="$dir/mixed-large.bin"
    [ -f "$input" ] || "$cp" fixture -o "$input" --size "$large" --kind mixed --seed 1 -q
    for engine in blocks native; do
        small_rss=$(/usr/bin/time -f %M "$cp" compress -i "$dir/mixed-$size.bin" -o /dev/null -T 2 --engine $engine -q 2>&1 >/dev/null | tail -1)
        large_rss=$(/usr/bin/time -f %M "$cp" compress -i "$input" -o /dev/null -T 2 --engine $engine -q 2>&1 >/dev/null | tail -1)
        printf 'peak RSS zstd:3 T2 %s: %s input %.1f MB, 4x input %.1f MB, ratio %.3f\n' "$engine" "$size" \
            "$(echo "$small_rss / 1024" | bc -l)" "$(echo "$large_rss / 1024" | bc -l)" "$(echo "$large_rss / $small_rss" | bc -l)"
    done
    rm -f "$input"
fi
