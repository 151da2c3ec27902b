#!/usr/bin/env python3
"""Whole-program analysis with --summaries-dir: chains across translation
units, the program-wide "never written" rule of rematch-global-read, reuse of
unchanged summaries, and stale, corrupt or foreign summary files.

Usage: test_summaries.py --rematch <rematch> [unittest arguments]
Standard library only.
"""

import argparse
import shutil
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

TOOLS = argparse.Namespace()

COMMON_H = """\
namespace rematch { bool recomputing(); struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
struct BatchNorm { float running_mean_ = 0; long num_batches_tracked_ = 0; void update(float x); };
void update_all(BatchNorm &bn, float x);
extern float g_lr;
float read_lr();
void log_step(int);
"""

# a.cpp: the checkpointed lambda; everything it calls lives elsewhere.
A_CPP = """\
#include "common.h"
float step(rematch::Segment &seg, BatchNorm &bn, float x) {
  return seg.forward([&] {
    update_all(bn, x);
    log_step(1);
    return x * read_lr();
  });
}
"""
A_CALL_LINE, A_LOG_LINE, A_READ_LINE = 4, 5, 6

# b.cpp: the middle of the chain.
B_CPP = """\
#include "common.h"
void update_all(BatchNorm &bn, float x) {
  bn.update(x);
}
"""

# c.cpp: the end of the chain, and the global.
C_CPP = """\
#include "common.h"
#include <cstdio>
float g_lr = 0.1f;
void BatchNorm::update(float x) {
  running_mean_ = x;
  ++num_batches_tracked_;
}
float read_lr() { return g_lr; }
void log_step(int s) { std::printf("%d\\n", s); }
"""


class SummariesTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name
        self.write("common.h", COMMON_H)
        self.write("a.cpp", A_CPP)
        self.write("b.cpp", B_CPP)
        self.write("c.cpp", C_CPP)
        self.sums = os.path.join(self.dir, "sums")

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def run_rematch(self, files, *extra):
        cmd = [TOOLS.rematch, "--format=json", "-j", "1",
               "--summaries-dir=" + self.sums, *extra, *files,
               "--", "-std=c++17"]
        p = subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True,
                           timeout=300)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        return json.loads(p.stdout), p.stderr, p.returncode

    def run_alone(self, name):
        """One file without --summaries-dir: (exit code, JSON document)."""
        p = subprocess.run([TOOLS.rematch, "--format=json", name, "--",
                            "-std=c++17"], cwd=self.dir, capture_output=True,
                           text=True, timeout=300)
        return p.returncode, (json.loads(p.stdout) if p.stdout else None)

    def findings(self, doc):
        return sorted((f["check"], f["file"], f["line"]) for f in doc["findings"])

    def summary_files(self):
        # The per-TU summaries; the shared system-header lists are beside them.
        return sorted(n for n in os.listdir(self.sums)
                      if n.endswith(".summary.json"))

    def test_chain_across_three_files(self):
        doc, _, rc = self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        self.assertEqual(rc, 1)
        by_check = {f["check"]: f for f in doc["findings"]}
        counter = by_check["rematch-counter-update"]
        self.assertEqual((counter["file"], counter["line"]), ("a.cpp", A_CALL_LINE))
        self.assertIn("calls 'update_all', which increments 'num_batches_tracked_'",
                      counter["message"])
        # The notes walk the chain into b.cpp and c.cpp, then the checkpoint.
        notes = [(n["file"], n["line"], n["message"]) for n in counter["notes"]]
        self.assertEqual(notes[0][:2], ("b.cpp", 3))
        self.assertIn("'update_all' calls 'BatchNorm::update' here", notes[0][2])
        self.assertEqual(notes[1][:2], ("c.cpp", 6))
        self.assertIn("'BatchNorm::update' increments 'num_batches_tracked_' here",
                      notes[1][2])
        self.assertIn("checkpointed by this call", notes[-1][2])
        self.assertIn(("rematch-state-write", "a.cpp", A_CALL_LINE),
                      self.findings(doc))
        self.assertIn(("rematch-logging", "a.cpp", A_LOG_LINE), self.findings(doc))
        self.assertEqual(len(self.summary_files()), 3)

    def test_without_summaries_the_other_files_are_unknown(self):
        rc, doc = self.run_alone("a.cpp")
        self.assertEqual(rc, 0, doc)

    def test_global_never_written_in_the_program_is_not_reported(self):
        doc, _, _ = self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        self.assertNotIn(("rematch-global-read", "a.cpp", A_READ_LINE),
                         self.findings(doc))

    def test_global_written_only_in_another_file_is_reported(self):
        self.write("d.cpp", '#include "common.h"\nvoid set_lr(float v) { g_lr = v; }\n')
        doc, _, _ = self.run_rematch(["a.cpp", "b.cpp", "c.cpp", "d.cpp"])
        read = [f for f in doc["findings"] if f["check"] == "rematch-global-read"]
        self.assertEqual([(f["file"], f["line"]) for f in read], [("a.cpp", A_READ_LINE)])
        self.assertIn("calls 'read_lr', which reads mutable global 'g_lr'",
                      read[0]["message"])

    # rematch-global-read alone is sound for the file: a global with external
    # linkage may be written elsewhere; the program's summaries decide.
    TEMP_CPP = """\
#include "common.h"
float g_temp = 1.0f;
static float g_internal = 2.0f;
float sample(rematch::Segment &seg, float x) {
  return seg.forward([&] { return x * g_temp * g_internal; });
}
"""
    TEMP_LINE = 5

    def test_external_global_alone_may_be_written_elsewhere(self):
        self.write("e.cpp", self.TEMP_CPP)
        rc, doc = self.run_alone("e.cpp")
        self.assertEqual(rc, 1, doc)
        read = [f for f in doc["findings"] if f["check"] == "rematch-global-read"]
        # g_temp only: g_internal cannot be named in another file.
        self.assertEqual([(f["file"], f["line"]) for f in read],
                         [("e.cpp", self.TEMP_LINE)])
        self.assertIn("reads mutable global 'g_temp'", read[0]["message"])
        self.assertIn("'g_temp' may be written in another translation unit; "
                      "whole-program analysis (--summaries-dir) can prove it "
                      "constant", read[0]["message"])

    def test_external_global_proven_constant_by_two_files(self):
        self.write("e.cpp", self.TEMP_CPP)
        self.write("f.cpp", '#include "common.h"\nfloat scale(float v) { return 2 * v; }\n')
        doc, _, rc = self.run_rematch(["e.cpp", "f.cpp"])
        self.assertEqual(rc, 0, doc)
        self.assertEqual(doc["findings"], [])

    def test_external_global_written_by_the_second_file(self):
        self.write("e.cpp", self.TEMP_CPP)
        self.write("f.cpp", '#include "common.h"\nextern float g_temp;\n'
                            'void set_temp(float v) { g_temp = v; }\n')
        doc, _, rc = self.run_rematch(["e.cpp", "f.cpp"])
        self.assertEqual(rc, 1)
        read = [f for f in doc["findings"] if f["check"] == "rematch-global-read"]
        self.assertEqual([(f["file"], f["line"]) for f in read],
                         [("e.cpp", self.TEMP_LINE)])
        # Written, so the reason is not that it might be.
        self.assertNotIn("another translation unit", read[0]["message"])

    def test_external_global_across_three_files(self):
        # Read in c.cpp through a.cpp's checkpoint; d.cpp writes it.
        doc, _, _ = self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        self.assertNotIn(("rematch-global-read", "a.cpp", A_READ_LINE),
                         self.findings(doc))
        self.write("e.cpp", self.TEMP_CPP)
        self.write("f.cpp", '#include "common.h"\nextern float g_temp;\n'
                            'float *temp_ptr() { return &g_temp; }\n')
        doc, _, _ = self.run_rematch(["e.cpp", "f.cpp", "c.cpp"])
        # The address escapes in f.cpp: anything may write it.
        self.assertIn(("rematch-global-read", "e.cpp", self.TEMP_LINE),
                      self.findings(doc))

    # A callable defined in one file and checkpointed by name in another.
    CALLER_CPP = """\
#include "common.h"
int block(int);
struct Step { int operator()(int) const; };
int run(rematch::Segment &seg, int x) {
  int a = seg.forward([&] { return x; });
  return a + rematch_entry(block, x) + rematch_entry(Step{}, x);
}
"""
    CALLER_LINE = 6
    ENTRY_H = ("template <class F> int rematch_entry("
               "[[clang::annotate(\"rematch::recomputed\")]] F &&f, int x)"
               " { return f(x); }\n")
    BLOCK_CPP = """\
#include "common.h"
#include <cstdio>
int helper(int);
extern int g_blocks;
int block(int x) {
  ++g_blocks;
  return helper(x);
}
struct Step { int operator()(int) const; };
int Step::operator()(int x) const {
  std::printf("%d", x);
  return x;
}
int g_blocks = 0;
"""
    HELPER_CPP = """\
#include "common.h"
int g_helped = 0;
int helper(int x) { g_helped = x; return x; }
"""

    def write_callables(self):
        self.write("common.h", COMMON_H + self.ENTRY_H)
        self.write("caller.cpp", self.CALLER_CPP)
        self.write("block.cpp", self.BLOCK_CPP)
        self.write("helper.cpp", self.HELPER_CPP)

    def test_callable_defined_in_another_file_two_files(self):
        self.write_callables()
        doc, _, rc = self.run_rematch(["caller.cpp", "block.cpp"])
        self.assertEqual(rc, 1, doc)
        counter = [f for f in doc["findings"]
                   if f["check"] == "rematch-counter-update"]
        # Reported in block.cpp, at the effect, as a run on block.cpp would
        # if the checkpoint call were there; the note names the call.
        self.assertEqual([(f["file"], f["line"]) for f in counter],
                         [("block.cpp", 6)])
        self.assertEqual(counter[0]["message"],
                         "checkpointed function 'block' increments 'g_blocks'; "
                         "the recomputation in backward increments it again")
        notes = [(n["file"], n["line"], n["message"]) for n in counter[0]["notes"]]
        self.assertEqual(notes[-1][:2], ("caller.cpp", self.CALLER_LINE))
        self.assertIn("checkpointed by this call to 'rematch_entry'", notes[-1][2])
        # The functor's operator() is the checkpointed body too.
        self.assertIn(("rematch-logging", "block.cpp", 11), self.findings(doc))
        # Alone, block.cpp knows nothing of the call.
        rc, doc = self.run_alone("block.cpp")
        self.assertEqual(rc, 0, doc)

    def test_module_defined_in_another_file(self):
        # A callable object (a project model's CallableObjects): the object
        # passed to the entry point runs its run(), defined in another file.
        self.write("layers.yaml", "CallableObjects:\n"
                   "  - {Class: Layer, Method: run, Holders: [Holder]}\n")
        self.write(".rematch.yaml", "Models: [layers.yaml]\n")
        self.write("common.h", COMMON_H + """\
template <class M>
int run_layer([[clang::annotate("rematch::recomputed")]] M &m, int x);
struct Layer {};
template <class T> struct Holder { T *p; };
struct Counting : Layer { int run(int); };
""")
        self.write("caller.cpp", """\
#include "common.h"
int run(Counting &layer, Holder<Counting> held, int x) {
  return run_layer(layer, x) + run_layer(held, x);
}
""")
        self.write("layer.cpp", """\
#include "common.h"
int g_runs = 0;
int Counting::run(int x) {
  ++g_runs;
  return x;
}
""")
        doc, _, rc = self.run_rematch(["caller.cpp", "layer.cpp"])
        self.assertEqual(rc, 1, doc)
        counter = [f for f in doc["findings"]
                   if f["check"] == "rematch-counter-update"]
        self.assertEqual([(f["file"], f["line"]) for f in counter],
                         [("layer.cpp", 4)])
        self.assertIn("checkpointed module 'Counting' increments 'g_runs'",
                      counter[0]["message"])
        self.assertEqual(counter[0]["notes"][-1]["file"], "caller.cpp")
        # The summary says what the callable is.
        with open(os.path.join(self.sums, self.summary_files()[0])) as f:
            summaries = f.read()
        with open(os.path.join(self.sums, self.summary_files()[1])) as f:
            summaries += f.read()
        self.assertIn('"kind":"module"', summaries.replace(" ", ""))
        # Warm, the same finding.
        again, _, _ = self.run_rematch(["caller.cpp", "layer.cpp"])
        self.assertEqual(self.findings(again), self.findings(doc))

    def test_callable_defined_in_another_file_three_files(self):
        self.write_callables()
        # The callable's body calls into a third file.
        doc, _, rc = self.run_rematch(["helper.cpp", "block.cpp", "caller.cpp"])
        self.assertEqual(rc, 1, doc)
        write = [f for f in doc["findings"] if f["check"] == "rematch-state-write"]
        self.assertEqual([(f["file"], f["line"]) for f in write], [("block.cpp", 7)])
        self.assertIn("checkpointed function 'block' calls 'helper', which writes "
                      "'g_helped'", write[0]["message"])
        notes = [(n["file"], n["line"]) for n in write[0]["notes"]]
        self.assertIn(("helper.cpp", 3), notes)
        self.assertEqual(notes[-1], ("caller.cpp", self.CALLER_LINE))
        # A second run with warm summaries gives the same findings.
        again, _, _ = self.run_rematch(["helper.cpp", "block.cpp", "caller.cpp"])
        self.assertEqual(self.findings(again), self.findings(doc))

    def test_callable_checkpointed_after_its_file_was_summarised(self):
        # block.cpp's summary exists before any file checkpoints block():
        # a new checkpoint call in caller.cpp makes it stale.
        self.write_callables()
        self.write("caller.cpp", '#include "common.h"\nint x;\n')
        doc, _, _ = self.run_rematch(["caller.cpp", "block.cpp", "helper.cpp"])
        self.assertEqual(doc["findings"], [])
        self.write("caller.cpp", self.CALLER_CPP)
        doc, _, _ = self.run_rematch(["caller.cpp", "block.cpp", "helper.cpp"])
        self.assertIn(("rematch-counter-update", "block.cpp", 6), self.findings(doc))

    # Virtual calls: every override in the program may run.
    LAYER_H = """\
#include "common.h"
struct Layer { virtual ~Layer() {} virtual float forward(float x) { return x; } };
struct Frozen : Layer { float forward(float x) override { return x; } };
"""
    VIRTUAL_CPP = """\
#include "layer.h"
float run(rematch::Segment &seg, Layer &l, Frozen &f, float x) {
  float a = seg.forward([&] { return l.forward(x); });
  float b = seg.forward([&] { return f.forward(x); });
  return a + b;
}
"""
    NOISY_CPP = """\
#include "layer.h"
int g_noisy = 0;
namespace {
struct Noisy : Layer {
  float forward(float x) override { ++g_noisy; return x; }
};
} // namespace
Layer *make_noisy() { return new Noisy; }
"""
    LOGGED_CPP = """\
#include "layer.h"
#include <cstdio>
struct Logged : Layer { float forward(float x) override; };
float Logged::forward(float x) { std::printf("%f", x); return x; }
"""

    def write_layers(self):
        self.write("layer.h", self.LAYER_H)
        self.write("virtual.cpp", self.VIRTUAL_CPP)
        self.write("noisy.cpp", self.NOISY_CPP)
        self.write("logged.cpp", self.LOGGED_CPP)

    def test_overrides_in_another_file_two_files(self):
        self.write_layers()
        doc, _, rc = self.run_rematch(["virtual.cpp", "noisy.cpp"])
        self.assertEqual(rc, 1, doc)
        self.assertEqual(self.findings(doc),
                         [("rematch-counter-update", "virtual.cpp", 3)])
        f = doc["findings"][0]
        # An override in an anonymous namespace of another file.
        self.assertIn("calls 'Layer::forward', which may, through a virtual "
                      "call, reach code that increments 'g_noisy'", f["message"])
        notes = [(n["file"], n["line"]) for n in f["notes"]]
        self.assertIn(("noisy.cpp", 5), notes)
        # Alone, virtual.cpp sees no override with an effect.
        rc, doc = self.run_alone("virtual.cpp")
        self.assertEqual(rc, 0, doc)

    def test_overrides_in_another_file_three_files(self):
        self.write_layers()
        doc, _, _ = self.run_rematch(["virtual.cpp", "noisy.cpp", "logged.cpp"])
        # Both overrides may run at l.forward; none of them at f.forward,
        # whose static class Frozen neither derives from.
        self.assertEqual(self.findings(doc),
                         [("rematch-counter-update", "virtual.cpp", 3),
                          ("rematch-logging", "virtual.cpp", 3)])

    def test_override_added_later_makes_the_caller_stale(self):
        self.write_layers()
        doc, _, _ = self.run_rematch(["virtual.cpp", "logged.cpp"])
        self.assertEqual(self.findings(doc), [("rematch-logging", "virtual.cpp", 3)])
        doc, _, _ = self.run_rematch(["virtual.cpp", "logged.cpp", "noisy.cpp"])
        self.assertIn(("rematch-counter-update", "virtual.cpp", 3), self.findings(doc))

    def test_named_virtual_function_in_another_file_is_definite(self):
        # The function a virtual call names does what its body does; only
        # an override's effect "may" happen.
        self.write("counted.h", '#include "common.h"\n'
                   "struct Counted { virtual ~Counted() {} "
                   "virtual float forward(float x); };\n")
        self.write("counted.cpp", '#include "counted.h"\nint g_counted = 0;\n'
                   "float Counted::forward(float x) { ++g_counted; return x; }\n")
        self.write("use.cpp", '#include "counted.h"\n'
                   "float run(rematch::Segment &seg, Counted &c, float x) {\n"
                   "  return seg.forward([&] { return c.forward(x); });\n}\n")
        doc, _, _ = self.run_rematch(["use.cpp", "counted.cpp"])
        self.assertEqual(self.findings(doc),
                         [("rematch-counter-update", "use.cpp", 3)])
        message = doc["findings"][0]["message"]
        self.assertIn("calls 'Counted::forward', which increments 'g_counted'",
                      message)
        self.assertNotIn("virtual call", message)

    def test_unchanged_summaries_are_reused_and_changed_ones_rebuilt(self):
        self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        paths = {n: os.path.join(self.sums, n) for n in self.summary_files()}
        before = {n: os.stat(p).st_mtime_ns for n, p in paths.items()}
        time.sleep(0.05)
        # b.cpp changes: the chain no longer reaches BatchNorm::update.
        self.write("b.cpp", '#include "common.h"\nvoid update_all(BatchNorm &, float) {}\n')
        doc, _, _ = self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        after = {n: os.stat(p).st_mtime_ns for n, p in paths.items()}
        changed = sorted(n.split(".")[0] for n in paths if before[n] != after[n])
        # b.cpp alone: a summary says what its own file does, and a.cpp's
        # findings come from composing it with b.cpp's new one.
        self.assertEqual(changed, ["b"])
        self.assertNotIn("rematch-counter-update", [c for c, _, _ in self.findings(doc)])

    def parses(self, files, *extra):
        """Runs the test build of rematch; the files it parsed, in order."""
        log = os.path.join(self.dir, "parses.log")
        if os.path.exists(log):
            os.remove(log)
        env = dict(os.environ, REMATCH_TEST_LOG_ANALYSES=log)
        cmd = [TOOLS.testhooks, "--format=json", "-j", "1",
               "--summaries-dir=" + self.sums, *extra, *files, "--", "-std=c++17"]
        p = subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True,
                           timeout=300, env=env)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        with open(log) as f:
            return json.loads(p.stdout), sorted(f.read().split())

    def test_cold_run_parses_each_file_once(self):
        # Parse once, compose the summaries without an AST: a.cpp, whose
        # checkpointed lambda calls into b.cpp and c.cpp, has the findings
        # the composition adds made from its facts (tool/FactsReport.h).
        doc, parsed = self.parses(["a.cpp", "b.cpp", "c.cpp"])
        self.assertEqual(parsed, ["a.cpp", "b.cpp", "c.cpp"])
        self.assertIn(("rematch-counter-update", "a.cpp", A_CALL_LINE),
                      self.findings(doc))
        # The order of the files does not matter.
        shutil.rmtree(self.sums)
        doc2, parsed = self.parses(["c.cpp", "b.cpp", "a.cpp"])
        self.assertEqual(parsed, ["a.cpp", "b.cpp", "c.cpp"])
        self.assertEqual(self.findings(doc2), self.findings(doc))
        # The same findings as parsing a.cpp again with every summary.
        for name in os.listdir(self.sums):
            if name.endswith(".findings"):
                os.remove(os.path.join(self.sums, name))
        doc3, parsed = self.parses(["a.cpp", "b.cpp", "c.cpp"])
        self.assertEqual(parsed, ["a.cpp", "b.cpp", "c.cpp"])
        self.assertEqual(doc3, doc)
        # --verbose says no file was parsed again.
        shutil.rmtree(self.sums)
        _, err, _ = self.run_rematch(["a.cpp", "b.cpp", "c.cpp"], "--verbose")
        self.assertNotIn("parsed again", err)

    def test_facts_a_file_alone_gives_need_no_second_parse(self):
        # The callable stored in a shared member, and the run through it,
        # are in one file: its first parse saw the store in its own AST,
        # which the whole program's composition only repeats. Parsed once,
        # alone or among other files, with the finding through the member.
        self.write("own.cpp", '#include "common.h"\n#include <functional>\n'
                   "int g_hits = 0;\n"
                   "struct Block { std::function<int()> step_; };\n"
                   "Block g_block;\n"
                   "void install() { g_block.step_ = [] { return ++g_hits; }; }\n"
                   "int run(rematch::Segment &seg) {\n"
                   "  return seg.forward([] { return g_block.step_(); });\n}\n")
        for files in (["own.cpp"], ["own.cpp", "b.cpp", "c.cpp"]):
            shutil.rmtree(self.sums, ignore_errors=True)
            doc, parsed = self.parses(files)
            self.assertEqual(parsed, sorted(files))
            self.assertIn(("rematch-counter-update", "own.cpp", 8),
                          self.findings(doc))
        rc, alone = self.run_alone("own.cpp")
        self.assertEqual([f for f in self.findings(alone) if f[1] == "own.cpp"
                          and f[0] == "rematch-counter-update"],
                         [f for f in self.findings(doc) if f[1] == "own.cpp"
                          and f[0] == "rematch-counter-update"])

    def test_files_without_checkpoints_are_parsed_once(self):
        files = []
        for i in range(6):
            files.append("n%d.cpp" % i)
            self.write(files[-1], '#include "common.h"\nvoid n%d(BatchNorm &bn) '
                       '{ update_all(bn, %d); }\n' % (i, i))
        _, parsed = self.parses(files + ["b.cpp", "c.cpp"])
        self.assertEqual(parsed, sorted(files + ["b.cpp", "c.cpp"]))

    def test_warm_run_with_one_changed_file_parses_it_once(self):
        self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        time.sleep(0.05)
        self.write("a.cpp", A_CPP + "// edited\n")
        doc, parsed = self.parses(["a.cpp"])
        self.assertEqual(parsed, ["a.cpp"])
        self.assertIn(("rematch-counter-update", "a.cpp", A_CALL_LINE),
                      self.findings(doc))

    def test_composition_equals_the_chain_found_in_rounds(self):
        # Four files, a chain a -> b -> c -> d through a reference
        # parameter, summarised cold in one phase: the write at the end
        # reaches the checkpointed lambda, mapped through every call.
        self.write("chain.h", "struct S { int n = 0; };\nvoid p1(S &);\n"
                   "void p2(S &);\nvoid p3(S &);\n")
        self.write("q0.cpp", '#include "chain.h"\n#include "common.h"\n'
                   "void top(rematch::Segment &seg, S &s) {\n"
                   "  seg.forward([&] { p1(s); });\n}\n")
        self.write("q1.cpp", '#include "chain.h"\nvoid p1(S &s) { p2(s); }\n')
        self.write("q2.cpp", '#include "chain.h"\nvoid p2(S &s) { p3(s); }\n')
        # In q3.cpp the effect is two local calls down: p3 lists it only
        # if the file's summary carries it up its own call graph.
        self.write("q3.cpp", '#include "chain.h"\n'
                   "static void bump(S &s) { ++s.n; }\n"
                   "static void via(S &s) { bump(s); }\n"
                   "void p3(S &s) { via(s); }\n"
                   "void local_only() { S t; p3(t); }\n")
        doc, parsed = self.parses(["q0.cpp", "q1.cpp", "q2.cpp", "q3.cpp"])
        # Each parsed once: q0's finding is made from facts.
        self.assertEqual(parsed, ["q0.cpp", "q1.cpp", "q2.cpp", "q3.cpp"])
        found = [f for f in doc["findings"] if f["file"] == "q0.cpp"]
        self.assertEqual([(f["check"], f["line"]) for f in found],
                         [("rematch-counter-update", 4)])
        steps = [(n["file"], n["line"]) for n in found[0]["notes"]]
        for step in [("q1.cpp", 2), ("q2.cpp", 2), ("q3.cpp", 4), ("q3.cpp", 3),
                     ("q3.cpp", 2)]:
            self.assertIn(step, steps)

    def test_header_functions_explicit_instantiations_and_virtuals(self):
        # A TU summarises its own functions and what they call, and also
        # its explicit instantiations: their bodies are in a header, and the
        # callers, with only `extern template`, have none (line 4 is found
        # only through table.cpp's summary). Line 5, an override inline in
        # the header, is found in use.cpp itself.
        self.write("table.h", "extern long g_puts;\n"
                   "template <class T> struct Table { void put(T); };\n"
                   "template <class T> void Table<T>::put(T) { ++g_puts; }\n"
                   "extern template struct Table<int>;\n"
                   "struct Layer { virtual void fwd() {} virtual ~Layer() = default; };\n"
                   "struct Noisy : Layer { void fwd() override { ++g_puts; } };\n"
                   "Layer *make_noisy();\n")
        self.write("table.cpp", '#include "table.h"\nlong g_puts = 0;\n'
                   "template struct Table<int>;\n"
                   "Layer *make_noisy() { return new Noisy; }\n")
        self.write("use.cpp", '#include "table.h"\n#include "common.h"\n'
                   "void use(rematch::Segment &seg, Table<int> &t, Layer &l) {\n"
                   "  seg.forward([&] { t.put(1); });\n"
                   "  seg.forward([&] { l.fwd(); });\n}\n")
        doc, _, _ = self.run_rematch(["use.cpp", "table.cpp"])
        self.assertEqual(
            sorted((c, f, l) for c, f, l in self.findings(doc) if f == "use.cpp"),
            [("rematch-counter-update", "use.cpp", 4),
             ("rematch-counter-update", "use.cpp", 5)])

    def test_deleted_file_no_longer_counts(self):
        self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        # c.cpp is gone (renamed away): its summary must not say what
        # BatchNorm::update does any more.
        os.rename(os.path.join(self.dir, "c.cpp"), os.path.join(self.dir, "c.txt"))
        doc, _, _ = self.run_rematch(["a.cpp", "b.cpp"])
        self.assertNotIn("rematch-counter-update", [c for c, _, _ in self.findings(doc)])

    def test_header_change_makes_summaries_stale(self):
        self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        before = {n: os.stat(os.path.join(self.sums, n)).st_mtime_ns
                  for n in self.summary_files()}
        time.sleep(0.05)
        self.write("common.h", COMMON_H + "// edited\n")
        self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        after = {n: os.stat(os.path.join(self.sums, n)).st_mtime_ns
                 for n in self.summary_files()}
        self.assertTrue(all(before[n] != after[n] for n in before))

    def test_model_change_makes_summaries_stale(self):
        # The summaries hold what the models said: a project's model edited
        # between two runs makes them stale like an edited header.
        self.write("ours.yaml", "Functions:\n  - {Name: g_nothing, Effect: pure}\n")
        self.write(".rematch.yaml", "Models: [ours.yaml]\n")
        self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        before = {n: os.stat(os.path.join(self.sums, n)).st_mtime_ns
                  for n in self.summary_files()}
        time.sleep(0.05)
        self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        reused = {n: os.stat(os.path.join(self.sums, n)).st_mtime_ns
                  for n in self.summary_files()}
        self.assertEqual(before, reused)
        # log_step's printf becomes a project logger's in the model: the
        # chain through b.cpp now ends in it, and every summary is rebuilt.
        self.write("ours.yaml", "Functions:\n  - {Name: read_lr, Effect: io}\n")
        doc, _, _ = self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        after = {n: os.stat(os.path.join(self.sums, n)).st_mtime_ns
                 for n in self.summary_files()}
        self.assertTrue(all(before[n] != after[n] for n in before))

    def test_compilation_database_elsewhere(self):
        # The database names its files relative to its "directory"; rematch
        # runs from a third directory. Summaries record the files where the
        # compile commands put them, so the chains across files are found,
        # cold and warm.
        os.makedirs(os.path.join(self.dir, "build"))
        os.makedirs(os.path.join(self.dir, "elsewhere"))
        with open(os.path.join(self.dir, "build", "compile_commands.json"),
                  "w") as f:
            json.dump([{"directory": self.dir, "file": name,
                        "arguments": ["clang++-19", "-std=c++17", "-c", name]}
                       for name in ("a.cpp", "b.cpp", "c.cpp")], f)
        def run(files):
            p = subprocess.run([TOOLS.rematch, "--format=json", "-j", "1",
                                "-p", "../build", "--summaries-dir=../sums",
                                *["../" + n for n in files]],
                               cwd=os.path.join(self.dir, "elsewhere"),
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            return sorted((f["check"], f["file"], f["line"])
                          for f in json.loads(p.stdout)["findings"])
        expected = [("rematch-counter-update", "../a.cpp", A_CALL_LINE),
                    ("rematch-logging", "../a.cpp", A_LOG_LINE),
                    ("rematch-state-write", "../a.cpp", A_CALL_LINE)]
        self.assertEqual(run(["a.cpp", "b.cpp", "c.cpp"]), expected)
        for name in self.summary_files():
            with open(os.path.join(self.sums, name)) as f:
                self.assertNotIn("elsewhere", f.read(), name)
        self.assertEqual(run(["a.cpp"]), expected)

    def test_one_changed_file_uses_the_others_summaries(self):
        # The pre-commit case: only a.cpp is on the command line.
        self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        doc, _, rc = self.run_rematch(["a.cpp"])
        self.assertEqual(rc, 1)
        self.assertIn(("rematch-counter-update", "a.cpp", A_CALL_LINE),
                      self.findings(doc))

    def test_shards_merge_through_the_directory(self):
        # A CI matrix: each shard summarises its slice into the same
        # directory; a later run over all files reuses every summary and
        # reports the chains that cross the shards.
        files = ["a.cpp", "b.cpp", "c.cpp"]
        for shard in ("--shard=1/2", "--shard=2/2"):
            self.run_rematch(files, shard)
        self.assertEqual(sorted(n.split(".")[0] for n in self.summary_files()),
                         ["a", "b", "c"])
        before = {n: os.stat(os.path.join(self.sums, n)).st_mtime_ns
                  for n in self.summary_files()}
        doc, _, rc = self.run_rematch(["a.cpp"])
        self.assertEqual(rc, 1)
        self.assertIn(("rematch-counter-update", "a.cpp", A_CALL_LINE),
                      self.findings(doc))
        # b.cpp and c.cpp were summarised by the shards and reused as is.
        for n in self.summary_files():
            if not n.startswith("a.cpp."):
                self.assertEqual(before[n], os.stat(os.path.join(self.sums, n)).st_mtime_ns)

    def matrix_union(self, files, shards):
        """Phase one per shard into its own directory, merged; the report
        phase per shard over the merged summaries: every shard's findings."""
        merged = os.path.join(self.dir, "merged")
        os.mkdir(merged)
        for i in range(1, shards + 1):
            own = os.path.join(self.dir, "phase1-%d" % i)
            p = subprocess.run([TOOLS.rematch, "--format=json", "--summaries-only",
                                "--summaries-dir=" + own,
                                "--shard=%d/%d" % (i, shards),
                                *files, "--", "-std=c++17"], cwd=self.dir,
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(json.loads(p.stdout)["findings"], [])
            for name in os.listdir(own):
                shutil.copy(os.path.join(own, name), merged)
        union = []
        for i in range(1, shards + 1):
            shard_dir = os.path.join(self.dir, "report-%d" % i)
            shutil.copytree(merged, shard_dir)
            p = subprocess.run([TOOLS.rematch, "--format=json",
                                "--summaries-dir=" + shard_dir,
                                "--shard=%d/%d" % (i, shards),
                                *files, "--", "-std=c++17"], cwd=self.dir,
                               capture_output=True, text=True, timeout=300)
            self.assertIn(p.returncode, (0, 1), p.stderr)
            union += json.loads(p.stdout)["findings"]
        return union

    def test_header_findings_have_one_owning_shard(self):
        # Callables defined in a header and checkpointed from several files:
        # each of those files finds the same effects in the header. Each shard
        # of a matrix reports them only when its file is the first of the run
        # to checkpoint the callable, so the union is the single machine's
        # report. Two instantiations of a template are two callables.
        self.write("layer.h", '#pragma once\n#include "common.h"\n'
                   "#include <cstdio>\n"
                   'inline float body() { std::printf("body"); return 1; }\n'
                   'struct Loud { float bump() { std::printf("loud"); return 1; } };\n'
                   "struct Quiet { float bump() { return 1; } };\n"
                   "template <class T> float run_bump() { T t; return t.bump(); }\n"
                   "struct Step { BatchNorm *bn; float operator()() const "
                   "{ update_all(*bn, 1); return 1; } };\n")
        users = {
            "p.cpp": "float p(rematch::Segment &s) { return s.forward(run_bump<Quiet>) + s.forward(body); }\n",
            "q.cpp": "float q(rematch::Segment &s, BatchNorm &bn) { return s.forward(Step{&bn}); }\n",
            "r.cpp": "float r(rematch::Segment &s, BatchNorm &bn) {\n"
                     "  return s.forward(run_bump<Loud>) + s.forward(body) + s.forward(Step{&bn});\n}\n",
        }
        for name, text in users.items():
            self.write(name, '#include "layer.h"\n' + text)
        files = ["p.cpp", "q.cpp", "r.cpp", "b.cpp", "c.cpp"]
        one, _, rc = self.run_rematch(files)
        self.assertEqual(rc, 1)
        where = sorted((f["check"], f["file"], f["line"]) for f in one["findings"])
        self.assertEqual(where, [
            ("rematch-counter-update", "layer.h", 8),  # Step, into c.cpp
            ("rematch-logging", "layer.h", 4),         # body
            ("rematch-logging", "layer.h", 7),         # run_bump<Loud> only
            ("rematch-state-write", "layer.h", 8)])
        # Without owners, the shards of p.cpp and r.cpp would both report
        # body, and those of q.cpp and r.cpp both report Step.
        union = self.matrix_union(files, 3)
        key = lambda f: json.dumps(f, sort_keys=True)
        self.assertEqual(sorted(map(key, union)), sorted(map(key, one["findings"])))

    def test_two_phase_matrix_equals_one_machine(self):
        # Phase one: three shards, each with --summaries-only into its own
        # directory (a CI job's artifact). The report phase: each shard over
        # the merged directories. The union is the single machine's report,
        # finding for finding, messages and notes included.
        self.write("block.cpp", '#include "common.h"\n'
                   "void block(BatchNorm &bn) { update_all(bn, 2); }\n")
        self.write("user.cpp", '#include "common.h"\nvoid block(BatchNorm &);\n'
                   "void train(rematch::Segment &seg, BatchNorm &bn) {\n"
                   "  seg.forward([&] { block(bn); });\n}\n")
        files = ["a.cpp", "b.cpp", "c.cpp", "block.cpp", "user.cpp"]
        one, _, rc = self.run_rematch(files)
        self.assertEqual(rc, 1)
        union = self.matrix_union(files, 3)
        key = lambda f: json.dumps(f, sort_keys=True)
        self.assertEqual(sorted(map(key, union)), sorted(map(key, one["findings"])))
        # Cross-shard chains are there: user.cpp (shard 2) reaches c.cpp
        # (shard 3) through block.cpp (shard 1) and b.cpp (shard 2).
        self.assertIn(("rematch-counter-update", "user.cpp", 4),
                      [(f["check"], f["file"], f["line"]) for f in union])

    def test_summaries_only_needs_a_directory(self):
        p = subprocess.run([TOOLS.rematch, "--summaries-only", "a.cpp", "--",
                            "-std=c++17"], cwd=self.dir, capture_output=True,
                           text=True, timeout=300)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--summaries-only needs --summaries-dir", p.stderr)

    def test_concurrent_runs_share_the_directory(self):
        # Six runs started at once on one directory (CI jobs sharing it, a
        # hook beside an editor integration) all write the same summaries:
        # each write is whole or absent, so no run fails to write or reads a
        # part, and all report the same cross-file findings.
        # Many small files make the writes of the runs overlap.
        extra = []
        for i in range(40):
            extra.append("x%02d.cpp" % i)
            self.write(extra[-1], '#include "common.h"\nvoid x%02d(BatchNorm &bn) '
                       '{ update_all(bn, %d); }\n' % (i, i))
        files = ["a.cpp", "b.cpp", "c.cpp"] + extra
        cmd = [TOOLS.rematch, "--format=json", "-j", "2",
               "--summaries-dir=" + self.sums, *files, "--", "-std=c++17"]
        procs = [subprocess.Popen(cmd, cwd=self.dir, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
                 for _ in range(6)]
        results = [(p.returncode, out, err) for p in procs
                   for out, err in [p.communicate(timeout=600)]]
        reports = []
        for rc, out, err in results:
            self.assertEqual(rc, 1, err)
            self.assertNotIn("cannot write", err)
            for word in ("corrupt", "truncated", "invalid"):
                self.assertNotIn(word, err.lower())
            reports.append(self.findings(json.loads(out)))
        self.assertIn(("rematch-counter-update", "a.cpp", A_CALL_LINE), reports[0])
        for report in reports[1:]:
            self.assertEqual(report, reports[0])
        # Nothing left behind but summaries, kept findings and system-header
        # lists.
        for name in os.listdir(self.sums):
            self.assertTrue(name.endswith(".summary.json") or
                            name.endswith(".findings") or
                            (name.startswith("system-") and name.endswith(".list")),
                            name)
        # And they are whole: a later run reuses every one.
        before = {n: os.stat(os.path.join(self.sums, n)).st_mtime_ns
                  for n in self.summary_files()}
        doc, err, rc = self.run_rematch(files)
        self.assertEqual(rc, 1)
        self.assertEqual(self.findings(doc), reports[0])
        self.assertEqual(err.count("warning"), 0, err)
        self.assertEqual(before, {n: os.stat(os.path.join(self.sums, n)).st_mtime_ns
                                  for n in self.summary_files()})

    def corrupt_and_rerun(self, text):
        full, _, _ = self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        victim = [n for n in self.summary_files() if n.startswith("c.cpp.")][0]
        with open(os.path.join(self.sums, victim), "w") as f:
            f.write(text)
        doc, err, _ = self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        self.assertIn(victim, err)
        self.assertIn("rebuilt", err)
        # Rebuilt, never trusted: the same findings as the clean run.
        self.assertEqual(self.findings(doc), self.findings(full))
        with open(os.path.join(self.sums, victim)) as f:
            self.assertEqual(json.load(f)["format"], "rematch-summary")

    def test_system_header_list_is_shared(self):
        # c.cpp includes <cstdio>; a.cpp and b.cpp read no system header.
        self.write("d.cpp", '#include <cstdio>\nvoid d() { std::puts("d"); }\n')
        self.run_rematch(["a.cpp", "b.cpp", "c.cpp", "d.cpp"])
        lists = [n for n in os.listdir(self.sums) if n.startswith("system-")]
        self.assertEqual(len(lists), 1, lists)
        with open(os.path.join(self.sums, lists[0])) as f:
            self.assertIn("stdio.h", f.read())

    def test_corrupt_summary_is_ignored_and_rebuilt(self):
        self.corrupt_and_rerun('{"format": "rematch-summary", "version": 1, "functi')

    def test_older_version_is_ignored_and_rebuilt(self):
        self.corrupt_and_rerun(json.dumps({"format": "rematch-summary",
                                           "version": 0}))

    def test_a_directory_of_another_format_is_said_once_and_cleared(self):
        # An upgrade of rematch finds every summary in an older format: one
        # warning for the directory, not one per file; and a summary of a
        # file no longer analysed (c.cpp here) goes too, or it would be
        # found again on every run.
        self.run_rematch(["a.cpp", "b.cpp", "c.cpp"])
        version = None
        for name in self.summary_files():
            path = os.path.join(self.sums, name)
            with open(path) as f:
                text = f.read()
            version = json.loads(text.split("\n")[0].rstrip(",") + "}")[
                "version"]
            with open(path, "w") as f:
                f.write(text.replace('"version":%d' % version,
                                     '"version":%d' % (version - 1), 1))
        doc, err, _ = self.run_rematch(["a.cpp", "b.cpp"])
        warnings = [l for l in err.splitlines() if "warning" in l]
        self.assertEqual(warnings, [
            self.sums + ": warning: 3 summaries of format version %d, written "
            "by another build of rematch (this one reads version %d), "
            "removed; rebuilt as their files are analysed"
            % (version - 1, version)], err)
        left = sorted(n.split(".")[0] for n in self.summary_files())
        self.assertEqual(left, ["a", "b"])
        for name in self.summary_files():
            with open(os.path.join(self.sums, name)) as f:
                self.assertEqual(json.loads(f.readline().rstrip(",\n") + "}")
                                 ["version"], version)
        _, err, _ = self.run_rematch(["a.cpp", "b.cpp"])
        self.assertNotIn("warning", err)
        # What a fresh directory reports.
        shutil.rmtree(self.sums)
        fresh, _, _ = self.run_rematch(["a.cpp", "b.cpp"])
        self.assertEqual(self.findings(doc), self.findings(fresh))

    def test_wrong_types_are_ignored_and_rebuilt(self):
        self.corrupt_and_rerun(json.dumps({
            "format": "rematch-summary", "version": 1, "main_file": 7}))

    def test_unusable_directory_is_a_configuration_error(self):
        self.write("sums", "a file, not a directory")
        p = subprocess.run([TOOLS.rematch, "--summaries-dir=sums", "a.cpp",
                            "--", "-std=c++17"], cwd=self.dir,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 2)
        self.assertIn("sums", p.stderr)


class DefaultCacheTest(unittest.TestCase):
    """Whole program by default: with a compile_commands.json, summaries are
    kept in .rematch-cache beside it; --no-summaries analyses files alone."""

    FILES = ["a.cpp", "b.cpp", "c.cpp"]
    CROSS = ("rematch-counter-update", "a.cpp", A_CALL_LINE)

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name
        for name, text in (("common.h", COMMON_H), ("a.cpp", A_CPP),
                           ("b.cpp", B_CPP), ("c.cpp", C_CPP)):
            self.write(name, text)
        self.build = os.path.join(self.dir, "build")
        self.cache = os.path.join(self.build, ".rematch-cache")
        os.makedirs(self.build)
        self.write_database(self.build)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def write_database(self, where):
        with open(os.path.join(where, "compile_commands.json"), "w") as f:
            json.dump([{"directory": self.dir, "file": name,
                        "arguments": ["clang++-19", "-std=c++17", "-c", name]}
                       for name in self.FILES], f)

    def run_tool(self, *args, program=None, env=None, expect=(0, 1)):
        p = subprocess.run([program or TOOLS.rematch, "-j", "1", *args],
                           cwd=self.dir, capture_output=True, text=True,
                           timeout=300, env=env)
        self.assertIn(p.returncode, expect, p.stdout + p.stderr)
        return p

    def findings(self, p):
        return sorted((f["check"], f["file"], f["line"])
                      for f in json.loads(p.stdout)["findings"])

    def summaries(self, where=None):
        where = where or self.cache
        return {n: os.stat(os.path.join(where, n)).st_mtime_ns
                for n in os.listdir(where) if n.endswith(".summary.json")}

    def test_compilation_database_keeps_summaries_in_the_build_directory(self):
        p = self.run_tool("-p", "build", *self.FILES)
        lines = p.stdout.splitlines()
        # Said once, first, in text mode, with the place as the user named it.
        self.assertEqual(lines[0], "rematch: whole-program summaries in "
                         "build/.rematch-cache (--no-summaries: each file alone)")
        self.assertEqual(sum("whole-program summaries" in l for l in lines), 1)
        self.assertIn("a.cpp:%d:" % A_CALL_LINE, p.stdout)
        self.assertIn("'update_all', which increments 'num_batches_tracked_'",
                      p.stdout)
        self.assertEqual(len(self.summaries()), 3)
        # The pre-commit case: one file, the others' summaries reused; the
        # machine formats carry no header.
        before = self.summaries()
        one = self.run_tool("-p", "build", "--format=json", "a.cpp")
        self.assertIn(self.CROSS, self.findings(one))
        self.assertEqual(self.summaries(), before)

    def test_no_summaries_analyses_each_file_alone(self):
        p = self.run_tool("-p", "build", "--no-summaries", "--format=json",
                          *self.FILES)
        self.assertNotIn(self.CROSS, self.findings(p))
        self.assertFalse(os.path.exists(self.cache))
        text = self.run_tool("-p", "build", "--no-summaries", *self.FILES)
        self.assertNotIn("whole-program", text.stdout)

    def test_no_summaries_and_a_directory_contradict(self):
        p = self.run_tool("-p", "build", "--no-summaries",
                          "--summaries-dir=sums", "a.cpp", expect=(2,))
        self.assertIn("--no-summaries and --summaries-dir", p.stderr)
        p = self.run_tool("-p", "build", "--no-summaries", "--summaries-only",
                          "a.cpp", expect=(2,))
        self.assertIn("--summaries-only", p.stderr)

    def test_an_explicit_directory_wins_and_is_not_announced(self):
        p = self.run_tool("-p", "build", "--summaries-dir=sums", *self.FILES)
        self.assertNotIn("whole-program summaries in", p.stdout)
        self.assertIn("a.cpp:%d:" % A_CALL_LINE, p.stdout)
        self.assertFalse(os.path.exists(self.cache))
        self.assertEqual(len(self.summaries(os.path.join(self.dir, "sums"))), 3)

    def test_flags_after_dashes_have_no_cache(self):
        p = self.run_tool("--format=json", *self.FILES, "--", "-std=c++17")
        self.assertNotIn(self.CROSS, self.findings(p))
        self.assertFalse(os.path.exists(self.cache))
        self.assertFalse(os.path.exists(os.path.join(self.dir, ".rematch-cache")))

    def test_detected_database_keeps_the_cache_beside_it(self):
        self.write_database(self.dir)
        p = self.run_tool("--format=json", *self.FILES)
        self.assertIn(self.CROSS, self.findings(p))
        self.assertEqual(
            len(self.summaries(os.path.join(self.dir, ".rematch-cache"))), 3)

    def test_unusable_default_place_keeps_the_summaries_in_memory(self):
        # A build directory where the cache cannot be made (here a file is in
        # its way; a read-only directory is the usual case) loses nothing:
        # the run keeps its summaries in memory and reports what a run with
        # a cache reports, cross-file findings included, with one warning.
        roomy = self.run_tool("-p", "build", "--summaries-dir=" +
                              os.path.join(self.dir, "roomy"),
                              "--format=json", *self.FILES)
        self.write(os.path.join("build", ".rematch-cache"), "in the way")
        p = self.run_tool("-p", "build", "--format=json", *self.FILES)
        self.assertIn(".rematch-cache: warning: cannot create the summaries "
                      "cache", p.stderr)
        self.assertIn("keeps the summaries in memory", p.stderr)
        self.assertEqual(p.stderr.count("warning"), 1, p.stderr)
        self.assertIn(self.CROSS, self.findings(p))
        self.assertEqual(self.findings(p), self.findings(roomy))
        self.assertEqual(p.returncode, roomy.returncode)
        # Phase one of a matrix has nothing to do without it: an error.
        self.run_tool("-p", "build", "--summaries-only", *self.FILES,
                      expect=(2,))

    def test_summaries_only_writes_the_default_cache(self):
        p = self.run_tool("-p", "build", "--summaries-only", "--format=json",
                          *self.FILES, expect=(0,))
        self.assertEqual(json.loads(p.stdout)["findings"], [])
        self.assertEqual(len(self.summaries()), 3)

    def test_another_build_of_rematch_or_its_models_rebuilds_the_summaries(self):
        # An upgrade, or a rebuild under the same version number, may
        # summarise differently: its summaries are not trusted.
        real = os.path.realpath(TOOLS.rematch)
        models = next(d for d in (
            os.path.join(os.path.dirname(real), "..", "share", "rematch", "models"),
            os.path.join(os.path.dirname(real), "..", "..", "share", "rematch",
                         "models")) if os.path.isdir(d))
        program = os.path.join(self.dir, "rematch-copy")
        shutil.copy2(real, program)
        own_models = os.path.join(self.dir, "models")
        shutil.copytree(models, own_models)
        env = dict(os.environ, REMATCH_MODELS_DIR=own_models)
        self.run_tool("-p", "build", *self.FILES, program=program, env=env)
        first = self.summaries()
        time.sleep(0.05)
        self.run_tool("-p", "build", *self.FILES, program=program, env=env)
        self.assertEqual(self.summaries(), first)  # same build: reused
        os.utime(program, ns=(10**18, 10**18))
        self.run_tool("-p", "build", *self.FILES, program=program, env=env)
        rebuilt = self.summaries()
        self.assertTrue(all(first[n] != rebuilt[n] for n in first))
        # The built-in models are part of the analysis too (a project's
        # models are inputs of each summary).
        time.sleep(0.05)
        with open(os.path.join(own_models, "logging.yaml"), "a") as f:
            f.write("# edited\n")
        self.run_tool("-p", "build", *self.FILES, program=program, env=env)
        again = self.summaries()
        self.assertTrue(all(rebuilt[n] != again[n] for n in rebuilt))

    def test_entry_points_and_configuration_are_part_of_a_summary(self):
        self.run_tool("-p", "build", *self.FILES)
        first = self.summaries()
        time.sleep(0.05)
        self.run_tool("-p", "build", "--checkpoint-functions=my::run",
                      *self.FILES)
        second = self.summaries()
        self.assertTrue(all(first[n] != second[n] for n in first))
        self.write(".rematch.yaml", "AllowedGlobals: [g_lr]\n")
        time.sleep(0.05)
        self.run_tool("-p", "build", "--checkpoint-functions=my::run",
                      *self.FILES)
        third = self.summaries()
        self.assertTrue(all(second[n] != third[n] for n in second))
        time.sleep(0.05)
        self.write(".rematch.yaml", "AllowedGlobals: [g_lr, g_other]\n")
        self.run_tool("-p", "build", "--checkpoint-functions=my::run",
                      *self.FILES)
        fourth = self.summaries()
        self.assertTrue(all(third[n] != fourth[n] for n in third))


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--rematch", required=True)
    parser.add_argument("--rematch-testhooks", required=True, dest="testhooks")
    args, rest = parser.parse_known_args()
    TOOLS.rematch = os.path.abspath(args.rematch)
    TOOLS.testhooks = os.path.abspath(args.testhooks)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
