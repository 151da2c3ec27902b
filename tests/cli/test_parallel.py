#!/usr/bin/env python3
"""End-to-end tests of -j, --shard, the progress line, crash recovery and
--timeout-per-file / --memory-per-file.

Usage:
  test_parallel.py --rematch <rematch> --rematch-testhooks <rematch-testhooks>
                   [unittest arguments, e.g. TestJobs]

(The other arguments of test_cli.py are accepted and ignored, so both scripts
can share one argument list.) A run that sets one of two test-only
environment variables goes to rematch-testhooks, the same program with a hook
inside each file's analysis (tool/TestHooks.cpp): REMATCH_TEST_CRASH_ON=<base
name> aborts inside the analysis of that file, REMATCH_TEST_SLEEP_ON=<base
name> makes it take a minute. The shipped rematch reads neither.
Standard library only.
"""

import argparse
import json
import os
import pty
import shutil
import subprocess
import sys
import time
import unittest

# The helpers shared by the test drivers, in tests/support.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from rematch_testing import TempDirTest, result_of, write  # noqa: E402

TOOLS = argparse.Namespace()

STD = ["--", "-std=c++17"]

PRELUDE = """\
namespace rematch { bool recomputing(); struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
extern "C" int printf(const char*, ...);
int g_steps;
float g_scale = 2;
"""


def unit(k):
    """A translation unit with 3 + k % 3 findings, all its own."""
    logs = "".join(f'    printf("{k} {i} %f\\n", x);\n' for i in range(k % 3 + 1))
    return PRELUDE + f"""\
void bump_{k}() {{ ++g_steps; }}
float f_{k}(rematch::Segment &seg, float x) {{
  return seg.forward([x] {{
{logs}    bump_{k}();
    return x * g_scale;
  }});
}}
"""


# Not in alphabetical order: the report must follow the command line.
NAMES = ["h.cpp", "c.cpp", "sub/a.cpp", "f.cpp", "b.cpp", "g.cpp", "e.cpp", "d.cpp"]


class ParallelTest(TempDirTest):
    prefix = "rematch-par-"

    def setUp(self):
        super().setUp()
        for k, name in enumerate(NAMES):
            write(self.path(name), unit(k))

    def rematch(self, *args, env=None, timeout=300):
        full_env = dict(os.environ)
        for var in ("REMATCH_TEST_CRASH_ON", "REMATCH_TEST_SLEEP_ON"):
            full_env.pop(var, None)
        full_env.update(env or {})
        program = TOOLS.rematch_testhooks if env else TOOLS.rematch
        start = time.monotonic()
        proc = subprocess.run([program] + list(args), cwd=self.dir,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, env=full_env,
                              timeout=timeout)
        return result_of(proc, time.monotonic() - start)

    def finding_keys(self, res):
        return [(f["file"], f["line"], f["column"], f["check"])
                for f in res.json()["findings"]]


