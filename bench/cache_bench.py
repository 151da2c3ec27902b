#!/usr/bin/env python3
"""What rematch costs where people run it most: a hook on a file nothing
changed in, a file whose body was just edited, a first run (tool/
FindingsCache.h, tool/Preamble.h).

Each round starts from an empty cache and times, in CPU time (user +
system) of the child, side by side with the parse (clang++-19
-fsyntax-only, the floor; with the first run, the median of --samples
runs of each, interleaved):

  first      rematch --summaries-dir=<empty> <file>       (a first run)
  unchanged  the same again, nothing changed               (the findings cache)
  build      after an edit of the body: the preamble's second sighting, where
             it is built and used, and the file's bodies are recorded
  edited     after another edit of the body: the preamble reused, the
             unchanged bodies not parsed again (BodyReplay.h)

for a translation unit that includes <torch/torch.h> (where libtorch-dev is
installed) and for analysis_bench.py's 4k-function file (whose own text
dominates); and, for the 200-file project of precommit_bench.py, a cold
run and an unchanged one against the sum of the 200 parses; with --mlx, the
same for MLX's sources and tests, and a run after three files were edited,
and the rounds of a single file for MLX's tests/custom_vjp_tests.cpp ("vjp",
whose includes dominate, as the torch file's).
With --database, the files go through a compile_commands.json (CMake's
form), named relative to its directory as the pre-commit hook names them,
instead of `-- <flags>`.
With --baseline, another rematch's rounds of each file run interleaved
with these, against the same parses (before and after a change, side by
side).
Every round is printed, then the medians. Goals (issues 30, 39): first and
build <= 1.10;
unchanged <= 0.02 for the torch file and the projects (the parses of the 4k
and vjp files, 0.2-0.5 s, are ten to twenty times the cost of loading
rematch's shared libraries: their rows are printed, not judged); edited
<= 0.30 for the torch and vjp files and <= 1.00 (never slower than its
parse) for the 4k file.
With --probe (build/bench/skip_bodies_probe), each file's rounds also time
a parse with every function body skipped ("skipped"): the floor of
re-analysing an edited file without parsing its unchanged bodies again;
printed, not judged.

Usage: cache_bench.py --rematch build/tool/rematch [--clang clang++-19]
                      [--repeat 5] [--samples 3] [--files 200]
                      [--only torch,4k,project,mlx,vjp]
                      [--mlx <MLX source tree>] [--probe <skip_bodies_probe>]
"""

import argparse
import json
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


def steps(args):
    """The columns of a file's rows: STEPS, and the probe's parse."""
    return STEPS + (("skipped",) if args.probe else ())


def write_database(work, paths, flags):
    """A CMake-style compile_commands.json for the files: the compiler by
    path, -o and -c, the file by absolute path."""
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump([{"directory": work, "file": p,
                    "command": " ".join(["/usr/bin/c++", *flags, "-o",
                                         p + ".o", "-c", p])}
                   for p in paths], f)


def one_file(args, name, text, flags):
    """Each round: the parse, and the steps of rematch (and of --baseline,
    interleaved, each in a cache of its own). The medians of the ratios,
    one dict per binary."""
    work = tempfile.mkdtemp(prefix="rematch-cache-")
    binaries = [args.rematch] + ([args.baseline] if args.baseline else [])
    try:
        rows = [[] for _ in binaries]
        for r in range(args.repeat):
            paths = []
            for b in range(len(binaries)):
                paths.append(os.path.join(work, "%s-%d.cpp" % (name, b)))
                with open(paths[b], "w") as f:
                    f.write(text)
            parse = [args.clang, "-fsyntax-only", paths[0]] + flags
            if args.database:
                write_database(work, paths, flags)
            # A first run and the parse, interleaved, each the median of
            # --samples runs: the two differ by a few per cent, which one
            # pair of runs on a busy machine does not resolve.
            firsts, parses = [[] for _ in binaries], []
            commands = []
            for k in range(args.samples):
                commands = []
                for b, binary in enumerate(binaries):
                    cache = os.path.join(work, "cache-%d-%d-%d" % (b, r, k))
                    if args.database:
                        # As the pre-commit hook runs it: from the
                        # database's directory, the file named relative.
                        commands.append(
                            ["sh", "-c", 'cd "$0" && exec "$@"', work, binary,
                             "-p", ".", "--summaries-dir=" + cache,
                             os.path.basename(paths[b])])
                    else:
                        commands.append([binary, "--summaries-dir=" + cache,
                                         paths[b], "--"] + flags)
                    firsts[b].append(ab.run_once(commands[b], (0, 1), "cpu")[0])
                parses.append(ab.run_once(parse, (0,), "cpu")[0])
            times = [{"first": statistics.median(firsts[b]),
                      "parse": statistics.median(parses)}
                     for b in range(len(binaries))]
            for step, n in zip(STEPS[1:], (0, 1, 2)):
                for b in range(len(binaries)):
                    with open(paths[b], "w") as f:
                        f.write(edited(text, n) if n else text)
                    times[b][step], _ = ab.run_once(commands[b], (0, 1), "cpu")
            if args.probe:
                for t in times:
                    t["skipped"], _ = ab.run_once(
                        [args.probe, "--skip", paths[0], "--"] + flags, (0,),
                        "cpu")
            for b in range(len(binaries)):
                rows[b].append(times[b])
                print("  %-6s round %d: %s parse %6.3f s  "
                      % (name, r + 1, "baseline" if b else "rematch ",
                         times[b]["parse"]) +
                      "  ".join("%s %.3f" % (s, times[b][s] / times[b]["parse"])
                                for s in steps(args)), flush=True)
        return [{s: statistics.median(t[s] / t["parse"] for t in rows[b])
                 for s in steps(args)} for b in range(len(binaries))]
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


