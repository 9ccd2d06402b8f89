#!/usr/bin/env bash
# The kernel's time in write(2) against the size of each write: dd writes the same bytes
# into a new file on DIR in pieces of each size (no fsync: the page cache's side of a
# write, which is what chokepoint's writer pays while it compresses), RUNS times per size
# in alternating order; prints per size the median system CPU seconds, the median wall
# seconds and the ratio of each to the 64 KiB figure (the zstd CLI writes about 64-128 KiB
# at a time). Between runs the file is removed and the page cache written back (sync), then
# the script waits SETTLE seconds: 0 finds the memory the last file freed still backed, 4
# lets a virtual machine's free page reporting hand it back to its host first (a first run
# on a fresh machine, or one after a pause); one table per SETTLE value. See
# docs/method.md, "The write path".
#   scripts/bench-writesize.sh [DIR] [SIZE_MB] [RUNS]   (defaults: build/bench, 600, 5)
# Environment: SIZES (default "64K 128K 1M 4608K 8M"), SETTLE (default "0 4").
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/bench}
mb=${2:-600}
runs=${3:-5}
sizes=${SIZES:-64K 128K 1M 4608K 8M}
command -v /usr/bin/time > /dev/null || scripts/setup.sh --with-bench
mkdir -p "$dir"
out=$dir/writesize.$$
trap 'rm -f "$out" "$out".*' EXIT

# bytes SIZE: SIZE (K/M suffix) in bytes.
bytes() { numfmt --from=iec "$1"; }
for settle in ${SETTLE:-0 4}; do
rm -f "$out.all"
for ((r = 1; r <= runs; r++)); do
    for bs in $sizes; do
        count=$(( mb * 1000000 / $(bytes "$bs") ))
        rm -f "$out"
        sync
        sleep "$settle"
        /usr/bin/time -f "%S %e" -o "$out.t" dd if=/dev/zero of="$out" bs="$bs" count="$count" \
            status=none
        echo "$bs $(cat "$out.t")" >> "$out.all"
    done
done
rm -f "$out"
echo "settle ${settle} s: write size, system s (median), wall s (median), system / 64K, wall / 64K ($mb MB, $runs runs each, no fsync)"
awk '{ s[$1] = s[$1] " " $2; w[$1] = w[$1] " " $3; order[$1] = order[$1] ? order[$1] : ++n; key[n] = $1 }
     function median(list,   a, k, i, j, t) {
         k = split(list, a, " ")
         for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
         return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
     }
     END {
         base_s = median(s[key[1]]); base_w = median(w[key[1]])
         for (i = 1; i <= n; i++) {
             ms = median(s[key[i]]); mw = median(w[key[i]])
             rs = (base_s > 0) ? ms / base_s : 0
             rw = (base_w > 0) ? mw / base_w : 0
             printf "%-12s %18.3f %17.3f %14.2f %12.2f\n", key[i], ms, mw, rs, rw
         }
     }' "$out.all"
done
