#!/usr/bin/env python3
"""Aliases across translation units, with whole-program summaries: what a
function in another file returns an alias of (and what a chain of them
does), aliases passed to a function in another file, writes through an
alias inside another file, a virtual call made inside a helper that
another file checkpoints, and callables stored into a value in one file
and checkpointed or run in another.

Usage: test_aliases_across_files.py --rematch <rematch> [unittest arguments]
Standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

TOOLS = argparse.Namespace()

PRELUDE = """\
namespace rematch { struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
"""


class AcrossFiles(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, files):
        for name, text in files.items():
            with open(os.path.join(self.dir, name), "w") as f:
                f.write(text)

    def run_rematch(self, files, *extra):
        cmd = [TOOLS.rematch, "--format=json", "-j", "1",
               "--summaries-dir=" + os.path.join(self.dir, "sums"), *extra,
               *files, "--", "-std=c++17"]
        p = subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True,
                           timeout=300)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        return json.loads(p.stdout)["findings"]

    def summary(self, files):
        return sorted((f["check"], f["file"], f["line"], f["message"])
                      for f in self.run_rematch(files))

    # -- what another file returns ---------------------------------------

    RETURNS = {
        "stats.h": PRELUDE + """\
struct Stats { int steps = 0; float loss = 0; };
Stats &stats();
float *buffer();
float *slot(int i);
""",
        "stats.cpp": """\
#include "stats.h"
Stats s_stats;
float g_buf[8];
Stats &stats() { return s_stats; }
float *buffer() { return g_buf; }
""",
        "slot.cpp": """\
#include "stats.h"
float *slot(int i) { return buffer() + i; }
""",
        "main.cpp": """\
#include "stats.h"
float step(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    Stats &st = stats();
    st.steps++;
    *slot(2) = x;
    return stats().loss;
  });
}
""",
    }

    def test_returned_aliases_across_three_files(self):
        self.write(self.RETURNS)
        found = self.run_rematch(["stats.cpp", "slot.cpp", "main.cpp"])
        got = {(f["check"], f["line"]): f for f in found}
        bump = got[("rematch-counter-update", 5)]
        self.assertIn("increments 's_stats' through 'st'", bump["message"])
        self.assertIn(("main.cpp", 4), [(n["file"], n["line"])
                                        for n in bump["notes"]])
        write = got[("rematch-state-write", 6)]
        self.assertIn("writes 'g_buf' through 'slot(2)'", write["message"])
        # Only read through: the accessor's read stays a read; written
        # through: the read that took the alias is part of the write.
        reads = sorted(f["line"] for f in found
                       if f["check"] == "rematch-global-read")
        self.assertEqual(reads, [7])
        self.assertEqual(len(found), 3, found)

    def test_returned_aliases_do_not_depend_on_the_order_of_files(self):
        self.write(self.RETURNS)
        one = self.summary(["stats.cpp", "slot.cpp", "main.cpp"])
        self.tearDown()
        self.setUp()
        self.write(self.RETURNS)
        other = self.summary(["main.cpp", "slot.cpp", "stats.cpp"])
        self.assertEqual(one, other)

    def test_alone_the_returned_alias_is_unknown(self):
        self.write(self.RETURNS)
        p = subprocess.run([TOOLS.rematch, "--format=json", "main.cpp", "--",
                            "-std=c++17"], cwd=self.dir, capture_output=True,
                           text=True, timeout=300)
        found = json.loads(p.stdout)["findings"]
        self.assertEqual([f for f in found
                          if f["check"] == "rematch-counter-update"], [])

    # -- aliases passed to another file ------------------------------------

    PASSED = {
        "fill.h": PRELUDE + """\
void fill(float *out, int n);
float sum(const float *in, int n);
""",
        "fill.cpp": """\
#include "fill.h"
void fill(float *out, int n) {
  float *end = out + n;
  for (float *p = out; p != end; ++p)
    *p = 0;
}
float sum(const float *in, int n) { return in[0] + n; }
""",
        "main.cpp": """\
