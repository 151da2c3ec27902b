#!/usr/bin/env python3
"""How the report phase grows with the number of summaries.

Generates N small translation units (2,000 by default) whose functions call
into the next file, writes their summaries once (`--summaries-only`), then
times, side by side in each round, the report phase of one file against
directories holding N/8, N/4, N/2 and N of those summaries: loading and
composing them is all that grows. Prints CPU seconds per run and per 1,000
summaries added since the previous size (the parse of the one file is
constant): linear growth keeps that column flat, quadratic growth would
double it at each step.
Usage: summaries_scaling.py --rematch <path> [--files 2000] [--repeat 3] [-j 2]
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile


def generate(root, n):
    with open(os.path.join(root, "p.h"), "w") as f:
        f.write("namespace rematch { struct Segment { template <class F> "
                "void forward([[clang::annotate(\"rematch::recomputed\")]] "
                "F&& f) { f(); } }; }\nstruct S { long n = 0; };\n")
        f.write("".join(f"void f_{i}(S &s);\n" for i in range(n)))
    files = []
    for i in range(n):
        name = f"tu_{i}.cpp"
        with open(os.path.join(root, name), "w") as f:
            f.write(f'#include "p.h"\nvoid f_{i}(S &s) {{ ++s.n; f_{(i + 1) % n}(s); }}\n'
                    f"void run_{i}(rematch::Segment &seg, S &s) {{ seg.forward([&] {{ f_{i}(s); }}); }}\n")
        files.append(name)
    return files


def cpu(cmd, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rematch", required=True)
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("-j", type=int, default=2)
    args = ap.parse_args()
    rematch = os.path.abspath(args.rematch)
    with tempfile.TemporaryDirectory() as root:
        files = generate(root, args.files)
        full = os.path.join(root, "all")
        t, p = cpu([rematch, "-j", str(args.j), "--summaries-only",
                    "--summaries-dir=" + full, *files, "--", "-std=c++17"], root)
        count = sum(n.endswith(".summary.json") for n in os.listdir(full))
        print(f"phase one: {count} summaries written in {t:.1f} s cpu (rc {p.returncode})")
        sizes = [args.files // 8, args.files // 4, args.files // 2, args.files]
        dirs = {}
        for k in sizes:
            d = os.path.join(root, f"sums-{k}")
            os.mkdir(d)
            keep = {f"tu_{i}.cpp" for i in range(k)}
            for n in os.listdir(full):
                if not n.endswith(".summary.json") or n.split(".summary")[0].rsplit(".", 1)[0] in keep:
                    shutil.copy(os.path.join(full, n), d)
            dirs[k] = d
        times = {k: [] for k in sizes}
        for _ in range(args.repeat):
            for k in sizes:
                t, p = cpu([rematch, "--summaries-dir=" + dirs[k], "tu_0.cpp",
                            "--", "-std=c++17"], root)
                times[k].append(t)
        print(f"{'summaries':>10}{'cpu s (median)':>16}{'s per 1000 added':>18}   runs")
        prev = None
        for k in sizes:
            m = statistics.median(times[k])
            runs = " ".join(f"{t:.3f}" for t in times[k])
            slope = "" if prev is None else f"{(m - prev[1]) / (k - prev[0]) * 1000:.3f}"
            print(f"{k:>10}{m:>16.3f}{slope:>18}   {runs}")
            prev = (k, m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
