"""The truth tests' own reading of a sweep's runs.csv and of the lab, independent of
chokepoint's analysis: none of analyze's estimators, noises or allowances is used here.

Pairs, by the tests' own rule: each of a volume's runs pairs with the memory run at the
same thread count that ran nearest to it in the sweep's run order (the `order` column; the
rows' order without it): a neighbour in time saw the same CPU speed. Of each pair the test
takes the volume's run at memory's median speed: its time less the share of memory's
departure from its median that moves with the CPU (CPU_SHARE: 1 where the compression is
on the run's path, a flush after it or an O_DIRECT disk that needs less than it; 0 where
the disk's own time is longer and sets the run's):

  mem       memory's median time at that thread count;
  measured  the median of the pairs' times at memory's median speed;
  spread    the median of their distances from it, over it: the pairs' own scatter,
            relative (the tests' noise; 0 for one pair).

The verdict the physics gives (accepted): with tolerance TAU, the boundary b = c / (1 -
TAU) of memory's time c, and the volume's own time V (an O_DIRECT disk's W = bytes / its
speed beside the compression; with the output held in the page cache to the fsync, c plus
the flush tail B / speed), within a margin n = (MARGIN + spread) x c:
  overlapped (O_DIRECT):  cpu-bound (compute)  W <= (1 - TAU) c + n
                          balanced             (1 - TAU) c - n <= W <= b + n, or near b
                          write-bound (write-throughput)  W >= b - n
  flush tail (fsync):     cpu-bound (compute)  V <= b + n
                          balanced             near b
                          write-bound (flush-tail)  V >= b - n
where near b is |V - b| <= n, or, where the measured time lies on the other side of b from
V, |V - b| <= n + |measured - the physics' time| (the physics' time: max(c, W), c + tail).
That is docs/method.md's boundary ("On the boundary, within the noise"), with the test's
own figures: the lab's speed, the device's bytes, memory's median and the pairs' spread.

Used as a module (`from paired_runs import paired`) or from the shell:
  python3 paired_runs.py RUNS.csv TARGET THREADS   prints "measured spread mem pairs"
"""
import csv
import statistics
import sys


def load(path):
    """The valid rows of runs.csv PATH, as dicts, with their place in the run order
    ("_order": the `order` column, else the row's index)."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    for i, r in enumerate(rows):
        r["_order"] = int(r["order"]) if r.get("order") else i
    return [r for r in rows if r["valid"] == "1"]


def runs_of(rows, target, threads):
    """[(order, seconds)] of TARGET's runs at THREADS."""
    return [(r["_order"], float(r["seconds"])) for r in rows
            if r["target"] == target and int(r["threads"]) == threads]


def paired(rows, target, threads, cpu_share=1.0):
    """A dict for TARGET at THREADS: measured, spread, mem (memory's median), median (the
    volume's own), min, max, times (the pairs' at memory's median speed) and pairs, with
    CPU_SHARE of memory's departure from its median taken off each volume run. Raises
    ValueError when either has no run."""
    vol, mem = runs_of(rows, target, threads), runs_of(rows, "mem", threads)
    if not vol or not mem:
        raise ValueError(f"{target} at T={threads}: {len(vol)} runs beside {len(mem)} of memory")
    mem_s = statistics.median(s for _, s in mem)
    at_mem = []
    for order, seconds in vol:
        nearest = min(mem, key=lambda m: (abs(m[0] - order), m[0]))
        at_mem.append(seconds - cpu_share * (nearest[1] - mem_s))
    measured = statistics.median(at_mem)
    spread = statistics.median(abs(x - measured) for x in at_mem) / measured
    own = [s for _, s in vol]
    return {"measured": measured, "spread": spread, "mem": mem_s, "cpu_share": cpu_share,
            "median": statistics.median(own), "min": min(own), "max": max(own),
            "times": at_mem, "pairs": len(at_mem)}


