#!/usr/bin/env bash
# The run-queue delay (`cpu_wait_s`) is a witness, not decoration: the same compression
# with as many busy loops as the machine has CPUs beside it must wait for a core far more
# than alone. Physics: T=2 compressors sharing every core with one spinning loop each get
# about half of it, so they wait about as long as they run (a share near 1 of the wall
# time, summed over threads); alone they wait only for the reader's and writer's turns.
source "$(dirname "$0")/lib.sh"
set -e
cd "$WORK"

"$CP" fixture -o in.bin --size 96M --kind mixed --seed 4 -q
cat in.bin > /dev/null

# wait_share JSON: cpu_wait_s over the run's seconds, or "none" when not measured
wait_share() {
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); w=r.get('cpu_wait_s'); print('none' if w is None else '%.3f' % (w / r['seconds']))" "$1"
}
need_python3 || skip "needs python3 to read the JSON record"

run "$CP" compress -i in.bin -o /dev/null -c zstd:4 -T 2 --warm --json
expect_status 0 "compress alone"
cp "$WORK/out" alone.json
alone=$(wait_share alone.json)
[ "$alone" != none ] || skip "schedstat is not readable here (CONFIG_SCHED_INFO off)"

# One busy loop per online CPU, each ending itself after 60 s at most; ended by PID.
cpus=$(nproc --all)
[ "$cpus" -le 64 ] || cpus=64
loops=()
for _ in $(seq "$cpus"); do
    bash -c 'end=$((SECONDS + 60)); while [ $SECONDS -lt $end ]; do :; done' &
    loops+=($!)
done
CLEANUP_HOOKS+=("kill ${loops[*]} 2> /dev/null")
sleep 0.5
run "$CP" compress -i in.bin -o /dev/null -c zstd:4 -T 2 --warm --json
expect_status 0 "compress beside $cpus busy loops"
cp "$WORK/out" loaded.json
kill "${loops[@]}" 2> /dev/null || true
wait "${loops[@]}" 2> /dev/null || true
loaded=$(wait_share loaded.json)

is_figure "the share waited for a core beside the loops and alone" "$loaded" "$alone" &&
check "beside $cpus busy loops the threads waited for a core at least 40% of the run ($loaded)" \
    python3 -c "import sys; sys.exit(0 if float('$loaded') >= 0.4 else 1)"
check "and at least 0.25 of the run more than alone ($alone)" \
    python3 -c "import sys; sys.exit(0 if float('$loaded') >= float('$alone') + 0.25 else 1)"
check "the summary line says it" bash -c "'$CP' compress -i in.bin -o /dev/null -c zstd:1 --warm | grep -Eq '^  waiting  [0-9.]+ s for a core'"

finish
