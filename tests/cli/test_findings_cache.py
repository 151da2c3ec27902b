#!/usr/bin/env python3
"""The findings cache (tool/FindingsCache.h): a whole-program run takes the
findings of a file whose translation unit, options and dependencies are
unchanged from the cache, without parsing it, and reports exactly what a
fresh analysis reports, in every format, with the same exit code and the
same fix-its. Whatever would change a file's findings makes it analysed
again: an edited header, an edited model, other options, a changed summary
it depends on. --no-cache analyses everything afresh; --verbose says how
many files came from the cache.

Usage: test_findings_cache.py --rematch <rematch> [unittest arguments]
Standard library only.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

TOOLS = argparse.Namespace()

COMMON_H = """\
#pragma once
#include <cstdio>
namespace rematch { bool recomputing(); struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
void update(float x);
float scale();
"""

# a.cpp checkpoints what b.cpp and c.cpp define, and logs (a fix-it).
A_CPP = """\
#include "common.h"
float step(rematch::Segment &seg, float x) {
  return seg.forward([&] {
    update(x);
    std::printf("%f\\n", x);
    return x * scale();
  });
}
"""
B_CPP = """\
#include "common.h"
float g_mean = 0;
void update(float x) { g_mean = x; }
"""
C_CPP = """\
#include "common.h"
float g_scale = 1;
float scale() { return g_scale; }
void set_scale(float s) { g_scale = s; }
"""
FILES = ["a.cpp", "b.cpp", "c.cpp"]


class FindingsCache(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name
        for name, text in (("common.h", COMMON_H), ("a.cpp", A_CPP),
                           ("b.cpp", B_CPP), ("c.cpp", C_CPP)):
            self.write(name, text)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def run_tool(self, *args, cwd=None, files=FILES):
        p = subprocess.run([TOOLS.rematch, "-j", "2", "--verbose",
                            "--summaries-dir=" + os.path.join(self.dir, "sums"),
                            *args, *files, "--", "-std=c++17",
                            "-I" + self.dir],
                           cwd=cwd or self.dir, capture_output=True,
                           text=True, timeout=600)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        counts = re.search(r"(\d+) analysed, (\d+) from the findings cache",
                           p.stderr)
        self.assertIsNotNone(counts, p.stderr)
        return p, int(counts.group(1)), int(counts.group(2))

    def checks(self, p):
        return sorted((f["check"], f["file"], f["line"])
                      for f in json.loads(p.stdout)["findings"])

    def test_every_format_is_the_same_from_the_cache(self):
        for fmt in ("text", "json", "sarif", "codeclimate", "html"):
            with self.subTest(format=fmt):
                shutil.rmtree(os.path.join(self.dir, "sums"),
                              ignore_errors=True)
                fresh, analysed, cached = self.run_tool("--format=" + fmt)
                self.assertEqual((analysed, cached), (3, 0))
                again, analysed, cached = self.run_tool("--format=" + fmt)
                self.assertEqual((analysed, cached), (0, 3))
                self.assertEqual(again.returncode, fresh.returncode)
                self.assertEqual(again.returncode, 1)
                self.assertEqual(again.stdout, fresh.stdout)

    def test_fixits_are_the_same_from_the_cache(self):
        self.run_tool("--format=json")
        _, analysed, cached = self.run_tool("--format=json", "--fix")
        self.assertEqual((analysed, cached), (0, 3))
        with open(os.path.join(self.dir, "a.cpp")) as f:
            self.assertIn("if (!rematch::recomputing()) std::printf",
                          f.read())

    def test_names_follow_the_directory_run_from(self):
        self.run_tool("--format=json")
        sub = os.path.join(self.dir, "sub")
        os.makedirs(sub)
        files = [os.path.join("..", f) for f in FILES]
        cached, _, n = self.run_tool("--format=json", cwd=sub, files=files)
        self.assertEqual(n, 3)
        fresh, _, n = self.run_tool("--format=json", "--no-cache", cwd=sub,
                                    files=files)
        self.assertEqual(n, 0)
        self.assertEqual(cached.stdout, fresh.stdout)
        self.assertIn("../a.cpp", cached.stdout)

    def test_an_edited_header_is_analysed_again(self):
        first, _, _ = self.run_tool("--format=json")
        self.write("common.h", COMMON_H.replace("float scale();",
                                                "float scale();\n"
                                                "inline int g_calls = 0;"))
        _, analysed, cached = self.run_tool("--format=json")
        self.assertEqual((analysed, cached), (3, 0))

    def test_an_edited_model_is_analysed_again(self):
        self.write(".rematch.yaml", "Models: [extra.yaml]\n")
        self.write("extra.yaml", "Model: extra\nFunctions: []\n")
        first, _, _ = self.run_tool("--format=json")
        self.assertNotIn("rematch-io", json.dumps(self.checks(first)))
        _, analysed, cached = self.run_tool("--format=json")
        self.assertEqual(cached, 3)
        self.write("extra.yaml", "Model: extra\nFunctions:\n"
                   "  - {Name: scale, Effect: io}\n")
        p, analysed, cached = self.run_tool("--format=json")
        self.assertEqual(cached, 0)
        self.assertIn(("rematch-io", "a.cpp", 6), self.checks(p))

    def test_other_options_are_analysed_again(self):
        self.run_tool("--format=json")
        for option in ("--chain=inline", "--checks=rematch-logging",
                       "--warnings-as-errors=rematch-logging"):
            with self.subTest(option=option):
                p, _, cached = self.run_tool("--format=json", option)
                self.assertEqual(cached, 0)
                fresh, _, _ = self.run_tool("--format=json", "--no-cache",
                                            option)
                self.assertEqual(p.stdout, fresh.stdout)

    def test_a_changed_dependency_reanalyses_its_dependents(self):
        first, _, _ = self.run_tool("--format=json")
        self.assertIn(("rematch-state-write", "a.cpp", 4), self.checks(first))
        # b.cpp no longer writes a global: a.cpp's findings depended on it.
        self.write("b.cpp", B_CPP.replace("g_mean = x;", "(void)x;"))
        p, analysed, cached = self.run_tool("--format=json")
        self.assertNotIn(("rematch-state-write", "a.cpp", 4), self.checks(p))
        self.assertGreaterEqual(analysed, 2)  # b.cpp, and a.cpp again
        # c.cpp depends on nothing that changed.
        self.assertGreaterEqual(cached, 1)
        fresh, _, _ = self.run_tool("--format=json", "--no-cache")
        self.assertEqual(p.stdout, fresh.stdout)

    def test_no_cache_analyses_everything(self):
        self.run_tool("--format=json")
        _, analysed, cached = self.run_tool("--format=json", "--no-cache")
        self.assertEqual((analysed, cached), (3, 0))

    def test_a_damaged_entry_is_not_trusted(self):
        first, _, _ = self.run_tool("--format=json")
        sums = os.path.join(self.dir, "sums")
        for name in os.listdir(sums):
            if name.endswith(".findings"):
                with open(os.path.join(sums, name), "r+b") as f:
                    f.truncate(os.path.getsize(f.name) - 3)
        p, analysed, cached = self.run_tool("--format=json")
        self.assertEqual((analysed, cached), (3, 0))
        self.assertEqual(p.stdout, first.stdout)


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--rematch", required=True)
    args, rest = parser.parse_known_args()
    TOOLS.rematch = os.path.abspath(args.rematch)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