#include "fill.h"
float g_acc[16];
float step(rematch::Segment &seg) {
  return seg.forward([] {
    float *p = g_acc + 4;
    fill(p, 4);
    float *q = g_acc;
    return sum(q, 2);
  });
}
""",
    }

    def test_alias_passed_to_another_file(self):
        self.write(self.PASSED)
        found = self.run_rematch(["fill.cpp", "main.cpp"])
        got = {(f["check"], f["line"]): f for f in found}
        write = got[("rematch-state-write", 6)]
        self.assertIn("calls 'fill', which writes 'out' through 'p'",
                      write["message"])
        notes = [(n["file"], n["line"], n["message"]) for n in write["notes"]]
        # The write in fill.cpp, and where fill's own alias was taken.
        self.assertIn(("fill.cpp", 5), [n[:2] for n in notes])
        self.assertTrue(any(n[:2] == ("fill.cpp", 4) and
                            "'p' is an alias of 'out' taken here" in n[2]
                            for n in notes), notes)
        # The read that took p is part of the write; q is only read through.
        reads = sorted(f["line"] for f in found
                       if f["check"] == "rematch-global-read")
        self.assertEqual(reads, [7])

    # -- a virtual call inside a helper another file checkpoints ----------

    VIRTUAL = {
        "layer.h": PRELUDE + """\
struct Layer { virtual ~Layer() = default; virtual float forward(float x) = 0; };
float run_layer(Layer &l, float x);
""",
        "helper.cpp": """\
#include "layer.h"
float run_layer(Layer &l, float x) { return l.forward(x) * 2; }
""",
        "noisy.cpp": """\
#include "layer.h"
int g_calls = 0;
struct Noisy : Layer {
  float forward(float x) override { ++g_calls; return x; }
};
Layer *make_noisy() { return new Noisy; }
""",
        "main.cpp": """\
#include "layer.h"
float step(rematch::Segment &seg, Layer &l, float x) {
  return seg.forward([&l, x] { return run_layer(l, x); });
}
""",
    }

    def test_virtual_call_in_a_helper_across_three_files(self):
        self.write(self.VIRTUAL)
        for order in (["helper.cpp", "noisy.cpp", "main.cpp"],
                      ["main.cpp", "noisy.cpp", "helper.cpp"]):
            found = self.run_rematch(order)
            counters = [f for f in found
                        if f["check"] == "rematch-counter-update"]
            self.assertEqual(len(counters), 1, (order, found))
            c = counters[0]
            self.assertEqual((c["file"], c["line"]), ("main.cpp", 3))
            self.assertIn("calls 'run_layer', which may, through a virtual "
                          "call, reach code that increments 'g_calls'",
                          c["message"])
            notes = [(n["file"], n["line"]) for n in c["notes"]]
            self.assertIn(("helper.cpp", 2), notes)
            self.assertIn(("noisy.cpp", 4), notes)

    # -- callables stored in values in one file, checkpointed in another ---

    HELD = {
        "trainer.h": PRELUDE + """\
#include <functional>
struct Trainer {
  std::function<float()> loss_;
  std::function<float()> step_;
  Trainer();
  const std::function<float()> &loss();
};
""",
        "trainer.cpp": """\
#include "trainer.h"
int g_calls = 0;
float g_bias = 0;
Trainer::Trainer() : step_([] { g_bias = 1; return 0.f; }) {}
const std::function<float()> &Trainer::loss() {
  if (!loss_)
    loss_ = [] { ++g_calls; return 1.f; };
  return loss_;
}
""",
        "main.cpp": """\
#include "trainer.h"
float step(rematch::Segment &seg, Trainer &t) {
  float a = seg.forward(t.loss());
  return a + seg.forward(t.step_);
}
""",
    }

    def test_values_stored_in_another_file(self):
        self.write(self.HELD)
        for order in (["trainer.cpp", "main.cpp"],
                      ["main.cpp", "trainer.cpp"]):
            found = self.run_rematch(order)
            got = {(f["check"], f["file"], f["line"]): f for f in found}
            bump = got[("rematch-counter-update", "trainer.cpp", 7)]
            self.assertIn("checkpointed lambda held by 'loss_' increments "
                          "'g_calls'", bump["message"])
            notes = [(n["file"], n["line"]) for n in bump["notes"]]
            self.assertIn(("main.cpp", 3), notes)
            write = got[("rematch-state-write", "trainer.cpp", 4)]
            self.assertIn("held by 'step_' writes 'g_bias'",
                          write["message"])
            self.assertIn(("main.cpp", 4),
                          [(n["file"], n["line"]) for n in write["notes"]])
            # The getter itself, which fills loss_ once, is not what runs
            # again.
            self.assertEqual(len([f for f in found
                                  if f["check"] != "rematch-global-read"]),
                             2, (order, found))

    def test_alone_no_stored_value_is_guessed(self):
        self.write(self.HELD)
        p = subprocess.run([TOOLS.rematch, "--format=json", "main.cpp", "--",
                            "-std=c++17"], cwd=self.dir, capture_output=True,
                           text=True, timeout=300)
        self.assertEqual(json.loads(p.stdout)["findings"], [])

    # -- calls that run what another file stored into a value -------------

    HELD_CALLS = {
        "model.h": PRELUDE + """\
