#!/usr/bin/env python3
"""rematch_aspect and rematch_test (bazel/rematch.bzl) under real Bazel,
offline: Debian's bazel-bootstrap with @rules_cc and @rules_java overridden
by bazel/offline.

A workspace of three targets (//app:train checkpoints a lambda that calls
//mid:layers, which calls //core:bn) is built with the aspect under
linux-sandbox, so every action sees only its declared inputs:

- the SARIF of the three targets holds the findings of one `rematch` run;
- editing one file re-runs exactly its summarize and the link and report
  actions of the targets that depend on it (--explain);
- after `bazel clean`, with --disk_cache, no action executes;
- rematch_test fails on the finding and passes once the code is fixed;
- a second checkout at another path (another output base, as on another
  machine) over a remote cache (--remote_cache, Bazel's HTTP protocol,
  served here by a small in-process server) executes no action, and its
  SARIF is the first checkout's, byte for byte;
- a remote executor (--remote_executor, the Remote Execution API served
  here by remote_execution.py) runs all nine actions, each on a worker
  that holds only the action's inputs, and the SARIF is a local build's.

Usage: test_bazel.py --rematch <rematch> --models <dir> --root <repository>
       [--bazel bazel] [unittest arguments]
"""

import argparse
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest

import remote_execution

TOOLS = argparse.Namespace()

FILES = {
    "core/BUILD": 'cc_library(name = "bn", srcs = ["bn.cpp"], hdrs = ["bn.h"], '
                  'visibility = ["//visibility:public"])\n',
    "core/bn.h": "#pragma once\nstruct BatchNorm {\n  float running_mean = 0;\n"
                 "  long num_batches_tracked = 0;\n  void update(float x);\n};\n",
    "core/bn.cpp": '#include "core/bn.h"\nvoid BatchNorm::update(float x) {\n'
                   "  running_mean = 0.9f * running_mean + 0.1f * x;\n"
                   "  ++num_batches_tracked;\n}\n",
    "mid/BUILD": 'cc_library(name = "layers", srcs = ["layers.cpp"], '
                 'hdrs = ["layers.h"], deps = ["//core:bn"], '
                 'visibility = ["//visibility:public"])\n',
    "mid/layers.h": '#pragma once\n#include "core/bn.h"\n'
                    "float normalize(BatchNorm &bn, float x);\n",
    "mid/layers.cpp": '#include "mid/layers.h"\n'
                      "float normalize(BatchNorm &bn, float x) {\n"
                      "  bn.update(x);\n  return x - bn.running_mean;\n}\n",
    "app/BUILD": 'load("@rematch//:share/rematch/bazel/rematch.bzl", '
                 '"rematch_test")\n'
                 'cc_binary(name = "train", srcs = ["train.cpp"], '
                 'deps = ["//mid:layers"])\n'
                 'rematch_test(name = "train_rematch", target = ":train")\n',
    "app/train.cpp": '#include "mid/layers.h"\n'
                     'namespace rematch { struct Segment { template <class F> '
                     'decltype(auto) forward([[clang::annotate('
                     '"rematch::recomputed")]] F&& f) { return f(); } }; }\n'
                     "float step(rematch::Segment &seg, BatchNorm &bn, float x) {\n"
                     "  return seg.forward([&] { return normalize(bn, x); });\n"
                     "}\n"
                     "int main() { rematch::Segment s; BatchNorm bn; "
                     "return int(step(s, bn, 1.0f)); }\n",
}
ASPECT = "--aspects=@rematch//:share/rematch/bazel/rematch.bzl%rematch_aspect"
TARGETS = ["//app:train", "//mid:layers", "//core:bn"]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class HttpCache:
    """Bazel's HTTP remote cache protocol (PUT and GET of /ac/<hash> and
    /cas/<hash>) over a dictionary, on a free local port."""

    def __enter__(self):
        blobs = self.blobs = {}

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # Bazel keeps its connections

            def do_PUT(self):
                if self.headers.get("Transfer-Encoding") == "chunked":
                    body = b""
                    while True:
                        n = int(self.rfile.readline().split(b";")[0], 16)
                        body += self.rfile.read(n)
                        self.rfile.readline()  # the chunk's CRLF
                        if n == 0:
                            break
                else:
                    body = self.rfile.read(
                        int(self.headers.get("Content-Length", 0)))
                blobs[self.path] = body
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                if self.path not in blobs:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = blobs[self.path]
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_HEAD(self):
                self.send_response(200 if self.path in blobs else 404)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def results(sarif_text):
    doc = json.loads(sarif_text)
    out = set()
    for r in doc["runs"][0]["results"]:
        loc = r["locations"][0]["physicalLocation"]
        out.add((r["ruleId"], loc["artifactLocation"]["uri"],
                 loc["region"]["startLine"], r["message"]["text"]))
    return out


