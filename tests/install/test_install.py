#!/usr/bin/env python3
"""install.consumer: install a rematch build tree into a temporary prefix and
build a consumer project against it.

Usage:
  test_install.py --build <rematch build dir> --consumer <consumer source dir>
                  --cmake <cmake> --generator <generator>
                  --cxx <compiler> [--cxx <compiler> ...]
                  [--with-tool] [--lint-with <compiler>]
                  [--torch-with <compiler>]

--with-tool: the build has the checker, so bin/rematch and the plugin must be
installed too. --torch-with: the build has the libtorch adapter; build a
consumer of the package's torch component with this compiler and run one
checkpointed backward (without it, the component must be refused). --lint-with: for this compiler, also build the consumer's
rematch_add_lint target and expect the plugin's finding in the build log.
Standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ARGS = argparse.Namespace()


def run(argv, cwd=None):
    proc = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=600)
    return proc.returncode, proc.stdout.decode("utf-8", "replace")


class TestInstall(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="rematch-install-")
        cls.tmp = cls._tmp.name
        cls.prefix = os.path.join(cls.tmp, "prefix")
        rc, out = run([ARGS.cmake, "--install", ARGS.build, "--prefix", cls.prefix])
        if rc != 0:
            raise AssertionError("cmake --install failed:\n" + out)
        cls.install_log = out

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def libdir(self):
        for d in ("lib", "lib64"):
            if os.path.isdir(os.path.join(self.prefix, d, "cmake", "rematch")):
                return os.path.join(self.prefix, d)
        self.fail("no lib*/cmake/rematch under the prefix:\n" + self.install_log)

    def test_installed_files(self):
        lib = self.libdir()
        expected = [
            os.path.join(self.prefix, "include", "rematch", "rematch.h"),
            os.path.join(self.prefix, "include", "rematch", "segment.h"),
            os.path.join(lib, "librematch_runtime.a"),
            os.path.join(lib, "cmake", "rematch", "rematchConfig.cmake"),
            os.path.join(lib, "cmake", "rematch", "rematchConfigVersion.cmake"),
            os.path.join(lib, "cmake", "rematch", "rematchTargets.cmake"),
            os.path.join(lib, "cmake", "rematch", "RematchAudit.cmake"),
            os.path.join(lib, "cmake", "rematch", "RematchLint.cmake"),
        ]
        tool = [os.path.join(self.prefix, "bin", "rematch"),
                os.path.join(lib, "librematch-tidy.so")]
        torch = [os.path.join(self.prefix, "include", "rematch", "torch.h"),
                 os.path.join(lib, "librematch_torch.a"),
                 os.path.join(lib, "cmake", "rematch", "rematchTorchTargets.cmake")]
        for path in (expected + (tool if ARGS.with_tool else [])
                     + (torch if ARGS.torch_with else [])):
            self.assertTrue(os.path.isfile(path), path + "\n" + self.install_log)
        if not ARGS.with_tool:
            for path in tool:
                self.assertFalse(os.path.exists(path), path)
        if not ARGS.torch_with:
            for path in torch[1:]:
                self.assertFalse(os.path.exists(path), path)

    def test_installed_headers_are_the_api_and_detail(self):
        # The public headers are the API; what users must not touch is in
        # rematch/detail/ (docs/runtime.md, "API").
        root = os.path.join(self.prefix, "include", "rematch")
        public = sorted(n for n in os.listdir(root) if n.endswith(".h"))
        expected = ["audit.h", "compare.h", "config.h", "fingerprint.h",
                    "generator.h", "recomputing.h", "registry.h", "rematch.h",
                    "report.h", "segment.h", "torch.h", "tracked.h"]
        self.assertEqual(public, expected)
        self.assertEqual(sorted(os.listdir(os.path.join(root, "detail"))),
                         ["recomputed.h", "recorder.h", "registry.h",
                          "segment_core.h", "value.h"])
        self.assertEqual(sorted(n for n in os.listdir(root)
                                if not n.endswith(".h")), ["detail"])

    def test_installed_program_runs(self):
        if not ARGS.with_tool:
            self.skipTest("built without the checker")
        rc, out = run([os.path.join(self.prefix, "bin", "rematch"), "--list-checks"])
        self.assertEqual(rc, 0, out)
        self.assertIn("rematch-logging", out)

    def test_installed_models_are_found(self):
        # The shipped models are installed beside the program and are what it
        # loads: a draw from torch's default generator through a model entry
        # is found.
        if not ARGS.with_tool:
            self.skipTest("built without the checker")
        models = os.path.join(self.prefix, "share", "rematch", "models")
        for name in ("std.yaml", "posix.yaml", "libtorch.yaml", "mlx.yaml",
                     "eigen.yaml"):
            self.assertTrue(os.path.isfile(os.path.join(models, name)), name)
        src = os.path.join(self.tmp, "models_probe.cpp")
        with open(src, "w", encoding="utf-8") as f:
            f.write("namespace at { struct Tensor {};\n"
                    "Tensor dropout(const Tensor &input, double p, bool train); }\n"
                    "namespace nn { template <class F> void checkpoint(F f) { f(); } }\n"
                    "void step(at::Tensor x) {\n"
                    "  nn::checkpoint([&] { at::dropout(x, 0.5, true); });\n"
                    "}\n")
        rc, out = run([os.path.join(self.prefix, "bin", "rematch"),
                       "--checkpoint-functions=nn::checkpoint", src,
                       "--", "-std=c++17"])
        self.assertEqual(rc, 1, out)
        self.assertIn("draws from torch's default generator through "
                      "'at::dropout'", out)
        # And they are the ones beside the program, not the build tree's: a
        # copy of the prefix without libtorch's model finds nothing. (The
        # build tree's copy stays where it is: other tests read it.)
        other = os.path.join(self.tmp, "other-prefix")
        shutil.copytree(self.prefix, other, symlinks=True)
        os.remove(os.path.join(other, "share", "rematch", "models",
                               "libtorch.yaml"))
        rc, out = run([os.path.join(other, "bin", "rematch"),
                       "--checkpoint-functions=nn::checkpoint", src,
                       "--", "-std=c++17"])
        self.assertEqual(rc, 0, out)
        self.assertNotIn("torch's default generator", out)

    def test_installed_program_links_installed_docs(self):
        if not ARGS.with_tool:
            self.skipTest("built without the checker")
        src = os.path.join(self.tmp, "clean.cpp")
        with open(src, "w", encoding="utf-8") as f:
            f.write("int main() { return 0; }\n")
        rc, out = run([os.path.join(self.prefix, "bin", "rematch"), "--format=sarif",
                       src, "--", "-std=c++17"])
        self.assertEqual(rc, 0, out)
        rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
        self.assertEqual(len(rules), 8)
        docs = os.path.join(self.prefix, "share", "doc", "rematch")
        for rule in rules:
            page = os.path.join(docs, "checks", rule["id"][len("rematch-"):] + ".md")
            self.assertEqual(rule["helpUri"], "file://" + page)
            self.assertTrue(os.path.isfile(page), page)
        self.assertTrue(os.path.isfile(os.path.join(docs, "output.md")))

    def configure_consumer(self, cxx, lint=False, torch=False, source=None):
        name = os.path.basename(cxx) + ("-torch" if torch else "")
        if source:
            name += "-" + os.path.basename(source)
        build = os.path.join(self.tmp, "consumer-" + name)
        configure = [ARGS.cmake, "-S", source or ARGS.consumer, "-B", build,
                     "-G", ARGS.generator, "-DCMAKE_CXX_COMPILER=" + cxx,
                     "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_PREFIX_PATH=" + self.prefix,
                     "-DCONSUMER_LINT=" + ("ON" if lint else "OFF"),
                     "-DCONSUMER_TORCH=" + ("ON" if torch else "OFF")]
        rc, out = run(configure)
        return build, rc, out

    def consumer(self, cxx, lint):
        build, rc, out = self.configure_consumer(cxx, lint=lint)
        self.assertEqual(rc, 0, "configure with %s:\n%s" % (cxx, out))
        rc, out = run([ARGS.cmake, "--build", build])
        self.assertEqual(rc, 0, "build with %s:\n%s" % (cxx, out))
        if lint:
            self.assertRegex(out, r"lint\.cpp:8:\d+: warning: .*\[rematch-logging\]")
        rc, run_out = run([os.path.join(build, "app")])
        self.assertEqual(rc, 0, run_out)
        # rematch_audit: the Debug configuration records and compares.
        self.assertIn("consumer: audit=1", run_out)

    def test_torch_component(self):
        cxx = ARGS.torch_with or (ARGS.cxx[0] if ARGS.cxx else None)
        if not cxx:
            self.skipTest("no compiler")
        build, rc, out = self.configure_consumer(cxx, torch=True)
        if not ARGS.torch_with:
            # find_package(rematch REQUIRED COMPONENTS torch) must say why.
            self.assertNotEqual(rc, 0, out)
            self.assertIn("built without libtorch", out)
            return
        self.assertEqual(rc, 0, "configure with %s:\n%s" % (cxx, out))
        rc, out = run([ARGS.cmake, "--build", build, "--target", "torch_app", "-j1"])
        self.assertEqual(rc, 0, "build with %s:\n%s" % (cxx, out))
        rc, out = run([os.path.join(build, "torch_app")])
        self.assertEqual(rc, 0, out)
        self.assertIn("checkpointed backward agrees with the plain one", out)

    def test_unknown_component(self):
        if not ARGS.cxx:
            self.skipTest("no compiler")
        source = os.path.join(self.tmp, "bad-component")
        os.makedirs(source, exist_ok=True)
        with open(os.path.join(source, "CMakeLists.txt"), "w", encoding="utf-8") as f:
            f.write("cmake_minimum_required(VERSION 3.20)\n"
                    "project(bad LANGUAGES CXX)\n"
                    "find_package(rematch CONFIG REQUIRED COMPONENTS cuda)\n")
        _, rc, out = self.configure_consumer(ARGS.cxx[0], source=source)
        self.assertNotEqual(rc, 0, out)
        self.assertIn("unknown component 'cuda'", out)

    def test_consumers(self):
        self.assertTrue(ARGS.cxx, "no --cxx given")
        for cxx in ARGS.cxx:
            with self.subTest(cxx=cxx):
                self.consumer(cxx, lint=ARGS.lint_with is not None
                              and os.path.realpath(cxx) == os.path.realpath(ARGS.lint_with))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", required=True)
    p.add_argument("--consumer", required=True)
    p.add_argument("--cmake", default="cmake")
    p.add_argument("--generator", default="Ninja")
    p.add_argument("--cxx", action="append", default=[])
    p.add_argument("--with-tool", action="store_true")
    p.add_argument("--lint-with")
    p.add_argument("--torch-with")
    ns, rest = p.parse_known_args()
    vars(ARGS).update(vars(ns))
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
