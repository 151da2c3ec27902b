#!/usr/bin/env python3
"""Bad and extreme input for the rematch program (issue 7, static side).

Usage:
  test_bad_input.py --rematch <rematch> [unittest arguments, e.g. TestDeepCallGraphs]

What tests/cli/test_cli.py already pins down (the exit code of one missing,
directory or non-compiling file, a malformed .rematch.yaml, an unknown check,
an --output in a missing directory, a space or a non-UTF-8 byte in a file
name) is not repeated here. This file adds size and depth (a 50,000-line
translation unit, 200 nested lambdas, deep template recursion, call chains
and cycles 10,000 functions long), macros, encodings, binary input, many bad
files at once, malformed compile databases and configurations, and outputs
that fail while being written.

Every run of the tool, in every test, is also checked for the two failures
no input may cause: a crash (a signal, or LLVM's "PLEASE submit a bug report"
stack dump) and a hang (each run has a wall-clock limit that only guards
against hangs; no test asserts speed). Standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
import unittest

# The helpers shared by the test drivers, in tests/support.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from rematch_testing import TempDirTest, result_of, write  # noqa: E402

TOOLS = argparse.Namespace()

STD = ["--", "-std=c++17"]

# A hang guard, not a performance requirement: the slowest input here takes
# a few seconds on the 2-core CI machine.
HANG_LIMIT = 600

PRELUDE = """\
namespace rematch { bool recomputing(); struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
extern "C" int printf(const char*, ...);
int g_steps;
float g_scale = 2;
"""
PRELUDE_LINES = PRELUDE.count("\n")

# One logging finding at line LOGGING_LINE, column 5.
LOGGING = PRELUDE + """\
float f(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    printf("x %f\\n", x);
    return x;
  });
}
"""
LOGGING_LINE = PRELUDE_LINES + 3

TEXT_WARNING = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<level>warning|error): "
    r"(?P<msg>.*) \[(?P<check>rematch-[a-z-]+)\]$")
CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump:", "Segmentation fault",
                 "AddressSanitizer", "UndefinedBehaviorSanitizer", "LeakSanitizer",
                 "runtime error:", "Assertion `", "LLVM ERROR")


def line_of(text, needle, nth=0):
    """1-based line of the nth line of text containing needle."""
    hits = [i + 1 for i, l in enumerate(text.split("\n")) if needle in l]
    return hits[nth]


class BadInputTest(TempDirTest):
    prefix = "rematch-rel-"

    def rematch(self, *args, cwd=None, limit=HANG_LIMIT):
        argv = [os.fsencode(TOOLS.rematch)] + [
            a if isinstance(a, bytes) else os.fsencode(a) for a in args]
        start = time.monotonic()
        try:
            proc = subprocess.run(argv, cwd=cwd or self.dir, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=limit)
        except subprocess.TimeoutExpired:
            self.fail(f"rematch hung: no exit after {limit}s: {argv!r}")
        # keep_raw: json() then also requires valid UTF-8.
        res = result_of(proc, time.monotonic() - start, keep_raw=True)
        self.assertNoCrash(res)
        return res

    def assertNoCrash(self, res):
        self.assertGreaterEqual(res.rc, 0, f"killed by signal {-res.rc}\n{res!r}")
        self.assertIn(res.rc, (0, 1, 2, 3), f"undocumented exit code\n{res!r}")
        for marker in CRASH_MARKERS:
            self.assertNotIn(marker, res.err, f"crash marker on stderr\n{res!r}")

    def findings(self, res):
        """(check, line, column, file) of each text warning, in order."""
        out = []
        for line in res.out.splitlines():
            m = TEXT_WARNING.match(line)
            if m:
                out.append((m["check"], int(m["line"]), int(m["col"]), m["file"]))
        return out


class TestLargeInputs(BadInputTest):
    def test_50000_line_translation_unit(self):
        # 10,000 five-line functions, then a checkpointed lambda that calls
        # the last of them (a transitive counter update) and logs.
        parts = [PRELUDE]
        for i in range(10000):
            parts.append(f"int h{i}(int x) {{\n  int y = x + {i};\n  y *= 3;\n"
                         f"  return y - 1;\n}}\n")
        parts.append("void bump() { ++g_steps; }\n"
                     "float f(rematch::Segment &seg, float x) {\n"
                     "  return seg.forward([x] {\n"
                     "    bump();\n"
                     "    printf(\"%d\\n\", h9999(1));\n"
                     "    return x;\n"
                     "  });\n"
                     "}\n")
        text = "".join(parts)
        self.assertGreaterEqual(text.count("\n"), 50000)
        f = self.src("big.cpp", text)
        res = self.rematch("--format=json", f, *STD)
        self.assertExit(res, 1)
        found = [(x["check"], x["line"]) for x in res.json()["findings"]]
        self.assertEqual(found, [("rematch-counter-update", line_of(text, "    bump();")),
                                 ("rematch-logging", line_of(text, "printf(\"%d"))])

    def test_50000_statement_checkpointed_body(self):
        # One checkpointed lambda of 50,000 statements on locals, one hazard
        # at its end: the effect collector walks all of it.
        body = "".join(f"    acc += {i} * x;\n" for i in range(50000))
        text = (PRELUDE + "float f(rematch::Segment &seg, float x) {\n"
                "  return seg.forward([x] {\n    float acc = 0;\n" + body +
                "    ++g_steps;\n    return acc;\n  });\n}\n")
        f = self.src("long_body.cpp", text)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        self.assertEqual([(c, l) for c, l, *_ in self.findings(res)],
                         [("rematch-counter-update", line_of(text, "++g_steps"))])


class TestDeepNesting(BadInputTest):
    def test_200_nested_lambdas(self):
        depth = 200
        lines = [PRELUDE, "float f(rematch::Segment &seg, float x) {\n",
                 "  return seg.forward([&] {\n"]
        for i in range(depth - 1):
            lines.append(" " * (i + 2) + "return [&] {\n")
        lines.append("printf(\"deep %f\\n\", x);\n")
        lines.append("++g_steps;\nreturn x;\n")
        for i in range(depth - 1):
            lines.append("}();\n")
        lines.append("  });\n}\n")
        text = "".join(lines)
        f = self.src("lambdas.cpp", text)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        checks = {c: l for c, l, *_ in self.findings(res)}
        self.assertEqual(checks.get("rematch-logging"), line_of(text, "printf(\"deep"),
                         repr(res))
        self.assertEqual(checks.get("rematch-counter-update"), line_of(text, "++g_steps"),
                         repr(res))

    def test_500_deep_template_recursion(self):
        # R<500>::run -> R<499>::run -> ... -> R<0>::run, which increments a
        # global: one finding at the call, a note per instantiation.
        text = (PRELUDE +
                "template <int N> struct R { static int run() { return R<N - 1>::run() + 1; } };\n"
                "template <> struct R<0> { static int run() { return ++g_steps; } };\n"
                "float f(rematch::Segment &seg, float x) {\n"
                "  return seg.forward([x] {\n"
                "    return x + R<500>::run();\n"
                "  });\n"
                "}\n")
        f = self.src("templates.cpp", text)
        res = self.rematch("--format=json", f, *STD)
        self.assertExit(res, 1)
        found = res.json()["findings"]
        self.assertEqual([(x["check"], x["line"]) for x in found],
                         [("rematch-counter-update", line_of(text, "R<500>::run()"))])
        notes = found[0]["notes"]
        # The chain ends at the increment in R<0>::run.
        self.assertTrue(any("increments 'g_steps'" in n["message"] and
                            n["line"] == line_of(text, "template <> struct R<0>")
                            for n in notes), notes[-3:])

    def test_100_deep_nested_class_templates(self):
        # Box<Box<...<Leaf>...>>::get() forwards 100 times to a logging leaf.
        depth = 100
        ty = "Leaf"
        for _ in range(depth):
            ty = f"Box<{ty}>"
        text = (PRELUDE +
                "struct Leaf { float get() const { printf(\"leaf\\n\"); return 1; } };\n"
                "template <class T> struct Box { T inner; float get() const { return inner.get(); } };\n"
                "float f(rematch::Segment &seg, float x) {\n"
                "  return seg.forward([x] {\n"
                f"    {ty} b;\n"
                "    return x * b.get();\n"
                "  });\n"
                "}\n")
        f = self.src("boxes.cpp", text)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        self.assertEqual([(c, l) for c, l, *_ in self.findings(res)],
                         [("rematch-logging", line_of(text, "b.get()"))])

    def test_nesting_beyond_the_compilers_limit_is_3(self):
        # 10,000 nested parentheses exceed clang's bracket depth: the file
        # fails to compile, cleanly, and the other file is still reported.
        deep = self.src("deep.cpp", "int v = " + "(" * 10000 + "1" + ")" * 10000 + ";\n")
        good = self.src("good.cpp", LOGGING)
        res = self.rematch(deep, good, *STD)
        self.assertExit(res, 3)
        self.assertRegex(res.out, r"deep\.cpp:1:\d+: error: ")
        self.assertEqual(self.findings(res), [("rematch-logging", LOGGING_LINE, 5, "good.cpp")])


class TestDeepCallGraphs(BadInputTest):
    N = 10000

    def chain_source(self, cycle):
        """f0 calls f1 ... calls f9999; f9999 increments a global. With
        cycle, f9999 calls f0 again and the increment sits in f5000."""
        n = self.N
        out = [PRELUDE, "int g_count;\n"]
        out += [f"void f{i}(int);\n" for i in range(n)]
        for i in range(n):
            body = []
            if (not cycle and i == n - 1) or (cycle and i == n // 2):
                body.append("++g_count;")
            if i < n - 1:
                body.append(f"if (d > 0) f{i + 1}(d - 1);")
            elif cycle:
                body.append("if (d > 0) f0(d - 1);")
            out.append(f"void f{i}(int d) {{ {' '.join(body)} }}\n")
        out.append("float run(rematch::Segment &seg, float x) {\n"
                   "  return seg.forward([x] {\n"
                   "    f0(100000);\n"
                   "    return x;\n"
                   "  });\n"
                   "}\n")
        return "".join(out)

    def check_chain(self, text, effect_fn):
        f = self.src("chain.cpp", text)
        res = self.rematch("--format=json", f, *STD)
        self.assertExit(res, 1)
        found = res.json()["findings"]
        self.assertEqual([(x["check"], x["line"]) for x in found],
                         [("rematch-counter-update", line_of(text, "f0(100000);"))])
        self.assertIn("'f0'", found[0]["message"])
        self.assertIn("'g_count'", found[0]["message"])
        notes = found[0]["notes"]
        msgs = [n["message"] for n in notes]
        # The chain starts at the first call and ends at the effect itself,
        # in the function that has it; a long middle may be shortened.
        self.assertEqual(msgs[0], "'f0' calls 'f1' here", msgs[:3])
        effect = [n for n in notes
                  if n["message"].startswith(f"'{effect_fn}' increments 'g_count'")]
        self.assertEqual([n["line"] for n in effect],
                         [line_of(text, f"void {effect_fn}(int d) {{")],
                         f"no note at the effect; last notes: {msgs[-3:]}")
        for n in notes:
            self.assertEqual(n["file"], "chain.cpp")
            self.assertGreater(n["line"], 0)
        # The same chain through the text and SARIF writers.
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        self.assertIn(f"'{effect_fn}' increments 'g_count'", res.out)
        sarif = self.rematch("--format=sarif", f, *STD).json()
        flows = sarif["runs"][0]["results"][0]["codeFlows"][0]["threadFlows"][0]["locations"]
        self.assertEqual(len(flows), len(notes) + 1)

    def test_call_chain_10000_deep(self):
        self.check_chain(self.chain_source(cycle=False), f"f{self.N - 1}")

    def test_mutual_recursion_10000_deep(self):
        self.check_chain(self.chain_source(cycle=True), f"f{self.N // 2}")


class TestMacros(BadInputTest):
    # set_scale makes g_scale a global that may change (one written nowhere
    # in the program is not reported by rematch-global-read).
    SOURCE = PRELUDE + """\
