#!/usr/bin/env python3
"""Whole-program analysis against its floor, the parses (CPU time).

Runs of `rematch -p <build>` (whole program by default: summaries in
<build>/.rematch-cache), each next to what it must at least cost, measured
side by side in every round (interleaved):
  cold   all N files, empty cache             vs  the sum of the N parses
         (clang++-19 -fsyntax-only on each file)
  warm   one edited file, the others'         vs  that file's parse
         summaries kept (the pre-commit case)
  again  all N files once more, nothing changed (summaries all fresh),
         vs alone: what whole program by default costs every later run
  alone  all N files with --no-summaries (the single-file mode that was the
         default before), vs the parses and vs cold: what whole program by
         default costs a first run.
  steps  all N files through `rematch summarize` (one process per file, as
         a build system runs them), `link` and `report`, vs the parses;
         `link + report` alone vs the parses (what a build re-runs when
         nothing changed but the report is asked for again); and the total
         size of the .rsum files.
Goals (issue 16): cold <= 1.10 x, warm <= 1.10 x; (issue 39) steps <=
1.05 x, link + report <= 0.05 x.

Projects:
  generated (default)  --files N translation units (200); every function
                       calls into the next file, which calls into the one
                       after (cross-file chains everywhere), and one file in
                       --checkpoint-every M (10) checkpoints a lambda whose
                       chain reaches a counter two files away. M = 1 is the
                       worst case: every file must be parsed again to report
                       what the composition found.
  --mlx <dir>          MLX's own sources (`fetch github:ml-explore/mlx`):
                       mlx/*.cpp, mlx/io, mlx/backend/{common,cpu,no_gpu} and
                       tests/, with -std=c++20 -I<dir>; the files that do not
                       parse here (a missing optional package) are left out
                       and counted. Without the sources the bench says so.
Every round's figures are printed, then the median ratio. --baseline
<rematch> runs another build's cold run and steps in the same rounds,
interleaved, for a before/after side by side.
Usage: wholeprogram_bench.py --rematch <path> [--baseline <path>]
       [--clang clang++-19] [--files 200 [--checkpoint-every 10] |
       --mlx <dir>] [--repeat 3] [-j 2]
"""

import argparse
import glob
import json
import os
import resource
import shutil
import statistics
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
struct Stats { long steps = 0; };
"""


def generate(root, n, every):
    """tu_i: run_i calls step_{i+1} (in tu_{i+1}), which calls bump_{i+2}
    (in tu_{i+2}), which counts in its argument; in one file of every
    `every` the call is inside a checkpointed lambda."""
    decls = "".join(f"float step_{i}(Stats &s, float x);\nvoid bump_{i}(Stats &s);\n"
                    for i in range(n))
    with open(os.path.join(root, "project.h"), "w") as f:
        f.write(HEADER + decls)
    files = []
    for i in range(n):
        nxt, far = (i + 1) % n, (i + 2) % n
        body = f"""#include "project.h"
