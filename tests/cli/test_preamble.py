#!/usr/bin/env python3
"""Precompiled preambles (tool/Preamble.h): a file analysed again with the
same leading #include block is parsed with a precompiled header of that
block, and reports exactly what a fresh parse reports (on the whole check
corpus: test_skip_bodies.py's Corpus). Never stale: an
edited header, other flags, another compiler, a damaged entry. Bounded: the
least recently used entries go beyond --preamble-cache-size.

Usage: test_preamble.py --rematch <rematch> --root <source dir>
                        [unittest arguments]
Standard library only.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

TOOLS = argparse.Namespace()

PRELUDE = """\
#pragma once
namespace rematch { struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
"""


def run(args, cwd, timeout=600):
    p = subprocess.run([TOOLS.rematch, "--format=json"] + args, cwd=cwd,
                       capture_output=True, text=True, timeout=timeout)
    return p.returncode, json.loads(p.stdout)["findings"], p.stderr


def forget_findings(cache):
    """Drops the findings cache's entries (tool/FindingsCache.h), as an edit
    of each file's body would: the next run parses the files again."""
    for name in glob.glob(os.path.join(cache, "*.findings")):
        os.remove(name)


class Project(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name
        self.write("prelude.h", PRELUDE)
        self.write("effect.h", "#pragma once\nint g_steps = 0;\n"
                   "inline void effect() { ++g_steps; }\n")
        self.write("main.cpp", '#include "prelude.h"\n#include "effect.h"\n\n'
                   "void step(rematch::Segment &seg) {\n"
                   "  seg.forward([] { effect(); return 0; });\n}\n")

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def preambles(self, ext):
        return sorted(glob.glob(os.path.join(self.dir, "cache.preambles",
                                             "*" + ext)))

    def analyse(self, *flags, extra=()):
        forget_findings(os.path.join(self.dir, "cache"))
        rc, found, err = run(["--summaries-dir=cache", *extra, "main.cpp",
                              "--", "-std=c++17", *flags], self.dir)
        self.assertIn(rc, (0, 1), err)
        return sorted((f["check"], f["line"]) for f in found)

    def test_built_on_the_second_run_and_reused(self):
        self.assertEqual(self.analyse(), [("rematch-counter-update", 5)])
        self.assertEqual(self.preambles(".pch"), [])  # a first run only parses
        self.assertEqual(self.analyse(), [("rematch-counter-update", 5)])
        [pch] = self.preambles(".pch")
        # Taken, not only built: the next parse goes through it.
        forget_findings(os.path.join(self.dir, "cache"))
        p = subprocess.run([TOOLS.rematch, "--format=json", "--verbose",
                            "--summaries-dir=cache", "main.cpp", "--",
                            "-std=c++17"], cwd=self.dir, capture_output=True,
                           text=True, timeout=600)
        self.assertIn("1 file parsed with a precompiled preamble", p.stderr)
        # The body edited: the entry is reused, the findings follow the body.
        self.write("main.cpp", '#include "prelude.h"\n#include "effect.h"\n\n'
                   "void step(rematch::Segment &seg) {\n"
                   "  seg.forward([] { return 0; });\n}\n")
        self.assertEqual(self.analyse(), [])
        self.assertEqual(self.preambles(".pch"), [pch])

    def test_one_run_parsing_a_file_twice_builds_none(self):
        # main.cpp calls into helper.cpp, summarised after it in the same
        # run: phase two parses main.cpp again, which is no edit.
        self.write("helper.cpp", '#include "effect.h"\n'
                   "void helper() { effect(); }\n")
        self.write("main.cpp", '#include "prelude.h"\nvoid helper();\n\n'
                   "void step(rematch::Segment &seg) {\n"
                   "  seg.forward([] { helper(); return 0; });\n}\n")
        files = ["--summaries-dir=cache", "-j", "1", "main.cpp", "helper.cpp",
                 "--", "-std=c++17"]
        rc, found, err = run(files, self.dir)
        self.assertEqual([(f["check"], f["line"]) for f in found],
                         [("rematch-counter-update", 5)], err)
        self.assertEqual(self.preambles(".pch"), [])
        # Edited: the next run sees main.cpp's preamble again, and builds.
        with open(os.path.join(self.dir, "main.cpp"), "a") as f:
            f.write("\n")
        rc, found, err = run(files, self.dir)
        self.assertEqual([(f["check"], f["line"]) for f in found],
                         [("rematch-counter-update", 5)], err)
        self.assertGreaterEqual(len(self.preambles(".pch")), 1)

    def test_a_library_body_the_file_checkpoints_is_parsed(self):
        # The preamble leaves out a system header's bodies, which the
        # analysis does not read (UnreadBodies.h), but for one the file
        # checkpoints itself: that run parses without the preamble, which
        # stays for the next edit.
        os.mkdir(os.path.join(self.dir, "sys"))
        self.write("sys/lib.h", "#pragma once\nnamespace lib {\n"
                   "inline int g_n = 0;\n"
                   "inline int bump() { return ++g_n; }\n"
                   "inline int quiet() { return g_n; }\n}\n")
        checkpointed = ('#include "prelude.h"\n#include <lib.h>\n\n'
                        "void step(rematch::Segment &seg) {\n"
                        "  seg.forward(lib::bump);\n}\n")
        self.write("main.cpp", checkpointed)

        def verbose():
            forget_findings(os.path.join(self.dir, "cache"))
            p = subprocess.run([TOOLS.rematch, "--format=json", "--verbose",
                                "--summaries-dir=cache", "main.cpp", "--",
                                "-std=c++17", "-isystem", "sys"],
                               cwd=self.dir, capture_output=True, text=True,
                               timeout=600)
            self.assertIn(p.returncode, (0, 1), p.stderr)
            found = sorted((f["check"], f["line"], f["message"])
                           for f in json.loads(p.stdout)["findings"])
            return found, "parsed with a precompiled preamble" in p.stderr

        fresh, used = verbose()
        self.assertEqual([f[:2] for f in fresh],
                         [("rematch-counter-update", 5)])
        self.assertFalse(used)
        again, used = verbose()  # the preamble built, and not used
        self.assertEqual(again, fresh)
        self.assertFalse(used)
        [pch] = self.preambles(".pch")
        # An edit that checkpoints none of the library's bodies uses it.
        self.write("main.cpp", checkpointed.replace("lib::bump",
                                                    "[] { return 1; }"))
        found, used = verbose()
        self.assertEqual(found, [])
        self.assertTrue(used)
        self.write("main.cpp", checkpointed)
        found, used = verbose()
        self.assertEqual(found, fresh)
        self.assertFalse(used)
        self.assertEqual(self.preambles(".pch"), [pch])

    def test_library_bodies_are_skipped_from_a_database_and_with_flags(self):
        # Taken, not only equal: a library body with an error that only its
        # parse sees (an undeclared name) fails the file when it is parsed
        # (--parse-library-bodies) and not when it is skipped, however the
        # file is named. A file that checkpoints that very function needs
        # the body, and is parsed whole.
        os.mkdir(os.path.join(self.dir, "sys"))
        self.write("sys/lib.h", "#pragma once\nnamespace lib {\n"
                   "inline int broken() { return undeclared_name; }\n}\n")
        self.write("main.cpp", '#include "prelude.h"\n#include "effect.h"\n'
                   "#include <lib.h>\n\nvoid step(rematch::Segment &seg) {\n"
                   "  seg.forward([] { effect(); return 0; });\n}\n")
        flags = ["--", "-std=c++17", "-isystem", "sys"]
        with open(os.path.join(self.dir, "compile_commands.json"), "w") as f:
            json.dump([{"directory": self.dir, "file": "main.cpp",
                        "arguments": ["/usr/bin/c++", "-std=c++17", "-isystem",
                                      "sys", "-c", "main.cpp"]}], f)

        def analyse(*args):
            p = subprocess.run([TOOLS.rematch, "--format=json", "--verbose",
                                "--no-summaries", *args], cwd=self.dir,
                               capture_output=True, text=True, timeout=600)
            report = json.loads(p.stdout)
            errors = [e for f in report["files"] for e in f["errors"]]
            return (p.returncode, [(f["check"], f["line"])
                                   for f in report["findings"]], errors,
                    p.stderr)

        for mode in (["main.cpp", *flags], ["-p", ".", "main.cpp"]):
            rc, found, errors, err = analyse(*mode)
            self.assertEqual((rc, found, errors),
                             (1, [("rematch-counter-update", 6)], []),
                             (mode, err))
            self.assertNotIn("parsed again with every library body", err)
            rc, found, errors, err = analyse("--parse-library-bodies", *mode)
            self.assertTrue(any("undeclared_name" in e for e in errors),
                            (mode, errors))
        self.write("main.cpp", '#include "prelude.h"\n#include <lib.h>\n\n'
                   "void step(rematch::Segment &seg) {\n"
                   "  seg.forward(lib::broken);\n}\n")
        rc, found, errors, err = analyse("main.cpp", *flags)
        self.assertIn("1 file parsed again with every library body", err)
        self.assertTrue(any("undeclared_name" in e for e in errors), errors)

    def test_a_cache_reached_by_another_path_names_the_file(self):
        # The leading block defines a macro the finding's note points into:
        # its location is in the header the preamble was built from, under
        # the path it was built at. Reached through a symbolic link, or
        # copied elsewhere, the note still names main.cpp.
        self.write("main.cpp", '#include "prelude.h"\n#include "effect.h"\n'
                   "#define BUMP() effect()\n\n"
                   "void step(rematch::Segment &seg) {\n"
                   "  seg.forward([] { BUMP(); return 0; });\n}\n")
        first = self.located()
        self.located()
        self.assertEqual(len(self.preambles(".pch")), 1)
        os.symlink("cache.preambles", os.path.join(self.dir, "linked.preambles"))
        shutil.copytree(os.path.join(self.dir, "cache.preambles"),
                        os.path.join(self.dir, "copied.preambles"))
        for other in ("linked", "copied"):
            with self.subTest(cache=other):
                rc, found, err = run(["--verbose", "--summaries-dir=" + other,
                                      "main.cpp", "--", "-std=c++17"],
                                     self.dir)
                self.assertIn("parsed with a precompiled preamble", err)
                self.assertEqual(self.places(found), first)
                self.assertTrue(any(n["line"] == 3 for f in found
                                    for n in f["notes"]), found)

    def located(self):
        forget_findings(os.path.join(self.dir, "cache"))
        rc, found, err = run(["--summaries-dir=cache", "main.cpp", "--",
                              "-std=c++17"], self.dir)
        self.assertIn(rc, (0, 1), err)
        return self.places(found)

    @staticmethod
    def places(found):
        return [(f["check"], f["file"], f["line"],
                 [(n["file"], n["line"]) for n in f["notes"]]) for f in found]

    def test_a_summaries_only_run_keeps_none(self):
        for _ in range(2):
            self.analyse(extra=["--summaries-only"])
        self.assertFalse(os.path.exists(os.path.join(self.dir,
                                                     "cache.preambles")))

    def test_an_edited_header_is_never_stale(self):
        self.analyse()
        self.analyse()
        self.assertEqual(len(self.preambles(".pch")), 1)
        self.write("effect.h", "#pragma once\n#include <cstdio>\n"
                   'inline void effect() { std::puts("x"); }\n')
        self.assertEqual(self.analyse(), [("rematch-logging", 5)])
        self.assertEqual(self.analyse(), [("rematch-logging", 5)])
        self.assertEqual(self.analyse(), [("rematch-logging", 5)])

    def test_other_flags_are_another_entry(self):
        self.write("effect.h", "#pragma once\nint g_steps = 0;\n"
                   "#if MODE == 1\ninline void effect() { ++g_steps; }\n"
                   "#else\ninline void effect() {}\n#endif\n")
        for _ in range(2):
            self.assertEqual(self.analyse("-DMODE=1"),
                             [("rematch-counter-update", 5)])
        for _ in range(2):
            self.assertEqual(self.analyse("-DMODE=2"), [])
        self.assertEqual(self.analyse("-DMODE=1"),
                         [("rematch-counter-update", 5)])
        self.assertEqual(len(self.preambles(".pch")), 2)

    def test_another_compiler_is_not_trusted(self):
        self.analyse()
        self.analyse()
        [deps] = self.preambles(".deps")
        with open(deps) as f:
            lines = f.read().split("\n")
        lines[1] = "clang version 0.0 (another compiler)"
        with open(deps, "w") as f:
            f.write("\n".join(lines))
        self.assertEqual(self.analyse(), [("rematch-counter-update", 5)])
        self.assertEqual(self.preambles(".deps"), [])  # dropped, not used
        self.analyse()
        with open(self.preambles(".deps")[0]) as f:
            self.assertNotIn("another compiler", f.read())

    def test_a_damaged_entry_changes_nothing(self):
        self.analyse()
        self.analyse()
        [pch] = self.preambles(".pch")
        with open(pch, "r+b") as f:
            f.truncate(100)
        forget_findings(os.path.join(self.dir, "cache"))
        rc, found, err = run(["--summaries-dir=cache", "main.cpp", "--",
                              "-std=c++17"], self.dir)
        self.assertEqual(rc, 1, err)
        self.assertEqual([(f["check"], f["line"]) for f in found],
                         [("rematch-counter-update", 5)])
        self.assertNotIn("error", err)
        self.assertEqual(self.preambles(".pch"), [])  # dropped

    def test_least_recently_used_entries_go_beyond_the_cap(self):
        # A header large enough that one precompiled preamble is over 1 MiB.
        self.write("big.h", "#pragma once\n" + "".join(
            "struct S%d { int a%d; int f() const { return a%d; } };\n"
            % (i, i, i) for i in range(6000)))
        text = '#include "prelude.h"\n#include "big.h"\n%s\n' \
            "void step(rematch::Segment &seg) {\n" \
            "  seg.forward([] { return 0; });\n}\n"
        self.write("a.cpp", text % "")
        self.write("b.cpp", text.replace('"big.h"\n', '"big.h"\n#include "effect.h"\n') % "")
        cap = ["--preamble-cache-size=1"]
        for name in ("a.cpp", "a.cpp", "b.cpp", "b.cpp"):
            forget_findings(os.path.join(self.dir, "cache"))
            rc, _, err = run(["--summaries-dir=cache", *cap, name, "--",
                              "-std=c++17"], self.dir)
            self.assertIn(rc, (0, 1), err)
        pchs = self.preambles(".pch")
        self.assertEqual(len(pchs), 1, pchs)  # a's went when b's was built
        self.assertGreater(os.path.getsize(pchs[0]), 1 << 20)
        forget_findings(os.path.join(self.dir, "cache"))
        rc, _, err = run(["--summaries-dir=cache", *cap, "b.cpp", "--",
                          "-std=c++17"], self.dir)
        self.assertEqual(self.preambles(".pch"), pchs)  # kept while used

    def test_size_zero_keeps_none(self):
        for _ in range(2):
            self.analyse(extra=["--preamble-cache-size=0"])
        self.assertFalse(os.path.exists(os.path.join(self.dir,
                                                     "cache.preambles")))

    def test_a_database_file_named_relative_to_another_directory(self):
        # The pre-commit hook's call: `rematch -p build src/a.cpp` from the
        # top of the checkout, the database in build/ naming the file by
        # its absolute path.
        os.makedirs(os.path.join(self.dir, "src"))
        os.makedirs(os.path.join(self.dir, "build"))
        os.rename(os.path.join(self.dir, "main.cpp"),
                  os.path.join(self.dir, "src", "main.cpp"))
        self.write("src/main.cpp", '#include "../prelude.h"\n'
                   '#include "../effect.h"\n\nvoid step(rematch::Segment '
                   '&seg) {\n  seg.forward([] { effect(); return 0; });\n}\n')
        src = os.path.join(self.dir, "src", "main.cpp")
        self.write("build/compile_commands.json", json.dumps([{
            "directory": os.path.join(self.dir, "build"), "file": src,
            "command": "/usr/bin/c++ -std=gnu++17 -o CMakeFiles/m.dir/"
                       "src/main.cpp.o -c " + src}]))
        pre = os.path.join(self.dir, "build", ".rematch-cache.preambles")

        def hook():
            forget_findings(os.path.join(self.dir, "build", ".rematch-cache"))
            p = subprocess.run([TOOLS.rematch, "--format=json", "--verbose",
                                "-p", "build", "src/main.cpp"], cwd=self.dir,
                               capture_output=True, text=True, timeout=600)
            self.assertEqual(p.returncode, 1, p.stderr)
            return p.stderr

        self.assertNotIn("precompiled preamble", hook())
        self.assertEqual(glob.glob(os.path.join(pre, "*.pch")), [])
        self.assertIn("1 file parsed with a precompiled preamble", hook())
        self.assertEqual(len(glob.glob(os.path.join(pre, "*.pch"))), 1)
        self.assertIn("1 file parsed with a precompiled preamble", hook())

    def test_a_bare_compiler_name_and_a_relative_file(self):
        # A database written by hand or by a tool that records the compiler
        # as a bare name, the file relative to its directory: the driver
        # then finds GCC's headers through /lib/gcc/.../../../../include,
        # where /lib is a symbolic link; the preamble's inputs are still
        # the files it read, so it is built and then used.
        self.write("main.cpp", "#include <vector>\n" + '#include "prelude.h"\n'
                   '#include "effect.h"\n\nvoid step(rematch::Segment &seg) {\n'
                   "  seg.forward([] { effect(); return 0; });\n}\n")
        self.write("compile_commands.json", json.dumps([{
            "directory": self.dir, "file": "main.cpp",
            "arguments": ["clang++-19", "-std=c++17", "-c", "main.cpp"]}]))
        pre = os.path.join(self.dir, ".rematch-cache.preambles")

        def hook():
            forget_findings(os.path.join(self.dir, ".rematch-cache"))
            p = subprocess.run([TOOLS.rematch, "--format=json", "--verbose",
                                "-p", ".", "main.cpp"], cwd=self.dir,
                               capture_output=True, text=True, timeout=600)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertNotIn("no precompiled preamble", p.stderr)
            return p.stderr

        self.assertNotIn("precompiled preamble", hook())
        self.assertIn("1 file parsed with a precompiled preamble", hook())
        [deps] = glob.glob(os.path.join(pre, "*.deps"))
        with open(deps) as f:
            read = [line.split(" ", 2)[2].strip() for line in f
                    if line[:2] in ("S ", "U ")]
        self.assertTrue(any(r.endswith("/c++/12/vector") for r in read), read)
        self.assertTrue(all(os.path.isfile(r) for r in read))
        self.assertIn("1 file parsed with a precompiled preamble", hook())

    def test_a_failed_build_is_said_and_remembered(self):
        # A preamble that ends inside an #if cannot be compiled alone.
        self.write("main.cpp", '#if 1\n#include "prelude.h"\nint g = 0;\n'
                   "#endif\nvoid step(rematch::Segment &seg) {\n"
                   "  seg.forward([] { ++g; return 0; });\n}\n")

        def verbose():
            forget_findings(os.path.join(self.dir, "cache"))
            p = subprocess.run([TOOLS.rematch, "--format=json", "--verbose",
                                "--summaries-dir=cache", "main.cpp", "--",
                                "-std=c++17"], cwd=self.dir,
                               capture_output=True, text=True, timeout=600)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertEqual(len(json.loads(p.stdout)["findings"]), 1)
            return p.stderr

        self.assertNotIn("no precompiled preamble", verbose())
        second = verbose()
        self.assertIn("main.cpp: no precompiled preamble: building the "
                      "preamble failed: ", second)
        self.assertIn("unterminated conditional directive", second)
        [failed] = self.preambles(".failed")
        stamp = os.stat(failed).st_mtime_ns
        third = verbose()
        self.assertIn("an earlier run's; remove " + failed, third)
        self.assertEqual(os.stat(failed).st_mtime_ns, stamp)  # not rebuilt
        self.assertEqual(self.preambles(".pch"), [])

    def test_bad_size_is_a_usage_error(self):
        p = subprocess.run([TOOLS.rematch, "--preamble-cache-size=lots",
                            "main.cpp"], cwd=self.dir, capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("preamble-cache-size", p.stderr)


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--rematch", required=True)
    parser.add_argument("--root", required=True)
    args, rest = parser.parse_known_args()
    TOOLS.rematch = os.path.abspath(args.rematch)
    TOOLS.root = os.path.abspath(args.root)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
