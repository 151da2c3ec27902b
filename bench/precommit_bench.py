#!/usr/bin/env python3
"""Pre-commit timing: one changed file of a 200-file project, warm summaries.

Generates a project of N translation units whose checkpointed lambdas call
into functions defined in other files, warms a --summaries-dir with one full
run, then edits one file and times, side by side (interleaved, best of R):
  clang++-19 -fsyntax-only <file>                     (one TU's parse)
  rematch --summaries-dir=<dir> <file>                (the hook's run)
and prints the ratio; the goal is well under 1.20.
Usage: precommit_bench.py --rematch <path> [--clang clang++-19] [--files 200]
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

HEADER = """\
#pragma once
#include <vector>
#include <string>
#include <map>
namespace rematch { bool recomputing(); struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
"""


def generate(root, n):
    decls = "".join(f"float step_{i}(float x);\nvoid bump_{i}();\n" for i in range(n))
    with open(os.path.join(root, "project.h"), "w") as f:
        f.write(HEADER + decls)
    for i in range(n):
        nxt = (i + 1) % n
        body = f"""#include "project.h"
static int counter_{i} = 0;
void bump_{i}() {{ ++counter_{i}; }}
float step_{i}(float x) {{
  std::vector<float> v(4, x);
  std::map<std::string, float> m;
  m["a"] = v[0];
  return m["a"] * 2;
}}
float run_{i}(rematch::Segment &seg, float x) {{
  return seg.forward([&] {{ bump_{nxt}(); return step_{nxt}(x); }});
}}
"""
        with open(os.path.join(root, f"tu_{i}.cpp"), "w") as f:
            f.write(body)


def cpu_time(cmd, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rematch", required=True)
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as root:
        generate(root, args.files)
        sums = os.path.join(root, "sums")
        files = [f"tu_{i}.cpp" for i in range(args.files)]
        cpu, wall, rc = cpu_time([args.rematch, "-j", "2", "--summaries-dir=" + sums,
                                  *files, "--", "-std=c++17"], root)
        print(f"warm-up: {args.files} files, rc {rc}, {wall:.1f} s wall, {cpu:.1f} s cpu")
        changed = os.path.join(root, "tu_7.cpp")
        with open(changed, "a") as f:
            f.write("// edited\n")
        # The first run after the edit rebuilds tu_7's summary; the ones
        # after it find it fresh. Time both kinds.
        first = cpu_time([args.rematch, "--summaries-dir=" + sums, "tu_7.cpp",
                          "--", "-std=c++17"], root)
        best = {"clang": None, "rematch": None}
        for _ in range(args.repeat):
            for name, cmd in (("clang", [args.clang, "-std=c++17", "-fsyntax-only", "tu_7.cpp"]),
                              ("rematch", [args.rematch, "--summaries-dir=" + sums,
                                           "tu_7.cpp", "--", "-std=c++17"])):
                c, w, _ = cpu_time(cmd, root)
                best[name] = c if best[name] is None else min(best[name], c)
        print(f"{'run':<40}{'cpu s':>8}{'ratio':>8}")
        print(f"{'clang++-19 -fsyntax-only tu_7.cpp':<40}{best['clang']:>8.3f}{1.0:>8.2f}")
        print(f"{'rematch (changed file, first run)':<40}{first[0]:>8.3f}{first[0] / best['clang']:>8.2f}")
        print(f"{'rematch (warm, repeated)':<40}{best['rematch']:>8.3f}{best['rematch'] / best['clang']:>8.2f}")
        return 0 if first[0] / best["clang"] < 1.2 else 1


if __name__ == "__main__":
    sys.exit(main())
