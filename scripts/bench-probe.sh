#!/usr/bin/env bash
# bench-probe.sh - how close `chokepoint probe` comes to dd and fio writing the same
# amount to the same directory.
#
# usage: scripts/bench-probe.sh [-r REPS] [-s "200M 512M 1G"] [-p PAUSE_S] DIR
#
# For each size (powers of 1024, whole MiB, so dd and fio can use 1 MiB O_DIRECT blocks)
# and each repetition, in turn:
#   chokepoint probe --ops write --sync fsync     vs  dd bs=1M conv=fsync
#   chokepoint probe --ops write --sync direct    vs  dd bs=1M oflag=direct conv=fsync
#                                                     fio --rw=write --bs=1M --direct=1 --end_fsync=1
# chokepoint's figure is its own timed region (open .. fsync + close); dd's is the wall time
# of the dd process (its start-up is a millisecond); fio's is its own reported bandwidth.
# dd reads its input from a random file in /dev/shm so the source costs nothing. The order
# of tools rotates from one repetition to the next, and every run starts after `sync` and
# a pause (-p, default 1 s) so one tool's writeback does not land on the next.
# Prints each tool's median MB/s (10^6 bytes/s) with min and max, and the ratio of
# chokepoint to the best peer in the same sync mode. Every file is removed on exit.
set -eu

reps=3
sizes="200M 512M 1G"
pause=1
while getopts "r:s:p:h" opt; do
    case $opt in
    r) reps=$OPTARG ;;
    p) pause=$OPTARG ;;
    s) sizes=$OPTARG ;;
    *) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-r REPS] [-s \"200M 512M 1G\"] [-p PAUSE_S] DIR" >&2; exit 2; }
dir=$1
[ -d "$dir" ] && [ -w "$dir" ] || { echo "bench-probe: '$dir' is not a writable directory" >&2; exit 2; }

here=$(cd "$(dirname "$0")/.." && pwd)
chokepoint=${CHOKEPOINT:-$here/build/chokepoint}
[ -x "$chokepoint" ] || { echo "bench-probe: no binary at $chokepoint (build first or set CHOKEPOINT)" >&2; exit 2; }
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1

mib() { # "200M" / "1G" -> MiB count
    case $1 in
    *G) echo $((${1%G} * 1024)) ;;
    *M) echo "${1%M}" ;;
    *) echo "bench-probe: size '$1' must be whole M or G" >&2; exit 2 ;;
    esac
}

max_mib=0
for s in $sizes; do m=$(mib "$s"); [ "$m" -gt "$max_mib" ] && max_mib=$m; done
src=$(mktemp /dev/shm/bench-probe-src.XXXXXX)
results=$(mktemp /tmp/bench-probe-results.XXXXXX)
out="$dir/bench-probe.$$.tmp"
trap 'rm -f "$src" "$results" "$out"' EXIT
trap 'exit 130' INT TERM
head -c $((max_mib * 1048576)) /dev/urandom >"$src"

now() { date +%s.%N; }

run_dd() { # MiB, extra flags -> bytes/s
    local t0 t1
    t0=$(now)
    dd if="$src" of="$out" bs=1M count="$1" conv=fsync $2 status=none
    t1=$(now)
    rm -f "$out"
    awk -v b=$(($1 * 1048576)) -v a="$t0" -v z="$t1" 'BEGIN { printf "%.0f\n", b / (z - a) }'
}

run_fio() { # MiB -> bytes/s (fio's own figure: KiB written / runtime in ms)
    fio --name=bench-probe --filename="$out" --rw=write --bs=1M --direct=1 --end_fsync=1 \
        --size="$1M" --ioengine=psync --fallocate=none --output-format=terse \
        --terse-version=3 | awk -F';' '{ printf "%.0f\n", $47 * 1024 / ($50 / 1000) }'
    rm -f "$out"
}

run_chokepoint() { # size, sync -> bytes/s
    "$chokepoint" probe -q --sizes "$1" --reps 1 --ops write --sync "$2" "$dir" |
        awk -F, 'NR == 2 { print $6 }'
}

run_tool() { # tool, size, MiB -> bytes/s
    case $1 in
    chokepoint-fsync) run_chokepoint "$2" fsync ;;
    chokepoint-direct) run_chokepoint "$2" direct ;;
    dd-fsync) run_dd "$3" "" ;;
    dd-direct) run_dd "$3" oflag=direct ;;
    fio-direct) run_fio "$3" ;;
    esac
}

tools="chokepoint-fsync dd-fsync chokepoint-direct dd-direct"
[ $have_fio -eq 1 ] && tools="$tools fio-direct"
read -r -a tool_list <<<"$tools"
n_tools=${#tool_list[@]}
for s in $sizes; do
    m=$(mib "$s")
    for rep in $(seq 1 "$reps"); do
        # Each repetition starts with the next tool, so no tool always runs first after
        # the previous one's writeback; each run starts after a sync and a pause.
        for k in $(seq 0 $((n_tools - 1))); do
            tool=${tool_list[$(((rep + k) % n_tools))]}
            sync
            sleep "$pause"
            echo "$s $tool $(run_tool "$tool" "$s" "$m")" >>"$results"
        done
        echo "  $s rep $rep done" >&2
    done
done

echo "bench-probe: $dir, $reps reps, MB/s = 10^6 bytes/s"
awk -v sizes="$sizes" '
    function median(key,   n, i, j, t, v) {
        n = split(vals[key], v, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
        lo[key] = v[1]; hi[key] = v[n]
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    { vals[$1 " " $2] = vals[$1 " " $2] " " $3 }
    END {
        split("chokepoint-fsync dd-fsync chokepoint-direct dd-direct fio-direct", tools, " ")
        label["chokepoint-fsync"] = "chokepoint probe --sync fsync"
        label["dd-fsync"] = "dd bs=1M conv=fsync"
        label["chokepoint-direct"] = "chokepoint probe --sync direct"
        label["dd-direct"] = "dd bs=1M oflag=direct conv=fsync"
        label["fio-direct"] = "fio --bs=1M --direct=1 --end_fsync=1"
        printf "%-6s %-38s %9s %9s %9s\n", "size", "tool", "median", "min", "max"
        ns = split(sizes, sz, " ")
        for (i = 1; i <= ns; i++) {
            for (k = 1; k <= 5; k++) {
                key = sz[i] " " tools[k]
                if (!(key in vals)) continue
                med[key] = median(key)
                printf "%-6s %-38s %9.1f %9.1f %9.1f\n", sz[i], label[tools[k]], med[key] / 1e6, lo[key] / 1e6, hi[key] / 1e6
            }
            best = med[sz[i] " dd-fsync"]
            printf "%-6s ratio fsync:  chokepoint / dd = %.3f\n", sz[i], med[sz[i] " chokepoint-fsync"] / best
            best = med[sz[i] " dd-direct"]; peer = "dd"
            if ((sz[i] " fio-direct") in med && med[sz[i] " fio-direct"] > best) { best = med[sz[i] " fio-direct"]; peer = "fio" }
            printf "%-6s ratio direct: chokepoint / best peer (%s) = %.3f\n", sz[i], peer, med[sz[i] " chokepoint-direct"] / best
        }
    }' "$results"
