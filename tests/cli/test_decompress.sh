#!/usr/bin/env bash
# sweep/run --decompress: the archive each target restores is the one compression writes
# (same size), every restore gives back the input's size, nothing is left on the target,
# a restore onto the target (--layout same) is fsynced, options that cannot apply are
# refused, and a target whose reads are capped comes out read-bound while memory is
# cpu-bound, the model's time for its points (predicted_seconds) being the cap's.
source "$(dirname "$0")/lib.sh"
set -e

in="$WORK/in"
"$CP" fixture -o "$in" --size 6M --kind mixed --seed 3 -q
size=$(stat -c %s "$in")
disk="$WORK/disk"
mkdir -p "$disk"

# col NAME ROW_REGEX FILE: the NAME column of the first row matching ROW_REGEX
col() {
    local i
    i=$(csv_col "$3" "$1")
    awk -F, -v i="$i" -v re="$2" 'NR > 1 && $0 ~ re { print $i; exit }' "$3"
}
# restored_onto_d FILE: target d's first row restored the input's size onto it, and
# flushed it
restored_onto_d() {
    is_figure "$1: d's flush and bytes" "$(col flush_s '^d,' "$1")" "$(col input_bytes '^d,' "$1")" || return 1
    awk -v f="$(col flush_s '^d,' "$1")" -v b="$(col input_bytes '^d,' "$1")" -v n="$size" \
        'BEGIN { exit !(f > 0 && b == n) }'
}

run "$CP" sweep -i "$in" -c zstd:3,xz:1 -T 1,2 --reps 1 --seed 1 -o "$WORK/c.csv" "d=$disk" mem
expect_status 0 "the compression sweep"
run "$CP" sweep -i "$in" --decompress -c zstd:3,xz:1 -T 1,2 --reps 2 --seed 1 \
    -o "$WORK/d.csv" "d=$disk" mem
expect_status 0 "the decompression sweep on a directory and mem"
check "2 codecs x 2 targets x 2 thread counts x 2 reps" test "$(data_rows "$WORK/d.csv")" -eq 16
check "every row is valid" test "$(awk -F, 'NR > 1 && $0 !~ /,1,$/' "$WORK/d.csv" | wc -l)" -eq 0
opcol=$(csv_col "$WORK/d.csv" op)
check "every row says decompress" \
    test "$(awk -F, -v i="$opcol" 'NR > 1 && $i != "decompress"' "$WORK/d.csv" | wc -l)" -eq 0
check "the compression rows say compress" \
    test "$(awk -F, -v i="$opcol" 'NR > 1 && $i != "compress"' "$WORK/c.csv" | wc -l)" -eq 0
for t in d mem; do
    for c in zstd:3 xz:1; do
        check "$t $c restores the input's $size bytes" \
            test "$(col input_bytes "^$t,$c,.*,2,1," "$WORK/d.csv")" -eq "$size"
        check "$t $c reads an archive the size compression writes" \
            test "$(col output_bytes "^$t,$c,.*,2,1," "$WORK/d.csv")" \
                -eq "$(col output_bytes "^$t,$c,.*,2,1," "$WORK/c.csv")"
    done
done
check "the directory's runs read their archive from it" \
    test "$(col input_target '^d,zstd:3,' "$WORK/d.csv")" = d
check "nothing left in the target" test -z "$(find "$disk" -mindepth 1)"

run "$CP" analyze --format json "$WORK/d.csv"
expect_status 0 "analyze reads the decompression rows"
check "the series say decompression" \
    test "$(jq -r '[.targets[] | select(.operation == "decompress")] | length' "$WORK/out")" -eq 4
check "and are labelled so" \
    test "$(jq -r '.targets[] | select(.name == "d") | .codec' "$WORK/out" | sort | tr '\n' ' ')" \
        = "xz:1 decompression zstd:3 decompression "
run "$CP" analyze "$WORK/d.csv"
check "the text says restored data" grep -q "of restored data" "$WORK/out"

# Restored onto the target itself, fsynced.
run "$CP" sweep -i "$in" --decompress --layout same -c zstd:1 -T 2 --reps 1 --no-warmup \
    -o "$WORK/s.csv" "d=$disk"
