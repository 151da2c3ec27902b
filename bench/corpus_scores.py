#!/usr/bin/env python3
"""Precision and recall of a rematch binary on the annotated corpus.

    corpus_scores.py --rematch BIN [--inputs DIR] [FILE.cpp ...]

The corpus is the annotated check tests (tests/checks/*.cpp,
tests/checks/frameworks/*.cpp and tests/checks/aliases/*.cpp by default):
every `// expect:` annotation is a finding that must be reported, every other
rematch warning in the file is a false alarm. A finding counts as found when
a warning of its check is reported on its line (message texts are the tests'
business, not this score's); a warning in another file (a framework header)
is a false alarm. Prints per check: expected, true positives, false
positives, false negatives, precision and recall; then the totals. Files whose REQUIRES paths
are missing are skipped, as the tests skip them. Run it with the binary of
two revisions to compare them. With --strict it is a test: it exits 1 on any
false alarm (a warning on a line not marked for it, or in another file) or
missed finding, and on a file the binary could not analyse; the check
corpus test corpus.strict runs it so.
"""

import argparse
import collections
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "checks"))
import run_check_test as rct  # noqa: E402


def rematch_run(binary, inputs, path, exp, text, saved):
    """(rc, stdout, cwd, kept) of binary on path: the check test's run kept in
    saved (run_check_test.py --save-output) when it was made with this
    binary and this text, else a run of its own."""
    kept = saved and rct.saved_output(saved, path, text, binary)
    if kept:
        return kept + (True,)
    args = argparse.Namespace(rematch=binary, inputs=inputs)
    with tempfile.TemporaryDirectory(prefix="rematch-score-") as tmp:
        config = rct.write_config(exp, tmp)
        cmd = rct.rematch_command(args, exp, path, config)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
    return proc.returncode, proc.stdout, os.getcwd(), False


def score_file(binary, inputs, path, counts, saved=None):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    exp = rct.parse_annotations(text)
    if any(not os.path.exists(p) for p in exp.requires):
        return "skipped"
    rc, out, cwd, kept = rematch_run(binary, inputs, path, exp, text, saved)
    res = rct.parse_rematch_json(out, rc, path, cwd)
    if rc not in (0, 1):
        # The binary cannot analyse the file (an option it does not know):
        # everything expected is missed.
        for line, items in exp.warnings.items():
            for check, _ in items:
                counts[check]["fn"] += 1
        return "failed (exit %d)" % rc
    # A warning in another file (inside a framework's headers) is a false
    # alarm too: the user sees it and cannot act on it.
    for d in res.elsewhere:
        counts[d.check]["fp"] += 1
    reported = collections.Counter((d.check, d.line) for d in res.diags)
    expected = collections.Counter()
    for line, items in exp.warnings.items():
        for check, _ in items:
            expected[(check, line)] += 1
    for key in set(reported) | set(expected):
        check = key[0]
        tp = min(reported[key], expected[key])
        counts[check]["tp"] += tp
        counts[check]["fp"] += reported[key] - tp
        counts[check]["fn"] += expected[key] - tp
    return "ok (the check test's run)" if kept else "ok"


def ratio(a, b):
    return "%.3f" % (a / b) if b else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rematch", required=True)
    ap.add_argument("--inputs", default=os.path.join(ROOT, "tests", "checks", "Inputs"))
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 on any false alarm, miss or failed file")
    ap.add_argument("--saved",
                    help="score the check tests' runs kept here "
                         "(run_check_test.py --save-output) where they were "
                         "made with this binary and the file as it is")
    ap.add_argument("files", nargs="*")
    ns = ap.parse_args()
    files = ns.files or sorted(
        glob.glob(os.path.join(ROOT, "tests", "checks", "*.cpp")) +
        glob.glob(os.path.join(ROOT, "tests", "checks", "frameworks", "*.cpp")) +
        glob.glob(os.path.join(ROOT, "tests", "checks", "aliases", "*.cpp")))
    counts = collections.defaultdict(lambda: collections.Counter())
    failed = []
    for path in files:
        state = score_file(os.path.abspath(ns.rematch), os.path.abspath(ns.inputs),
                           os.path.abspath(path), counts, ns.saved)
        print("%-40s %s" % (os.path.relpath(path, ROOT), state))
        if state.startswith("failed"):
            failed.append(path)
    print()
    print("%-24s %8s %5s %5s %5s %9s %7s" % ("check", "expected", "tp", "fp", "fn",
                                            "precision", "recall"))
    total = collections.Counter()
    for check in sorted(counts):
        c = counts[check]
        total.update(c)
        print("%-24s %8d %5d %5d %5d %9s %7s" % (
            check, c["tp"] + c["fn"], c["tp"], c["fp"], c["fn"],
            ratio(c["tp"], c["tp"] + c["fp"]), ratio(c["tp"], c["tp"] + c["fn"])))
    print("%-24s %8d %5d %5d %5d %9s %7s" % (
        "all", total["tp"] + total["fn"], total["tp"], total["fp"], total["fn"],
        ratio(total["tp"], total["tp"] + total["fp"]),
        ratio(total["tp"], total["tp"] + total["fn"])))
    if ns.strict and (total["fp"] or total["fn"] or failed):
        print("corpus_scores: %d false alarms, %d missed, %d files failed"
              % (total["fp"], total["fn"], len(failed)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