class TestJobs(ParallelTest):
    def test_parallel_output_is_identical(self):
        for fmt in ("text", "json", "sarif"):
            with self.subTest(format=fmt):
                serial = self.rematch("-j", "1", "--format=" + fmt, *NAMES, *STD)
                self.assertExit(serial, 1)
                for jobs in (["-j", "2"], ["-j8"], ["--jobs=3"]):
                    par = self.rematch(*jobs, "--format=" + fmt, *NAMES, *STD)
                    self.assertExit(par, 1)
                    self.assertEqual(par.out, serial.out, jobs)
                    self.assertEqual(par.err, serial.err, jobs)

    def test_default_jobs_is_identical(self):
        serial = self.rematch("-j1", "--format=json", *NAMES, *STD)
        default = self.rematch("--format=json", *NAMES, *STD)
        self.assertEqual(default.out, serial.out)

    def test_files_in_command_line_order(self):
        # A missing file fails before the analysis, a broken one in it;
        # neither moves in the report.
        with open(os.path.join(self.dir, "broken.cpp"), "w") as f:
            f.write("int broken( {\n")
        files = NAMES[:3] + ["broken.cpp", "missing.cpp"] + NAMES[3:]
        res = self.rematch("-j", "2", "--format=json", *files, *STD)
        self.assertExit(res, 3)
        doc = res.json()
        self.assertEqual([f["file"] for f in doc["files"]], files)
        status = {f["file"]: f["status"] for f in doc["files"]}
        self.assertEqual(status["broken.cpp"], "failed")
        self.assertEqual(status["missing.cpp"], "failed")
        self.assertEqual(status[NAMES[0]], "analysed")
        serial = self.rematch("-j", "1", "--format=json", *files, *STD)
        self.assertEqual(res.out, serial.out)

    def test_compile_database_directories(self):
        # Each command runs in its own directory, with includes relative to
        # it: threads must not share the process's working directory.
        commands, files = [], []
        for d in ("p", "q", "r"):
            os.makedirs(os.path.join(self.dir, "db", d, "inc"))
            with open(os.path.join(self.dir, "db", d, "inc", "defs.h"), "w") as f:
                f.write(PRELUDE + f"int g_{d};\n")
            for i in (1, 2):
                with open(os.path.join(self.dir, "db", d, f"u{i}.cpp"), "w") as f:
                    f.write('#include "defs.h"\n'
                            "float f(rematch::Segment &seg, float x) { return "
                            f"seg.forward([x] {{ ++g_{d}; return x; }}); }}\n")
                commands.append({"directory": os.path.join(self.dir, "db", d),
                                 "file": f"u{i}.cpp",
                                 "arguments": ["clang++", "-std=c++17", "-Iinc",
                                               "-c", f"u{i}.cpp"]})
                files.append(f"db/{d}/u{i}.cpp")
        with open(os.path.join(self.dir, "db", "compile_commands.json"), "w") as f:
            json.dump(commands, f)
        serial = self.rematch("-p", "db", "-j", "1", *files)
        self.assertExit(serial, 1)
        for name in files:
            self.assertIn(f"{name}:2:", serial.out)
        for extra in (["-j", "2"], ["-j", "3", "--timeout-per-file=120"]):
            res = self.rematch("-p", "db", *extra, *files)
            self.assertEqual(res.out, serial.out, extra)

    def test_bad_jobs_is_2(self):
        for bad in (["-j", "0"], ["-j", "x"], ["--jobs=-1"], ["--jobs="],
                    ["-j", "2x"], ["-j"]):
            with self.subTest(args=bad):
                res = self.rematch(*bad, NAMES[0], *STD) if bad != ["-j"] \
                    else self.rematch(NAMES[0], "-j")
                self.assertExit(res, 2)
                self.assertEqual(res.out, "")


class TestShard(ParallelTest):
    def test_shards_partition_the_run(self):
        full = self.rematch("--format=json", *NAMES, *STD)
        self.assertExit(full, 1)
        seen_files, seen_findings = [], []
        for i in (1, 2, 3):
            part = self.rematch(f"--shard={i}/3", "--format=json", *NAMES, *STD)
            self.assertIn(part.rc, (0, 1), repr(part))
            files = [f["file"] for f in part.json()["files"]]
            self.assertEqual(files, [n for k, n in enumerate(NAMES) if k % 3 == i - 1])
            seen_files += files
            seen_findings += self.finding_keys(part)
        self.assertEqual(sorted(seen_files), sorted(NAMES))
        self.assertEqual(len(seen_findings), len(set(seen_findings)), "overlap")
        self.assertEqual(sorted(seen_findings), sorted(self.finding_keys(full)))

    def test_shard_spellings(self):
        a = self.rematch("--shard=2/2", "--format=json", *NAMES, *STD)
        b = self.rematch("--shard", "2/2", "--format=json", *NAMES, *STD)
        self.assertEqual(a.out, b.out)
        one = self.rematch("--shard=1/1", "--format=json", *NAMES, *STD)
        full = self.rematch("--format=json", *NAMES, *STD)
        self.assertEqual(one.out, full.out)

    def test_more_shards_than_files(self):
        res = self.rematch("--shard=5/9", "--format=json", NAMES[0], *STD)
        self.assertExit(res, 0)
        self.assertEqual(res.json()["files"], [])

    def test_bad_shard_is_2(self):
        for bad in ("0/3", "4/3", "3", "1/0", "a/b", "", "/", "1/3/5", "-1/3",
                    "1 /3"):
            with self.subTest(shard=bad):
                res = self.rematch("--shard=" + bad, NAMES[0], *STD)
                self.assertExit(res, 2)
                self.assertEqual(res.out, "")
                self.assertIn("shard", res.err)


