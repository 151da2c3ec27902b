#!/usr/bin/env python3
"""install.subproject and install.top-level-compilers: the ways a project or
a CI job points CMake at rematch's source tree.

Usage:
  test_cmake.py --source <rematch source dir> --cmake <cmake>
                --generator <generator> [--gxx <g++>] [--cc <clang-19>]
                [--cxx <clang++-19>] [--no-torch] [unittest arguments]

TestSubproject: a parent project with CMake's default languages includes
rematch with add_subdirectory and builds with g++: only the runtime (and
rematch::torch when libtorch is found) is built, the parent's build type is
kept, and programs linking rematch::runtime and rematch::torch run.
TestTopLevelCompilers: rematch configured on its own with the compilers named
by CC/CXX and by -DCMAKE_C_COMPILER/-DCMAKE_CXX_COMPILER (configure only).
--no-torch: the enclosing build has no libtorch, so neither does the parent.
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

ARGS = argparse.Namespace()


def run(argv, cwd=None, env=None):
    proc = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=1200)
    return proc.returncode, proc.stdout.decode("utf-8", "replace")


def cache_value(build, name):
    with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"%s:[A-Z]+=(.*)$" % re.escape(name), line.rstrip("\n"))
            if m:
                return m.group(1)
    return None


class TempTest(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="rematch-cmake-")
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()


class TestSubproject(TempTest):
    def test_gxx_parent_builds_runtime_only(self):
        if not ARGS.gxx:
            self.skipTest("no g++")
        build = os.path.join(self.tmp, "parent")
        configure = [ARGS.cmake, "-S", os.path.join(os.path.dirname(__file__), "subproject"),
                     "-B", build, "-G", ARGS.generator,
                     "-DCMAKE_CXX_COMPILER=" + ARGS.gxx,
                     "-DREMATCH_SOURCE_DIR=" + ARGS.source]
        if ARGS.no_torch:
            configure.append("-DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON")
        rc, out = run(configure)
        self.assertEqual(rc, 0, "configure:\n" + out)
        self.assertNotIn("clang++-19", out)

        with open(os.path.join(build, "subproject-facts.txt"), encoding="utf-8") as f:
            facts = dict(line.split("=", 1) for line in f.read().splitlines() if "=" in line)
        for option in ("tool", "tests", "bench", "examples"):
            self.assertEqual(facts[option], "OFF", option)
        # rematch does not force RelWithDebInfo on its parent.
        self.assertEqual(facts["build_type"], "")
        targets = facts["targets"].split(";") if facts["targets"] else []
        expected = [] if ARGS.no_torch else ["rematch::torch"]
        self.assertEqual(targets, expected)
        # The parent's compile database setting is its own.
        self.assertFalse(os.path.exists(os.path.join(build, "compile_commands.json")))

        rc, out = run([ARGS.cmake, "--build", build, "-j1"])
        self.assertEqual(rc, 0, "build:\n" + out)
        rc, out = run([os.path.join(build, "app")])
        self.assertEqual(rc, 0, out)
        self.assertIn("consumer: audit=0", out)
        if not ARGS.no_torch:
            # The callable kinds compile with the parent's g++ and run.
            rc, out = run([os.path.join(build, "callable_test"), "--gtest_brief=1"])
            self.assertEqual(rc, 0, out)
            self.assertRegex(out, r"PASSED.* [1-9][0-9]* tests")


class TestTopLevelCompilers(TempTest):
    def configure(self, extra, env_update):
        build = os.path.join(self.tmp, "top")
        env = dict(os.environ)
        for key in ("CC", "CXX"):
            env.pop(key, None)
        env.update(env_update)
        rc, out = run([ARGS.cmake, "-S", ARGS.source, "-B", build,
                       "-G", ARGS.generator] + extra, env=env)
        self.assertEqual(rc, 0, "configure %s %s:\n%s" % (env_update, extra, out))
        self.assertNotIn("needs to be enabled before use", out)
        self.assertEqual(cache_value(build, "REMATCH_BUILD_TOOL"), "ON")
        self.assertEqual(os.path.realpath(cache_value(build, "CMAKE_CXX_COMPILER")),
                         os.path.realpath(ARGS.cxx))
        return build

    def setUp(self):
        super().setUp()
        if not ARGS.cc or not ARGS.cxx:
            self.skipTest("needs clang-19 and clang++-19")

    def test_cc_cxx_environment(self):
        build = self.configure([], {"CC": ARGS.cc, "CXX": ARGS.cxx})
        # The tests, examples and benchmarks default to ON at the top level.
        self.assertEqual(cache_value(build, "REMATCH_BUILD_TESTS"), "ON")
        self.assertEqual(cache_value(build, "CMAKE_BUILD_TYPE"), "RelWithDebInfo")

    def test_c_compiler_on_the_command_line(self):
        build = self.configure(["-DCMAKE_C_COMPILER=" + ARGS.cc,
                                "-DCMAKE_CXX_COMPILER=" + ARGS.cxx], {})
        self.assertEqual(os.path.realpath(cache_value(build, "CMAKE_C_COMPILER")),
                         os.path.realpath(ARGS.cc))


class TestDocsUrl(TempTest):
    """REMATCH_DOCS_URL reaches the program's helpUri code; bad values are
    configuration errors."""

    def configure(self, *extra):
        build = os.path.join(self.tmp, "top")
        return build, run([ARGS.cmake, "-S", ARGS.source, "-B", build,
                           "-G", ARGS.generator, "-DCMAKE_CXX_COMPILER=" + ARGS.cxx,
                           "-DREMATCH_BUILD_TESTS=OFF", "-DREMATCH_BUILD_BENCH=OFF",
                           "-DREMATCH_BUILD_EXAMPLES=OFF"] + list(extra))

    def setUp(self):
        super().setUp()
        if not ARGS.cxx:
            self.skipTest("needs clang++-19")

    def test_url_and_extension_reach_the_program(self):
        build, (rc, out) = self.configure(
            "-DREMATCH_DOCS_URL=https://docs.example.org/rematch/0.1/",
            "-DREMATCH_DOCS_URL_EXTENSION=.html")
        self.assertEqual(rc, 0, out)
        with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
            commands = [c["command"] for c in json.load(f)
                        if c["file"].endswith("tool/DocLinks.cpp")]
        self.assertEqual(len(commands), 1)
        self.assertIn('-DREMATCH_DOCS_URL=\\"https://docs.example.org/rematch/0.1/\\"',
                      commands[0])
        self.assertIn('-DREMATCH_DOCS_URL_EXTENSION=\\".html\\"', commands[0])
        self.assertIn('-DREMATCH_INSTALLED_DOCS_FROM_BIN=\\"../share/doc/rematch\\"',
                      commands[0])

    def test_bad_values_are_configuration_errors(self):
        for option, value, message in (
                ("REMATCH_DOCS_URL", "docs.example.org", "must be an absolute URL"),
                ("REMATCH_DOCS_URL", 'https://x/"y', "must be an absolute URL"),
                ("REMATCH_DOCS_URL_EXTENSION", ".txt", "must be .md or .html")):
            with self.subTest(option=option, value=value):
                shutil.rmtree(os.path.join(self.tmp, "top"), ignore_errors=True)
                _, (rc, out) = self.configure("-D%s=%s" % (option, value))
                self.assertNotEqual(rc, 0, out)
                self.assertIn(message, out)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source", required=True)
    p.add_argument("--cmake", default="cmake")
    p.add_argument("--generator", default="Ninja")
    p.add_argument("--gxx")
    p.add_argument("--cc")
    p.add_argument("--cxx")
    p.add_argument("--no-torch", action="store_true")
    ns, rest = p.parse_known_args()
    vars(ARGS).update(vars(ns))
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