expect_status 0 "restoring onto the target (--layout same)"
is_figure "the restore's flush" "$(col flush_s '^d,' "$WORK/s.csv")" &&
check "the restore has a flush phase" \
    awk -v f="$(col flush_s '^d,' "$WORK/s.csv")" 'BEGIN { exit !(f > 0) }'
check "it wrote the input's size" test "$(col input_bytes '^d,' "$WORK/s.csv")" -eq "$size"
check "nothing left in the target" test -z "$(find "$disk" -mindepth 1)"

# The CLIs restoring the same archives (the presets), from the directory and from memory.
run "$CP" sweep -i "$in" --decompress -c zstd-cli:3,xz-cli:1 -T 1,2 --reps 1 --seed 1 \
    -o "$WORK/cli.csv" "d=$disk" mem
expect_status 0 "the zstd and xz CLIs restore the built-in codecs' archives"
check "2 presets x 2 targets x 2 thread counts, every row valid" \
    test "$(data_rows "$WORK/cli.csv"),$(awk -F, 'NR > 1 && $0 !~ /,1,$/' "$WORK/cli.csv" | wc -l)" = 8,0
for t in d mem; do
    for c in cmd:zstd-cli:3=zstd:3 cmd:xz-cli:1=xz:1; do
        s=${c%%=*} built=${c#*=}
        check "$t $s restores the input's $size bytes" \
            test "$(col input_bytes "^$t,$s,.*,2,1," "$WORK/cli.csv")" -eq "$size"
        check "$t $s reads the archive $built writes" \
            test "$(col output_bytes "^$t,$s,.*,2,1," "$WORK/cli.csv")" \
                -eq "$(col output_bytes "^$t,$built,.*,2,1," "$WORK/c.csv")"
        check "$t $s is a decompression row" test "$(col op "^$t,$s," "$WORK/cli.csv")" = decompress
    done
done
check "the CLIs' runs read the archive from the directory" \
    test "$(col input_target '^d,cmd:zstd-cli:3,' "$WORK/cli.csv")" = d
check "nothing left in the target" test -z "$(find "$disk" -mindepth 1)"
run "$CP" sweep -i "$in" --decompress -c zstd-cli:3 --layout same -T 1 --reps 1 \
    -o "$WORK/cli-same.csv" "d=$disk"
expect_status 0 "the zstd CLI restoring onto the target (--layout same)"
check "its restore has a flush phase and the input's size" restored_onto_d "$WORK/cli-same.csv"
check "nothing left in the target" test -z "$(find "$disk" -mindepth 1)"

# The native engine: the library's own stream as the archive (the size `compress --engine
# native` writes at the same T), restored by its streaming decoder, and by the CLI.
run "$CP" sweep -i "$in" --decompress --engine native -c zstd:3,xz:1,xz-cli:1 -T 1,2 --reps 1 \
    --seed 1 -o "$WORK/n.csv" "d=$disk" mem
expect_status 0 "the native engine's decompression sweep"
check "3 series x 2 targets x 2 thread counts, every row valid" \
    test "$(data_rows "$WORK/n.csv"),$(awk -F, 'NR > 1 && $0 !~ /,1,$/' "$WORK/n.csv" | wc -l)" = 12,0
check "every row says engine native" \
    test "$(awk -F, -v i="$(csv_col "$WORK/n.csv" engine)" 'NR > 1 && $i != "native"' "$WORK/n.csv" | wc -l)" -eq 0
for c in zstd:3 xz:1; do
    native=$("$CP" compress -i "$in" -o /dev/null -c "$c" --engine native -T 2 --json -q |
        jq .output_bytes)
    for t in d mem; do
        check "$t $c: the native archive is the size compress --engine native writes" \
            test "$(col output_bytes "^$t,$c,.*,2,1," "$WORK/n.csv")" -eq "$native"
        check "$t $c restores the input's $size bytes" \
            test "$(col input_bytes "^$t,$c,.*,2,1," "$WORK/n.csv")" -eq "$size"
    done
done
for t in d mem; do
    check "$t: the xz CLI restores the native archive to the input's $size bytes" \
        test "$(col input_bytes "^$t,cmd:xz-cli:1,.*,2,1," "$WORK/n.csv")" -eq "$size"
done
check "nothing left in the target" test -z "$(find "$disk" -mindepth 1)"
run "$CP" sweep -i "$in" --decompress --engine native --layout same -c xz:1 -T 2 --reps 1 \
    -o "$WORK/n-same.csv" "d=$disk"
expect_status 0 "the native engine restoring onto the target (--layout same)"
check "its restore has a flush phase and the input's size" restored_onto_d "$WORK/n-same.csv"
check "nothing left in the target" test -z "$(find "$disk" -mindepth 1)"

# Options that cannot apply.
run "$CP" sweep -i "$in" --decompress --cmd 'cat {input} > {output}' -o "$WORK/x.csv" mem
expect_status 2 "--decompress with --cmd"
expect_one_line_error "--decompress restores the built-in codecs.*cannot be told how to read" "it says why"
run "$CP" sweep -i "$in" --decompress -c pigz:6 -o "$WORK/x.csv" mem
expect_status 2 "--decompress with the pigz preset"
expect_one_line_error "no built-in codec writes pigz's format" "it says why"
run "$CP" sweep -i "$in" --decompress --sync direct -o "$WORK/x.csv" "d=$disk"
expect_status 2 "--sync when restoring to memory"
expect_one_line_error "--sync has no effect" "it says --sync does nothing there"
check "no rows file from refused sweeps" test ! -e "$WORK/x.csv" -a ! -e "$WORK/x.csv.partial"

# The mem target's archive lives in RAM within --max-memory, beside the runs' estimate
# (80 MB for zstd:3 at T=1): 20 MB that does not compress leaves no room under 90 MB.
head -c 20000000 /dev/urandom > "$WORK/random.bin"
run "$CP" sweep -i "$WORK/random.bin" --decompress -T 1 --reps 1 --max-memory 90M -q \
    -o "$WORK/ram.csv" mem
expect_status 1 "an archive in RAM past what --max-memory leaves"
# room_refusal NAME WHERE: the one line naming the room needed (the 20 MB archive), the room
# left and where it comes from, where the archive is kept, and the --max-memory that holds it
room_refusal() {
    echo "^chokepoint: error: --decompress: target '$1' keeps its archive $2, and its zstd:3 archive of this input needs 20\.0 MB there, past the [0-9.]+ MB left for archives in RAM \(--max-memory 90 MiB less the runs' estimate of [0-9.]+ MB\); give --max-memory [0-9]+M or more, use a smaller input or leave out '$1'\$"
}
expect_one_line_error "$(room_refusal mem 'in memory')" \
    "it says what the archive needs, what is left, where, and the --max-memory that holds it"
check "no rows file from it" test ! -e "$WORK/ram.csv" -a ! -e "$WORK/ram.csv.partial"
advised=$(sed -nE 's/.*; give --max-memory ([0-9]+M) or more, .*/\1/p' "$WORK/err")
run "$CP" sweep -i "$WORK/random.bin" --decompress -T 1 --reps 1 --max-memory "${advised:-none}" -q \
    -o "$WORK/ram.csv" mem
expect_status 0 "the --max-memory it advises (${advised:-none}) holds the archive"
rm -f "$WORK/ram.csv"
run "$CP" sweep -i "$WORK/random.bin" --decompress -T 1 --reps 1 --max-memory 200M -q \
    -o "$WORK/ram.csv" mem
expect_status 0 "the same archive under a 200 MB limit"
# An archive on a tmpfs target lives in RAM too, within the same limit.
if shm=$(mktemp -d /dev/shm/cp-decompress.XXXXXX 2> /dev/null); then
    CLEANUP_HOOKS+=("rm -rf '$shm'")
    run "$CP" sweep -i "$WORK/random.bin" --decompress -T 1 --reps 1 --max-memory 90M -q \
        -o "$WORK/shm.csv" "shm=$shm"
    expect_status 1 "an archive on tmpfs past what --max-memory leaves"
    expect_one_line_error "$(room_refusal shm "in RAM \\(tmpfs, $shm\\)")" \
        "it says what the tmpfs archive needs, what is left, where, and the option"
    check "nothing left on the tmpfs target" test -z "$(ls -A "$shm")"
else
    skip_check "no /dev/shm for the tmpfs archive case"
fi

# A target whose reads are capped (emulated) at 1 MB/s: the archive (about 1.1 MB) takes
# over a second to read where memory restores it in a few hundredths: read-bound, memory
# cpu-bound. The runs' fixed costs (setting up buffers and threads before the first read:
# 0.02 s here, 0.07 s under AddressSanitizer) are not in the model, so the read must be
# long against them: at 6 MB/s the sanitizer build's runs missed the prediction by 17%.
run "$CP" sweep -i "$in" --decompress -c zstd:3 -T 1,2 --reps 3 --seed 4 -o "$WORK/r.csv" \
    "slow=$disk@read=1MB/s" mem
expect_status 0 "decompression from a read-capped target"
check "its rows carry the read cap" test "$(col read_cap_bps '^slow,' "$WORK/r.csv")" = 1000000
check "and are labelled emulated" test "$(col emulated '^slow,' "$WORK/r.csv")" = 1
run "$CP" analyze --format json "$WORK/r.csv"
check "the capped target is read-bound at every T" \
    test "$(jq -r '[.targets[] | select(.name == "slow") | .verdicts[].verdict] | unique | join(",")' "$WORK/out")" = read-bound
check "memory is cpu-bound" \
    test "$(jq -r '.targets[] | select(.name == "mem") | .verdict' "$WORK/out")" = cpu-bound
check "its read ceiling is the cap over the compressed fraction" \
    jq -e --argjson in "$size" --argjson arc "$(col output_bytes '^slow,' "$WORK/r.csv")" \
        '.targets[] | select(.name == "slow") | .verdicts[-1].read_ceiling_bytes_per_s as $r
         | ($r / (1e6 * $in / $arc) - 1) | fabs < 0.01' "$WORK/out"
# The model's time for each point of the capped target (predicted_seconds) is the physics'
# time: the archive's bytes read at 1 MB/s, which every run must take, plus the fixed costs
# above (at most 10% of it here). Judged against the cap, not against the program's own
# figures; not under the sanitizers, whose fixed costs are longer.
arc=$(col output_bytes '^slow,' "$WORK/r.csv")
if sanitized; then
    skip_check "under the sanitizers: the read-capped points' predicted seconds are not judged"
else
    check "each capped point's predicted time is the archive's $arc bytes at 1 MB/s (within -3%..+10%), as measured" \
        jq -e --argjson arc "$arc" '($arc / 1e6) as $t | [.targets[] | select(.name == "slow") | .points[]] as $p
            | ($p | length) == 2 and all($p[]; .predicted_seconds != null
                and .predicted_seconds >= 0.97 * $t and .predicted_seconds <= 1.10 * $t
                and .seconds >= 0.97 * $t and .seconds <= 1.10 * $t
                and ((.predicted_seconds - .seconds) | fabs) <= 0.10 * .seconds)' "$WORK/out"
fi
# compare: decompressions pair with decompressions, their repetitions give the interval,
# and a compression study never pairs with a decompression one.
for k in 1 2; do
    run "$CP" sweep -i "$in" --decompress -c zstd:1 -T 1 --reps 3 --no-warmup -q \
        -o "$WORK/m$k.csv" mem
done
run "$CP" compare --format json "$WORK/m1.csv" "$WORK/m2.csv"
expect_status 0 "compare two decompression studies"
check "judged on the repetitions' interval" \
    test "$(jq -r '.pairs[0].points[0].basis' "$WORK/out")" = ci
run "$CP" sweep -i "$in" -c zstd:1 -T 1 --reps 1 --no-warmup -q -o "$WORK/m0.csv" mem
run "$CP" compare "$WORK/m0.csv" "$WORK/m1.csv"
expect_status 2 "a compression and a decompression have nothing in common"
finish