class Aspect(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="rematch-bazel-")
        d = cls._tmp.name
        prefix = os.path.join(d, "prefix")
        os.makedirs(os.path.join(prefix, "bin"))
        os.makedirs(os.path.join(prefix, "share", "rematch", "bazel"))
        os.symlink(TOOLS.rematch, os.path.join(prefix, "bin", "rematch"))
        os.symlink(TOOLS.models, os.path.join(prefix, "share", "rematch",
                                              "models"))
        os.symlink(os.path.join(TOOLS.root, "bazel", "rematch.bzl"),
                   os.path.join(prefix, "share", "rematch", "bazel",
                                "rematch.bzl"))
        cls.ws = os.path.join(d, "workspace")
        for name, text in FILES.items():
            write(os.path.join(cls.ws, name), text)
        write(os.path.join(cls.ws, "WORKSPACE"),
              'new_local_repository(name = "rematch", path = "%s", '
              'build_file = "%s")\n' % (
                  prefix, os.path.join(TOOLS.root, "bazel", "repository",
                                       "BUILD.bazel")))
        cls.user_root = os.path.join(d, "bazel-root")
        cls.disk_cache = os.path.join(d, "disk-cache")
        cls.explain = os.path.join(d, "explain.log")

    @classmethod
    def tearDownClass(cls):
        subprocess.run(cls.bazel_argv("clean", []), cwd=cls.ws,
                       capture_output=True)
        for ws in (cls.ws, cls.elsewhere()):
            if os.path.isdir(ws):
                subprocess.run([TOOLS.bazel, "--output_user_root=" +
                                cls.user_root, "shutdown"], cwd=ws,
                               capture_output=True)
        cls._tmp.cleanup()

    @classmethod
    def elsewhere(cls):
        return os.path.join(cls._tmp.name, "elsewhere", "checkout")

    @classmethod
    def bazel_argv(cls, command, args, disk_cache=None):
        offline = os.path.join(TOOLS.root, "bazel", "offline")
        # One server per workspace, kept between the commands (each
        # --batch command started a JVM and loaded the workspace again);
        # shut down at the end, and by itself when idle.
        return [TOOLS.bazel, "--output_user_root=" + cls.user_root,
                "--max_idle_secs=60", command,
                "--override_repository=rules_cc=" + offline + "/rules_cc",
                "--override_repository=rules_java=" + offline + "/rules_java",
                "--override_repository=remote_coverage_tools=" + offline +
                "/remote_coverage_tools",
                "--spawn_strategy=linux-sandbox", "--cxxopt=-std=c++17",
                "--disk_cache=" + (cls.disk_cache if disk_cache is None
                                   else disk_cache), *args]

    def bazel(self, command, *args, ok=True, ws=None, disk_cache=None):
        p = subprocess.run(self.bazel_argv(command, list(args), disk_cache),
                           cwd=ws or self.ws, capture_output=True, text=True,
                           timeout=900)
        if ok:
            self.assertEqual(p.returncode, 0, p.stderr[-6000:])
        return p

    def build_aspect(self, *extra, **where):
        return self.bazel("build", *TARGETS, ASPECT, "--output_groups=rematch",
                          *extra, **where)

    def sarif(self, target, ws=None):
        package, name = target[2:].split(":")
        with open(os.path.join(ws or self.ws, "bazel-bin", package,
                               name + ".rematch.sarif")) as f:
            return f.read()

    def executed(self):
        with open(self.explain) as f:
            return sorted(set(re.findall(r"Executing action '(rematch: [^']*)'",
                                         f.read())))

    def test_1_findings_equal_one_rematch_run(self):
        self.build_aspect()
        found = set()
        for t in TARGETS:
            found |= results(self.sarif(t))
        one = subprocess.run(
            [TOOLS.rematch, "--format=sarif", "--summaries-dir=" +
             os.path.join(self._tmp.name, "sums"), "app/train.cpp",
             "mid/layers.cpp", "core/bn.cpp", "--", "-std=c++17", "-iquote",
             "."], cwd=self.ws, capture_output=True, text=True)
        self.assertEqual(one.returncode, 1, one.stderr)
        self.assertEqual(found, results(one.stdout))
        self.assertEqual(len(found), 2)  # the counter and running_mean

    def test_2_an_edit_reruns_only_what_depends_on_it(self):
        self.build_aspect()
        write(os.path.join(self.ws, "mid/layers.cpp"),
              FILES["mid/layers.cpp"] + "// edited\n")
        self.build_aspect("--explain=" + self.explain, "--verbose_explanations")
        self.assertEqual(self.executed(), [
            "rematch: linking //app:train", "rematch: linking //mid:layers",
            "rematch: reporting //app:train", "rematch: reporting //mid:layers",
            "rematch: summarizing mid/layers.cpp"])

    def test_3_after_clean_the_disk_cache_serves_every_action(self):
        self.build_aspect()
        self.bazel("clean")
        p = self.build_aspect()
        line = [l for l in p.stderr.splitlines() if " processes: " in l][-1]
        # Bazel 4 counts disk cache hits as "remote cache hit".
        self.assertRegex(line, r"\b9 (remote|disk) cache hit")
        self.assertNotIn("linux-sandbox", line)
        self.assertEqual(len(results(self.sarif("//app:train"))), 2)

    def test_4_rematch_test_fails_on_a_finding_and_passes_when_fixed(self):
        p = self.bazel("test", "//app:train_rematch", "--test_output=errors",
                       ok=False)
        self.assertEqual(p.returncode, 3, p.stderr[-4000:])
        self.assertIn("rematch-counter-update", p.stdout + p.stderr)
        write(os.path.join(self.ws, "app/train.cpp"),
              FILES["app/train.cpp"].replace(
                  "[&] { return normalize(bn, x); }", "[&] { return x * 2; }"))
        try:
            self.bazel("test", "//app:train_rematch")
        finally:
            write(os.path.join(self.ws, "app/train.cpp"), FILES["app/train.cpp"])

    def test_5_another_checkout_elsewhere_hits_a_remote_cache(self):
        # Both without a disk cache: what the second finds, the first put
        # in the remote cache.
        other = self.elsewhere()
        shutil.copytree(self.ws, other, symlinks=True,
                        ignore=shutil.ignore_patterns("bazel-*"))
        with HttpCache() as url:
            self.bazel("clean")
            self.build_aspect("--remote_cache=" + url, disk_cache="")
            p = self.build_aspect("--remote_cache=" + url, ws=other,
                                  disk_cache="")
            try:
                line = [l for l in p.stderr.splitlines()
                        if " processes: " in l][-1]
                self.assertRegex(line, r"\b9 remote cache hit")
                self.assertNotIn("linux-sandbox", line)
                served = {t: self.sarif(t, other) for t in TARGETS}
                # And made there, with no cache: the same bytes (a cache hit
                # proves only that the actions' keys are the same).
                self.bazel("clean", ws=other, disk_cache="")
                p = self.build_aspect(ws=other, disk_cache="")
                line = [l for l in p.stderr.splitlines()
                        if " processes: " in l][-1]
                self.assertRegex(line, r"\b9 linux-sandbox")
                for t in TARGETS:
                    self.assertEqual(served[t], self.sarif(t), t)
                    self.assertEqual(self.sarif(t, other), self.sarif(t), t)
            finally:
                self.bazel("clean", ws=other, disk_cache="")

    def test_6_a_remote_executor_runs_every_action(self):
        # Remote execution (--remote_executor): each action runs on a
        # "worker" that holds only what the action declares, sent through
        # the Remote Execution API (remote_execution.py, in this process).
        why = remote_execution.missing()
        if why:
            self.skipTest(why)
        self.bazel("clean")
        self.build_aspect(disk_cache="")
        local = {t: self.sarif(t) for t in TARGETS}
        self.bazel("clean")
        with remote_execution.RemoteExecutor() as executor:
            p = self.build_aspect("--remote_executor=" + executor.address,
                                  "--spawn_strategy=remote", disk_cache="")
            line = [l for l in p.stderr.splitlines()
                    if " processes: " in l][-1]
            self.assertRegex(line, r"\b9 remote\b")
            self.assertEqual(executor.executed, 9)
            for t in TARGETS:
                self.assertEqual(self.sarif(t), local[t], t)
            self.assertEqual(len(results(self.sarif("//app:train"))), 2)


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--rematch", required=True)
    parser.add_argument("--models", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--bazel", default="bazel")
    args, rest = parser.parse_known_args()
    TOOLS.rematch = os.path.abspath(args.rematch)
    TOOLS.models = os.path.abspath(args.models)
    TOOLS.root = os.path.abspath(args.root)
    TOOLS.bazel = args.bazel
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
