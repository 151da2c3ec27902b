#!/usr/bin/python3
"""Applies rematch's fix-its to a copy of a test file and compares the result.

    run_fixit_test.py --rematch BIN --clang-tidy BIN --plugin SO --inputs DIR
                      [--frontend=both|rematch|clang-tidy] INPUT.cpp

The expected result is INPUT.cpp.expected. Each front end fixes its own copy
in a fresh temporary directory (so no .clang-tidy or .rematch.yaml above the
test applies):

    rematch --fix COPY -- -std=c++17 -isystem DIR
    clang-tidy --load=SO --checks=-*,rematch-global-read,rematch-logging --fix \
        COPY -- -std=c++17 -isystem DIR
"""

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

COMPILE_ARGS = ["-std=c++17"]


def run(cmd, cwd):
    try:
        proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
    except OSError as e:
        return 127, "cannot run %s: %s" % (cmd[0], e)
    return proc.returncode, proc.stdout + proc.stderr


def compiler_errors(output):
    return [l for l in output.splitlines()
            if ": error: " in l or ": fatal error: " in l]


def fix_with(name, cmd_for, source, expected, inputs):
    with tempfile.TemporaryDirectory(prefix="rematch-fixit-") as tmp:
        copy = os.path.join(tmp, os.path.basename(source))
        shutil.copyfile(source, copy)
        cmd = cmd_for(copy) + ["--"] + COMPILE_ARGS + ["-isystem", inputs]
        rc, output = run(cmd, tmp)
        with open(copy, encoding="utf-8") as f:
            actual = f.read()
    problems = []
    # rematch exits 1 when it has findings; clang-tidy exits 0.
    if rc not in ((0, 1) if name == "rematch" else (0,)):
        problems.append("%s exited with %d" % (name, rc))
    problems += compiler_errors(output)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True),
            os.path.basename(source) + ".expected",
            os.path.basename(source) + " (fixed by %s)" % name)
        problems.append("fixed file differs from the expected one:\n" + "".join(diff))
    if problems:
        print("FAIL [%s] %s" % (name, source))
        print("  command: " + " ".join(cmd))
        for p in problems:
            print("  " + p.replace("\n", "\n  "))
        if output.strip():
            print("  output (last 30 lines):")
            print("\n".join("    " + l for l in output.splitlines()[-30:]))
        return False
    print("ok   [%s] %s" % (name, os.path.basename(source)))
    return True


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rematch")
    ap.add_argument("--clang-tidy", dest="clang_tidy")
    ap.add_argument("--plugin")
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--frontend", choices=["both", "rematch", "clang-tidy"],
                    default="both")
    ap.add_argument("input")
    args = ap.parse_args(argv)
    source = os.path.abspath(args.input)
    inputs = os.path.abspath(args.inputs)
    with open(source + ".expected", encoding="utf-8") as f:
        expected = f.read()

    ok = True
    if args.frontend in ("both", "rematch"):
        if not args.rematch:
            ap.error("--rematch is required")
        ok &= fix_with("rematch", lambda c: [args.rematch, "--fix", c],
                       source, expected, inputs)
    if args.frontend in ("both", "clang-tidy"):
        if not (args.clang_tidy and args.plugin):
            ap.error("--clang-tidy and --plugin are required")
        ok &= fix_with(
            "clang-tidy",
            lambda c: [args.clang_tidy, "--load=" + args.plugin,
                       "--checks=-*,rematch-global-read,rematch-logging",
                       "--config={Checks: '-*,rematch-global-read,rematch-logging'}",
                       "--fix", c],
            source, expected, inputs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
