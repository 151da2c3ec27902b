#!/usr/bin/env python3
"""A summaries cache that cannot be written loses nothing: on a full disk, in
a directory that refuses new files, or in a read-only one, a whole-program
run reports exactly what a run with room reports (findings, exit code), in
threads and in forked workers, with one warning. A damaged entry is a
warning, rebuilt, never trusted.

The project is bench/wholeprogram_bench.py's generated 20 files. The full
disk (a 24 KiB tmpfs) and the read-only bind mount need root and a kernel
that lets this process mount; elsewhere those two tests are skipped, and
/proc/self (a directory no file can be created in, even by root) stands for
them.

Usage: test_cache_failures.py --rematch <rematch> --root <source dir>
                              [unittest arguments]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

TOOLS = argparse.Namespace()


def mounted(target, *options):
    """Mounts with `mount options... target`; False where not permitted."""
    os.makedirs(target, exist_ok=True)
    if os.geteuid() != 0:
        return False
    p = subprocess.run(["mount", *options, target], capture_output=True)
    return p.returncode == 0


class CacheFailures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(TOOLS.root, "bench"))
        import wholeprogram_bench
        cls._tmp = tempfile.TemporaryDirectory()
        cls.project = os.path.join(cls._tmp.name, "project")
        os.makedirs(cls.project)
        wholeprogram_bench.generate(cls.project, 20, 10)
        cls.files = sorted(f for f in os.listdir(cls.project)
                           if f.endswith(".cpp"))
        cls.roomy = cls.run_rematch(os.path.join(cls._tmp.name, "roomy"))

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    @classmethod
    def run_rematch(cls, cache, *extra):
        p = subprocess.run([TOOLS.rematch, "--format=json", "-j", "2",
                            "--summaries-dir=" + cache, *extra, *cls.files,
                            "--", "-std=c++17"], cwd=cls.project,
                           capture_output=True, text=True, timeout=900)
        return p.returncode, json.loads(p.stdout)["findings"], p.stderr

    def assert_same_as_roomy(self, result):
        rc, findings, err = result
        self.assertEqual(rc, self.roomy[0], err)
        self.assertEqual(findings, self.roomy[1])
        # Cross-file findings are the point: the roomy run has some.
        self.assertGreater(len(findings), 0)
        warnings = [l for l in err.splitlines() if "warning" in l]
        self.assertEqual(len(warnings), 1, err)
        self.assertIn("cannot write the summaries cache", warnings[0])
        self.assertIn("keeps the summaries in memory", warnings[0])
        self.assertNotIn("error", err)

    def test_a_directory_that_refuses_files(self):
        self.assert_same_as_roomy(self.run_rematch("/proc/self"))

    def test_a_directory_that_refuses_files_with_workers(self):
        # --timeout-per-file: each file in a forked worker, whose summary
        # comes back to the parent with its outcome.
        self.assert_same_as_roomy(
            self.run_rematch("/proc/self", "--timeout-per-file=600"))

    def test_a_full_disk(self):
        full = os.path.join(self._tmp.name, "full")
        if not mounted(full, "-t", "tmpfs", "-o", "size=24k", "tmpfs"):
            self.skipTest("cannot mount a tmpfs here")
        try:
            for extra in ([], ["--timeout-per-file=600"]):
                result = self.run_rematch(os.path.join(full, "cache"), *extra)
                self.assert_same_as_roomy(result)
                self.assertIn("No space left on device", result[2])
        finally:
            subprocess.run(["umount", full])

    def test_a_read_only_directory(self):
        source = os.path.join(self._tmp.name, "ro-source")
        target = os.path.join(self._tmp.name, "ro")
        os.makedirs(source, exist_ok=True)
        if not mounted(target, "--bind", "-o", "ro", source):
            self.skipTest("cannot bind-mount here")
        try:
            self.assert_same_as_roomy(self.run_rematch(target))
        finally:
            subprocess.run(["umount", target])

    def test_a_truncated_entry_is_a_warning_and_rebuilt(self):
        cache = os.path.join(self._tmp.name, "damaged")
        self.run_rematch(cache)
        victim = sorted(n for n in os.listdir(cache)
                        if n.endswith(".summary.json"))[0]
        path = os.path.join(cache, victim)
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text[:len(text) // 2])  # a run killed while writing
        rc, findings, err = self.run_rematch(cache)
        self.assertEqual((rc, findings), self.roomy[:2])
        lines = [l for l in err.splitlines() if victim in l]
        self.assertEqual(len(lines), 1, err)
        self.assertIn(": warning: ", lines[0])
        self.assertIn("rebuilt", lines[0])
        self.assertNotIn(": error: ", err)
        with open(path) as f:
            self.assertEqual(json.load(f)["format"], "rematch-summary")


class KilledRuns(unittest.TestCase):
    """What a run killed while writing left (a temporary beside an entry,
    in the summaries or the preambles) is removed by the next run once it is
    older than any write; a younger one may be a concurrent run's."""

    def test_old_temporaries_are_removed(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "a.cpp"), "w") as f:
                f.write("int g; void f() { ++g; }\n")
            cache = os.path.join(d, "cache")
            preambles = cache + ".preambles"
            os.makedirs(cache)
            os.makedirs(preambles)
            hour = 3600
            left = {
                os.path.join(cache, "a.cpp.0123456789abcdef.summary.json"
                             ".tmp-0a1b2c3d4e5f"): 2 * hour,
                os.path.join(preambles, "k.pch.tmp-d66c403fb1cf"): 3 * hour,
                os.path.join(preambles, "k.pch-859986b8.tmp-d66c403fb1cf"
                             ".tmp"): 3 * hour,
                os.path.join(cache, "b.cpp.0123456789abcdef.summary.json"
                             ".tmp-aaaaaaaaaaaa"): 60,
            }
            now = time.time()
            for path, age in left.items():
                with open(path, "w") as f:
                    f.write("partial")
                os.utime(path, (now - age, now - age))
            p = subprocess.run([TOOLS.rematch, "--verbose",
                                "--summaries-dir=" + cache, "a.cpp", "--",
                                "-std=c++17"], cwd=d, capture_output=True,
                               text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("rematch: removed 3 temporary files that "
                          "interrupted runs left in " + cache, p.stderr)
            kept = [path for path in left if os.path.exists(path)]
            self.assertEqual(kept, [list(left)[-1]])
            self.assertTrue(any(n.endswith(".summary.json")
                                for n in os.listdir(cache)))


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
