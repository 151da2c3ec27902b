#!/usr/bin/env python3
"""Unchanged bodies not parsed again (checks/analysis/BodyReplay.h) and
precompiled preambles (tool/Preamble.h), on the check corpus and on cases.
A file analysed before has its function bodies recorded; after an edit, the
bodies whose text and scope did not change are skipped by the parse and
their recorded facts stand in. A file analysed again with the same leading
#include block is parsed with a precompiled header of that block. Either
way the report must be exactly a fresh analysis's.

Corpus: every file of the check corpus (of those that include libtorch, the
two that include it in each way), in one sequence of runs that
exercises both: a fresh first run; the same text again (its findings
forgotten), which builds the preamble and parses with it; then edited three
ways (a function appended, a blank line inside its first function body, a
body's text changed), each report compared with a fresh run on the same
text (which reuses the preamble: the second run shows that it reports the
same). The preamble and the records must actually be used (--verbose says
how many bodies). Cases: what must never be replayed (a declaration edited
before the body, a header changed, a skipped function that becomes
checkpointed). test_preamble.py holds the preamble's own cases.

Usage: test_skip_bodies.py --rematch <rematch> --root <source dir>
                           [--light] [unittest arguments]
--light leaves out the corpus files that include libtorch (a sanitizer
build's parse of it takes minutes).
Standard library only.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

TOOLS = argparse.Namespace()

REUSED = re.compile(r"(\d+) unchanged function bod(?:y|ies) not parsed again")
# The line that opens a function's body, as the corpus writes them.
BODY_OPENER = re.compile(
    r"^(?!\s*(?:struct|class|namespace|union|enum|if|for|while|switch|else|do|"
    r"return|template)\b)[^=\[;]*\)\s*(?:const\s*)?(?:override\s*)?"
    r"(?:noexcept\s*)?\{\s*$")


def run(args, cwd, timeout=600):
    p = subprocess.run([TOOLS.rematch, "--format=json", "--verbose"] + args,
                       cwd=cwd, capture_output=True, text=True,
                       timeout=timeout)
    m = REUSED.search(p.stderr)
    return (p.returncode, json.loads(p.stdout)["findings"], p.stderr,
            int(m.group(1)) if m else 0)


def findings_key(found):
    return [(f["check"], f["file"], f["line"], f["column"], f["message"],
             [(n["file"], n["line"], n["column"], n["message"])
              for n in f["notes"]]) for f in found]


def appended(text, n):
    return text + "\nint rematch_test_appended_%d(int x) { return x + %d; }\n" % (
        n, n)


def blank_line_in_first_body(text):
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if BODY_OPENER.match(line):
            return "\n".join(lines[:i + 1] + [""] + lines[i + 1:])
    return None


def comment_in_last_body(text):
    lines = text.split("\n")
    for i in range(len(lines) - 1, -1, -1):
        if BODY_OPENER.match(lines[i]):
            return "\n".join(lines[:i + 1] + ["  // edited"] + lines[i + 1:])
    return None


class Session:
    """A copy of one source file, analysed with one summaries directory."""

    def __init__(self, d, name, text, extra, flags=()):
        self.d = d
        self.src = os.path.join(d, name)
        self.extra = extra
        self.flags = flags
        self.write(text)

    def write(self, text):
        with open(self.src, "w", encoding="utf-8") as f:
            f.write(text)

    def analyse(self, cache, *flags):
        return run(list(self.flags) + list(flags) +
                   ["--summaries-dir=" + os.path.join(self.d, cache),
                    self.src, "--"] + self.extra, self.d)

    def fresh(self):
        """A fresh analysis of the text as it is: summaries of its own,
        made anew, with the session's preambles (the corpus test shows a
        parse with them reports what one without them does)."""
        fresh = os.path.join(self.d, "fresh")
        shutil.rmtree(fresh, ignore_errors=True)
        shared = os.path.join(self.d, "fresh.preambles")
        if not os.path.lexists(shared):
            own = os.path.join(self.d, "cache.preambles")
            os.makedirs(own, exist_ok=True)
            os.symlink(own, shared)
        return self.analyse("fresh")

    def forget_findings(self, cache):
        """Drops the findings cache's entries (tool/FindingsCache.h), as an
        edit of each body would: the next run parses the file again."""
        for name in glob.glob(os.path.join(self.d, cache, "*.findings")):
            os.remove(name)


# Four corpus files include libtorch, each parse of one costs about 10 s.
# The two that name its headers in both ways (-I and -isystem) stand for
# the others here, whose own code the check tests (check.alias.*) run, and
# they are edited once: the line-moving edits that follow exercise the
# replay of bodies, which the other files' plain functions do as well.
# cli.steps.corpus links libtorch-views.cpp with libtorch-isystem.cpp.
LIBTORCH_ALIKE = {os.path.join("aliases", "libtorch-views.cpp"),
                  os.path.join("aliases", "module-containers.cpp")}


class Corpus(unittest.TestCase):
    def test_every_corpus_file_reports_the_same(self):
        sys.path.insert(0, os.path.join(TOOLS.root, "tests", "checks"))
        import run_check_test as rct
        inputs = os.path.join(TOOLS.root, "tests", "checks", "Inputs")
        checks = os.path.join(TOOLS.root, "tests", "checks")
        files = [f for f in rct.corpus_files(checks)
                 if os.path.relpath(f, checks) not in LIBTORCH_ALIKE]
        # The libtorch files first, so that each shard gets one of them.
        files.sort(key=lambda f: "torch" not in os.path.basename(f))
        files = files[TOOLS.shard - 1::TOOLS.shards]
        reused = files_reused = shifted = preambles = 0
        for path in files:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            exp = rct.parse_annotations(text)
            if any(not os.path.exists(p) for p in exp.requires):
                continue
            if TOOLS.light and any("torch" in p for p in exp.requires):
                continue  # libtorch's parse, under a sanitizer: too slow
            with tempfile.TemporaryDirectory() as d, \
                    self.subTest(file=os.path.relpath(path, TOOLS.root)):
                flags = []
                if "CheckpointFunctions" in exp.options:
                    flags.append("--checkpoint-functions=" +
                                 exp.options["CheckpointFunctions"])
                config = rct.write_config(exp, d)
                if config:
                    flags.append("--config-file=" + config)
                extra = rct.COMPILE_ARGS + exp.args + ["-isystem", inputs,
                                                       "-I", os.path.dirname(path)]
                s = Session(d, os.path.basename(path), text, extra, flags)
                first = s.analyse("cache")         # first sighting: fresh
                s.forget_findings("cache")
                again = s.analyse("cache")         # builds the preamble
                self.assertEqual(again[0], first[0], again[2])
                self.assertEqual(findings_key(again[1]),
                                 findings_key(first[1]), "preamble")
                if "parsed with a precompiled preamble" in again[2]:
                    preambles += 1
                text = appended(text, 1)
                s.write(text)
                s.analyse("cache")                 # records the bodies
                edits = [appended(text, 2)]
                first = blank_line_in_first_body(edits[-1])
                if first:
                    edits.append(first)
                last = comment_in_last_body(edits[-1])
                if last:
                    edits.append(last)
                if any("torch" in p for p in exp.requires):
                    edits = edits[:1]
                for n, edited in enumerate(edits):
                    s.write(edited)
                    rc, found, err, used = s.analyse("cache")
                    frc, ffound, ferr, _ = s.fresh()
                    self.assertEqual(rc, frc, err + ferr)
                    self.assertEqual(findings_key(found),
                                     findings_key(ffound), "edit %d" % n)
                    reused += used
                    if used and n > 0:
                        shifted += 1
                    if used and n == 0:
                        files_reused += 1
        print("\n%d files replayed bodies after the first edit, %d runs "
              "after a line-moving one; %d bodies replayed in all; %d files "
              "parsed with a preamble" %
              (files_reused, shifted, reused, preambles), file=sys.stderr)
        # Most corpus files have plain functions whose bodies can be
        # replayed; the line-moving edits must be among the replayed runs.
        # (Each of --shards slices holds about its share of them.)
        self.assertGreater(files_reused, 10 // TOOLS.shards)
        self.assertGreater(shifted, 10 // TOOLS.shards)
        self.assertGreater(reused, 100 // TOOLS.shards)
        # Nearly every corpus file starts with #include lines.
        self.assertGreater(preambles, 20 // TOOLS.shards)


PRELUDE = """\
namespace rematch { struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
"""

MAIN = PRELUDE + """\
#include "effect.h"
int g_calls = 0;
struct Model {
  int steps_ = 0;
  float f0(float x) { ++steps_; return f1(x); }
  float f1(float x) { return x * 2; }
};
float helper(float x) { ++g_calls; return x; }
float tick() { ++g_calls; return 0; }
Model g_model;
float step(rematch::Segment &seg, float x) {
  return seg.forward([&] { return g_model.f0(x) + helper(x) + effect(); });
}
"""


class Cases(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.d = self._tmp.name
        with open(os.path.join(self.d, "effect.h"), "w") as f:
            f.write("#pragma once\ninline int effect() { return 1; }\n")
        self.s = Session(self.d, "main.cpp", MAIN, ["-std=c++17"])
        self.s.analyse("cache")
        self.s.write(appended(MAIN, 1))
        self.s.analyse("cache")

    def tearDown(self):
        self._tmp.cleanup()

    def same_as_fresh(self, text):
        self.s.write(text)
        rc, found, err, used = self.s.analyse("cache")
        frc, ffound, ferr, _ = self.s.fresh()
        self.assertEqual(rc, frc, err + ferr)
        self.assertEqual(findings_key(found), findings_key(ffound))
        return found, used

    def test_body_edit_reuses_the_others(self):
        found, used = self.same_as_fresh(
            appended(MAIN, 1).replace("return x * 2;", "return x * 3;"))
        # f0, helper, tick and the function appended; f1 was edited.
        self.assertEqual(used, 4)
        self.assertEqual(len(found), 2)

    def test_lines_moved_inside_a_body(self):
        text = appended(MAIN, 1).replace("{ ++steps_;", "{\n\n  ++steps_;")
        found, used = self.same_as_fresh(text)
        self.assertGreater(used, 0)
        lines = [n["line"] for f in found for n in f["notes"]]
        self.assertIn(8, lines)  # '++steps_' moved from line 6 to line 8

    def test_a_declaration_edited_before_the_bodies(self):
        text = appended(MAIN, 1).replace("int g_calls = 0;",
                                         "int g_calls = 0;\nint g_other = 0;")
        found, used = self.same_as_fresh(text)
        self.assertEqual(used, 0)

    def test_a_member_added_to_the_class(self):
        # Every body of the class can see the new member, and every body
        # after it what comes before: none is replayed.
        text = appended(MAIN, 1).replace("  int steps_ = 0;",
                                         "  int steps_ = 0;\n  int more_ = 0;")
        found, used = self.same_as_fresh(text)
        self.assertEqual(used, 0)
        self.assertEqual(len(found), 2)

    def test_a_header_edited(self):
        with open(os.path.join(self.d, "effect.h"), "w") as f:
            f.write("#pragma once\nint g_e = 0;\n"
                    "inline int effect() { return ++g_e; }\n")
        found, used = self.same_as_fresh(appended(MAIN, 2))
        self.assertEqual(used, 0)
        self.assertEqual(len(found), 3)

    def test_a_skipped_function_becomes_checkpointed(self):
        # tick's body is recorded, but a checkpointed function's own body
        # is what the checks read (fix-its): the file is parsed whole.
        text = appended(MAIN, 1) + (
            "float step2(rematch::Segment &seg) {\n"
            "  return seg.forward(tick);\n}\n")
        found, used = self.same_as_fresh(text)
        self.assertEqual(used, 4)  # parsed again with tick's body
        self.assertEqual(len(found), 3)
        self.assertIn("tick", json.dumps(found))

    def test_a_declaration_edited_between_the_bodies(self):
        # The bodies before it are replayed (a second parse skips only
        # them), those after it are parsed.
        text = appended(MAIN, 1).replace(
            "float tick()", "int g_other = 0;\nfloat tick()")
        found, used = self.same_as_fresh(text)
        self.assertEqual(used, 3)  # f0, f1, helper
        self.assertEqual(len(found), 2)

    def test_damaged_records(self):
        [records] = glob.glob(os.path.join(self.d, "cache", "*.bodies"))
        with open(records) as f:
            key, *lines = f.read().split("\n")
        damaged = [key]
        for line in lines:  # every field of every record garbled in turn
            fields = line.split("\t")
            for i in range(3, len(fields)):
                damaged.append("\t".join(fields[:i] + ["\x01" + fields[i][::-1]] +
                                         fields[i + 1:]))
        damaged.append("c:@F@helper#f#\tnot\ta record")
        with open(records, "w") as f:
            f.write("\n".join(damaged))
        found, used = self.same_as_fresh(appended(MAIN, 2))
        self.assertEqual(used, 0)  # the records' hash does not hold
        self.assertEqual(len(found), 2)

    def test_a_file_parsed_again_for_another_files_change(self):
        # main.cpp's findings depend on lib.cpp's facts: an edit of lib.cpp
        # reports main.cpp again (phase two), which replays the bodies its
        # last analysis recorded.
        d = os.path.join(self.d, "two")
        os.makedirs(d)
        lib = "int g_lib = 0;\nfloat other(float x) { ++g_lib; return x; }\n"
        main = PRELUDE + (
            "float other(float x);\nint g_calls = 0;\n"
            "float helper(float x) { ++g_calls; return x; }\n"
            "float plain(float x) { return x + 1; }\n"
            "float step(rematch::Segment &seg, float x) {\n"
            "  return seg.forward([&] { return helper(x) + other(x); });\n}\n")

        def write(name, text):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)

        def analyse(cache):
            return run(["--summaries-dir=" + os.path.join(d, cache),
                        "main.cpp", "lib.cpp", "--", "-std=c++17"], d)

        write("lib.cpp", lib)
        write("main.cpp", main)
        analyse("cache")
        write("main.cpp", appended(main, 1))
        analyse("cache")                      # records main.cpp's bodies
        write("lib.cpp", "// moved\n" + lib)
        rc, found, err, used = analyse("cache")
        self.assertIn("2 files: 2 analysed, 0 from the findings cache", err)
        self.assertEqual(used, 3, err)        # helper, plain, the appended
        frc, ffound, ferr, _ = analyse("fresh")
        self.assertEqual(rc, frc, err + ferr)
        self.assertEqual(findings_key(found), findings_key(ffound))
        self.assertIn("lib.cpp", json.dumps(found))

    def test_no_cache_replays_nothing(self):
        self.s.write(appended(MAIN, 2))
        rc, found, err, used = run(
            ["--no-cache", "--summaries-dir=" + os.path.join(self.d, "cache"),
             self.s.src, "--", "-std=c++17"], self.d)
        self.assertEqual(used, 0)


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--rematch", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--light", action="store_true")
    parser.add_argument("--shard", default="1/1",
                        help="I/N: the corpus files k with k %% N == I - 1")
    args, rest = parser.parse_known_args()
    TOOLS.light = args.light
    TOOLS.shard, TOOLS.shards = (int(x) for x in args.shard.split("/"))
    TOOLS.rematch = os.path.abspath(args.rematch)
    TOOLS.root = os.path.abspath(args.root)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