#include <functional>
struct Model {
  std::function<float(float)> act_;
  std::function<float(float)> pure_;
  Model();
  float run(float x);
};
""",
        "model.cpp": """\
#include "model.h"
int g_steps = 0;
Model::Model() : act_([](float x) { ++g_steps; return x; }),
                 pure_([](float x) { return 2 * x; }) {}
""",
        "helper.cpp": """\
#include "model.h"
float Model::run(float x) { return act_(x); }
""",
        "main.cpp": """\
#include "model.h"
float step(rematch::Segment &seg, Model &m, float x) {
  return seg.forward([&] { return m.run(x); });
}
float direct(rematch::Segment &seg, Model &m, float x) {
  return seg.forward([&] { return m.act_(x); });
}
float calm(rematch::Segment &seg, Model &m, float x) {
  return seg.forward([&] { return m.pure_(x); });
}
""",
    }
    HELD_FILES = ["model.cpp", "helper.cpp", "main.cpp"]

    def test_calls_run_what_another_file_stored(self):
        self.write(self.HELD_CALLS)
        for order in (self.HELD_FILES, list(reversed(self.HELD_FILES))):
            found = self.run_rematch(order)
            got = {(f["check"], f["file"], f["line"]): f for f in found}
            self.assertEqual(sorted(got), [
                ("rematch-counter-update", "main.cpp", 3),
                ("rematch-counter-update", "main.cpp", 6)], (order, found))
            # Two files: the value is run in main.cpp, filled in model.cpp.
            direct = got[("rematch-counter-update", "main.cpp", 6)]
            self.assertIn("calls 'act_', which may run a lambda it holds "
                          "that increments 'g_steps'", direct["message"])
            self.assertIn(("model.cpp", 3, "'act_' holds a lambda, stored "
                           "here"), [(n["file"], n["line"], n["message"])
                                     for n in direct["notes"]])
            # Three files: a helper runs it, main.cpp checkpoints the helper.
            helper = got[("rematch-counter-update", "main.cpp", 3)]
            self.assertIn("calls 'Model::run', which increments 'g_steps'",
                          helper["message"])
            notes = [(n["file"], n["line"]) for n in helper["notes"]]
            self.assertIn(("helper.cpp", 2), notes)
            self.assertIn(("model.cpp", 3), notes)

    def test_alone_a_held_call_guesses_nothing(self):
        self.write(self.HELD_CALLS)
        p = subprocess.run([TOOLS.rematch, "--format=json", "main.cpp", "--",
                            "-std=c++17"], cwd=self.dir, capture_output=True,
                           text=True, timeout=300)
        self.assertEqual(json.loads(p.stdout)["findings"], [])

    def test_editing_the_stored_callable_reaches_its_callers(self):
        self.write(self.HELD_CALLS)
        self.assertEqual(len(self.run_rematch(self.HELD_FILES)), 2)
        path = os.path.join(self.dir, "model.cpp")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace("++g_steps; ", ""))
        self.assertEqual(self.run_rematch(self.HELD_FILES), [])
        with open(path, "w") as f:
            f.write(text.replace("++g_steps; ", "std::puts(\"s\"); ")
                    .replace('#include "model.h"',
                             '#include "model.h"\n#include <cstdio>'))
        found = self.run_rematch(self.HELD_FILES)
        self.assertEqual(sorted((f["check"], f["line"]) for f in found),
                         [("rematch-logging", 3), ("rematch-logging", 6)])

    # A list of callables filled in one file and run in a loop in another,
    # beside a list whose layers are all pure.
    LAYERS = {
        "layers.h": PRELUDE + """\
