#!/usr/bin/env python3
"""Runs bench/runtime_bench once, interleaved, and prints the runtime goals
(issue 3) as ratios and figures measured side by side in that one run.

    python3 bench/runtime_ratios.py --bench build/bench/runtime_bench

Medians of CPU time over --repetitions interleaved repetitions: the two arms of
every ratio run alternately in the same process, so machine load hits both.
"""
import argparse
import json
import statistics
import subprocess
import sys

# (label, numerator, denominator, goal): a ratio goal.
RATIOS = [
    ("forward / direct call, trivial function, no generators",
     "BM_SegmentForward_TrivialCall_NoGenerators", "BM_Direct_TrivialCall", 1.01),
    ("forward / direct, ~50 ns function",
     "BM_SegmentForward_SmallWork_NoGenerators/6", "BM_Direct_SmallWork/6", 1.01),
    ("forward / direct, ~340 ns function",
     "BM_SegmentForward_SmallWork_NoGenerators/40", "BM_Direct_SmallWork/40", 1.01),
    ("forward / direct, one-instruction body inlined (no call)",
     "BM_SegmentForward_Trivial_NoGenerators", "BM_Direct_Trivial", None),
]

# Events per iteration of the *_PerEvent benchmarks (kEvents there).
EVENTS = 1000

# (label, benchmark, divisor, unit, goal): an absolute goal, in the
# benchmark's unit after dividing its time by divisor.
FIGURES = [
    ("save + restore, one mt19937 (forward + recompute)",
     "BM_ForwardRecompute_OneMt19937", 1, "ns", 1000.0),
    ("audit: Tracked read, per event", "BM_Audit_TrackedRead_PerEvent", EVENTS, "ns", 30.0),
    ("audit: REMATCH_OBSERVE, per event", "BM_Audit_Observe_PerEvent", EVENTS, "ns", 30.0),
    ("audit: Generator draw, per event", "BM_Audit_GeneratorDraw_PerEvent", EVENTS, "ns",
     30.0),
    ("audit: diff of two 1M-event traces, identical", "BM_Diff_1M_Identical", 1, "ms",
     100.0),
    ("audit: diff of two 1M-event traces, 100 changes",
     "BM_Diff_1M_100ScatteredChanges", 1, "ms", 100.0),
]


def run(bench, repetitions, min_time):
    names = {n for _, a, b, _ in RATIOS for n in (a, b)} | {f[1] for f in FIGURES}
    pattern = "^(" + "|".join(sorted(names)) + \
        "|BM_Audit_TraceBytesPerEvent)$"
    cmd = [bench, "--benchmark_filter=" + pattern,
           "--benchmark_repetitions=%d" % repetitions,
           "--benchmark_enable_random_interleaving=true",
           "--benchmark_min_time=%g" % min_time,
           "--benchmark_format=json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    cpu, counters = {}, {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        cpu.setdefault(b["run_name"], []).append(b["cpu_time"])
        if "bytes_per_event" in b:
            counters["bytes_per_event"] = b["bytes_per_event"]
    return {k: statistics.median(v) for k, v in cpu.items()}, counters


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", required=True, help="path to runtime_bench")
    ap.add_argument("--repetitions", type=int, default=30)
    ap.add_argument("--min-time", type=float, default=0.1,
                    help="seconds per repetition of each benchmark")
    args = ap.parse_args()
    med, counters = run(args.bench, args.repetitions, args.min_time)
    missing = False

    print("%-58s %10s %10s %7s %6s  %s" % ("ratio (medians, CPU time)", "rematch",
                                          "baseline", "ratio", "goal", ""))
    for label, num, den, goal in RATIOS:
        if num not in med or den not in med:
            print("%-58s missing benchmark" % label)
            missing = True
            continue
        r = med[num] / med[den]
        verdict = "" if goal is None else ("met" if r <= goal else "MISSED")
        print("%-58s %8.3fns %8.3fns %7.3f %6s  %s" % (
            label, med[num], med[den], r, "-" if goal is None else "%.2f" % goal,
            verdict))
    print()
    print("%-58s %12s %10s" % ("figure (median)", "value", "goal"))
    for label, name, divisor, unit, goal in FIGURES:
        if name not in med:
            print("%-58s missing benchmark" % label)
            missing = True
            continue
        v = med[name] / divisor
        print("%-58s %10.1f%s %8.0f%s  %s" % (label, v, unit, goal, unit,
                                            "met" if v <= goal else "MISSED"))
    b = counters.get("bytes_per_event")
    if b is not None:
        print("%-58s %11.0fB %9.0fB  %s" % ("audit: memory per stored event", b, 32,
                                           "met" if b <= 32 else "MISSED"))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
