#!/usr/bin/env python3
"""What rematch costs where people run it most: a hook on a file nothing
changed in, a file whose body was just edited, a first run (tool/
FindingsCache.h, tool/Preamble.h).

Each round starts from an empty cache and times, in CPU time (user +
system) of the child, side by side with the parse (clang++-19
-fsyntax-only, the floor):

  first      rematch --summaries-dir=<empty> <file>       (a first run)
  unchanged  the same again, nothing changed               (the findings cache)
  build      after an edit of the body: the preamble's second sighting, where
             it is built and used
  edited     after another edit of the body: the preamble reused

for a translation unit that includes <torch/torch.h> (where libtorch-dev is
installed) and for analysis_bench.py's 4k-function file (whose own text
dominates); and, for the 200-file project of precommit_bench.py, a cold
run and an unchanged one against the sum of the 200 parses. Every round is
printed, then the medians. Goals: first <= 1.10; unchanged <= 0.02; edited
<= 0.30 for the torch file; "build" has none: it is paid once per preamble.

Usage: cache_bench.py --rematch build/tool/rematch [--clang clang++-19]
                      [--repeat 5] [--files 200] [--only torch,4k,project]
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analysis_bench as ab  # noqa: E402
import precommit_bench as pb  # noqa: E402

STEPS = ("first", "unchanged", "build", "edited")


def edited(text, n):
    """The text with a function added at its end (its own part, after the
    #include block): an edit of the file's body."""
    return text + "\nfloat edited_%d(float x) { return x * %d; }\n" % (n, n)


def one_file(args, name, text, flags):
    work = tempfile.mkdtemp(prefix="rematch-cache-")
    try:
        path = os.path.join(work, name + ".cpp")
        rows = []
        for r in range(args.repeat):
            cache = os.path.join(work, "cache-%d" % r)
            rematch = [args.rematch, "--summaries-dir=" + cache, path, "--"] + flags
            times = {}
            for step, n in zip(STEPS, (0, 0, 1, 2)):
                with open(path, "w") as f:
                    f.write(edited(text, n) if n else text)
                times[step], _ = ab.run_once(rematch, (0, 1), "cpu")
            times["parse"], _ = ab.run_once(
                [args.clang, "-fsyntax-only", path] + flags, (0,), "cpu")
            rows.append(times)
            print("  %-6s round %d: parse %6.3f s  " % (name, r + 1, times["parse"]) +
                  "  ".join("%s %.3f" % (s, times[s] / times["parse"])
                            for s in STEPS), flush=True)
        return {s: statistics.median(t[s] / t["parse"] for t in rows)
                for s in STEPS}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def project(args):
    root = tempfile.mkdtemp(prefix="rematch-cache-project-")
    try:
        pb.generate(root, args.files)
        files = ["tu_%d.cpp" % i for i in range(args.files)]
        rows = []
        for r in range(args.repeat):
            sums = os.path.join(root, "sums-%d" % r)
            cmd = [args.rematch, "-j", "2", "--summaries-dir=" + sums, *files,
                   "--", "-std=c++17"]
            first = pb.cpu_time(cmd, root)[0]
            unchanged = pb.cpu_time(cmd, root)[0]
            parses = sum(pb.cpu_time([args.clang, "-std=c++17", "-fsyntax-only",
                                      f], root)[0] for f in files)
            rows.append((parses, first / parses, unchanged / parses))
            print("  %d files round %d: parses %6.2f s  first %.3f  unchanged %.4f"
                  % (args.files, r + 1, *rows[-1]), flush=True)
        return (statistics.median(x[1] for x in rows),
                statistics.median(x[2] for x in rows))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rematch", required=True)
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--only", default="torch,4k,project",
                    help="the cases to run, comma-separated")
    args = ap.parse_args()
    args.rematch = os.path.abspath(args.rematch)
    print("rematch cache benchmark: cpu, %d round(s); ratios to the parse"
          % args.repeat, flush=True)
    failed = []

    def check(label, ratio, goal):
        if ratio > goal:
            failed.append("%s %.3f > %.2f" % (label, ratio, goal))

    cases = []
    only = args.only.split(",")
    flags = ab.torch_flags() if "torch" in only else None
    if flags:
        cases.append(("torch", ab.generate_torch(), flags, 0.30))
    if "4k" in only:
        cases.append(("4k", ab.generate(4000, 256, True)[0], ["-std=c++17"],
                      None))
    for name, text, flags, goal in cases:
        med = one_file(args, name, text, flags)
        print("%-6s median: " % name +
              "  ".join("%s %.3f" % (s, med[s]) for s in STEPS), flush=True)
        check(name + " first", med["first"], 1.10)
        check(name + " unchanged", med["unchanged"], 0.02)
        if goal is not None:
            check(name + " edited", med["edited"], goal)
    if "project" in only:
        first, unchanged = project(args)
        print("%d files median: first %.3f  unchanged %.4f"
              % (args.files, first, unchanged))
        check("project unchanged", unchanged, 0.02)
    print("above the goal: " + "; ".join(failed) if failed
          else "every ratio within its goal")


if __name__ == "__main__":
    main()