void set_scale(float s) { g_scale = s; }
#define LOG(x) printf("%f\\n", (x))
#define TRACE(x) LOG(x)
#define BUMP() (++g_steps)
#define SCALED(x) ((x) * g_scale)
#define CHECKPOINT(seg, body) (seg).forward([&] body)
float f(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    LOG(x);
    TRACE(x);
    BUMP();
    return SCALED(x);
  });
}
float g(rematch::Segment &seg, float x) {
  return CHECKPOINT(seg, { LOG(x); return x; });
}
"""

    def test_effects_from_macros_are_reported_at_the_use(self):
        f = self.src("macros.cpp", self.SOURCE)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        t = self.SOURCE
        self.assertEqual(
            sorted((c, l) for c, l, *_ in self.findings(res)),
            sorted([("rematch-logging", line_of(t, "    LOG(x);")),
                    ("rematch-logging", line_of(t, "TRACE(x);")),
                    ("rematch-counter-update", line_of(t, "BUMP();")),
                    ("rematch-global-read", line_of(t, "return SCALED(x);")),
                    ("rematch-logging", line_of(t, "CHECKPOINT(seg, {"))]),
            repr(res))

    def test_fix_never_edits_inside_a_macro(self):
        f = self.src("macros.cpp", self.SOURCE)
        res = self.rematch("--fix", f, *STD)
        self.assertIn(res.rc, (0, 1))
        with open(self.path(f), encoding="utf-8") as fh:
            after = fh.read()
        # The #define lines are untouched and the file still compiles.
        self.assertEqual([l for l in after.splitlines() if l.startswith("#define")],
                         [l for l in self.SOURCE.splitlines() if l.startswith("#define")])
        self.assertIn(self.rematch(f, *STD).rc, (0, 1))


class TestEncodings(BadInputTest):
    def test_non_utf8_bytes_in_the_source(self):
        # Latin-1 bytes in a comment and in a string literal on the finding's
        # own line: the text output carries them as they are; the machine
        # formats stay valid UTF-8 JSON.
        text = (PRELUDE.encode() +
                b"// caf\xe9 \xff\xfe\n"
                b"float f(rematch::Segment &seg, float x) {\n"
                b"  return seg.forward([x] {\n"
                b"    printf(\"caf\xe9 %f\\n\", x);\n"
                b"    return x;\n"
                b"  });\n"
                b"}\n")
        f = self.src("latin1.cpp", text)
        line = PRELUDE_LINES + 4
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(self.findings(res), [("rematch-logging", line, 5, "latin1.cpp")])
        self.assertIn(b"printf(\"caf\xe9 %f", res.raw_out)
        for fmt in ("json", "sarif"):
            res = self.rematch("--format=" + fmt, f, *STD)
            self.assertExit(res, 1)
            res.raw_out.decode("utf-8")  # strict: raises on an invalid byte
            res.json()

    def test_bom_and_crlf_line_endings(self):
        text = ("\ufeff" + LOGGING).replace("\n", "\r\n")
        f = self.src("crlf.cpp", text)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(self.findings(res), [("rematch-logging", LOGGING_LINE, 5, "crlf.cpp")])
        self.assertNotIn("\r", res.out)

    def test_binary_file_is_3(self):
        bad = self.src("blob.cpp", bytes(range(256)) * 64 + b"\x00\x00\xff")
        good = self.src("good.cpp", LOGGING)
        res = self.rematch(bad, good, *STD)
        self.assertExit(res, 3)
        self.assertIn("blob.cpp", res.out + res.err)
        self.assertEqual(self.findings(res), [("rematch-logging", LOGGING_LINE, 5, "good.cpp")])

    def test_spaces_in_compile_database_paths(self):
        # -p with a build directory, a source directory and file names that
        # all contain spaces; "command" needs shell quoting, "arguments" not.
        src = self.src("my src/my file.cpp", LOGGING)
        src2 = self.src("my src/other file.cpp", LOGGING)
        db = [
            {"directory": self.path("my src"), "file": self.path(src),
             "command": "clang++ -std=c++17 -c '%s'" % self.path(src)},
            {"directory": self.path("my src"), "file": self.path(src2),
             "arguments": ["clang++", "-std=c++17", "-c", self.path(src2)]},
        ]
        write(self.path("my build", "compile_commands.json"), json.dumps(db))
        res = self.rematch("-p", "my build", src, src2)
        self.assertExit(res, 1)
        self.assertEqual(self.findings(res),
                         [("rematch-logging", LOGGING_LINE, 5, src),
                          ("rematch-logging", LOGGING_LINE, 5, src2)])

    def test_database_file_relative_to_its_directory(self):
        # "file" may be relative to "directory" (Bear, Meson, hand-written
        # databases): findings still carry their line and the path as given.
        src = self.src("src/a b.cpp", LOGGING)
        db = [{"directory": self.path("src"), "file": "a b.cpp",
               "command": "clang++ -std=c++17 -c 'a b.cpp'"}]
        write(self.path("build", "compile_commands.json"), json.dumps(db))
        res = self.rematch("-p", "build", src)
        self.assertExit(res, 1)
        self.assertEqual(self.findings(res), [("rematch-logging", LOGGING_LINE, 5, src)])
        doc = self.rematch("--format=json", "-p", "build", src).json()
        self.assertEqual([(x["file"], x["line"]) for x in doc["findings"]],
                         [(src, LOGGING_LINE)])
        self.assertEqual([(n["file"], n["line"]) for n in doc["findings"][0]["notes"]],
                         [(src, LOGGING_LINE - 1)])

    def test_non_utf8_directory_with_config(self):
        # A non-UTF-8 directory holding a .rematch.yaml and a source: the
        # configuration is found and applied, and a malformed one is named
        # with its path, byte for byte, and line.
        d = os.path.join(os.fsencode(self.dir), b"proj \xe9")
        write(os.path.join(d, b".rematch.yaml"), b"Checks: '-*,rematch-io'\n")
        write(os.path.join(d, b"a.cpp"), LOGGING.encode())
        rel = b"proj \xe9/a.cpp"
        res = self.rematch(rel, *STD)
        self.assertExit(res, 0)  # logging is disabled by the configuration
        write(os.path.join(d, b".rematch.yaml"), b"Checks: '-*,rematch-io'\nBogus: 1\n")
        res = self.rematch(rel, *STD)
        self.assertExit(res, 2)
        self.assertRegex(os.fsencode(res.out + res.err),
                         rb"proj \xe9/\.rematch\.yaml:2:\d+: error")


class TestBadFiles(BadInputTest):
    def test_many_bad_files_and_the_good_ones_are_all_reported(self):
        os.mkdir(self.path("adir"))
        bad = {
            "missing.cpp": None,
            "adir": None,
            "broken.cpp": "int broken( {\n",
            "noheader.cpp": "// header\n#include \"nope.h\"\nint x;\n",
            "hash_error.cpp": "int a;\n#error stop here\n",
            "blob.cpp": b"\x7fELF\x00\x01\x02",
        }
        for name, text in bad.items():
            if text is not None:
                self.src(name, text)
        good = [self.src("good1.cpp", LOGGING), self.src("good2.cpp", LOGGING)]
        args = ["missing.cpp", good[0], "adir", "broken.cpp", "noheader.cpp",
                "hash_error.cpp", good[1], "blob.cpp"]
        res = self.rematch(*args, *STD)
        self.assertExit(res, 3)
        self.assertEqual(self.findings(res),
                         [("rematch-logging", LOGGING_LINE, 5, g) for g in good])
        for name in bad:
            self.assertIn(name, res.out, f"{name} not named\n{res!r}")
        self.assertRegex(res.out, r"noheader\.cpp:2:10: error: 'nope\.h' file not found")
        self.assertRegex(res.out, r"hash_error\.cpp:2:2: error: stop here")

        doc = self.rematch("--format=json", *args, *STD).json()
        status = {x["file"]: x["status"] for x in doc["files"]}
        self.assertEqual(status, {**{b: "failed" for b in bad},
                                  **{g: "analysed" for g in good}})
        self.assertEqual([x["file"] for x in doc["findings"]], good)
        for x in doc["files"]:
            if x["status"] == "failed":
                self.assertTrue(x["errors"], x)
                self.assertTrue(any(x["file"] in e for e in x["errors"]), x)

    def test_error_in_a_header_names_the_header_and_line(self):
        self.src("inc/bad.h", "// ok\n// ok\nstruct S { int x }\n")
        f = self.src("uses.cpp", "#include \"inc/bad.h\"\nint y;\n")
        res = self.rematch(f, *STD)
        self.assertExit(res, 3)
        self.assertRegex(res.out, r"inc/bad\.h:3:\d+: error: ")
        self.assertIn("uses.cpp", res.out)

    def test_thousands_of_errors_finish(self):
        f = self.src("errors.cpp", "".join(f"int e{i} = undeclared{i};\n" for i in range(5000)))
        res = self.rematch(f, *STD)
        self.assertExit(res, 3)
        self.assertIn("errors.cpp:1:", res.out)

    def test_files_with_nothing_in_them_are_0(self):
        for name, text in [("blank.cpp", " \n\t\n" * 100), ("comments.cpp", "// a\n/* b */\n"),
                           ("bom.cpp", "\ufeff"), ("newlines.cpp", "\n" * 10000)]:
            with self.subTest(file=name):
                f = self.src(name, text)
                res = self.rematch(f, *STD)
                self.assertExit(res, 0)
                self.assertEqual(res.out, "")

    def test_malformed_compile_databases_are_2(self):
        f = self.src("log.cpp", LOGGING)
        cases = {
            "empty": "",
            "object": "{}",
            "number-entry": "[1]",
            "no-command": '[{"directory": "/", "file": "log.cpp"}]',
            "binary": "\x00\x01\x02[",
            "deep": "[" * 100000,
        }
        for name, text in cases.items():
            with self.subTest(database=name):
                write(self.path(name, "compile_commands.json"), text)
                res = self.rematch("-p", name, f)
                self.assertExit(res, 2)
                self.assertIn("compile_commands.json", res.err)
                self.assertEqual(res.out, "")

    def test_build_path_that_is_not_a_directory_is_2(self):
        f = self.src("log.cpp", LOGGING)
        for p in ("no-such-dir", f):
            with self.subTest(p=p):
                res = self.rematch("-p", p, f)
                self.assertExit(res, 2)
                self.assertIn(p, res.err)

    def test_database_entry_in_a_missing_directory_is_3(self):
        f = self.src("log.cpp", LOGGING)
        good = self.src("good.cpp", LOGGING)
        db = [{"directory": self.path("gone"), "file": "log.cpp",
               "arguments": ["clang++", "-std=c++17", "-c", "log.cpp"]},
              {"directory": self.dir, "file": "good.cpp",
               "arguments": ["clang++", "-std=c++17", "-c", "good.cpp"]}]
        write(self.path("build", "compile_commands.json"), json.dumps(db))
        res = self.rematch("-p", "build", f, good)
        self.assertExit(res, 3)
        self.assertEqual(self.findings(res), [("rematch-logging", LOGGING_LINE, 5, "good.cpp")])
        # A clear message naming the missing directory, not a recovered crash.
        self.assertIn(self.path("gone"), res.out + res.err)
        self.assertNotIn("crashed", res.out + res.err)


class TestBadConfig(BadInputTest):
    def config_error(self, yaml_bytes, line=None):
        write(self.path("proj", ".rematch.yaml"), yaml_bytes)
        f = self.src("proj/log.cpp", LOGGING)
        res = self.rematch(f, *STD, limit=120)
        self.assertExit(res, 2)
        pattern = r"\.rematch\.yaml:%s:\d+: error: " % (line or r"\d+")
        self.assertRegex(res.out + res.err, pattern)
        return res

    def test_malformed_rematch_yaml_variants(self):
        cases = {
            "binary": (b"\x00\x01\xff\xfe", None),
            "list-not-map": (b"- a\n- b\n", 1),
            "scalar-doc": (b"just text\n", 1),
            "bad-checks-type": (b"Checks: [a, b]\n", 1),
            "unterminated-quote": (b"Checks: 'rematch-*\n", None),
            "nested-items": (b"IoFunctions: [[a]]\n", 1),
            "unknown-key-late": (b"\n" * 500 + b"Nope: 1\n", 501),
            "invalid-utf8-key": (b"Checkpoint\xe9Functions: [a]\n", 1),
            # LLVM's YAML I/O has no aliases; its error position is its own.
            "alias-to-nothing": (b"Checks: *nope\n", None),
        }
        for name, (text, line) in cases.items():
            with self.subTest(case=name):
                self.config_error(text, line)

    def test_deeply_nested_yaml_fails_cleanly(self):
        # The YAML parser recurses per nesting level: deep input must be an
        # error (exit 2), not a stack overflow.
        for depth in (1000, 100000):
            with self.subTest(depth=depth):
                self.config_error(b"CheckpointFunctions: " + b"[" * depth + b"a" +
                                  b"]" * depth + b"\n")
            with self.subTest(depth=depth, kind="unclosed"):
                self.config_error(b"CheckpointFunctions: " + b"[" * depth + b"\n")
            with self.subTest(depth=depth, kind="maps"):
                self.config_error(b"IoFunctions: " + b"{a: " * depth + b"b" +
                                  b"}" * depth + b"\n")
            # The reader also recurses once per empty flow entry; a '#'
            # inside a scalar is no comment and must not hide what follows.
            with self.subTest(depth=depth, kind="empty entries"):
                self.config_error(b"CheckpointFunctions: [a" + b"," * depth + b"]\n")
            with self.subTest(depth=depth, kind="empty entries after a#b"):
                self.config_error(b"CheckpointFunctions: [a#b, c" + b"," * depth + b"]\n")
            # Quotes inside a plain scalar open nothing; escaped quotes close
            # nothing: neither may hide what follows.
            with self.subTest(depth=depth, kind="empty entries after a quote"):
                self.config_error(b'CheckpointFunctions: [ab - "x' + b"," * depth + b"]\n")
            with self.subTest(depth=depth, kind="nesting after a quote"):
                self.config_error(b'CheckpointFunctions: [a"b, ' + b"[" * depth + b"\n")
            with self.subTest(depth=depth, kind="nesting after escaped quotes"):
                self.config_error(b'CheckpointFunctions: ["a\\"", \'it\'\'s\', ' +
                                  b"[" * depth + b"\n")
            with self.subTest(depth=depth, kind="closers inside quotes"):
                self.config_error(b"CheckpointFunctions: " + b'["]", ' * depth + b"\n")
        # Real comments and quoted strings may say anything short of that.
        f = self.src("proj/log.cpp", LOGGING)
        write(self.path("proj", ".rematch.yaml"),
              "# [[[[" + "," * 100 + "\n"
              "LoggingFunctions: [a#b, \"operator[]\", 'it''s', \"q\\\"[\", \"x,\n"
              "  y\"] # {{{{\n")
        self.assertExit(self.rematch(f, *STD), 1)

    def test_alias_expansion_does_not_blow_up(self):
        # A "billion laughs" document: anchors referring to anchors.
        lines = [b"a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for i in range(1, 10):
            lines.append(b"a%d: &a%d [" % (i, i) + b", ".join([b"*a%d" % (i - 1)] * 10) + b"]")
        lines.append(b"CheckpointFunctions: *a9")
        self.config_error(b"\n".join(lines) + b"\n")

    def test_unknown_check_in_rematch_yaml_is_2(self):
        res = self.config_error(b"# checks\nChecks: '-*,rematch-nonsense'\n", 2)
        self.assertIn("rematch-nonsense", res.out + res.err)

    def test_rematch_yaml_enabling_no_check_is_2(self):
        self.config_error(b"Checks: '-*'\n", 1)

    def test_config_file_that_is_a_directory_is_2(self):
        os.mkdir(self.path("cfgdir"))
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--config-file=cfgdir", f, *STD)
        self.assertExit(res, 2)
        self.assertIn("cfgdir", res.err)
        self.assertEqual(res.out, "")

    def test_huge_config_is_read(self):
        names = ", ".join(f"ns{i}::fn{i}" for i in range(20000))
        write(self.path("proj", ".rematch.yaml"), f"LoggingFunctions: [{names}]\n")
        f = self.src("proj/log.cpp", LOGGING)
        self.assertExit(self.rematch(f, *STD), 1)


class TestBadModels(BadInputTest):
    """A project's model file (Models: in .rematch.yaml) that is broken."""

    def test_broken_models_are_2_and_name_the_file_and_line(self):
        cases = {
            "unknown-effect": (b"Functions:\n  - {Name: f, Effect: teleport}\n", 2),
            "rule-without-id": (b"Rules:\n  - {Namespace: x, Effect: pure}\n", 2),
            "not-a-mapping": (b"- a\n- b\n", 1),
            "binary": (b"\x00\x01\xff\xfe", None),
            "deep": (b"Functions: " + b"[" * 5000, 1),
        }
        for name, (text, line) in cases.items():
            with self.subTest(case=name):
                write(self.path(name, "models", "ours.yaml"), text)
                write(self.path(name, ".rematch.yaml"), b"Models: [models/ours.yaml]\n")
                f = self.src(name + "/log.cpp", LOGGING)
                res = self.rematch(f, *STD, limit=120)
                self.assertExit(res, 2)
                pattern = r"models/ours\.yaml:%s:\d+: error: " % (line or r"\d+")
                self.assertRegex(res.out + res.err, pattern)

    def test_missing_model_file_is_2(self):
        write(self.path("p", ".rematch.yaml"), b"Models: [nowhere.yaml]\n")
        f = self.src("p/log.cpp", LOGGING)
        res = self.rematch(f, *STD, limit=120)
        self.assertExit(res, 2)
        self.assertIn("nowhere.yaml: error: cannot read model file", res.out + res.err)

    def test_other_files_are_still_analysed(self):
        # One directory's configuration names a broken model: its file fails
        # with the model's error, the other directory's file is reported.
        write(self.path("bad", "m.yaml"), b"Functions: [{Name: f}]\n")
        write(self.path("bad", ".rematch.yaml"), b"Models: [m.yaml]\n")
        bad = self.src("bad/log.cpp", LOGGING)
        good = self.src("good/log.cpp", LOGGING)
        res = self.rematch(bad, good, *STD, limit=120)
        self.assertExit(res, 2)
        self.assertRegex(res.out + res.err, r"m\.yaml:1:\d+: error: an entry needs 'Effect'")
        self.assertIn(("rematch-logging", LOGGING_LINE, 5, good),
                      [(c, l, col, f) for c, l, col, f in self.findings(res)])

    def test_broken_model_given_with_config_file_is_2_before_any_work(self):
        write(self.path("m.yaml"), b"Types:\n  tensor: [x]\n")
        write(self.path("cfg.yaml"), b"Models: [m.yaml]\n")
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--config-file=" + self.path("cfg.yaml"), f, *STD, limit=120)
        self.assertExit(res, 2)
        self.assertIn("m.yaml:2:3: error: unknown key 'tensor' in Types", res.err)
        self.assertEqual(res.out, "")

    def test_malformed_replays_option_is_2(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--checkpoint-functions=nn::checkpoint[torch.default", f,
                           *STD, limit=120)
        self.assertExit(res, 2)
        self.assertIn("malformed entry point", res.err)


class TestOptionsAndOutput(BadInputTest):
    def test_output_to_a_full_device_is_2(self):
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        f = self.src("log.cpp", LOGGING)
        for fmt in ("text", "json", "sarif"):
            with self.subTest(fmt=fmt):
                res = self.rematch("--output=/dev/full", "--format=" + fmt, f, *STD)
                self.assertExit(res, 2)
                self.assertIn("/dev/full", res.err)

    def test_output_below_a_regular_file_is_2(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--output=" + self.path("log.cpp", "out.txt"), f, *STD)
        self.assertExit(res, 2)
        self.assertIn("out.txt", res.err)
        with open(self.path("log.cpp"), encoding="utf-8") as fh:
            self.assertEqual(fh.read(), LOGGING)

    def test_read_only_output_is_2(self):
        if os.geteuid() == 0:
            self.skipTest("root can write a read-only file")
        f = self.src("log.cpp", LOGGING)
        out = self.src("ro.txt", "keep\n")
        os.chmod(self.path(out), 0o444)
        res = self.rematch("--output=" + out, f, *STD)
        self.assertExit(res, 2)
        self.assertIn("ro.txt", res.err)

    def test_unknown_check_in_warnings_as_errors_is_2(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--warnings-as-errors=rematch-nonsense", f, *STD)
        self.assertExit(res, 2)
        self.assertIn("rematch-nonsense", res.err)
        self.assertEqual(res.out, "")

    def test_checks_lists_that_enable_nothing_are_2(self):
        f = self.src("log.cpp", LOGGING)
        for globs in ("", ",,,", " ", "clang-analyzer-*", "rematch-io-*"):
            with self.subTest(checks=globs):
                res = self.rematch("--checks=" + globs, f, *STD)
                self.assertExit(res, 2)
                self.assertEqual(res.out, "")

    def test_checks_list_with_spaces_and_empty_items(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--checks=-*, rematch-logging ,,", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual([c for c, *_ in self.findings(res)], ["rematch-logging"])

    def test_odd_checkpoint_function_lists(self):
        f = self.src("log.cpp", LOGGING)
        for value in ("", ",,", "::", "a::", "::b", "a<int>::b", "x" * 10000, "a b,c\td"):
            with self.subTest(value=value[:20]):
                res = self.rematch("--checkpoint-functions=" + value, f, *STD)
                self.assertIn(res.rc, (1, 2), repr(res))
                if res.rc == 2:
                    self.assertEqual(res.out, "")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rematch", required=True)
    ns, rest = p.parse_known_args()
    TOOLS.rematch = os.path.abspath(ns.rematch)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