#include <functional>
#include <vector>
extern std::vector<std::function<float(float)>> g_layers;
extern std::vector<std::function<float(float)>> g_pure;
void build();
""",
        "layers.cpp": """\
#include "layers.h"
int g_calls = 0;
std::vector<std::function<float(float)>> g_layers;
std::vector<std::function<float(float)>> g_pure;
void build() {
  g_layers.push_back([](float x) { return 2 * x; });
  g_layers.emplace_back([](float x) { ++g_calls; return x; });
  g_pure.push_back([](float x) { return x + 1; });
}
""",
        "main.cpp": """\
#include "layers.h"
float forward(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    float y = x;
    for (auto &layer : g_layers) y = layer(y);
    return y;
  });
}
float calm(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    float y = x;
    for (auto &layer : g_pure) y = layer(y);
    return y;
  });
}
""",
    }

    def test_a_list_of_callables_filled_in_another_file(self):
        self.write(self.LAYERS)
        for order in (["layers.cpp", "main.cpp"], ["main.cpp", "layers.cpp"]):
            found = [f for f in self.run_rematch(order)
                     if f["check"] != "rematch-global-read"]
            self.assertEqual([(f["check"], f["file"], f["line"])
                              for f in found],
                             [("rematch-counter-update", "main.cpp", 5)],
                             (order, found))
            self.assertIn("calls 'g_layers', which may run a lambda it holds "
                          "that increments 'g_calls'", found[0]["message"])
            self.assertIn(("layers.cpp", 7), [(n["file"], n["line"])
                                              for n in found[0]["notes"]])

    TORCH = "/usr/include/torch/csrc/api/include"

    @unittest.skipUnless(os.path.exists(TORCH + "/torch/torch.h"),
                         "libtorch headers")
    def test_sequential_filled_in_another_file(self):
        self.write({
            "net.h": """\
#include <torch/torch.h>
namespace nn {
template <class Fn> torch::Tensor checkpoint(Fn f, const torch::Tensor &x) { return f(x); }
}
extern int g_steps;
struct CountImpl : torch::nn::Module { torch::Tensor forward(torch::Tensor x); };
TORCH_MODULE(Count);
struct BlockImpl : torch::nn::Module {
  torch::nn::Sequential seq_{nullptr}, quiet_{nullptr};
  BlockImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::Tensor calm(torch::Tensor x);
};
""",
            "block.cpp": """\
#include "net.h"
int g_steps = 0;
torch::Tensor CountImpl::forward(torch::Tensor x) { ++g_steps; return x; }
BlockImpl::BlockImpl() {
  seq_ = register_module("seq", torch::nn::Sequential(torch::nn::Linear(4, 4), Count()));
  quiet_ = register_module("quiet", torch::nn::Sequential(torch::nn::Linear(4, 4), torch::nn::ReLU()));
}
""",
            "run.cpp": """\
#include "net.h"
torch::Tensor BlockImpl::forward(torch::Tensor x) {
  return nn::checkpoint([this](const torch::Tensor &in) { return seq_->forward(in); }, x);
}
torch::Tensor BlockImpl::calm(torch::Tensor x) {
  return nn::checkpoint([this](const torch::Tensor &in) { return quiet_->forward(in); }, x);
}
""",
            ".rematch.yaml": "CheckpointFunctions: [nn::checkpoint]\n",
        })
        cmd = [TOOLS.rematch, "--format=json", "-j", "1",
               "--summaries-dir=" + os.path.join(self.dir, "sums"),
               "block.cpp", "run.cpp", "--", "-std=c++17", "-I" + self.TORCH]
        p = subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True,
                           timeout=600)
        self.assertEqual(p.returncode, 1, p.stderr)
        found = json.loads(p.stdout)["findings"]
        self.assertEqual([(f["check"], f["file"], f["line"]) for f in found],
                         [("rematch-counter-update", "run.cpp", 3)])
        self.assertIn("calls 'seq_', which may run 'CountImpl::forward' it "
                      "holds that increments 'g_steps'", found[0]["message"])
        notes = {(n["file"], n["line"]): n["message"]
                 for n in found[0]["notes"]}
        self.assertEqual(notes[("block.cpp", 5)],
                         "'seq_' holds 'CountImpl::forward', stored here")


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--rematch", required=True)
    args, rest = parser.parse_known_args()
    TOOLS.rematch = os.path.abspath(args.rematch)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
