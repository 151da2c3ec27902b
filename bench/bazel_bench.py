#!/usr/bin/env python3
"""rematch_aspect (bazel/rematch.bzl) against a plain build, wall time.

A generated workspace (bench/wholeprogram_bench.py's project: --files
translation units, calls across files, one in 10 checkpointing) in targets
of --per-target files, each depending on the next. Per round, both cold
(`bazel clean`, no cache) with --jobs=2:
  build   bazel build //...                        (compiles and links)
  aspect  bazel build //... --aspects=...rematch_aspect --output_groups=rematch
then a no-op rebuild of the aspect, whose executed actions are counted
(goal: none). Prints each round and the median ratio aspect / build (goal
<= 1.2). Offline with Debian's bazel-bootstrap (bazel/offline).

Usage: bazel_bench.py --rematch <build/tool/rematch> --models <dir>
       [--files 200] [--per-target 10] [--repeat 3] [--bazel bazel]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import wholeprogram_bench  # noqa: E402

ASPECT = "--aspects=@rematch//:share/rematch/bazel/rematch.bzl%rematch_aspect"


def workspace(d, rematch, models, n, per):
    ws = os.path.join(d, "ws")
    os.makedirs(ws)
    files, _ = wholeprogram_bench.generate(ws, n, 10)
    prefix = os.path.join(d, "prefix")
    os.makedirs(os.path.join(prefix, "bin"))
    os.makedirs(os.path.join(prefix, "share", "rematch", "bazel"))
    os.symlink(rematch, os.path.join(prefix, "bin", "rematch"))
    os.symlink(models, os.path.join(prefix, "share", "rematch", "models"))
    os.symlink(os.path.join(ROOT, "bazel", "rematch.bzl"),
               os.path.join(prefix, "share", "rematch", "bazel", "rematch.bzl"))
    with open(os.path.join(ws, "WORKSPACE"), "w") as f:
        f.write('new_local_repository(name = "rematch", path = "%s", '
                'build_file = "%s")\n' % (prefix, os.path.join(
                    ROOT, "bazel", "repository", "BUILD.bazel")))
    names = [os.path.basename(f) for f in files]
    targets = (len(names) + per - 1) // per
    with open(os.path.join(ws, "BUILD"), "w") as f:
        f.write('cc_library(name = "project_h", hdrs = ["project.h"])\n')
        for t in range(targets):
            srcs = names[t * per:(t + 1) * per]
            deps = [":project_h"] + ([f":lib{t + 1}"] if t + 1 < targets else [])
            f.write(f'cc_library(name = "lib{t}", srcs = {srcs!r}, '
                    f'deps = {deps!r})\n')
    return ws


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rematch", required=True)
    ap.add_argument("--models", required=True)
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--per-target", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bazel", default="bazel")
    args = ap.parse_args()
    offline = os.path.join(ROOT, "bazel", "offline")
    with tempfile.TemporaryDirectory(prefix="rematch-bazel-bench-") as d:
        ws = workspace(d, os.path.abspath(args.rematch),
                       os.path.abspath(args.models), args.files,
                       args.per_target)
        base = [args.bazel, "--output_user_root=" + os.path.join(d, "root")]
        flags = ["--override_repository=rules_cc=" + offline + "/rules_cc",
                 "--override_repository=rules_java=" + offline + "/rules_java",
                 "--jobs=2", "--cxxopt=-std=c++17"]

        def bazel(*argv):
            start = time.monotonic()
            p = subprocess.run(base + list(argv[:1]) + flags + list(argv[1:]),
                               cwd=ws, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(p.stderr[-3000:])
            return time.monotonic() - start, p.stderr

        bazel("build", "//:project_h")  # the server and the toolchain, once
        ratios = []
        for r in range(args.repeat):
            bazel("clean")
            build, _ = bazel("build", "//...")
            bazel("clean")
            aspect, _ = bazel("build", "//...", ASPECT, "--output_groups=rematch")
            _, err = bazel("build", "//...", ASPECT, "--output_groups=rematch")
            line = [l for l in err.splitlines()
                    if re.search(r"\d+ process(es)?\b", l)][-1]
            # "INFO: 1 process: 1 internal." or "INFO: 0 processes."
            executed = sum(int(n) for n, kind in
                           re.findall(r"(\d+) ([a-z-]+)",
                                      line.split(":", 2)[-1])
                           if kind != "internal")
            ratios.append(aspect / build)
            print(f"round {r + 1}: build {build:7.2f} s, aspect {aspect:7.2f} s"
                  f" = {aspect / build:5.3f}; no-op rebuild: {line.strip()}"
                  f" ({executed} executed)", flush=True)
        subprocess.run(base + ["shutdown"], cwd=ws, capture_output=True)
        print(f"aspect / build, median of {args.repeat}: "
              f"{statistics.median(ratios):.3f} (goal 1.2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
