"""The truth tests' own reading of a sweep's runs.csv, independent of chokepoint's analysis.

A sweep runs in randomized blocks: a repetition of one codec at one thread count runs on
every target next to each other. So a volume's run and memory's run of the same repetition
saw one CPU speed, and their difference is the volume's cost at that speed, whatever spell
of a slower core came and went between blocks. The tests judge on these pairs:

  measured  memory's median time plus the median of the pairs' differences: the volume's
            time at memory's CPU speed;
  noise     half the range of the middle differences (without the largest and the smallest
            of five or more): the test's tolerance beside its stated percentage.

Used as a module (`from paired_runs import paired`) or from the shell:
  python3 paired_runs.py RUNS.csv TARGET THREADS   prints "measured noise median_gap mem"
"""
import csv
import statistics
import sys


def load(path):
    """The valid rows of runs.csv PATH, as dicts."""
    with open(path) as f:
        return [r for r in csv.DictReader(f) if r["valid"] == "1"]


def times(rows, target, threads):
    """{repetition: seconds} of TARGET's runs at THREADS."""
    return {int(r["rep"]): float(r["seconds"]) for r in rows
            if r["target"] == target and int(r["threads"]) == threads}


def middle(values):
    """VALUES sorted, without the smallest and the largest when there are five or more."""
    values = sorted(values)
    return values[1:-1] if len(values) >= 5 else values


def paired(rows, target, threads):
    """A dict: measured, noise, gap (the median difference), mem (memory's median), the
    volume's own median, min and max, and the gaps, for TARGET at THREADS. Raises
    ValueError when no repetition ran on both."""
    v, m = times(rows, target, threads), times(rows, "mem", threads)
    gaps = [v[r] - m[r] for r in sorted(v) if r in m]
    if not gaps:
        raise ValueError(f"no repetition of {target} at T={threads} has a memory run")
    mem = statistics.median(m.values())
    gap = statistics.median(gaps)
    mid = middle(gaps)
    return {"measured": mem + gap, "noise": (mid[-1] - mid[0]) / 2, "gap": gap, "mem": mem,
            "median": statistics.median(v.values()), "min": min(v.values()),
            "max": max(v.values()), "gaps": gaps}


def describe(name, threads, p):
    """One line of a point's figures, for a test's log."""
    return (f"{name} T={threads}: {p['measured']:.3f} s at memory's CPU speed (its own median "
            f"{p['median']:.3f} s, min {p['min']:.3f}, max {p['max']:.3f}); memory "
            f"{p['mem']:.3f} s; paired gaps {min(p['gaps']):+.3f} to {max(p['gaps']):+.3f} s, "
            f"noise {p['noise']:.3f} s")


def unjudgeable(name, threads, p, floor=0.15, noisiest=0.10):
    """Why the point's figures cannot be judged, or None: the volume faster than memory in
    its blocks by over FLOOR of memory's time (the CPU's speed moved between paired runs),
    or a noise over NOISIEST of the measured time (a test passes the percentage it claims:
    a noise beyond it would more than double the claim)."""
    if p["gap"] < -floor * p["mem"]:
        return (f"{name} T={threads}: the volume ran faster than memory in its blocks "
                f"(median gap {p['gap']:+.3f} s against {p['mem']:.3f} s): the CPU's speed "
                f"moved between paired runs")
    if p["noise"] > noisiest * p["measured"]:
        return (f"{name} T={threads}: noise {p['noise']:.3f} s is over "
                f"{100 * noisiest:.0f}% of {p['measured']:.3f} s")
    return None


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: paired_runs.py RUNS.csv TARGET THREADS")
    p = paired(load(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
    print(f"{p['measured']:.6f} {p['noise']:.6f} {p['gap']:.6f} {p['mem']:.6f}")
