#!/usr/bin/env python3
"""Why a preamble with every body of its headers costs more than 1.10 x
the parse to build (which is why rematch's leaves out the bodies the
analysis never reads: tool/Preamble.h; cache_bench.py times that).

rematch builds a file's precompiled preamble with clang's
-fpch-instantiate-templates (tool/Preamble.cpp), and then parses the file
with it. This prints, for a file that includes <torch/torch.h>, in CPU time
(user + system) against the file's parse (clang++-19 -fsyntax-only), side by
side and interleaved, the two halves of that run with and without the
flag:

  build   compiling the preamble (-x c++-header ... -o x.pch)
  use     parsing the rest of the file with it (-include-pch): what every
          later edit costs

and the run that builds it (build + use) against issue 39's two goals: that
run <= 1.10, an edit <= 0.30. With the flag, templates the headers use are
instantiated once, in the preamble; without it, every later parse
instantiates them again. With every body kept, neither meets both goals:
the build alone is about the parse.

Usage: preamble_tradeoff.py [--clang clang++-19] [--repeat 3]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

TORCH = "/usr/include/torch/csrc/api/include"


def cpu(cmd, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr.decode()))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if not os.path.isdir(TORCH):
        print("skipped: libtorch-dev is not installed")
        return 0
    flags = ["-std=c++17", "-I" + TORCH, "-w", "-D__clang_analyzer__"]
    with tempfile.TemporaryDirectory(prefix="rematch-preamble-") as d:
        with open(os.path.join(d, "p.h"), "w") as f:
            f.write("#include <torch/torch.h>\n")
        with open(os.path.join(d, "file.cpp"), "w") as f:
            f.write("#include <torch/torch.h>\n"
                    "torch::Tensor f(torch::Tensor x) { return x.relu(); }\n")
        with open(os.path.join(d, "rest.cpp"), "w") as f:
            f.write("torch::Tensor f(torch::Tensor x) { return x.relu(); }\n")
        cmds = {
            "parse": [args.clang, *flags, "-fsyntax-only", "file.cpp"],
            "build instantiated": [args.clang, *flags, "-x", "c++-header",
                                   "-fpch-instantiate-templates", "p.h",
                                   "-o", "i.pch"],
            "build plain": [args.clang, *flags, "-x", "c++-header", "p.h",
                            "-o", "p.pch"],
            "use instantiated": [args.clang, *flags, "-fsyntax-only",
                                 "-include-pch", "i.pch", "rest.cpp"],
            "use plain": [args.clang, *flags, "-fsyntax-only",
                          "-include-pch", "p.pch", "rest.cpp"],
        }
        times = {k: [] for k in cmds}
        for r in range(args.repeat):
            for k, cmd in cmds.items():
                times[k].append(cpu(cmd, d))
            print("  round %d: parse %.2f s  " % (r + 1, times["parse"][-1]) +
                  "  ".join("%s %.3f" % (k, times[k][-1] / times["parse"][-1])
                            for k in cmds if k != "parse"), flush=True)
    ratio = {k: statistics.median(times[k][i] / times["parse"][i]
                                  for i in range(args.repeat)) for k in cmds}
    print("preamble trade-off (medians, ratios to the parse):")
    for kind in ("instantiated", "plain"):
        run = ratio["build " + kind] + ratio["use " + kind]
        edit = ratio["use " + kind]
        print("  %-12s build %.3f  use %.3f  -> run that builds %.3f (%s 1.10)"
              "  edit %.3f (%s 0.30)" % (
                  kind, ratio["build " + kind], edit, run,
                  "meets" if run <= 1.10 else "above", edit,
                  "meets" if edit <= 0.30 else "above"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
