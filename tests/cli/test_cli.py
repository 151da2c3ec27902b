#!/usr/bin/env python3
"""End-to-end tests of the rematch command-line contract.

Usage:
  test_cli.py --rematch <rematch> --plugin <librematch-tidy.so>
              --clang-tidy <clang-tidy-19> --root <source root>
              --validator <validate_sarif.py> --schema <sarif schema>
              [--python <python3>] [unittest arguments, e.g. TestExitCodes]

Every test writes its inputs into its own temporary directory and runs the
tools there, so relative paths in the output are predictable.
Standard library only.
"""

import argparse
import json
import os
import re
import shutil
import sys
import unittest

# The helpers shared by the test drivers, in tests/support.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from rematch_testing import TempDirTest, write  # noqa: E402

TOOLS = argparse.Namespace()

ALL_CHECKS = [
    "rematch-cache-write",
    "rematch-counter-update",
    "rematch-global-read",
    "rematch-io",
    "rematch-logging",
    "rematch-nondeterminism",
    "rematch-state-write",
    "rematch-unreplayed-rng",
]

STD = ["--", "-std=c++17"]

PRELUDE = """\
namespace rematch { bool recomputing(); struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
extern "C" int printf(const char*, ...);
int g_steps;
float g_scale = 2;
void set_scale(float s) { g_scale = s; }
"""
PRELUDE_LINES = PRELUDE.count("\n")  # the first line of a body is this + 1

# One logging finding at line PRELUDE_LINES + 3, column 5.
LOGGING = PRELUDE + """\
float f(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    printf("x %f\\n", x);
    return x;
  });
}
"""
LOGGING_LINE = PRELUDE_LINES + 3

# Three findings: logging, a transitive counter update, a global read.
MIXED = PRELUDE + """\
void bump() { ++g_steps; }
void outer() { bump(); }
float f(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    printf("x %f\\n", x);
    outer();
    return x * g_scale;
  });
}
"""
MIXED_LOG_LINE = PRELUDE_LINES + 5
MIXED_COUNTER_LINE = PRELUDE_LINES + 6
MIXED_GLOBAL_LINE = PRELUDE_LINES + 7

# No checkpointed code with effects.
CLEAN = PRELUDE + """\
float f(rematch::Segment &seg, float x) {
  return seg.forward([x] { return x * 2; });
}
"""

# A project entry point: hazards only when custom::run is a checkpoint.
CUSTOM = """\
extern "C" int printf(const char*, ...);
namespace custom { template <class F> void run(F f) { f(); } }
void step(int x) {
  custom::run([x] { printf("%d\\n", x); });
}
"""
CUSTOM_LINE = 4

# A global read with an init-capture fix-it.
FIXABLE = PRELUDE + """\
float f(rematch::Segment &seg, float x) {
  return seg.forward([x] { return x * g_scale; });
}
"""

BROKEN = "int broken( {\n"

TEXT_WARNING = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<level>warning|error): "
    r"(?P<msg>.*) \[(?P<check>rematch-[a-z-]+)\]$")
TEXT_NOTE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): note: (?P<msg>.*)$")


class CliTest(TempDirTest):
    prefix = "rematch-cli-"

    def rematch(self, *args, cwd=None):
        return self.run_tool([TOOLS.rematch] + list(args), cwd=cwd)

    def findings(self, res):
        """(check, line, column, level, message) of each text warning."""
        out = []
        for line in res.out.splitlines():
            m = TEXT_WARNING.match(line)
            if m:
                out.append((m["check"], int(m["line"]), int(m["col"]), m["level"],
                            m["msg"], m["file"]))
        return out

    def checks_of(self, res):
        return sorted(f[0] for f in self.findings(res))


