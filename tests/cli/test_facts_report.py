#!/usr/bin/env python3
"""Findings made from facts (tool/FactsReport.h) are the findings a parse
makes.

A file whose checkpointed code reaches into another file has, once the
whole program is known, findings its first parse could not see. The
default command and `rematch report` make them from the file's facts
instead of parsing it again. For each pattern below (a chain through a
local helper, an alias taken in the other file, a global another file
writes, read by the callable itself or by a helper, a draw from a random
source, a virtual call, a callable held by a std::function, a by-reference
capture handed over, a chain deeper than the notes show, two effects of
one kind at one call, a lambda handed to a local template that runs it, a
checkpointed function, NOLINT comments of every form; and, parsed again, a
NOLINTBEGIN without its end, a global handed to a function that writes it
(the read reported alone becomes part of that write), a call through a
std::function, and a lambda made outside that captures by reference) this
test compares, byte for byte (JSON; SARIF and text for two of them):

- a cold run of the default command, which parses each file once where
  the facts suffice (counted), with
- a run whose every file is parsed with the whole program's summaries (the
  findings cache emptied), and with
- `rematch report` over `rematch summarize` and `rematch link`.

Usage: test_facts_report.py --rematch-testhooks <rematch-testhooks>
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "support"))
from rematch_testing import TempDirTest, write  # noqa: E402

TOOLS = argparse.Namespace()
FLAGS = ["--", "-std=c++17"]

COMMON = """\
#pragma once
namespace rematch { struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
"""

# name -> (files, whether a.cpp's findings come from facts in a cold run)
PATTERNS = {
    "helper-chain-and-alias": ({
        "a.cpp": '#include "common.h"\nvoid fill();\n'
                 "static void helper() { fill(); }\n"
                 "float run(rematch::Segment &seg) {\n"
                 "  return seg.forward([] { helper(); return 1.0f; });\n}\n",
        "b.cpp": "float g_buf[4];\n"
                 "void fill() { float *p = g_buf; p[0] = 1; }\n",
    }, True),
    "global-written-elsewhere": ({
        "a.cpp": '#include "common.h"\nextern int g_lr;\nextern int g_decay;\n'
                 "static int decay() { return g_decay; }\n"
                 "float run(rematch::Segment &seg, float x) {\n"
                 "  return seg.forward([x] { return x * g_lr + decay(); });\n}\n",
        "b.cpp": "int g_lr = 1;\nint g_decay = 2;\n"
                 "void set_lr(int v) { g_lr = v; g_decay = v; }\n",
    }, True),
    "random-source": ({
        "a.cpp": '#include "common.h"\nint noise();\n'
                 "int run(rematch::Segment &seg) {\n"
                 "  return seg.forward([] { return noise(); });\n}\n",
        "b.cpp": "#include <cstdlib>\nint noise() { return std::rand(); }\n",
    }, True),
    "virtual-call": ({
        "a.cpp": '#include "common.h"\n#include "layer.h"\n'
                 "void run(rematch::Segment &seg, Layer &l) {\n"
                 "  seg.forward([&] { l.run(); });\n}\n",
        "b.cpp": '#include <cstdio>\n#include "layer.h"\n'
                 "struct Noisy : Layer { void run() override; };\n"
                 'void Noisy::run() { std::puts("noisy"); }\n'
                 "Layer &make() { static Noisy n; return n; }\n",
        "layer.h": "#pragma once\n"
                   "struct Layer { virtual ~Layer() = default; "
                   "virtual void run() {} };\n",
    }, True),
    "held-callable": ({
        "a.cpp": '#include "common.h"\n#include <functional>\nvoid bump();\n'
                 "std::function<void()> g_step = [] { bump(); };\n"
                 "void run(rematch::Segment &seg) { seg.forward(g_step); }\n",
        "b.cpp": "int g_n = 0;\nvoid bump() { ++g_n; }\n",
    }, True),
    "capture-handed-over": ({
        "a.cpp": '#include "common.h"\nvoid incr(int &c);\n'
                 "int run(rematch::Segment &seg) {\n"
                 "  int steps = 0;\n"
                 "  seg.forward([&] { incr(steps); return steps; });\n"
                 "  return steps;\n}\n",
        "b.cpp": "void incr(int &c) { ++c; }\n",
    }, True),
    "read-passed-to-a-writer": ({
        "a.cpp": '#include "common.h"\nextern float g_buf[4];\n'
                 "void fill(float *p);\n"
                 "void run(rematch::Segment &seg) {\n"
                 "  seg.forward([] { fill(g_buf); });\n}\n",
        "b.cpp": "float g_buf[4];\nvoid fill(float *p) { p[0] = 1; }\n"
                 "void reset() { g_buf[1] = 0; }\n",
    }, False),  # the read a.cpp reported alone is part of fill's write now
    "call-through-a-holder": ({
        "a.cpp": '#include "common.h"\n#include <functional>\nvoid ext();\n'
                 "std::function<void()> g_act = [] { ext(); };\n"
                 "void run(rematch::Segment &seg) {\n"
                 "  seg.forward([] { g_act(); });\n}\n",
        "b.cpp": "int g_n = 0;\nvoid ext() { ++g_n; }\n",
    }, False),  # through a value that holds callables: worded by a parse
    "lambda-made-outside": ({
        "a.cpp": '#include "common.h"\nvoid incr(int &c);\n'
                 "int run(rematch::Segment &seg) {\n"
                 "  int n = 0;\n"
                 "  auto next = [&n] { incr(n); };\n"
                 "  seg.forward([&] { next(); });\n"
                 "  return n;\n}\n",
        "b.cpp": "void incr(int &c) { ++c; }\n",
    }, False),  # its captures map onto the closure: only a parse knows
    "deep-chain": ({
        "a.cpp": '#include "common.h"\nvoid f0();\n'
                 "void run(rematch::Segment &seg) {\n"
                 "  seg.forward([] { f0(); });\n}\n",
        "b.cpp": "int g_depth = 0;\n" + "".join(
            "void f%d();\n" % i for i in range(61)) + "".join(
            "void f%d() { f%d(); }\n" % (i, i + 1) for i in range(60)) +
            "void f60() { ++g_depth; }\n",
    }, True),
    "two-of-a-kind-at-one-call": ({
        "a.cpp": '#include "common.h"\nvoid ext();\nint g_local = 0;\n'
                 "static void both() { ext(); ++g_local; }\n"
                 "void run(rematch::Segment &seg) {\n"
                 "  seg.forward([] { both(); });\n}\n",
        "b.cpp": "int g_far = 0;\nvoid ext() { ++g_far; }\n",
    }, True),
    "nolint": ({
        "a.cpp": '#include "common.h"\nvoid log_step();\nvoid bump();\n'
                 "void run(rematch::Segment &seg) {\n"
                 "  seg.forward([] {\n"
                 "    log_step(); // NOLINT(rematch-logging)\n"
                 "    bump();\n  });\n}\n",
        "b.cpp": '#include <cstdio>\nint g_n = 0;\n'
                 'void log_step() { std::puts("step"); }\n'
                 "void bump() { ++g_n; }\n",
    }, True),
    # Each form clang-tidy reads, on the findings only the link gives:
    # NOLINTNEXTLINE, a list with spaces, a glob, a negative glob (which
    # suppresses nothing), a block with checks, one opened and closed on the
    # call's own line (the column decides), and "NOLINT" inside a string.
    "nolint-forms": ({
        "a.cpp": '#include "common.h"\nvoid log_step();\nvoid bump();\n'
                 "void fill();\nint noise();\n"
                 "void run(rematch::Segment &seg) {\n"
                 "  seg.forward([] {\n"
                 "    // NOLINTNEXTLINE(rematch-counter-update)\n"
                 "    bump();\n"
                 "    log_step(); // NOLINT( rematch-io , rematch-logging )\n"
                 "    noise(); // NOLINT(rematch-unreplayed-*)\n"
                 "    fill(); // NOLINT(-rematch-state-write)\n"
                 "    // NOLINTBEGIN(rematch-logging)\n"
                 "    log_step();\n"
                 "    // NOLINTEND(rematch-logging)\n"
                 "    /* NOLINTBEGIN */ bump(); /* NOLINTEND */ log_step();\n"
                 '    const char *s = "NOLINTNEXTLINE"; (void)s;\n'
                 "    fill();\n"
                 "  });\n}\n",
        "b.cpp": '#include <cstdio>\n#include <cstdlib>\nint g_n = 0;\n'
                 "float g_buf[4];\n"
                 'void log_step() { std::puts("step"); }\n'
                 "void bump() { ++g_n; }\n"
                 "void fill() { g_buf[0] = 1; }\n"
                 "int noise() { return std::rand(); }\n",
    }, True),
    # A NOLINTBEGIN without its NOLINTEND is an error clang-tidy reports
    # itself: the file is parsed again.
    "nolint-unpaired": ({
        "a.cpp": '#include "common.h"\nvoid log_step();\n'
                 "void run(rematch::Segment &seg) {\n"
                 "  // NOLINTBEGIN(rematch-io)\n"
                 "  seg.forward([] { log_step(); });\n}\n",
        "b.cpp": '#include <cstdio>\nvoid log_step() { std::puts("step"); }\n',
    }, False),
    # A lambda written in the callable and handed to a local template that
    # runs it: its effect is reported once, through the call.
    "nested-lambda": ({
        "a.cpp": '#include "common.h"\nvoid log_step();\nint g_n = 0;\n'
                 "template <class F> void run_now(F f) { f(); }\n"
                 "void run(rematch::Segment &seg) {\n"
                 "  seg.forward([] {\n"
                 "    run_now([] { ++g_n; });\n"
                 "    run_now([] { log_step(); });\n"
                 "  });\n}\n",
        "b.cpp": '#include <cstdio>\nvoid log_step() { std::puts("step"); }\n',
    }, True),
    "checkpointed-function": ({
        "a.cpp": '#include "common.h"\nvoid log_step();\n'
                 "float step() { log_step(); return 1; }\n"
                 "float run(rematch::Segment &seg) { return seg.forward(step); }\n",
        "b.cpp": '#include <cstdio>\nvoid log_step() { std::puts("step"); }\n',
    }, True),
}


# The exit code of a pattern whose run is not 0 or 1: clang-tidy's own
# error on a stray NOLINTBEGIN is an error in the file (3).
EXIT = {"nolint-unpaired": (3,)}


def run(args, cwd, env=None):
    return subprocess.run(args, cwd=cwd, capture_output=True, timeout=300,
                          env=env)


class FactsReport(TempDirTest):
    def project(self, name):
        files, from_facts = PATTERNS[name]
        root = os.path.join(self.dir, name)
        write(os.path.join(root, "common.h"), COMMON)
        for f, text in files.items():
            write(os.path.join(root, f), text)
        sources = sorted(f for f in files if f.endswith(".cpp"))
        return root, sources, from_facts

    def rematch(self, root, sources, cache, *extra, log=None, codes=(0, 1)):
        env = dict(os.environ)
        if log:
            env["REMATCH_TEST_LOG_ANALYSES"] = log
        p = run([TOOLS.testhooks, "-j", "1", "--summaries-dir=" + cache,
                 *extra, *sources, *FLAGS], root, env)
        self.assertIn(p.returncode, codes, p.stderr.decode())
        return p

    def check_pattern(self, name, *extra, formats=("json",), facts=None):
        """The pattern's output in the last of formats (JSON holds every
        message, note and place; the others are written from the same
        findings). facts: whether a.cpp's are made from facts, when not
        as PATTERNS says."""
        root, sources, from_facts = self.project(name)
        if facts is not None:
            from_facts = facts
        # The three steps.
        rsums = []
        for s in sources:
            out = os.path.join(root, s + ".rsum")
            p = run([TOOLS.testhooks, "summarize", *extra, s, "-o", out,
                     *FLAGS], root)
            self.assertEqual(p.returncode, 0, p.stderr.decode())
            rsums.append(out)
        link = os.path.join(root, "all.rlink")
        p = run([TOOLS.testhooks, "link", *rsums, "-o", link], root)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        for fmt in formats:
            with self.subTest(pattern=name, format=fmt, extra=extra):
                cache = os.path.join(root, "cache-" + fmt)
                log = os.path.join(root, "parses-" + fmt)
                codes = EXIT.get(name, (0, 1))
                cold = self.rematch(root, sources, cache, "--format=" + fmt,
                                    *extra, log=log, codes=codes)
                with open(log) as f:
                    parsed = sorted(f.read().split())
                self.assertEqual(parsed.count("a.cpp"),
                                 1 if from_facts else 2, parsed)
                # Every file parsed with the whole program's summaries.
                for entry in os.listdir(cache):
                    if entry.endswith(".findings"):
                        os.remove(os.path.join(cache, entry))
                parsed_all = self.rematch(root, sources, cache,
                                          "--format=" + fmt, *extra,
                                          codes=codes)
                self.assertEqual(cold.stdout.decode(),
                                 parsed_all.stdout.decode())
                rep = run([TOOLS.testhooks, "report", link, "--format=" + fmt,
                           "--verbose"], root)
                self.assertEqual(rep.stdout.decode(), cold.stdout.decode())
                # A finding in a.cpp that only the link gives.
                self.assertIn(b"a.cpp", cold.stdout)
                self.assertIn(b"with findings the link adds", rep.stderr)
        return cold.stdout.decode()

    def test_each_pattern_equals_a_parse(self):
        for name in PATTERNS:
            self.check_pattern(name)

    def test_inline_chains(self):
        for name in ("helper-chain-and-alias", "deep-chain"):
            self.check_pattern(name, "--chain=inline")
        # The inline chain names the override, which the facts do not.
        self.check_pattern("virtual-call", "--chain=inline", facts=False)

    def test_what_the_facts_say(self):
        # The alias note of the other file, the checkpoint note, the
        # fix-it of a global read the link finds written.
        text = self.check_pattern("helper-chain-and-alias",
                                  formats=("sarif", "text"))
        self.assertIn("'p' is an alias of 'g_buf' taken here", text)
        self.assertIn("'helper' calls 'fill' here", text)
        out = self.check_pattern("global-written-elsewhere",
                                 formats=("sarif", "text"))
        self.assertIn("reads mutable global 'g_lr'", out)
        self.assertIn("calls 'decay', which reads mutable global 'g_decay'",
                      out)
        self.assertIn("... 13 more calls in between ...",
                      self.check_pattern("deep-chain"))

    def test_compilation_database_by_relative_paths(self):
        # As the pre-commit hook runs it: `-p build` and the files by paths
        # relative to the repository; the facts suffice there too.
        root, sources, _ = self.project("helper-chain-and-alias")
        build = os.path.join(root, "build")
        write(os.path.join(build, "compile_commands.json"), json.dumps([
            {"directory": root, "file": s,
             "arguments": ["clang++", "-std=c++17", "-c", s]}
            for s in sources]))
        env = dict(os.environ)
        env["REMATCH_TEST_LOG_ANALYSES"] = os.path.join(root, "parses")
        args = [TOOLS.testhooks, "-j", "1", "-p", "build", "--format=json",
                *sources]
        cold = run(args, root, env)
        self.assertEqual(cold.returncode, 1, cold.stderr.decode())
        with open(env["REMATCH_TEST_LOG_ANALYSES"]) as f:
            self.assertEqual(sorted(f.read().split()), ["a.cpp", "b.cpp"])
        cache = os.path.join(build, ".rematch-cache")
        for entry in os.listdir(cache):
            if entry.endswith(".findings"):
                os.remove(os.path.join(cache, entry))
        parsed_all = run(args, root)
        self.assertEqual(cold.stdout.decode(), parsed_all.stdout.decode())
        self.assertIn("'p' is an alias of 'g_buf' taken here",
                      cold.stdout.decode())

    def test_nolint_drops_what_a_parse_drops(self):
        # Which findings stay, by line: the equality above says a parse
        # agrees; this says the pattern exercises both outcomes.
        out = json.loads(self.check_pattern("nolint-forms"))
        kept = sorted((f["line"], f["check"]) for f in out["findings"]
                      if f["file"] == "a.cpp")
        # 12: the negative glob; 16: after the block on its line; 18 is
        # dropped by the "NOLINTNEXTLINE" in the string above it.
        self.assertEqual(kept, [(12, "rematch-state-write"),
                                (16, "rematch-logging")], out)


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--rematch-testhooks", required=True, dest="testhooks")
    args, rest = parser.parse_known_args()
    TOOLS.testhooks = os.path.abspath(args.testhooks)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