void bump_{i}(Stats &s) {{ ++s.steps; }}
float step_{i}(Stats &s, float x) {{
  bump_{far}(s);
  std::vector<float> v(4, x);
  std::map<std::string, float> m;
  m["a"] = v[0];
  return m["a"] * 2;
}}
"""
        if i % every == 0:
            body += f"""float run_{i}(rematch::Segment &seg, Stats &s, float x) {{
  return seg.forward([&] {{ return step_{nxt}(s, x); }});
}}
"""
        else:
            body += f"""float run_{i}(rematch::Segment &, Stats &s, float x) {{
  return step_{nxt}(s, x);
}}
"""
        name = os.path.join(root, f"tu_{i}.cpp")
        with open(name, "w") as f:
            f.write(body)
        files.append(name)
    return files, ["-std=c++17"]


def mlx_files(src):
    files = []
    for pattern in ("mlx/*.cpp", "mlx/io/*.cpp", "mlx/backend/common/*.cpp",
                    "mlx/backend/cpu/*.cpp", "mlx/backend/no_gpu/*.cpp",
                    "tests/*.cpp"):
        files += sorted(glob.glob(os.path.join(src, pattern)))
    # Debian's nlohmann-json3-dev has json.hpp under nlohmann/.
    return files, ["-std=c++20", "-I" + src, "-I/usr/include/nlohmann",
                   '-DMLX_VERSION="0"']


def cpu_time(cmd, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, p.returncode


def fresh(cache):
    """No summaries, and no preambles beside them: the warm runs build one
    that every file of the generated project shares, which would make the
    next cold run a run with a precompiled preamble."""
    shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(cache + ".preambles", ignore_errors=True)


def write_db(root, files, flags, clang):
    db = [{"directory": root, "file": f,
           "arguments": [clang, *flags, "-c", f]} for f in files]
    with open(os.path.join(root, "compile_commands.json"), "w") as out:
        json.dump(db, out)


def steps(rematch, root, files, jobs, facts_dir="facts"):
    """CPU time of summarizing every file (a process each), and of linking
    and reporting them; the .rsum files' total size."""
    facts = os.path.join(root, facts_dir)
    shutil.rmtree(facts, ignore_errors=True)
    os.makedirs(facts)
    summed, rsums = 0.0, []
    for i, f in enumerate(files):
        out = os.path.join(facts, f"{i}.rsum")
        summed += cpu_time([rematch, "summarize", "-p", root, f, "-o", out],
                           root)[0]
        rsums.append(out)
    link = os.path.join(facts, "all.rlink")
    linked = cpu_time([rematch, "link", *rsums, "-o", link], root)[0]
    linked += cpu_time([rematch, "report", link, "-j", str(jobs)], root)[0]
    size = sum(os.path.getsize(r) for r in rsums if os.path.exists(r))
    return summed, linked, size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rematch", required=True)
    ap.add_argument("--baseline", help="another build, run side by side")
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--checkpoint-every", type=int, default=10)
    ap.add_argument("--mlx", help="MLX source tree")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("-j", type=int, default=2)
    args = ap.parse_args()
    rematch = os.path.abspath(args.rematch)
    with tempfile.TemporaryDirectory() as root:
        if args.mlx:
            if not os.path.isdir(os.path.join(args.mlx, "mlx")):
                print(f"MLX sources not found at {args.mlx}: "
                      "`fetch github:ml-explore/mlx` brings them; skipped")
                return 0
            files, flags = mlx_files(os.path.abspath(args.mlx))
            ok = [f for f in files
                  if cpu_time([args.clang, *flags, "-fsyntax-only", f], root)[1] == 0]
            print(f"MLX: {len(ok)} of {len(files)} translation units parse here")
            files = ok
            edited = None  # MLX's sources are not ours to edit
        else:
            files, flags = generate(root, args.files, args.checkpoint_every)
            edited = files[0]  # a file with a checkpoint
            print(f"generated: {len(files)} translation units, chains across 3 files, "
                  f"one in {args.checkpoint_every} with a checkpoint")
        write_db(root, files, flags, args.clang)
        cache = os.path.join(root, ".rematch-cache")  # the default place
        rows = {"cold": [], "warm": [], "alone": [], "cold / alone": [],
                "again / alone": [], "steps": [], "link + report": []}
        for r in range(args.repeat):
            parses = sum(cpu_time([args.clang, *flags, "-fsyntax-only", f], root)[0]
                         for f in files)
            fresh(cache)
            cold, rc = cpu_time([rematch, "-p", root, "-j", str(args.j), *files],
                                root)
            again, _ = cpu_time([rematch, "-p", root, "-j", str(args.j), *files],
                                root)
            alone, _ = cpu_time([rematch, "-p", root, "-j", str(args.j),
                                 "--no-summaries", *files], root)
            summed, linked, size = steps(rematch, root, files, args.j)
            rows["steps"].append((summed + linked, parses))
            rows["link + report"].append((linked, parses))
            rows["again / alone"].append((again, alone))
            rows["cold"].append((cold, parses))
            rows["alone"].append((alone, parses))
            rows["cold / alone"].append((cold, alone))
            line = (f"round {r + 1}: cold {cold:8.2f} s cpu / parses {parses:8.2f} s"
                    f" = {cold / parses:5.3f}  (rc {rc}); alone {alone:8.2f} s"
                    f" = {alone / parses:5.3f}; cold / alone {cold / alone:5.3f};"
                    f" again / alone {again / alone:5.3f}; steps"
                    f" {(summed + linked) / parses:5.3f}, link + report"
                    f" {linked / parses:5.3f}, .rsum {size / 1e6:.2f} MB")
            if edited:
                # One file is short and noisy: five edits, each followed by
                # its parse and the hook's run; the medians.
                ones, warms = [], []
                for k in range(5):
                    with open(edited, "a") as f:
                        f.write(f"// edit {r}.{k}\n")
                    ones.append(cpu_time([args.clang, *flags, "-fsyntax-only", edited], root)[0])
                    warms.append(cpu_time([rematch, "-p", root, edited], root)[0])
                one, warm = statistics.median(ones), statistics.median(warms)
                rows["warm"].append((warm, one))
                line += f"; warm {warm:6.3f} / parse {one:6.3f} = {warm / one:5.3f}"
            if args.baseline:
                base = os.path.abspath(args.baseline)
                fresh(cache)
                bcold, _ = cpu_time([base, "-p", root, "-j", str(args.j),
                                     *files], root)
                bsummed, blinked, _ = steps(base, root, files, args.j,
                                            "facts-baseline")
                fresh(cache)
                rows.setdefault("baseline cold", []).append((bcold, parses))
                rows.setdefault("baseline steps", []).append(
                    (bsummed + blinked, parses))
                rows.setdefault("baseline link + report", []).append(
                    (blinked, parses))
                line += (f"; baseline: cold {bcold / parses:5.3f}, steps "
                         f"{(bsummed + blinked) / parses:5.3f}, link + report "
                         f"{blinked / parses:5.3f}")
            print(line, flush=True)
        print(f"{'run':<40}{'median ratio':>14}{'goal':>8}")
        goals = {"cold": "1.10", "warm": "1.10", "alone": "-", "cold / alone": "-",
                 "again / alone": "-", "steps": "1.05", "link + report": "0.05"}
        for name, got in rows.items():
            if got:
                ratio = statistics.median(c / p for c, p in got)
                floor = "" if "/" in name else " (floor: the parses)"
                print(f"{name + floor:<40}{ratio:>14.3f}"
                      f"{goals.get(name, '-'):>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