class TestExitCodes(CliTest):
    def test_no_findings_is_0(self):
        f = self.src("clean.cpp", CLEAN)
        res = self.rematch(f, *STD)
        self.assertExit(res, 0)
        self.assertEqual(self.findings(res), [])

    def test_findings_is_1(self):
        f = self.src("log.cpp", LOGGING)
        self.assertExit(self.rematch(f, *STD), 1)

    def test_empty_file_is_0(self):
        f = self.src("empty.cpp", "")
        res = self.rematch(f, *STD)
        self.assertExit(res, 0)
        for fmt in ("json", "sarif"):
            self.assertExit(self.rematch("--format=" + fmt, f, *STD), 0)

    def test_help_and_version_are_0(self):
        res = self.rematch("--help")
        self.assertExit(res, 0)
        self.assertIn("USAGE", res.out)
        res = self.rematch("--version")
        self.assertExit(res, 0)
        self.assertIn("rematch", res.out)

    def test_list_checks(self):
        res = self.rematch("--list-checks")
        self.assertExit(res, 0)
        self.assertEqual(res.out.split(), ALL_CHECKS)
        res = self.rematch("--list-checks", "--checks=-*,rematch-io")
        self.assertExit(res, 0)
        self.assertEqual(res.out.split(), ["rematch-io"])

    def test_no_input_files_is_2(self):
        self.assertExit(self.rematch(), 2)

    def test_unknown_option_is_2(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--no-such-option", f, *STD)
        self.assertExit(res, 2)
        self.assertIn("no-such-option", res.err)
        self.assertEqual(res.out, "")

    def test_flag_with_value_is_2(self):
        f = self.src("log.cpp", LOGGING)
        self.assertExit(self.rematch("--fix=yes", f, *STD), 2)

    def test_option_missing_value_is_2(self):
        f = self.src("log.cpp", LOGGING)
        self.assertExit(self.rematch(f, "--format"), 2)

    def test_bad_format_is_2(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--format=xml", f, *STD)
        self.assertExit(res, 2)
        self.assertIn("xml", res.err)
        self.assertEqual(res.out, "")

    def test_bad_chain_is_2(self):
        f = self.src("log.cpp", LOGGING)
        self.assertExit(self.rematch("--chain=sideways", f, *STD), 2)

    def test_unknown_check_is_2(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--checks=-*,rematch-nonsense", f, *STD)
        self.assertExit(res, 2)
        self.assertIn("rematch-nonsense", res.err)
        self.assertEqual(res.out, "")

    def test_checks_enabling_none_is_2(self):
        f = self.src("log.cpp", LOGGING)
        for globs in ("-*", "-rematch-*", "-*,clang-*"):
            with self.subTest(checks=globs):
                res = self.rematch("--checks=" + globs, f, *STD)
                self.assertExit(res, 2)
                self.assertEqual(res.out, "")

    def test_malformed_rematch_yaml_is_2_with_position(self):
        self.src("proj/.rematch.yaml", "CheckpointFunctions: [a::b]\nNoSuchKey: 1\n")
        f = self.src("proj/sub/log.cpp", LOGGING)
        res = self.rematch(f, *STD)
        self.assertExit(res, 2)
        self.assertRegex(res.out + res.err, r"\.rematch\.yaml:2:\d+: error")

    def test_malformed_rematch_yaml_wrong_type_is_2(self):
        self.src("proj/.rematch.yaml", "# entry points\nCheckpointFunctions: {a: b}\n")
        f = self.src("proj/log.cpp", LOGGING)
        res = self.rematch("--format=json", f, *STD)
        self.assertExit(res, 2)
        self.assertRegex(res.err, r"\.rematch\.yaml:2:\d+: error")

    def test_malformed_config_file_is_2(self):
        cfg = self.src("cfg/bad.yaml", "CheckpointFunctions: [a::b\n")
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--config-file=" + cfg, f, *STD)
        self.assertExit(res, 2)
        self.assertIn("bad.yaml", res.err)
        self.assertEqual(res.out, "")

    def test_missing_config_file_is_2(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--config-file=nope.yaml", f, *STD)
        self.assertExit(res, 2)
        self.assertIn("nope.yaml", res.err)

    def test_build_dir_without_database_is_2(self):
        os.mkdir(self.path("build"))
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("-p", "build", f)
        self.assertExit(res, 2)
        self.assertIn("compile_commands.json", res.err)
        self.assertEqual(res.out, "")

    def test_build_dir_with_malformed_database_is_2(self):
        self.src("build/compile_commands.json", '[{"directory": "/", "file": ')
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("-p", "build", f)
        self.assertExit(res, 2)
        self.assertEqual(res.out, "")

    def test_unwritable_output_is_2(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--output=" + self.path("no", "such", "dir", "o.txt"), f, *STD)
        self.assertExit(res, 2)
        self.assertIn("o.txt", res.err)
        res = self.rematch("--output=" + self.dir, f, *STD)  # a directory
        self.assertExit(res, 2)

    def _assert_failed_but_good_reported(self, bad, fmt="text"):
        good = self.src("good.cpp", LOGGING)
        res = self.rematch("--format=" + fmt, bad, good, *STD)
        self.assertExit(res, 3)
        if fmt == "text":
            found = self.findings(res)
            self.assertEqual([(c, l) for c, l, *_ in found],
                             [("rematch-logging", LOGGING_LINE)], repr(res))
            self.assertEqual(found[0][5], "good.cpp")
            self.assertIn(bad, res.out + res.err)
        else:
            doc = res.json()
            self.assertEqual([(x["check"], x["file"]) for x in doc["findings"]],
                             [("rematch-logging", "good.cpp")])
            status = {x["file"]: x["status"] for x in doc["files"]}
            self.assertEqual(status, {bad: "failed", "good.cpp": "analysed"})
        return res

    def test_missing_file_is_3(self):
        self._assert_failed_but_good_reported("missing.cpp")

    def test_missing_file_is_3_json(self):
        self._assert_failed_but_good_reported("missing.cpp", fmt="json")

    def test_directory_is_3(self):
        os.mkdir(self.path("adir"))
        self._assert_failed_but_good_reported("adir")

    def test_file_that_does_not_compile_is_3(self):
        bad = self.src("broken.cpp", BROKEN)
        res = self._assert_failed_but_good_reported(bad)
        self.assertRegex(res.out, r"broken\.cpp:1:\d+: error: ")

    def test_file_that_does_not_compile_is_3_json(self):
        bad = self.src("broken.cpp", BROKEN)
        res = self._assert_failed_but_good_reported(bad, fmt="json")
        errors = [x for x in res.json()["files"] if x["file"] == bad][0]["errors"]
        self.assertTrue(any(re.match(r"broken\.cpp:1:\d+: error: ", e) for e in errors),
                        errors)
        self.assertIn("broken.cpp", res.err)  # machine formats echo errors on stderr

    def test_file_that_does_not_compile_is_3_sarif(self):
        bad = self.src("broken.cpp", BROKEN)
        good = self.src("good.cpp", LOGGING)
        res = self.rematch("--format=sarif", bad, good, *STD)
        self.assertExit(res, 3)
        run = res.json()["runs"][0]
        self.assertFalse(run["invocations"][0]["executionSuccessful"])
        self.assertEqual([r["ruleId"] for r in run["results"]], ["rematch-logging"])
        notes = run["invocations"][0].get("toolExecutionNotifications", [])
        self.assertEqual(len(notes), 1)
        self.assertEqual(notes[0]["level"], "error")
        self.assertIn("broken.cpp", notes[0]["message"]["text"])

    def test_config_error_beats_other_files(self):
        # A malformed .rematch.yaml for one file is still a configuration error.
        self.src("bad/.rematch.yaml", "Bogus: [x]\n")
        b = self.src("bad/log.cpp", LOGGING)
        g = self.src("good.cpp", LOGGING)
        self.assertExit(self.rematch(g, b, *STD), 2)


class TestTextFormat(CliTest):
    def test_text_shape(self):
        f = self.src("mixed.cpp", MIXED)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        lines = res.out.splitlines()
        src_lines = MIXED.splitlines()
        self.assertEqual(lines[-1], "3 warnings generated.")
        found = self.findings(res)
        self.assertEqual([(c, l) for c, l, *_ in found],
                         [("rematch-logging", MIXED_LOG_LINE),
                          ("rematch-counter-update", MIXED_COUNTER_LINE),
                          ("rematch-global-read", MIXED_GLOBAL_LINE)])
        for i, line in enumerate(lines):
            m = TEXT_WARNING.match(line)
            if not m:
                continue
            self.assertEqual(m["file"], "mixed.cpp")
            self.assertEqual(m["level"], "warning")
            # Source line, then the caret under the column.
            self.assertEqual(lines[i + 1], src_lines[int(m["line"]) - 1])
            self.assertEqual(lines[i + 2], " " * (int(m["col"]) - 1) + "^")
            # At least one note follows, clang-style, without a source line.
            note = TEXT_NOTE.match(lines[i + 3])
            self.assertIsNotNone(note, lines[i + 3])
            self.assertEqual(note["file"], "mixed.cpp")
        logging = [x for x in found if x[0] == "rematch-logging"][0]
        self.assertEqual(logging[2], 5)
        self.assertIn("'printf'", logging[4])

    def test_one_warning_summary(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(res.out.splitlines()[-1], "1 warning generated.")

    def test_no_findings_no_summary(self):
        f = self.src("clean.cpp", CLEAN)
        res = self.rematch(f, *STD)
        self.assertExit(res, 0)
        self.assertNotIn("generated", res.out)


class TestJsonFormat(CliTest):
    def test_json_shape(self):
        f = self.src("mixed.cpp", MIXED)
        res = self.rematch("--format=json", f, *STD)
        self.assertExit(res, 1)
        doc = res.json()
        self.assertEqual(list(doc.keys()), ["version", "files", "findings"])
        self.assertEqual(doc["version"], 1)
        self.assertEqual(doc["files"],
                         [{"file": "mixed.cpp", "status": "analysed", "errors": []}])
        self.assertEqual(len(doc["findings"]), 3)
        keys = ["check", "level", "message", "file", "line", "column",
                "fingerprint", "notes"]
        for x in doc["findings"]:
            self.assertEqual(list(x.keys()), keys)
            self.assertEqual(x["level"], "warning")
            self.assertEqual(x["file"], "mixed.cpp")
            self.assertRegex(x["fingerprint"], r"^[0-9a-f]{16}:\d+$")
            self.assertTrue(x["notes"])
            for n in x["notes"]:
                self.assertEqual(set(n.keys()), {"file", "line", "column", "message"})
        self.assertEqual([(x["check"], x["line"]) for x in doc["findings"]],
                         [("rematch-logging", MIXED_LOG_LINE),
                          ("rematch-counter-update", MIXED_COUNTER_LINE),
                          ("rematch-global-read", MIXED_GLOBAL_LINE)])
        # Pretty-printed with a two-space indent.
        self.assertTrue(res.out.startswith('{\n  "version": 1,'), res.out[:40])

    def test_json_matches_text(self):
        f = self.src("mixed.cpp", MIXED)
        text = self.findings(self.rematch(f, *STD))
        doc = self.rematch("--format=json", f, *STD).json()
        self.assertEqual([(c, l, col, lvl, m) for c, l, col, lvl, m, _ in text],
                         [(x["check"], x["line"], x["column"], x["level"], x["message"])
                          for x in doc["findings"]])


class TestSarifFormat(CliTest):
    def sarif(self, *args):
        res = self.rematch("--format=sarif", *args)
        self.assertIn(res.rc, (0, 1), repr(res))
        return res

    def validate(self, res):
        out = write(self.path("out.sarif"), res.out)
        v = self.run_tool([TOOLS.python, TOOLS.validator, TOOLS.schema, out])
        self.assertEqual(v.rc, 0, f"SARIF does not validate:\n{v!r}")

    def test_sarif_validates_and_fields(self):
        f = self.src("mixed.cpp", MIXED)
        res = self.sarif(f, *STD)
        self.assertExit(res, 1)
        self.validate(res)
        doc = res.json()
        self.assertEqual(doc["version"], "2.1.0")
        self.assertEqual(len(doc["runs"]), 1)
        run = doc["runs"][0]
        driver = run["tool"]["driver"]
        self.assertEqual(driver["name"], "rematch")
        self.assertIn("version", driver)
        rules = driver["rules"]
        self.assertEqual(sorted(r["id"] for r in rules), ALL_CHECKS)
        for r in rules:
            self.assertTrue(r.get("helpUri"), r)
            self.assertEqual(r["defaultConfiguration"]["level"], "warning")
        self.assertTrue(run["invocations"][0]["executionSuccessful"])
        results = run["results"]
        self.assertEqual([(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
                          for r in results],
                         [("rematch-logging", MIXED_LOG_LINE),
                          ("rematch-counter-update", MIXED_COUNTER_LINE),
                          ("rematch-global-read", MIXED_GLOBAL_LINE)])
        ids = [r["id"] for r in rules]
        for r in results:
            self.assertEqual(r["level"], "warning")
            self.assertTrue(r["message"]["text"])
            self.assertEqual(ids[r["ruleIndex"]], r["ruleId"])
            loc = r["locations"][0]["physicalLocation"]
            self.assertEqual(loc["artifactLocation"]["uri"], "mixed.cpp")
            self.assertIn("startColumn", loc["region"])
            self.assertRegex(r["partialFingerprints"]["rematch/v1"], r"^[0-9a-f]{16}:\d+$")
            related = r["relatedLocations"]
            self.assertTrue(related)
            self.assertEqual([x["id"] for x in related], list(range(len(related))))
            for x in related:
                self.assertTrue(x["message"]["text"])
        counter = results[1]
        self.assertEqual(len(counter["relatedLocations"]), 3)  # 2 chain steps + site
        self.assertIn("codeFlows", counter)

    def test_sarif_relative_and_subdir_uri(self):
        f = self.src("sub dir/log.cpp", LOGGING)
        res = self.sarif(f, *STD)
        self.validate(res)
        uri = res.json()["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
            "artifactLocation"]["uri"]
        self.assertEqual(uri, "sub%20dir/log.cpp")

    def test_sarif_absolute_uri(self):
        f = self.src("log.cpp", LOGGING)
        res = self.sarif(self.path(f), *STD)
        self.validate(res)
        uri = res.json()["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
            "artifactLocation"]["uri"]
        self.assertTrue(uri.startswith("file://"), uri)
        self.assertTrue(uri.endswith("/log.cpp"), uri)

    def test_sarif_empty_run_validates(self):
        f = self.src("clean.cpp", CLEAN)
        res = self.sarif(f, *STD)
        self.assertExit(res, 0)
        self.validate(res)
        self.assertEqual(res.json()["runs"][0]["results"], [])

    def test_fingerprints_stable_when_lines_added_above(self):
        f = self.src("mixed.cpp", MIXED)
        before = self.sarif(f, *STD).json()["runs"][0]["results"]
        self.src("mixed.cpp", "// a comment\n\nint g_unrelated;\n" + MIXED)
        after = self.sarif(f, *STD).json()["runs"][0]["results"]
        line = lambda r: r["locations"][0]["physicalLocation"]["region"]["startLine"]
        self.assertEqual([line(r) + 3 for r in before], [line(r) for r in after])
        self.assertEqual([r["partialFingerprints"] for r in before],
                         [r["partialFingerprints"] for r in after])
        # The same holds for JSON, and the two formats agree.
        doc = self.rematch("--format=json", f, *STD).json()
        self.assertEqual([x["fingerprint"] for x in doc["findings"]],
                         [r["partialFingerprints"]["rematch/v1"] for r in after])

    def test_fingerprint_occurrence_index(self):
        body = PRELUDE + """\
float f(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    printf("x");
    printf("x");
    return x;
  });
}
"""
        f = self.src("twice.cpp", body)
        doc = self.rematch("--format=json", f, *STD).json()
        fps = [x["fingerprint"] for x in doc["findings"]]
        self.assertEqual(len(fps), 2)
        self.assertEqual(fps[0].split(":")[0], fps[1].split(":")[0])
        self.assertEqual([p.split(":")[1] for p in fps], ["0", "1"])

    def test_sarif_via_output_file_validates(self):
        f = self.src("mixed.cpp", MIXED)
        res = self.rematch("--format=sarif", "--output=o.sarif", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(res.out, "")
        v = self.run_tool([TOOLS.python, TOOLS.validator, TOOLS.schema, self.path("o.sarif")])
        self.assertEqual(v.rc, 0, repr(v))


class TestOptions(CliTest):
    def test_output_file(self):
        f = self.src("log.cpp", LOGGING)
        for fmt in ("text", "json", "sarif"):
            with self.subTest(fmt=fmt):
                out = "out." + fmt
                res = self.rematch("--format=" + fmt, "--output=" + out, f, *STD)
                self.assertExit(res, 1)
                self.assertEqual(res.out, "")
                with open(self.path(out), encoding="utf-8") as fh:
                    written = fh.read()
                direct = self.rematch("--format=" + fmt, f, *STD).out
                self.assertEqual(written, direct)
        # -o is a synonym, and the two-argument form works.
        res = self.rematch("-o", "o2.txt", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(res.out, "")
        with open(self.path("o2.txt"), encoding="utf-8") as fh:
            self.assertIn("[rematch-logging]", fh.read())

    def _database(self, entry_kind):
        f = self.src("log.cpp", LOGGING)
        entry = {"directory": self.dir, "file": "log.cpp"}
        if entry_kind == "arguments":
            entry["arguments"] = ["clang++-19", "-std=c++17", "-c", "log.cpp"]
        else:
            entry["command"] = "clang++-19 -std=c++17 -c log.cpp"
        write(self.path("build", "compile_commands.json"), json.dumps([entry]))
        return f

    def test_compile_commands_arguments(self):
        f = self._database("arguments")
        res = self.rematch("-p", "build", f)
        self.assertExit(res, 1)
        self.assertEqual(self.checks_of(res), ["rematch-logging"])
        self.assertNotIn("no compilation database", res.err)

    def test_compile_commands_command(self):
        f = self._database("command")
        res = self.rematch("-p=build", "--format=json", f)
        self.assertExit(res, 1)
        self.assertEqual([x["check"] for x in res.json()["findings"]], ["rematch-logging"])

    def test_compile_commands_flags_matter(self):
        # A file that needs a define from the database compiles only through it.
        body = "#ifndef NEEDED\n#error NEEDED missing\n#endif\n" + LOGGING
        self.src("log.cpp", body)
        entry = {"directory": self.dir, "file": "log.cpp",
                 "arguments": ["clang++-19", "-std=c++17", "-DNEEDED", "-c", "log.cpp"]}
        write(self.path("build", "compile_commands.json"), json.dumps([entry]))
        res = self.rematch("-p", "build", "log.cpp")
        self.assertExit(res, 1)
        self.assertExit(self.rematch("log.cpp", *STD), 3)

    def test_compile_commands_plus_extra_args(self):
        self.src("inc/h.h", "#define NEEDED 1\n")
        self.src("log.cpp", '#include "h.h"\n#ifndef NEEDED\n#error no\n#endif\n' + LOGGING)
        entry = {"directory": self.dir, "file": "log.cpp",
                 "arguments": ["clang++-19", "-std=c++17", "-c", "log.cpp"]}
        write(self.path("build", "compile_commands.json"), json.dumps([entry]))
        self.assertExit(self.rematch("-p", "build", "log.cpp"), 3)
        self.assertExit(self.rematch("-p", "build", "log.cpp", "--", "-Iinc"), 1)

    def test_werror_in_compile_command_fails_nothing(self):
        # The compiler's warnings are not computed (-w): under -Werror an
        # unused variable would otherwise fail the file. Its errors still do.
        self.src("log.cpp", LOGGING.replace("return seg.forward",
                                            "int unused = 1;\n  return seg.forward"))
        entry = {"directory": self.dir, "file": "log.cpp",
                 "arguments": ["clang++-19", "-std=c++17", "-Wall", "-Werror",
                               "-c", "log.cpp"]}
        write(self.path("build", "compile_commands.json"), json.dumps([entry]))
        res = self.rematch("-p", "build", "log.cpp")
        self.assertExit(res, 1)
        self.assertEqual(self.checks_of(res), ["rematch-logging"])
        self.assertNotIn("unused", res.out + res.err)
        self.src("bad.cpp", BROKEN)
        self.assertExit(self.rematch("bad.cpp", "--", "-std=c++17", "-w"), 3)

    def test_rematch_yaml_checks_key(self):
        self.src("proj/.rematch.yaml", 'Checks: "-*,rematch-io"\n')
        f = self.src("proj/mixed.cpp", MIXED)
        self.assertExit(self.rematch(f, *STD), 0)
        self.src("proj/.rematch.yaml", 'Checks: "-*,rematch-global-read"\n')
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(self.checks_of(res), ["rematch-global-read"])

    def test_checkpoint_functions_option(self):
        f = self.src("custom.cpp", CUSTOM)
        self.assertExit(self.rematch(f, *STD), 0)
        res = self.rematch("--checkpoint-functions=custom::run", f, *STD)
        self.assertExit(res, 1)
        found = self.findings(res)
        self.assertEqual([(c, l) for c, l, *_ in found], [("rematch-logging", CUSTOM_LINE)])
        self.assertIn("'custom::run'", res.out)

    def test_rematch_yaml_next_to_source(self):
        self.src("proj/.rematch.yaml", "CheckpointFunctions: [custom::run]\n")
        f = self.src("proj/custom.cpp", CUSTOM)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(self.checks_of(res), ["rematch-logging"])

    def test_rematch_yaml_found_upward(self):
        self.src("proj/.rematch.yaml", "CheckpointFunctions: [custom::run]\n")
        f = self.src("proj/a/b/custom.cpp", CUSTOM)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)

    def test_config_file_overrides_discovery(self):
        # The discovered one is malformed: --config-file means it is not read.
        self.src("proj/.rematch.yaml", "NoSuchKey: [x]\n")
        cfg = self.src("elsewhere/cfg.yaml", "CheckpointFunctions: [custom::run]\n")
        f = self.src("proj/custom.cpp", CUSTOM)
        res = self.rematch("--config-file=" + cfg, f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(self.checks_of(res), ["rematch-logging"])

    def test_config_file_replaces_discovered_entry_points(self):
        self.src("proj/.rematch.yaml", "CheckpointFunctions: [custom::run]\n")
        cfg = self.src("empty.yaml", "CheckpointFunctions: []\n")
        f = self.src("proj/custom.cpp", CUSTOM)
        self.assertExit(self.rematch(f, *STD), 1)
        res = self.rematch("--config-file", cfg, f, *STD)
        self.assertExit(res, 0)

    def test_checks_filter(self):
        f = self.src("mixed.cpp", MIXED)
        res = self.rematch("--checks=-*,rematch-logging", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(self.checks_of(res), ["rematch-logging"])
        res = self.rematch("--checks=rematch-*,-rematch-logging", f, *STD)
        self.assertEqual(self.checks_of(res),
                         ["rematch-counter-update", "rematch-global-read"])
        res = self.rematch("--checks=-*,rematch-io", f, *STD)
        self.assertExit(res, 0)

    def test_warnings_as_errors(self):
        f = self.src("mixed.cpp", MIXED)
        res = self.rematch("--warnings-as-errors=rematch-logging", f, *STD)
        self.assertExit(res, 1)
        levels = {c: lvl for c, _, _, lvl, _, _ in self.findings(res)}
        self.assertEqual(levels, {"rematch-logging": "error",
                                  "rematch-counter-update": "warning",
                                  "rematch-global-read": "warning"})
        self.assertRegex(res.out, r"mixed\.cpp:\d+:5: error: .*\[rematch-logging\]")
        doc = self.rematch("--format=json", "--warnings-as-errors=rematch-logging",
                           f, *STD).json()
        self.assertEqual({x["check"]: x["level"] for x in doc["findings"]}, levels)
        res = self.rematch("--format=sarif", "--warnings-as-errors=rematch-logging", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual({r["ruleId"]: r["level"] for r in res.json()["runs"][0]["results"]},
                         levels)

    def test_chain_inline(self):
        f = self.src("mixed.cpp", MIXED)
        res = self.rematch("--format=json", "--chain=inline", f, *STD)
        self.assertExit(res, 1)
        counter = [x for x in res.json()["findings"] if x["check"] == "rematch-counter-update"]
        self.assertEqual(len(counter), 1)
        self.assertIn(" via outer -> bump", counter[0]["message"])
        self.assertIn("'g_steps'", counter[0]["message"])
        # Only the checkpoint-site note is left... or the chain notes; at least
        # the checkpoint site is there.
        self.assertTrue(any("checkpointed by this call" in n["message"]
                            for n in counter[0]["notes"]))

    def test_chain_notes_default(self):
        f = self.src("mixed.cpp", MIXED)
        for args in ([], ["--chain=notes"]):
            with self.subTest(args=args):
                res = self.rematch("--format=json", *args, f, *STD)
                counter = [x for x in res.json()["findings"]
                           if x["check"] == "rematch-counter-update"][0]
                self.assertNotIn(" via ", counter["message"])
                notes = [(n["line"], n["message"]) for n in counter["notes"]]
                bump_line = PRELUDE_LINES + 1
                outer_line = PRELUDE_LINES + 2
                self.assertEqual(len(notes), 3, notes)
                self.assertEqual(notes[0][0], outer_line)
                self.assertIn("'outer' calls 'bump'", notes[0][1])
                self.assertEqual(notes[1][0], bump_line)
                self.assertIn("'bump' increments 'g_steps'", notes[1][1])
                self.assertIn("checkpointed by this call", notes[2][1])

    def test_fix_rewrites_in_place(self):
        f = self.src("fix.cpp", FIXABLE)
        res = self.rematch("--fix", f, *STD)
        self.assertExit(res, 1)  # the findings are still reported
        with open(self.path(f), encoding="utf-8") as fh:
            fixed = fh.read()
        self.assertNotEqual(fixed, FIXABLE)
        self.assertIn("[x, g_scale = g_scale]", fixed)
        # The fixed file has no global-read finding any more.
        res = self.rematch(f, *STD)
        self.assertExit(res, 0)

    def test_no_fix_without_flag(self):
        f = self.src("fix.cpp", FIXABLE)
        self.rematch(f, *STD)
        with open(self.path(f), encoding="utf-8") as fh:
            self.assertEqual(fh.read(), FIXABLE)

    def test_nolint_suppresses(self):
        body = LOGGING.replace('printf("x %f\\n", x);',
                               'printf("x %f\\n", x); // NOLINT(rematch-logging)')
        self.assertNotEqual(body, LOGGING)
        f = self.src("nolint.cpp", body)
        self.assertExit(self.rematch(f, *STD), 0)
        body = LOGGING.replace('    printf(', '    // NOLINTNEXTLINE\n    printf(')
        f = self.src("nolint2.cpp", body)
        self.assertExit(self.rematch(f, *STD), 0)
        # A NOLINT for another check does not.
        body = LOGGING.replace('printf("x %f\\n", x);',
                               'printf("x %f\\n", x); // NOLINT(rematch-io)')
        f = self.src("nolint3.cpp", body)
        self.assertExit(self.rematch(f, *STD), 1)

    def test_options_with_single_dash(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("-format=json", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(res.json()["version"], 1)

    def test_multiple_files_order(self):
        a = self.src("b.cpp", LOGGING)
        b = self.src("a.cpp", MIXED)
        doc = self.rematch("--format=json", a, b, *STD).json()
        self.assertEqual([x["file"] for x in doc["files"]], ["b.cpp", "a.cpp"])
        self.assertEqual([x["file"] for x in doc["findings"]],
                         ["b.cpp", "a.cpp", "a.cpp", "a.cpp"])


class TestPaths(CliTest):
    def test_path_with_space(self):
        f = self.src("my dir/my file.cpp", LOGGING)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        found = self.findings(res)
        self.assertEqual(len(found), 1)
        self.assertEqual(found[0][5], "my dir/my file.cpp")
        doc = self.rematch("--format=json", f, *STD).json()
        self.assertEqual(doc["findings"][0]["file"], "my dir/my file.cpp")

    def test_non_utf8_file_name(self):
        name = b"caf\xe9 log.cpp"  # Latin-1 e-acute: not valid UTF-8
        write(os.path.join(os.fsencode(self.dir), name), LOGGING.encode())
        argv = [os.fsencode(TOOLS.rematch), name, b"--", b"-std=c++17"]
        res = self.run_tool(argv)
        self.assertExit(res, 1)
        self.assertIn("[rematch-logging]", res.out)
        # The byte itself, not a replacement, names the file in text output.
        self.assertIn(b"caf\xe9 log.cpp:%d:5:" % LOGGING_LINE,
                      res.out.encode("utf-8", "surrogateescape"))
        # Machine formats stay parseable.
        for fmt in (b"json", b"sarif"):
            res = self.run_tool([os.fsencode(TOOLS.rematch), b"--format=" + fmt, name,
                                 b"--", b"-std=c++17"])
            self.assertExit(res, 1)
            json.loads(res.out)  # valid JSON despite the byte
        res = self.run_tool([os.fsencode(TOOLS.rematch), b"--format=sarif", name,
                             b"--", b"-std=c++17"])
        uri = json.loads(res.out)["runs"][0]["results"][0]["locations"][0][
            "physicalLocation"]["artifactLocation"]["uri"]
        self.assertEqual(uri, "caf%E9%20log.cpp")


class TestPathSpelling(CliTest):
    def test_dot_slash_kept_as_given(self):
        f = self.src("log.cpp", LOGGING)
        res = self.rematch("--format=sarif", "./log.cpp", *STD)
        self.assertExit(res, 1)
        run = res.json()["runs"][0]
        uri = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        self.assertEqual(uri, "./log.cpp")
        doc = self.rematch("--format=json", "./log.cpp", *STD).json()
        self.assertEqual(doc["files"][0]["file"], "./log.cpp")
        self.assertEqual(doc["findings"][0]["file"], "./log.cpp")

    def test_colon_in_relative_path_is_encoded(self):
        f = self.src("a:b.cpp", LOGGING)
        res = self.rematch("--format=sarif", f, *STD)
        self.assertExit(res, 1)
        out = write(self.path("o.sarif"), res.out)
        v = self.run_tool([TOOLS.python, TOOLS.validator, TOOLS.schema, out])
        self.assertEqual(v.rc, 0, repr(v))
        run = res.json()["runs"][0]
        uri = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        self.assertEqual(uri, "a%3Ab.cpp")

    def test_tab_is_repeated_in_caret_line(self):
        body = LOGGING.replace('    printf("x', '\tprintf("x')
        f = self.src("tab.cpp", body)
        res = self.rematch(f, *STD)
        self.assertExit(res, 1)
        lines = res.out.splitlines()
        self.assertRegex(lines[0], r"^tab\.cpp:\d+:2: warning: ")
        self.assertEqual(lines[1], '\tprintf("x %f\\n", x);')
        self.assertEqual(lines[2], "\t^")

    def test_relative_path_from_another_directory(self):
        self.src("proj/src/log.cpp", LOGGING)
        res = self.rematch("--format=json", "src/log.cpp", *STD, cwd=self.path("proj"))
        self.assertExit(res, 1)
        doc = res.json()
        self.assertEqual(doc["findings"][0]["file"], "src/log.cpp")
        self.assertEqual(doc["findings"][0]["notes"][0]["file"], "src/log.cpp")


class TestKnownDeviations(CliTest):
    """Compile-database cases that once went wrong: a command inferred for a
    file the database does not list, an entry ending in `-- file`, and an
    empty database (which must not pass as "analysed")."""


    def test_file_missing_from_database_is_inferred(self):
        # -p: a file not listed in compile_commands.json gets a command
        # inferred from a neighbour (the driver asks for that). Today the
        # driver's own -fno-caret-diagnostics lands after the inferred "--"
        # and is read as an input file: exit 3, "no such file or directory:
        # '-fno-caret-diagnostics'".
        self.src("log.cpp", LOGGING)
        self.src("other.cpp", "int other;\n")
        entry = {"directory": self.dir, "file": "other.cpp",
                 "arguments": ["clang++-19", "-std=c++17", "-c", "other.cpp"]}
        write(self.path("build", "compile_commands.json"), json.dumps([entry]))
        res = self.rematch("-p", "build", "--format=json", "log.cpp")
        self.assertExit(res, 1)


    def test_database_entry_with_double_dash(self):
        # A compile command that ends "-- <file>" is valid; same cause.
        self.src("log.cpp", LOGGING)
        entry = {"directory": self.dir, "file": "log.cpp",
                 "arguments": ["clang++-19", "-std=c++17", "-c", "--", "log.cpp"]}
        write(self.path("build", "compile_commands.json"), json.dumps([entry]))
        self.assertExit(self.rematch("-p", "build", "log.cpp"), 1)


    def test_empty_database_does_not_report_success(self):
        # compile_commands.json is "[]": clang-tidy prints "Skipping ...
        # Compile command not found." and rematch reports the file as
        # "analysed" with exit 0, although nothing was analysed.
        self.src("log.cpp", LOGGING)
        write(self.path("build", "compile_commands.json"), "[]")
        res = self.rematch("-p", "build", "--format=json", "log.cpp")
        self.assertIn(res.rc, (2, 3), repr(res))


def parse_clang_tidy(text):
    found = set()
    for line in text.splitlines():
        m = TEXT_WARNING.match(line)
        if m:
            found.add((os.path.basename(m["file"]), m["check"], int(m["line"]),
                       int(m["col"]), m["msg"]))
    return found


class TestPluginModels(CliTest):
    """The plugin's own options: Models (a project's model files) and
    CheckpointFunctions with the sources an entry point replays."""

    SOURCE = """\
namespace ours { float noise(); }
namespace nn {
template <class F> float checkpoint(F f) { return f(); }
template <class F> float seeded(F f) { return f(); }
}
float a() { return nn::checkpoint([] { return ours::noise(); }); }
float b() { return nn::seeded([] { return ours::noise(); }); }
"""
    MODEL = """\
Sources:
  - {Name: ours.noise, Description: "our noise stream"}
Functions:
  - {Name: ours::noise, Effect: rng, Source: ours.noise}
"""

    def tidy(self, options):
        f = self.src("m.cpp", self.SOURCE)
        return self.run_tool([TOOLS.clang_tidy, "--load=" + TOOLS.plugin,
                              "--checks=-*,rematch-*",
                              "--config={CheckOptions: {%s}}" % options,
                              f, "--", "-std=c++17"])

    def test_models_option_and_replays(self):
        model = self.src("ours.yaml", self.MODEL)
        res = self.tidy("Models: '%s', CheckpointFunctions: "
                        "'nn::checkpoint,nn::seeded[ours.noise]'" % model)
        self.assertEqual(res.rc, 0, repr(res))
        warnings = [l for l in res.out.splitlines() if "warning:" in l]
        self.assertEqual(len(warnings), 1, res.out)
        self.assertIn("m.cpp:6:", warnings[0])
        self.assertIn("draws from our noise stream through 'ours::noise', "
                      "which 'nn::checkpoint' does not replay", warnings[0])

    def test_without_the_model_nothing_is_known(self):
        res = self.tidy("CheckpointFunctions: 'nn::checkpoint,nn::seeded'")
        self.assertEqual(res.rc, 0, repr(res))
        self.assertNotIn("warning:", res.out)

    def test_broken_model_is_a_configuration_error(self):
        model = self.src("bad.yaml", "Functions: [{Name: f}]\n")
        res = self.tidy("Models: '%s', CheckpointFunctions: 'nn::checkpoint'" % model)
        self.assertIn("bad.yaml:1:", res.out + res.err)
        self.assertIn("an entry needs 'Effect'", res.out + res.err)


class TestPluginParity(CliTest):
    def test_examples_same_findings(self):
        lint = os.path.join(TOOLS.root, "examples", "lint")
        files = sorted(os.path.join(lint, f) for f in os.listdir(lint) if f.endswith(".cpp"))
        self.assertTrue(files)
        # libtorch_block.cpp includes libtorch's API headers (libtorch-dev).
        args = ["-std=c++17", "-I", os.path.join(TOOLS.root, "runtime", "include"),
                "-I", "/usr/include/torch/csrc/api/include"]
        total = 0
        for f in files:
            with self.subTest(file=os.path.basename(f)):
                cli = self.rematch(f, "--", *args)
                self.assertExit(cli, 1)
                tidy = self.run_tool([TOOLS.clang_tidy, "--load=" + TOOLS.plugin,
                                      "--checks=-*,rematch-*", f, "--"] + args)
                self.assertEqual(tidy.rc, 0, repr(tidy))
                a, b = parse_clang_tidy(cli.out), parse_clang_tidy(tidy.out)
                self.assertTrue(a)
                self.assertEqual(a, b)
                total += len(a)
        # The custom entry point from examples/lint/.rematch.yaml is honoured.
        custom = os.path.join(lint, "custom_entry_point.cpp")
        if custom in files:
            res = self.rematch("--format=json", custom, "--", *args)
            notes = [n["message"] for x in res.json()["findings"] for n in x["notes"]]
            self.assertTrue(any("trainer::run_checkpointed" in n for n in notes), notes)

    def test_plugin_same_findings_and_notes(self):
        f = self.src("mixed.cpp", MIXED)
        tidy = self.run_tool([TOOLS.clang_tidy, "--load=" + TOOLS.plugin,
                              "--checks=-*,rematch-*", f, "--", "-std=c++17"])
        cli = self.rematch(f, *STD)
        self.assertExit(cli, 1)

        def diags(text):
            out = []
            for line in text.splitlines():
                m = TEXT_WARNING.match(line)
                if m:
                    out.append([(m["check"], m["line"], m["col"], m["msg"])])
                    continue
                m = TEXT_NOTE.match(line)
                if m and out:
                    out[-1].append((m["line"], m["col"], m["msg"]))
            return sorted(out)

        self.assertEqual(diags(cli.out), diags(tidy.out))
        self.assertEqual(len(diags(cli.out)), 3)
        # --chain=inline reaches the plugin as a check option too.
        tidy = self.run_tool([TOOLS.clang_tidy, "--load=" + TOOLS.plugin,
                              "--checks=-*,rematch-*",
                              "--config={CheckOptions: {Chain: inline}}",
                              f, "--", "-std=c++17"])
        cli = self.rematch("--chain=inline", f, *STD)
        self.assertEqual(diags(cli.out), diags(tidy.out))
        self.assertIn(" via outer -> bump", cli.out)

    def test_plugin_leaves_other_checks_their_matches(self):
        # The rematch program ends clang-tidy's matcher traversal after the
        # rematch checks ran on the translation unit; in clang-tidy itself a
        # check of another module still sees every node, before and after
        # the rematch ones.
        f = self.src("other.cpp", MIXED + """
int other_module(int x) {
  if (x)
    return 1;
  return 0;
}
""")
        tidy = self.run_tool([TOOLS.clang_tidy, "--load=" + TOOLS.plugin,
                              "--checks=-*,rematch-*,readability-braces-around-statements",
                              f, "--", "-std=c++17"])
        found = re.findall(r"^.+?:(\d+):\d+: warning: .* \[([a-z-]+)\]$", tidy.out, re.M)
        line = MIXED.count("\n") + 3
        self.assertIn((str(line), "readability-braces-around-statements"), found, tidy.out)
        self.assertTrue(any(c.startswith("rematch-") for _, c in found), tidy.out)

    def test_plugin_honours_rematch_yaml(self):
        self.src("proj/.rematch.yaml", "CheckpointFunctions: [custom::run]\n")
        f = self.src("proj/custom.cpp", CUSTOM)
        tidy = self.run_tool([TOOLS.clang_tidy, "--load=" + TOOLS.plugin,
                              "--checks=-*,rematch-*", f, "--", "-std=c++17"])
        cli = self.rematch(f, *STD)
        self.assertExit(cli, 1)
        self.assertEqual(parse_clang_tidy(tidy.out), parse_clang_tidy(cli.out))
        self.assertTrue(parse_clang_tidy(tidy.out))


    def test_plugin_honours_per_check_options(self):
        # A rematch check given its own CheckpointFunctions analyses with
        # it; the others keep the global value.
        f = self.src("per_check.cpp", """\
#include <cstdio>
namespace a { template <class F> void run(F f) { f(); } }
namespace b { template <class F> void run(F f) { f(); } }
int g;
void use() {
  a::run([] { std::printf("x"); ++g; });
  b::run([] { std::printf("y"); ++g; });
}
""")
        tidy = self.run_tool([TOOLS.clang_tidy, "--load=" + TOOLS.plugin,
                              "--checks=-*,rematch-*",
                              "--config={CheckOptions: {CheckpointFunctions: "
                              "'b::run', rematch-logging.CheckpointFunctions: "
                              "'a::run'}}", f, "--", "-std=c++17"])
        found = sorted((c, int(l)) for l, c in re.findall(
            r"^.+?:(\d+):\d+: warning: .* \[([a-z-]+)\]$", tidy.out, re.M))
        self.assertEqual(found, [("rematch-counter-update", 7),
                                 ("rematch-logging", 6)], tidy.out)
        # --dump-config shows every option the checks read, the config file
        # included.
        dump = self.run_tool([TOOLS.clang_tidy, "--load=" + TOOLS.plugin,
                              "--checks=-*,rematch-io", "--dump-config", f,
                              "--", "-std=c++17"])
        for key in ("CheckpointFunctions", "RematchConfigFile", "Models", "Chain",
                    "RematchSummariesDir"):
            self.assertIn("rematch-io." + key, dump.out)

class TestPluginSummaries(CliTest):
    """The plugin reads a rematch run's summaries (RematchSummariesDir, what
    rematch_add_lint() sets) and never writes them."""

    FILES = {
        "a.cpp": '#include "c.h"\n'
                 "float step(rematch::Segment &seg, Stats &s, float x) {\n"
                 "  return seg.forward([&] { bump(s); return x; });\n}\n",
        "b.cpp": '#include "c.h"\nvoid bump(Stats &s) { ++s.steps; }\n',
    }
    HEADER = ("namespace rematch { struct Segment { template <class F> "
              "decltype(auto) forward("
              "[[clang::annotate(\"rematch::recomputed\")]] F&& f) "
              "{ return f(); } }; }\n"
              "struct Stats { long steps = 0; };\nvoid bump(Stats &s);\n")

    def setUp(self):
        super().setUp()
        self.src("c.h", self.HEADER)
        for name, text in self.FILES.items():
            self.src(name, text)
        os.makedirs(self.path("build"))
        with open(self.path("build", "compile_commands.json"), "w") as f:
            json.dump([{"directory": self.dir, "file": n,
                        "arguments": ["clang++-19", "-std=c++17", "-c", n]}
                       for n in self.FILES], f)

    def tidy(self, *options):
        config = ["--config={CheckOptions: {%s}}" % o for o in options]
        return self.run_tool([TOOLS.clang_tidy, "--load=" + TOOLS.plugin,
                              "--checks=-*,rematch-*", *config,
                              self.path("a.cpp"), "--", "-std=c++17"])

    def test_cross_file_chain_from_a_rematch_run(self):
        cache = self.path("build", ".rematch-cache")
        option = "RematchSummariesDir: '%s'" % cache
        # No summaries yet: each file alone, and nothing is written.
        self.assertNotIn("warning:", self.tidy(option).out)
        self.assertFalse(os.path.exists(cache))
        self.assertExit(self.rematch("-p", "build", "a.cpp", "b.cpp"), 1)
        before = sorted(os.listdir(cache))
        res = self.tidy(option)
        self.assertIn("a.cpp:3:28: warning: checkpointed lambda calls 'bump', "
                      "which increments 's.steps'", res.out)
        self.assertIn("b.cpp:2:23: note: 'bump' increments 's.steps' here",
                      res.out)
        self.assertEqual(sorted(os.listdir(cache)), before)
        # Without the option the plugin sees one translation unit.
        self.assertNotIn("warning:", self.tidy().out)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rematch", required=True)
    p.add_argument("--plugin", required=True)
    p.add_argument("--clang-tidy", required=True, dest="clang_tidy")
    p.add_argument("--root", required=True)
    p.add_argument("--validator", required=True)
    p.add_argument("--schema", required=True)
    p.add_argument("--python", default=sys.executable)
    ns, rest = p.parse_known_args()
    for k, v in vars(ns).items():
        setattr(TOOLS, k, os.path.abspath(v) if k not in ("clang_tidy", "python")
                or os.sep in v else (shutil.which(v) or v))
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