class TestProgress(ParallelTest):
    def test_no_progress_when_stderr_is_not_a_terminal(self):
        res = self.rematch("-j", "2", *NAMES, *STD)
        self.assertExit(res, 1)
        self.assertEqual(res.err, "")

    def run_on_pty(self, *args):
        master, slave = pty.openpty()
        env = dict(os.environ, COLUMNS="200")
        proc = subprocess.Popen([TOOLS.rematch] + list(args), cwd=self.dir,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=slave, env=env)
        os.close(slave)
        data = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the slave side is closed
                break
            if not chunk:
                break
            data += chunk
        os.close(master)
        out, _ = proc.communicate(timeout=300)
        return proc.returncode, out.decode(), data.decode()

    def test_progress_on_a_terminal(self):
        rc, out, err = self.run_on_pty("-j", "2", *NAMES, *STD)
        self.assertEqual(rc, 1, err)
        self.assertIn("\r", err)
        self.assertIn("rematch: [0/8] ", err)
        self.assertIn("rematch: [8/8] ", err)
        for name in NAMES:
            self.assertIn(name, err)
        # Cleared at the end: the last rewrite is blanks then '\r'.
        self.assertTrue(err.endswith("\r"), repr(err[-80:]))
        self.assertEqual(err.split("\r")[-2].strip(), "", repr(err[-80:]))
        self.assertNotIn("\n", err)
        # The report itself is unchanged.
        self.assertEqual(out, self.rematch("-j", "2", *NAMES, *STD).out)


class TestCrash(ParallelTest):
    def check_crash(self, *extra):
        crash = {"REMATCH_TEST_CRASH_ON": "b.cpp"}
        clean = self.rematch("-j", "1", "--format=json", *NAMES, *STD)
        for jobs in ("1", "2"):
            with self.subTest(jobs=jobs, extra=extra):
                res = self.rematch("-j", jobs, *extra, *NAMES, *STD, env=crash)
                self.assertExit(res, 3)
                self.assertRegex(res.out, r"(?m)^b\.cpp: error: the analysis "
                                          r"crashed \(signal 6: [^)]*\)$")
                self.assertNotIn("PLEASE submit", res.err)
                res = self.rematch("-j", jobs, "--format=json", *extra, *NAMES,
                                   *STD, env=crash)
                self.assertExit(res, 3)
                doc = res.json()
                failed = [f["file"] for f in doc["files"] if f["status"] == "failed"]
                self.assertEqual(failed, ["b.cpp"])
                self.assertIn("b.cpp: error: the analysis crashed", res.err)
                others = [k for k in self.finding_keys(clean) if k[0] != "b.cpp"]
                self.assertEqual(self.finding_keys(res), others)

    def test_crash_on_threads(self):
        self.check_crash()

    def test_crash_in_worker_process(self):
        self.check_crash("--timeout-per-file=120")


