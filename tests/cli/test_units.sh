#!/usr/bin/env bash
# Units (issue 14, point 8): sizes echoed the way they were typed (binary when binary),
# host memory in GiB, free-space errors in MB/GB rather than raw bytes.
source "$(dirname "$0")/lib.sh"
set -e
export CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot # report.md without images is enough here

# run --fixture-size 4M: the fixture is announced as 4 MiB, not 4.2 MB.
run "$CP" run --fixture-size 4M --quick --threads 1 --no-probe --out "$WORK/r" mem
expect_status 0 "run with a 4M fixture"
check "the fixture size is echoed in binary units, as typed" \
    grep -q "generating a 4 MiB mixed fixture" "$WORK/err"
check "report.md gives the host's memory in GiB" \
    grep -Eq "^- Host: .*, [0-9.]+ GiB memory," "$WORK/r/report.md"
run "$CP" run --fixture-size 5MB --quick --threads 1 --no-probe --out "$WORK/r2" mem
check "a decimal size is echoed in decimal units" \
    grep -q "generating a 5 MB mixed fixture" "$WORK/err"

# compress: the block size as given (8M is 8 MiB, 5MB stays 5 MB).
"$CP" fixture -q -o "$WORK/in" --size 1M
run "$CP" compress -i "$WORK/in" -o "$WORK/in.zst" --block-size 8M
check "compress echoes an 8M block size as 8 MiB" grep -q ", 8 MiB blocks" "$WORK/out"
run "$CP" compress -i "$WORK/in" -o "$WORK/in2.zst" --block-size 5MB
check "compress echoes a 5MB block size as 5 MB" grep -q ", 5 MB blocks" "$WORK/out"

# A memory refusal: the --max-memory limit and the block size as given.
run "$CP" compress -i "$WORK/in" -o /dev/null -c xz:9 -T 64 --max-memory 4G --block-size 8M
expect_status 2 "xz:9 at 64 threads in 4G"
check "the limit and the block size are echoed in binary units, as typed" \
    grep -q "blocks of 8 MiB: .*above the 4 GiB given by --max-memory" "$WORK/err"

# A fixture that does not fit: the error is in MB/GB, not in bytes.
if is_root && mount_tmpfs "$WORK/small" 8m; then
    run "$CP" fixture -o "$WORK/small/f" --size 1G
    expect_status 1 "fixture larger than the volume"
    check "the free-space error is in decimal units" \
        grep -Eq "needs 1\.074 GB and a [0-9.]+ [kMG]B margin, [0-9.]+ [kMG]?B free" "$WORK/err"
    check "no raw byte counts in it" bash -c "! grep -q 'bytes' '$WORK/err'"
else
    skip_lab_check "not root, no tmpfs for the free-space error"
fi

finish