def lab_point(rows, target, threads, written, speed, kind):
    """The lab's figures of TARGET at THREADS: (paired figures, the volume's own time).
    WRITTEN is what its device's own counters saw over all of TARGET's rows: the rows'
    output is taken where the device wrote at least that (the tests hold it to), the
    device's share of it where it wrote less; SPEED is the lab's write speed; KIND "overlapped" gives the disk's time beside
    the compression, "flush" the flush tail after it. The pairs take the CPU's share by
    the physics: 0 where an overlapped disk needs longer than memory."""
    vol = [r for r in rows if r["target"] == target]
    total = sum(float(r["output_bytes"]) for r in vol)
    mine = [float(r["output_bytes"]) for r in vol if int(r["threads"]) == threads]
    if not mine or not total > 0:
        raise ValueError(f"{target} at T={threads}: no output to judge")
    own = sum(mine) / len(mine) * min(1.0, written / total) / speed
    mem = statistics.median(s for _, s in runs_of(rows, "mem", threads))
    share = 0.0 if kind == "overlapped" and own > mem else 1.0
    return paired(rows, target, threads, share), own


def describe(name, threads, p):
    """One line of a point's figures, for a test's log."""
    return (f"{name} T={threads}: {p['measured']:.3f} s at memory's CPU speed (its own median "
            f"{p['median']:.3f} s, min {p['min']:.3f}, max {p['max']:.3f}); memory "
            f"{p['mem']:.3f} s; {p['pairs']} pairs at memory's median speed (its CPU's share "
            f"{p['cpu_share']:.0f}) {min(p['times']):.3f} to {max(p['times']):.3f} s, spread "
            f"{100 * p['spread']:.1f}%")


def unjudgeable(name, threads, p, floor=0.15, noisiest=0.05):
    """Why the point's figures cannot be judged, or None: the volume faster than memory
    beside it by over FLOOR of memory's time (the CPU's speed moved between neighbouring
    runs), or a spread over NOISIEST (a claim of X% is then X% of a figure known to
    NOISIEST)."""
    if p["measured"] < (1.0 - floor) * p["mem"]:
        return (f"{name} T={threads}: the volume ran faster than memory beside it "
                f"({p['measured']:.3f} s against {p['mem']:.3f} s): the CPU's speed moved "
                f"between neighbouring runs")
    if p["spread"] > noisiest:
        return (f"{name} T={threads}: the pairs' spread {100 * p['spread']:.1f}% is over "
                f"{100 * noisiest:g}%")
    return None


def accepted(kind, c, volume_s, measured, spread, tau=0.10, margin=0.05):
    """The verdicts ("verdict cause", and "balanced" for any balanced one) the physics
    allows, and a line of its figures. KIND "overlapped": VOLUME_S is the disk's own time
    W beside the compression; "flush": the flush tail after it. C is memory's time,
    MEASURED the volume's, SPREAD the pairs' (relative), TAU the verdict's tolerance,
    MARGIN the test's fixed one (a share of c)."""
    n = (margin + spread) * c
    b = c / (1.0 - tau)
    if kind == "overlapped":
        v, phys, single = volume_s, max(c, volume_s), "write-bound write-throughput"
    else:
        v = phys = c + volume_s
        single = "write-bound flush-tail"
    near = abs(v - b) <= n or ((measured > b) != (v > b) and abs(v - b) <= n + abs(measured - phys))
    ok = set()
    if kind == "overlapped":
        if volume_s <= (1.0 - tau) * c + n:
            ok.add("cpu-bound compute")
        if volume_s >= b - n:
            ok.add(single)
        if (1.0 - tau) * c - n <= volume_s <= b + n or near:
            ok.add("balanced")
    else:
        if v <= b + n:
            ok.add("cpu-bound compute")
        if v >= b - n:
            ok.add(single)
        if near:
            ok.add("balanced")
    why = (f"memory {c:.3f} s, the volume's own time {v:.3f} s against the boundary "
           f"{b:.3f} s, margin {n:.3f} s; measured {measured:.3f} s")
    return ok, why


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: paired_runs.py RUNS.csv TARGET THREADS")
    p = paired(load(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
    print(f"{p['measured']:.6f} {p['spread']:.6f} {p['mem']:.6f} {p['pairs']}")
