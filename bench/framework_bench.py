#!/usr/bin/env python3
"""Cost of rematch on translation units that include real frameworks.

    framework_bench.py --rematch build/tool/rematch [--other OLD/rematch]
                       [--clang clang++-19] [--repeat 5]

For each translation unit below whose headers are installed (libtorch's
<torch/torch.h>, Eigen, MLX from ../shared/thirdparty/mlx), times

  clang++-19 -fsyntax-only <file> <args>    (parse only)
  rematch <file> -- <args>                  (parse, models, analysis, checks)

interleaved, in CPU time (user + sys of the child), best of --repeat, and
prints the ratio rematch/parse. With --other, a second rematch binary (an
older revision) is timed in the same rounds. The models' goal is a ratio of
at most 1.05 on the libtorch unit; the script prints figures and asserts
nothing.
"""

import argparse
import os
import resource
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared")

UNITS = [
    ("libtorch", os.path.join(ROOT, "examples", "lint", "libtorch_block.cpp"),
     ["-std=c++17", "-I/usr/include/torch/csrc/api/include"],
     "/usr/include/torch/csrc/api/include/torch/torch.h",
     ["--checkpoint-functions=nn::checkpoint"]),
    ("eigen", os.path.join(ROOT, "tests", "checks", "frameworks", "eigen.cpp"),
     ["-std=c++17", "-I/usr/include/eigen3", "-I" + os.path.join(ROOT, "runtime", "include")],
     "/usr/include/eigen3/Eigen/Dense", []),
    ("mlx", os.path.join(ROOT, "tests", "checks", "frameworks", "mlx.cpp"),
     ["-std=c++20", "-I" + os.path.join(SHARED, "thirdparty", "mlx")],
     os.path.join(SHARED, "thirdparty", "mlx", "mlx", "mlx.h"), []),
]


def cpu_time(cmd, ok_codes):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in ok_codes:
        sys.exit("failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd),
                                          proc.stderr.decode()[-2000:]))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rematch", required=True)
    ap.add_argument("--other", help="a second rematch binary, timed alongside")
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--repeat", type=int, default=5)
    ns = ap.parse_args()
    binaries = [("rematch", ns.rematch)] + ([("other", ns.other)] if ns.other else [])
    header = "%-9s %9s" % ("unit", "parse s")
    for name, _ in binaries:
        header += " %9s %7s" % (name + " s", "ratio")
    print(header)
    for name, path, args, needs, extra in UNITS:
        if not os.path.exists(needs):
            print("%-9s skipped: %s is not here" % (name, needs))
            continue
        best = {}
        for _ in range(ns.repeat):
            t = cpu_time([ns.clang, "-fsyntax-only", path] + args, (0,))
            best["parse"] = min(best.get("parse", t), t)
            for label, binary in binaries:
                # Exit 1: findings; the units are meant to have some.
                t = cpu_time([binary] + extra + [path, "--"] + args, (0, 1))
                best[label] = min(best.get(label, t), t)
        line = "%-9s %9.3f" % (name, best["parse"])
        for label, _ in binaries:
            line += " %9.3f %7.3f" % (best[label], best[label] / best["parse"])
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