class TestBounds(ParallelTest):
    def test_timeout(self):
        slow = {"REMATCH_TEST_SLEEP_ON": "f.cpp"}
        clean = self.rematch("--format=json", *NAMES, *STD)
        for jobs in ("1", "2"):
            with self.subTest(jobs=jobs):
                res = self.rematch("-j", jobs, "--timeout-per-file=2", *NAMES,
                                   *STD, env=slow)
                self.assertExit(res, 3)
                self.assertRegex(res.out, r"(?m)^f\.cpp: error: analysis timed "
                                          r"out after 2 s$")
                self.assertLess(res.seconds, 50)
                res = self.rematch("-j", jobs, "--timeout-per-file=2",
                                   "--format=json", *NAMES, *STD, env=slow)
                self.assertExit(res, 3)
                failed = [f["file"] for f in res.json()["files"]
                          if f["status"] == "failed"]
                self.assertEqual(failed, ["f.cpp"])
                others = [k for k in self.finding_keys(clean) if k[0] != "f.cpp"]
                self.assertEqual(self.finding_keys(res), others)

    def test_shipped_program_has_no_test_hook(self):
        env = dict(os.environ, REMATCH_TEST_CRASH_ON=NAMES[0],
                   REMATCH_TEST_SLEEP_ON=NAMES[0])
        proc = subprocess.run([TOOLS.rematch, "--format=json", NAMES[0], *STD],
                              cwd=self.dir, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, timeout=50)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        self.assertEqual([f["status"] for f in json.loads(proc.stdout)["files"]],
                         ["analysed"])

    def test_fractional_timeout(self):
        res = self.rematch("--timeout-per-file=0.5", NAMES[0], *STD,
                           env={"REMATCH_TEST_SLEEP_ON": NAMES[0]})
        self.assertExit(res, 3)
        self.assertIn("timed out after 0.5 s", res.out)

    def test_worker_processes_report_the_same(self):
        # Findings, notes, source lines and errors cross the worker pipe.
        with open(os.path.join(self.dir, "broken.cpp"), "w") as f:
            f.write("int broken( {\n")
        files = NAMES + ["broken.cpp"]
        for fmt in ("text", "sarif"):
            with self.subTest(format=fmt):
                threads = self.rematch("--format=" + fmt, *files, *STD)
                self.assertExit(threads, 3)
                bounds = ["--timeout-per-file=120"]
                # AddressSanitizer reserves terabytes of address space for
                # its shadow memory: an RLIMIT_AS bound cannot hold there.
                if "ASAN_OPTIONS" not in os.environ:
                    bounds.append("--memory-per-file=65536")
                for bound in bounds:
                    procs = self.rematch(bound, "-j", "2", "--format=" + fmt,
                                         *files, *STD)
                    self.assertEqual(procs.out, threads.out, bound)
                    self.assertEqual(procs.err, threads.err, bound)

    def test_fix_in_worker_process(self):
        # rematch-logging's fix-it guards the call with recomputing().
        fixable = PRELUDE + """\
float f(rematch::Segment &seg, float x) {
  return seg.forward([x] { printf("%f", x); return x; });
}
"""
        for name in ("fix1.cpp", "fix2.cpp"):
            with open(os.path.join(self.dir, name), "w") as f:
                f.write(fixable)
        self.rematch("--fix", "fix1.cpp", *STD)
        self.rematch("--fix", "--timeout-per-file=120", "fix2.cpp", *STD)
        with open(os.path.join(self.dir, "fix1.cpp")) as f1, \
                open(os.path.join(self.dir, "fix2.cpp")) as f2:
            fixed = f1.read()
            self.assertIn("if (!rematch::recomputing()) printf", fixed)
            self.assertEqual(f2.read(), fixed)

    def test_memory_bound(self):
        # 1 MiB of address space is far less than the program already maps:
        # the analysis fails at its first allocation.
        res = self.rematch("--memory-per-file=1", "--format=json", NAMES[0],
                           *STD)
        self.assertExit(res, 3)
        self.assertRegex(res.err, r"h\.cpp: error: (analysis ran out of memory "
                                  r"\(limit 1 MiB\)|the analysis crashed)")

    def test_bad_bounds_are_2(self):
        for bad in ("--timeout-per-file=0", "--timeout-per-file=-3",
                    "--timeout-per-file=soon", "--timeout-per-file=nan",
                    "--memory-per-file=0", "--memory-per-file=1.5",
                    "--memory-per-file=big"):
            with self.subTest(arg=bad):
                res = self.rematch(bad, NAMES[0], *STD)
                self.assertExit(res, 2)
                self.assertEqual(res.out, "")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rematch", required=True)
    p.add_argument("--rematch-testhooks", required=True, dest="testhooks")
    for ignored in ("--plugin", "--clang-tidy", "--root", "--validator",
                    "--schema", "--python"):
        p.add_argument(ignored)
    ns, rest = p.parse_known_args()
    TOOLS.rematch = os.path.abspath(ns.rematch)
    TOOLS.rematch_testhooks = os.path.abspath(ns.testhooks)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
