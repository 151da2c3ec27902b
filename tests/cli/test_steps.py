#!/usr/bin/env python3
"""rematch summarize, link and report: the whole-program analysis as pure
steps a build system runs on separate workers.

- Determinism: the same project at two absolute paths, summarized at
  different times, gives the same .rsum and .rlink bytes.
- Distribution: files summarized in separate directories (as four workers
  would), linked and reported, give the SARIF, JSON and text of one
  `rematch` run byte for byte: on a generated project whose calls cycle
  through the files, and on the check corpus (Corpus, sharded).
- A link of links equals the link of all files.
- Faults: a damaged, truncated or foreign .rsum or .rlink is an error naming
  it (exit 2); two different facts for one file too; a file that does not
  compile is carried through to the report (exit 3).

Usage: test_steps.py --rematch <rematch> --root <repository> [--shard i/n]
       [--light] [unittest arguments]
--light leaves out the corpus files that include libtorch (a sanitizer
build, where each of their parses costs minutes).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "support"))
from rematch_testing import TempDirTest, write  # noqa: E402

TOOLS = argparse.Namespace()
FLAGS = ["--", "-std=c++17"]

PRELUDE = """\
#pragma once
#include <cstdio>
namespace rematch { struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
"""


def cyclic_project(n):
    """n files; f_i calls f_{i+1} (the last calls f_0), writes g_i, and every
    third file logs; every fourth checkpoints a lambda that calls f_i and
    reads the global of the next file; a virtual call runs an override
    defined in another file."""
    files = {"prelude.h": PRELUDE}
    decls = ["#pragma once", '#include "prelude.h"']
    for i in range(n):
        decls.append(f"extern int g_{i};")
        decls.append(f"void f_{i}(int depth);")
    decls.append("struct Layer { virtual ~Layer(); virtual void run(); };")
    decls.append("Layer &layer();")
    files["decls.h"] = "\n".join(decls) + "\n"
    for i in range(n):
        nxt = (i + 1) % n
        body = [f'#include "decls.h"', f"int g_{i} = 0;",
                f"void f_{i}(int depth) {{",
                f"  if (depth > 0) f_{nxt}(depth - 1);",
                f"  ++g_{i};"]
        if i % 3 == 0:
            body.append(f'  std::printf("{i}\\n");')
        body.append("}")
        if i % 4 == 0:
            body += [f"float step_{i}(rematch::Segment &seg) {{",
                     "  return seg.forward([&] {",
                     f"    f_{i}(2);",
                     "    layer().run();",
                     f"    return float(g_{nxt});",
                     "  });", "}"]
        if i == 1:
            body += ["Layer::~Layer() {}", "void Layer::run() {}",
                     "struct Noisy : Layer { void run() override; };",
                     'void Noisy::run() { std::puts("noisy"); }',
                     "Layer &layer() { static Noisy n; return n; }"]
        files[f"m{i:02d}.cpp"] = "\n".join(body) + "\n"
    return files


def run(argv, cwd, timeout=600):
    start = time.monotonic()
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    p.seconds = time.monotonic() - start
    return p


class Steps(TempDirTest):
    prefix = "rematch-steps-"

    def make(self, where, files):
        for name, text in files.items():
            write(os.path.join(where, name), text)

    def summarize(self, root, name, out, *extra):
        p = run([TOOLS.rematch, "summarize", name, "-o", out, *extra, *FLAGS],
                root)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        return out

    def read(self, path):
        with open(path, "rb") as f:
            return f.read()

    def test_same_bytes_at_two_paths_and_two_times(self):
        files = cyclic_project(6)
        first = self.path("a", "checkout")
        second = self.path("b", "somewhere", "else", "checkout")
        self.make(first, files)
        self.make(second, files)
        sums = {}
        for root in (first, second):
            names = sorted(n for n in files if n.endswith(".cpp"))
            outs = [self.summarize(root, n, n + ".rsum") for n in names]
            p = run([TOOLS.rematch, "link", *outs, "-o", "all.rlink"], root)
            self.assertEqual(p.returncode, 0, p.stderr.decode())
            sums[root] = {n: self.read(os.path.join(root, n))
                          for n in outs + ["all.rlink"]}
            time.sleep(1.1)  # another second, another mtime
        self.assertEqual(sums[first], sums[second])
        for data in sums[first].values():
            self.assertNotIn(first.encode(), data)
            self.assertNotIn(str(os.getpid()).encode() + b"-", data)

    def test_same_bytes_through_a_compilation_database(self):
        files = cyclic_project(3)
        outs = []
        for root in (self.path("x", "src"), self.path("y", "z", "src")):
            self.make(root, files)
            db = [{"directory": root, "file": os.path.join(root, n),
                   "arguments": ["clang++-19", "-std=c++17", "-I" + root, "-c",
                                 os.path.join(root, n), "-o", n + ".o"]}
                  for n in files if n.endswith(".cpp")]
            import json
            write(os.path.join(root, "compile_commands.json"), json.dumps(db))
            p = run([TOOLS.rematch, "summarize", "-p", ".", "m01.cpp", "-o",
                     "m01.rsum"], root)
            self.assertEqual(p.returncode, 0, p.stderr.decode())
            outs.append(self.read(os.path.join(root, "m01.rsum")))
        self.assertEqual(outs[0], outs[1])
        self.assertIn(b"-I@ROOT@", outs[0])

    def distributed(self, files, workers=4):
        """Summarizes the .cpp files of the project in `workers` separate
        copies, links the facts, and returns (main copy, link, names)."""
        main = self.path("main")
        self.make(main, files)
        names = sorted(n for n in files if n.endswith(".cpp"))
        rsums = []
        for w in range(workers):
            root = self.path(f"worker{w}", "sandbox", "execroot")
            self.make(root, files)
            for n in names[w::workers]:
                out = self.path(f"worker{w}", n + ".rsum")
                rsums.append(self.summarize(root, n, out))
        link = self.path("program.rlink")
        p = run([TOOLS.rematch, "link", *rsums, "-o", link], main)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        return main, link, names

    def test_distributed_report_equals_one_run(self):
        main, link, names = self.distributed(cyclic_project(12))
        for fmt in ("sarif", "json", "text"):
            with self.subTest(format=fmt):
                one = run([TOOLS.rematch, "--format=" + fmt, "-j", "2",
                           "--summaries-dir=" + self.path("cache-" + fmt),
                           *names, *FLAGS], main)
                self.assertEqual(one.returncode, 1, one.stderr.decode())
                rep = run([TOOLS.rematch, "report", link, "--format=" + fmt,
                           "--verbose"], main)
                self.assertEqual(rep.returncode, 1, rep.stderr.decode())
                self.assertEqual(rep.stdout, one.stdout)
                # No file is parsed again: the three whose checkpointed
                # code reaches into other files (a call, a virtual call, a
                # global another file writes) have the findings the link
                # adds made from facts (tool/FactsReport.h).
                self.assertIn(b"12 files: 12 from their summaries (3 with "
                              b"findings the link adds), 0 parsed again",
                              rep.stderr)
        # The chain crosses files, and the cycle closes.
        self.assertIn(b"m04.cpp:4:18: note: 'f_4' calls 'f_5' here\nm05.cpp:4:18: note: 'f_5' calls 'f_6' here", one.stdout)
        self.assertIn(b"may, through a virtual call", one.stdout)

    def test_report_of_some_files(self):
        main, link, names = self.distributed(cyclic_project(8))
        rsum = self.summarize(main, "m04.cpp", self.path("m04.rsum"))
        one = run([TOOLS.rematch, "--format=sarif", "--summaries-dir=" +
                   self.path("c"), *names, *FLAGS], main)
        alone = run([TOOLS.rematch, "--format=sarif", "--summaries-dir=" +
                     self.path("c"), "m04.cpp", *FLAGS], main)
        rep = run([TOOLS.rematch, "report", link, rsum, "--format=sarif"], main)
        self.assertEqual(rep.returncode, 1, rep.stderr.decode())
        self.assertEqual(rep.stdout, alone.stdout)
        self.assertIn(b"m04.cpp", rep.stdout)
        self.assertNotIn(b"m00.cpp\"", rep.stdout.split(b"\"results\"")[1])
        self.assertGreater(len(one.stdout), len(rep.stdout))

    def test_a_link_of_links_equals_the_link_of_all_files(self):
        files = cyclic_project(6)
        root = self.path("p")
        self.make(root, files)
        names = sorted(n for n in files if n.endswith(".cpp"))
        outs = [self.summarize(root, n, n + ".rsum") for n in names]
        for argv in (["link", *outs[:3], "-o", "left.rlink"],
                     ["link", *outs[2:], "-o", "right.rlink"],
                     ["link", "right.rlink", "left.rlink", "-o", "both.rlink"],
                     ["link", *reversed(outs), "-o", "all.rlink"]):
            p = run([TOOLS.rematch, *argv], root)
            self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertEqual(self.read(os.path.join(root, "both.rlink")),
                         self.read(os.path.join(root, "all.rlink")))

    def test_a_link_of_nothing_reports_nothing(self):
        p = run([TOOLS.rematch, "link", "-o", "empty.rlink"], self.dir)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        p = run([TOOLS.rematch, "report", "empty.rlink", "--format=json"],
                self.dir)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertIn(b'"findings": []', p.stdout)

    def test_damaged_inputs_are_errors_naming_them(self):
        files = cyclic_project(3)
        root = self.path("p")
        self.make(root, files)
        good = self.summarize(root, "m00.cpp", "m00.rsum")
        other = self.summarize(root, "m01.cpp", "m01.rsum")
        run([TOOLS.rematch, "link", good, other, "-o", "ok.rlink"], root)
        data = self.read(os.path.join(root, good))
        link = self.read(os.path.join(root, "ok.rlink"))
        cases = {
            "truncated.rsum": data[:len(data) // 2],
            "edited.rsum": data.replace(b"m00.cpp", b"m09.cpp", 1)[:-3] + b"xx\n",
            "empty.rsum": b"",
            "foreign.rsum": b"{\"not\": \"facts\"}\n",
            "future.rsum": data.replace(b"rematch-rsum 1", b"rematch-rsum 99", 1),
            "truncated.rlink": link[:-10],
        }
        for name, text in cases.items():
            write(os.path.join(root, name), text)
            for argv in (["link", other, name, "-o", "x.rlink"],
                         ["report", name] if name.endswith(".rlink") else
                         ["report", "ok.rlink", name]):
                with self.subTest(input=name, step=argv[0]):
                    p = run([TOOLS.rematch, *argv], root)
                    self.assertEqual(p.returncode, 2, p.stderr.decode())
                    self.assertIn(name.encode() + b": error: ", p.stderr)
                    self.assertFalse(os.path.exists(os.path.join(root, "x.rlink")))

    def test_two_facts_for_one_file_conflict(self):
        files = cyclic_project(3)
        root = self.path("p")
        self.make(root, files)
        old = self.summarize(root, "m00.cpp", "old.rsum")
        write(os.path.join(root, "m00.cpp"), files["m00.cpp"] + "int extra;\n")
        new = self.summarize(root, "m00.cpp", "new.rsum")
        p = run([TOOLS.rematch, "link", old, new, "-o", "x.rlink"], root)
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"new.rsum: error: other facts for 'm00.cpp' than old.rsum",
                      p.stderr)
        inline = self.path("inline.rsum")
        p = run([TOOLS.rematch, "summarize", "m01.cpp", "-o", inline,
                 "--chain=inline", *FLAGS], root)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        p = run([TOOLS.rematch, "link", new, inline, "-o", "x.rlink"], root)
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"was summarized with other settings", p.stderr)

    def test_a_file_that_does_not_compile(self):
        root = self.path("p")
        self.make(root, {"bad.cpp": "int main() { return undeclared; }\n",
                         "good.cpp": "int ok() { return 0; }\n"})
        p = run([TOOLS.rematch, "summarize", "bad.cpp", "-o", "bad.rsum",
                 *FLAGS], root)
        self.assertEqual(p.returncode, 3, p.stderr.decode())
        self.assertIn(b"bad.cpp:1:21: error: use of undeclared identifier",
                      p.stderr)
        good = self.summarize(root, "good.cpp", "good.rsum")
        run([TOOLS.rematch, "link", "bad.rsum", good, "-o", "all.rlink"], root)
        rep = run([TOOLS.rematch, "report", "all.rlink", "--format=json"], root)
        self.assertEqual(rep.returncode, 3, rep.stderr.decode())
        self.assertIn(b"use of undeclared identifier", rep.stdout)

    def test_usage(self):
        for argv, text in (
                (["summarize", "a.cpp", "b.cpp", "-o", "x"], b"one source file"),
                (["summarize", "a.cpp"], b"-o <out>.rsum"),
                (["summarize", "a.cpp", "-o", "x", "--format=json"],
                 b"does not take option '--format=json'"),
                (["link", "a.rsum"], b"-o <out>.rlink"),
                (["report", "x.rlink", "--checks=*"],
                 b"does not take option '--checks=*'"),
                (["a.cpp", "--root=."], b"--root applies only")):
            with self.subTest(argv=argv):
                p = run([TOOLS.rematch, *argv], self.dir)
                self.assertEqual(p.returncode, 2)
                self.assertIn(text, p.stderr)
        for step in ("summarize", "link", "report"):
            p = run([TOOLS.rematch, step, "--help"], self.dir)
            self.assertEqual(p.returncode, 0)
            self.assertIn(b"USAGE: rematch " + step.encode(), p.stdout)


# Of the four corpus files that include libtorch (a parse costs about
# 10 s), the one that names its headers with -isystem and one of the three
# that use -I are linked here; the check tests run all four, and
# cli.reuse.corpus runs framework/libtorch.cpp.
LIBTORCH_SPARED = {os.path.join("frameworks", "libtorch.cpp"),
                   os.path.join("aliases", "module-containers.cpp")}


class Corpus(unittest.TestCase):
    """The check corpus, grouped by the settings its files need, summarized
    on four workers, linked and reported: the SARIF of one run."""

    def test_corpus_distributed_equals_one_run(self):
        sys.path.insert(0, os.path.join(TOOLS.root, "tests", "checks"))
        import run_check_test as rct
        with tempfile.TemporaryDirectory(prefix="rematch-steps-") as d:
            main = os.path.join(d, "main")
            shutil.copytree(os.path.join(TOOLS.root, "tests", "checks"), main)
            groups = {}
            for path in rct.corpus_files(main):
                with open(path, encoding="utf-8") as f:
                    exp = rct.parse_annotations(f.read())
                if any(not os.path.exists(p) for p in exp.requires):
                    continue
                if TOOLS.light and any("torch" in p for p in exp.requires):
                    continue
                if os.path.relpath(path, main) in LIBTORCH_SPARED:
                    continue
                key = (tuple(sorted(exp.options.items())), tuple(exp.args))
                groups.setdefault(key, (exp, []))[1].append(
                    os.path.relpath(path, main))
            # The files of all groups in turn, one to each shard: the
            # groups of libtorch's files cost most.
            keys, turn = sorted(groups), 0
            for key in keys:
                exp, names = groups[key]
                mine = []
                for n in names:
                    if turn % TOOLS.shards == TOOLS.shard - 1:
                        mine.append(n)
                    turn += 1
                groups[key] = (exp, mine)
            keys = [k for k in keys if groups[k][1]]
            self.results = self.added = self.again = 0
            configs = os.path.join(main, ".groups")
            os.makedirs(configs)
            for k, key in enumerate(keys):
                exp, names = groups[key]
                cfg_dir = os.path.join(configs, str(k))
                os.makedirs(cfg_dir)
                cfg = rct.write_config(exp, cfg_dir)
                opts = []
                if "CheckpointFunctions" in exp.options:
                    opts.append("--checkpoint-functions=" +
                                exp.options["CheckpointFunctions"])
                if cfg:
                    opts.append("--config-file=" +
                                os.path.relpath(cfg, main))
                flags = ["--"] + rct.COMPILE_ARGS + exp.args + [
                    "-isystem", "Inputs"]
                with self.subTest(files=names):
                    self.check_group(d, main, k, names, opts, flags)
            # The corpus declares 669 warnings; each shard holds its part.
            self.assertGreater(self.results, 200 // TOOLS.shards)
            print(f"report: {self.added} files with findings the link "
                  f"adds, made from facts; {self.again} parsed again",
                  file=sys.stderr)

    def check_group(self, d, main, k, names, opts, flags):
        rsums = []
        for w in range(4):
            root = os.path.join(d, f"g{k}w{w}", "execroot")
            if not os.path.exists(root):
                shutil.copytree(main, root)
            for n in names[w::4]:
                out = os.path.join(d, f"g{k}w{w}", n.replace("/", "_") + ".rsum")
                p = run([TOOLS.rematch, "summarize", *opts, n, "-o", out,
                         *flags], root)
                self.assertIn(p.returncode, (0,), p.stderr.decode())
                rsums.append(out)
            shutil.rmtree(root)
        link = os.path.join(d, f"g{k}.rlink")
        p = run([TOOLS.rematch, "link", *rsums, "-o", link], main)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        one = run([TOOLS.rematch, "--format=sarif", "-j", "2",
                   "--summaries-dir=" + os.path.join(d, f"cache{k}"), *opts,
                   *names, *flags], main)
        rep = run([TOOLS.rematch, "report", link, "--format=sarif", "-j", "2",
                   "--verbose"], main)
        self.assertEqual(rep.returncode, one.returncode, rep.stderr.decode())
        self.assertEqual(rep.stdout.decode(), one.stdout.decode())
        self.results += rep.stdout.count(b'"ruleId"')
        said = re.search(rb"\((\d+) with findings the link adds\), (\d+) "
                         rb"parsed again", rep.stderr)
        self.assertIsNotNone(said, rep.stderr.decode())
        self.added += int(said.group(1))
        self.again += int(said.group(2))


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--rematch", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--shard", default="1/1")
    parser.add_argument("--light", action="store_true")
    args, rest = parser.parse_known_args()
    TOOLS.rematch = os.path.abspath(args.rematch)
    TOOLS.root = os.path.abspath(args.root)
    TOOLS.shard, TOOLS.shards = (int(x) for x in args.shard.split("/"))
    TOOLS.light = args.light
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