def mlx_flags(root):
    """What MLX's sources and tests parse with here, without its build."""
    return ["-std=c++20", "-I" + os.path.abspath(root), '-DMLX_VERSION="0"']


def mlx_files(args, root, flags):
    """MLX's sources and tests (not its Metal or CUDA backends) that parse
    here without MLX's build (no generated headers, BLAS or MPI)."""
    names = []
    for top in ("mlx", "tests"):
        for d, _, fs in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(d, root)
            if any(x in rel for x in ("backend/metal", "backend/cuda",
                                      "examples")):
                continue
            names += [os.path.join(rel, f) for f in fs if f.endswith(".cpp")]
    return [f for f in sorted(names)
            if pb.cpu_time([args.clang, "-fsyntax-only", *flags, f],
                           root)[2] == 0]


def mlx_project(args):
    """MLX as a CI job sees it: a cold run, a run with nothing changed, and
    one after three files' bodies were edited, against the sum of the
    parses."""
    root = tempfile.mkdtemp(prefix="rematch-cache-mlx-")
    try:
        for top in ("mlx", "tests"):
            shutil.copytree(os.path.join(args.mlx, top),
                            os.path.join(root, top), symlinks=True)
        flags = mlx_flags(root)
        files = mlx_files(args, root, flags)
        rows = []
        for r in range(args.repeat):
            sums = os.path.join(root, "sums-%d" % r)
            cmd = [args.rematch, "-j", "2", "--summaries-dir=" + sums, *files,
                   "--", *flags]
            first = pb.cpu_time(cmd, root)[0]
            unchanged = pb.cpu_time(cmd, root)[0]
            for f in files[:3]:
                with open(os.path.join(root, f), "a") as out:
                    out.write("\nstatic float edited_%d(float x) "
                              "{ return x * %d; }\n" % (r, r))
            edited = pb.cpu_time(cmd, root)[0]
            parses = sum(pb.cpu_time([args.clang, "-fsyntax-only", *flags,
                                      f], root)[0] for f in files)
            rows.append((parses, first / parses, unchanged / parses,
                         edited / parses))
            print("  MLX %d files round %d: parses %6.2f s  first %.3f  "
                  "unchanged %.4f  3 edited %.3f"
                  % (len(files), r + 1, *rows[-1]), flush=True)
        return len(files), [statistics.median(x[i] for x in rows)
                            for i in (1, 2, 3)]
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rematch", required=True)
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--samples", type=int, default=3,
                    help="a round's first run and parse: the median of this "
                    "many of each, interleaved")
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--only", default="torch,4k,project,mlx,vjp",
                    help="the cases to run, comma-separated")
    ap.add_argument("--mlx", default="",
                    help="an MLX source tree (github.com/ml-explore/mlx): "
                    "its sources and tests as a project")
    ap.add_argument("--baseline", default="",
                    help="another rematch: its rounds of each file run "
                    "interleaved with these, against the same parse")
    ap.add_argument("--database", action="store_true",
                    help="run the files through a compilation database, "
                    "named relative to its directory, as the pre-commit "
                    "hook does, instead of with -- <flags>")
    ap.add_argument("--probe", default="",
                    help="skip_bodies_probe (built with the bench): also "
                    "time each file's parse with every body skipped")
    args = ap.parse_args()
    args.rematch = os.path.abspath(args.rematch)
    if args.baseline:
        args.baseline = os.path.abspath(args.baseline)
    if args.probe:
        args.probe = os.path.abspath(args.probe)
    print("rematch cache benchmark: cpu, %d round(s), first runs and parses "
          "the median of %d each; ratios to the parse"
          % (args.repeat, args.samples), flush=True)
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
                      1.00))
    if args.mlx and "vjp" in only:
        # The MLX test the issue names, as a hook sees it: a file whose
        # includes (mlx/mlx.h, doctest) dominate.
        with open(os.path.join(args.mlx, "tests", "custom_vjp_tests.cpp")) as f:
            cases.append(("vjp", f.read(), mlx_flags(args.mlx), 0.30))
    for name, text, flags, goal in cases:
        meds = one_file(args, name, text, flags)
        for b, m in enumerate(meds):
            print("%-6s median: %s " % (name, "baseline" if b else "rematch ") +
                  "  ".join("%s %.3f" % (s, m[s]) for s in steps(args)),
                  flush=True)
        med = meds[0]
        check(name + " first", med["first"], 1.10)
        check(name + " build", med["build"], 1.10)
        if name == "torch":
            check(name + " unchanged", med["unchanged"], 0.02)
        check(name + " edited", med["edited"], goal)
    if "project" in only:
        first, unchanged = project(args)
        print("%d files median: first %.3f  unchanged %.4f"
              % (args.files, first, unchanged))
        check("project unchanged", unchanged, 0.02)
    if args.mlx and "mlx" in only:
        n, (first, unchanged, edited) = mlx_project(args)
        print("MLX %d files median: first %.3f  unchanged %.4f  "
              "3 edited %.3f" % (n, first, unchanged, edited))
        check("MLX unchanged", unchanged, 0.02)
    print("above the goal: " + "; ".join(failed) if failed
          else "every ratio within its goal")


if __name__ == "__main__":
    main()
