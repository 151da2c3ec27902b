#!/usr/bin/env python3
"""End-to-end tests of rematch in commits and CI: baselines, line filters,
the git pre-commit hook and the pre-commit framework manifest.

Usage (the arguments of test_cli.py; unknown ones are ignored):
  test_precommit.py --rematch <rematch> --plugin <librematch-tidy.so>
                    --clang-tidy <clang-tidy-19> --root <source root>
                    [--validator <validate_sarif.py> --schema <sarif schema>]
                    [--python <python3>] [unittest arguments, e.g. TestBaseline]

Every test works in its own temporary directory; git runs with a private
HOME and no system or global configuration. Standard library only.
"""

import argparse
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import unittest

# The helpers shared by the test drivers, in tests/support.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from rematch_testing import TempDirTest, write  # noqa: E402

TOOLS = argparse.Namespace()

STD = ["--", "-std=c++17"]

PRELUDE = """\
namespace rematch { bool recomputing(); struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
extern "C" int printf(const char*, ...);
int g_steps;
float g_scale = 2;
"""
PRELUDE_LINES = PRELUDE.count("\n")


def body(*statements):
    """A checkpointed lambda holding the statements, one per line; the first
    statement is on line PRELUDE_LINES + 3."""
    inner = "".join("    %s\n" % s for s in statements)
    return PRELUDE + ("float f(rematch::Segment &seg, float x) {\n"
                      "  return seg.forward([x] {\n"
                      "%s"
                      "    return x;\n"
                      "  });\n"
                      "}\n") % inner


LOG = 'printf("x %f\\n", x);'
BUMP = "++g_steps;"
CLEAN = body()
FIRST = PRELUDE_LINES + 3  # the line of the first statement of body()

TEXT_WARNING = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<level>warning|error): "
    r"(?P<msg>.*) \[(?P<check>rematch-[a-z-]+)(?P<extra>,[^\]]*)?\]$")


class Test(TempDirTest):
    prefix = "rematch-precommit-"

    def setUp(self):
        super().setUp()
        # realpath: git prints resolved paths (macOS /tmp is a symlink).
        self.dir = os.path.realpath(self.dir)
        self.home = os.path.join(self.dir, ".home")
        os.mkdir(self.home)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith("GIT_") and k != "REMATCH"}
        self.env.update(HOME=self.home, GIT_CONFIG_NOSYSTEM="1",
                        GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C")

    def run_tool(self, argv, cwd=None, env=None, timeout=300):
        # git runs with the private HOME and configuration of setUp.
        return super().run_tool(argv, cwd=cwd, timeout=timeout, env=env or self.env)

    def rematch(self, *args, cwd=None):
        return self.run_tool([TOOLS.rematch] + list(args), cwd=cwd)

    def git(self, *args, cwd=None, check=True):
        res = self.run_tool(["git"] + list(args), cwd=cwd)
        if check:
            self.assertEqual(res.rc, 0, f"git {' '.join(args)} failed\n{res!r}")
        return res

    def init_repo(self, cwd=None):
        self.git("init", "-q", "-b", "main", cwd=cwd)
        self.git("config", "user.name", "rematch test", cwd=cwd)
        self.git("config", "user.email", "rematch@example.invalid", cwd=cwd)
        self.git("config", "commit.gpgsign", "false", cwd=cwd)

    def commit_all(self, message="commit", cwd=None):
        self.git("add", "-A", cwd=cwd)
        self.git("commit", "-q", "--no-verify", "-m", message, cwd=cwd)

    def findings(self, res):
        """(file, line, check, level) of each text warning or error."""
        out = []
        for line in res.out.splitlines():
            m = TEXT_WARNING.match(line)
            if m:
                out.append((m["file"], int(m["line"]), m["check"], m["level"]))
        return out

    def database(self, build="build", files=("a.cpp",), root=None):
        root = root or self.dir
        entries = [{"directory": root, "file": f,
                    "arguments": ["clang++-19", "-std=c++17", "-c", f]}
                   for f in files]
        write(os.path.join(root, build, "compile_commands.json"), json.dumps(entries))

    def sarif_fingerprints(self, path):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        return [r["partialFingerprints"]["rematch/v1"]
                for r in doc["runs"][0]["results"]]


class TestBaseline(Test):
    def test_everything_in_baseline_is_0(self):
        f = self.src("a.cpp", body(LOG, BUMP))
        res = self.rematch("--write-baseline=base.sarif", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(len(self.findings(res)), 2)
        self.assertEqual(len(self.sarif_fingerprints(self.path("base.sarif"))), 2)
        res = self.rematch("--baseline=base.sarif", f, *STD)
        self.assertExit(res, 0)
        self.assertEqual(self.findings(res), [])
        self.assertIn("2 findings not reported (2 in the baseline)", res.err)

    def test_only_new_findings_reported(self):
        f = self.src("a.cpp", body(LOG))
        self.assertExit(self.rematch("--write-baseline=base.sarif", f, *STD), 1)
        # A new hazard, and lines added above the old one: only the new one.
        self.src("a.cpp", "// a comment\n\n" + body(BUMP, LOG))
        res = self.rematch("--baseline=base.sarif", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual([(c, l) for _, l, c, _ in self.findings(res)],
                         [("rematch-counter-update", FIRST + 2)])
        for fmt in ("json", "sarif"):
            res = self.rematch("--baseline=base.sarif", "--format=" + fmt, f, *STD)
            self.assertExit(res, 1)
            doc = res.json()
            checks = ([x["check"] for x in doc["findings"]] if fmt == "json" else
                      [x["ruleId"] for x in doc["runs"][0]["results"]])
            self.assertEqual(checks, ["rematch-counter-update"])

    def test_write_baseline_holds_every_finding(self):
        f = self.src("a.cpp", body(LOG))
        self.assertExit(self.rematch("--write-baseline=old.sarif", f, *STD), 1)
        self.src("a.cpp", body(LOG, BUMP))
        res = self.rematch("--baseline=old.sarif", "--write-baseline=new.sarif",
                           "--format=sarif", "--output=out.sarif", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(len(self.sarif_fingerprints(self.path("new.sarif"))), 2)
        self.assertEqual(len(self.sarif_fingerprints(self.path("out.sarif"))), 1)
        # The same file as baseline and new baseline: read first, then written.
        res = self.rematch("--baseline=new.sarif", "--write-baseline=new.sarif", f, *STD)
        self.assertExit(res, 0)
        self.assertEqual(len(self.sarif_fingerprints(self.path("new.sarif"))), 2)

    def test_fingerprint_of_a_reported_duplicate_is_kept(self):
        # Two identical hazards in one file: :0 and :1. With :0 in the baseline
        # the report must still call the new one :1, as the full run does.
        f = self.src("a.cpp", body(BUMP))
        self.assertExit(self.rematch("--write-baseline=base.sarif", f, *STD), 1)
        self.src("a.cpp", body(BUMP, BUMP))
        full = self.rematch("--format=json", f, *STD).json()["findings"]
        self.assertEqual([x["fingerprint"][-2:] for x in full], [":0", ":1"])
        res = self.rematch("--baseline=base.sarif", "--format=json", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual([x["fingerprint"] for x in res.json()["findings"]],
                         [full[1]["fingerprint"]])

    def test_baseline_output_validates(self):
        if not getattr(TOOLS, "validator", None) or not getattr(TOOLS, "schema", None):
            self.skipTest("no --validator/--schema")
        f = self.src("a.cpp", body(LOG))
        self.rematch("--write-baseline=base.sarif", f, *STD)
        res = self.run_tool([TOOLS.python, TOOLS.validator, TOOLS.schema,
                             self.path("base.sarif")])
        self.assertExit(res, 0)

    def test_missing_baseline_is_2(self):
        f = self.src("a.cpp", body(LOG))
        res = self.rematch("--baseline=nope.sarif", f, *STD)
        self.assertExit(res, 2)
        self.assertIn("nope.sarif", res.err)
        self.assertEqual(res.out, "")

    def test_corrupt_baseline_is_2(self):
        f = self.src("a.cpp", body(LOG))
        for name, text in [("trunc.sarif", '{"runs": [{"tool": '),
                           ("other.sarif", json.dumps({"version": "2.1.0", "runs": [
                               {"tool": {"driver": {"name": "clang-tidy"}}, "results": []}]})),
                           ("nofp.sarif", json.dumps({"version": "2.1.0", "runs": [
                               {"tool": {"driver": {"name": "rematch"}},
                                "results": [{"message": {"text": "x"}}]}]})),
                           ("array.sarif", "[]")]:
            self.src(name, text)
            res = self.rematch("--baseline=" + name, f, *STD)
            self.assertExit(res, 2)
            self.assertIn(name + ": error: invalid baseline", res.err)
            self.assertEqual(res.out, "")

    def test_empty_rematch_run_is_a_valid_baseline(self):
        clean = self.src("clean.cpp", CLEAN)
        self.assertExit(self.rematch("--write-baseline=base.sarif", clean, *STD), 0)
        f = self.src("a.cpp", body(LOG))
        self.assertExit(self.rematch("--baseline=base.sarif", f, *STD), 1)

    def test_unwritable_write_baseline_is_2(self):
        f = self.src("a.cpp", body(LOG))
        res = self.rematch("--write-baseline=" + self.path("no", "dir", "b.sarif"), f, *STD)
        self.assertExit(res, 2)
        self.assertIn("b.sarif", res.err)


class TestChangedLines(Test):
    def setUp(self):
        super().setUp()
        self.init_repo()

    def test_legacy_finding_not_reported_new_one_is(self):
        f = self.src("a.cpp", body(LOG))
        self.commit_all()
        self.assertExit(self.rematch("--changed-lines=HEAD", f, *STD), 0)
        self.src("a.cpp", body(LOG, BUMP))
        res = self.rematch("--changed-lines=HEAD", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual([(c, l) for _, l, c, _ in self.findings(res)],
                         [("rematch-counter-update", FIRST + 1)])
        self.assertIn("1 finding not reported (1 outside the selected lines)", res.err)
        # Committed since HEAD~1: the revision decides, not the index.
        self.commit_all()
        self.assertExit(self.rematch("--changed-lines=HEAD", f, *STD), 0)
        res = self.rematch("--changed-lines=HEAD~1", "--format=json", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual([x["check"] for x in res.json()["findings"]],
                         ["rematch-counter-update"])

    def test_untracked_and_newly_staged_files_are_all_changed(self):
        self.src("old.cpp", CLEAN)
        self.commit_all()
        f = self.src("new.cpp", body(LOG))
        res = self.rematch("--changed-lines=HEAD", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(len(self.findings(res)), 1)
        self.git("add", f)
        self.assertExit(self.rematch("--changed-lines=HEAD", f, *STD), 1)

    def test_subdirectory_and_other_cwd(self):
        self.src("src/a.cpp", body(LOG))
        self.commit_all()
        self.src("src/a.cpp", body(LOG, BUMP))
        res = self.rematch("--changed-lines=HEAD", "a.cpp", *STD, cwd=self.path("src"))
        self.assertExit(res, 1)
        self.assertEqual([(x[0], x[2]) for x in self.findings(res)],
                         [("a.cpp", "rematch-counter-update")])
        res = self.rematch("--changed-lines=main", "src/a.cpp", *STD)
        self.assertEqual([(x[0], x[2]) for x in self.findings(res)],
                         [("src/a.cpp", "rematch-counter-update")])

    def test_deleted_lines_only_report_nothing(self):
        f = self.src("a.cpp", body(LOG, BUMP, "g_steps = 3;"))
        self.commit_all()
        self.src("a.cpp", body(LOG, BUMP))
        self.assertExit(self.rematch("--changed-lines=HEAD", f, *STD), 0)

    def test_odd_file_name(self):
        f = self.src("we ird\u00fc.cpp", CLEAN)
        self.commit_all()
        self.src(f, body(LOG))
        res = self.rematch("--changed-lines=HEAD", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual(len(self.findings(res)), 1)

    def test_combined_with_baseline(self):
        f = self.src("a.cpp", body(LOG))
        self.commit_all()
        self.src("a.cpp", body(LOG, BUMP, "g_steps = 3;"))
        self.rematch("--write-baseline=base.sarif", "--checks=rematch-state-write", f, *STD)
        res = self.rematch("--changed-lines=HEAD", "--baseline=base.sarif", f, *STD)
        self.assertExit(res, 1)
        self.assertEqual([c for _, _, c, _ in self.findings(res)], ["rematch-counter-update"])

    def test_bad_revision_is_2(self):
        f = self.src("a.cpp", body(LOG))
        self.commit_all()
        for rev in ("no-such-branch", "--all", "HEAD~5"):
            res = self.rematch("--changed-lines=" + rev, f, *STD)
            self.assertExit(res, 2)
            self.assertIn("'%s' is not a commit" % rev, res.err)
            self.assertEqual(res.out, "")

    def test_not_a_git_repository_is_2(self):
        outside = tempfile.mkdtemp(prefix="rematch-nogit-")
        self.addCleanup(shutil.rmtree, outside)
        write(os.path.join(outside, "a.cpp"), body(LOG))
        res = self.rematch("--changed-lines=HEAD", "a.cpp", *STD, cwd=outside)
        self.assertExit(res, 2)
        self.assertIn("a.cpp: error: --changed-lines: the file is not in a git work tree",
                      res.err)


class TestLineFilter(Test):
    def test_selects_lines(self):
        f = self.src("a.cpp", body(LOG, BUMP))
        res = self.rematch('--line-filter=[{"name":"a.cpp","lines":[[%d,%d]]}]'
                           % (FIRST + 1, FIRST + 1), f, *STD)
        self.assertExit(res, 1)
        self.assertEqual([c for _, _, c, _ in self.findings(res)], ["rematch-counter-update"])
        res = self.rematch('--line-filter=[{"name":"a.cpp","lines":[[1,3],[%d,%d]]}]'
                           % (FIRST, FIRST + 5), f, *STD)
        self.assertEqual(len(self.findings(res)), 2)

    def test_clang_tidy_semantics(self):
        f = self.src("sub/a.cpp", body(LOG, BUMP))
        # No "lines": the whole file. A suffix of the path matches.
        self.assertExit(self.rematch('--line-filter=[{"name":"sub/a.cpp"}]', f, *STD), 1)
        # Another file only: nothing of a.cpp is reported.
        res = self.rematch('--line-filter=[{"name":"b.cpp"}]', f, *STD)
        self.assertExit(res, 0)
        self.assertEqual(self.findings(res), [])
        # The first matching entry decides.
        res = self.rematch('--line-filter=[{"name":"a.cpp","lines":[[1,1]]},{"name":"a.cpp"}]',
                           f, *STD)
        self.assertExit(res, 0)
        # An empty list filters nothing.
        self.assertEqual(len(self.findings(self.rematch("--line-filter=[]", f, *STD))), 2)
        # The absolute path matches too, as clang-tidy sees it.
        res = self.rematch('--line-filter=[{"name":"%s"}]' % self.path("sub", "a.cpp"), f, *STD)
        self.assertExit(res, 1)

    def test_bad_filter_is_2(self):
        f = self.src("a.cpp", body(LOG))
        for bad, why in [('[{"name":"a.cpp"', "invalid JSON"),
                         ('{"name":"a.cpp"}', "expected a JSON array"),
                         ('[{"lines":[[1,2]]}]', "has no \"name\""),
                         ('[{"name":"a.cpp","lines":[[3,1]]}]', "1 <= first <= last"),
                         ('[{"name":"a.cpp","lines":[1]}]', "1 <= first <= last"),
                         ('[{"name":"a.cpp","line":[[1,2]]}]', "unknown key")]:
            res = self.rematch("--line-filter=" + bad, f, *STD)
            self.assertExit(res, 2)
            self.assertIn("--line-filter: ", res.err)
            self.assertIn(why, res.err)
            self.assertEqual(res.out, "")


class TestWarningsAsErrors(Test):
    """--warnings-as-errors as clang-tidy's: the same globs, level error."""

    def test_same_levels_as_clang_tidy(self):
        f = self.src("a.cpp", body(LOG, BUMP, "g_steps = 3;"))
        for globs in ("rematch-logging", "rematch-*,-rematch-logging", "-*"):
            cli = self.rematch("--warnings-as-errors=" + globs, f, *STD)
            tidy = self.run_tool([TOOLS.clang_tidy, "--load=" + TOOLS.plugin,
                                  "--checks=-*,rematch-*", "--warnings-as-errors=" + globs,
                                  f] + STD)
            levels = lambda r: sorted((c, lvl) for _, _, c, lvl in self.findings(r))
            self.assertEqual(levels(cli), levels(tidy), globs)
            self.assertEqual(len(levels(cli)), 3)
            self.assertExit(cli, 1)


class TestPreCommitHook(Test):
    """The hook rematch --install-git-hook writes (scripts/pre-commit-hook.sh)."""

    def setUp(self):
        super().setUp()
        self.repo = self.path("repo")
        os.mkdir(self.repo)
        self.init_repo(cwd=self.repo)
        write(os.path.join(self.repo, "README"), "readme\n")
        self.commit_all(cwd=self.repo)

    def rsrc(self, name, text):
        write(os.path.join(self.repo, name), text)
        return name

    def install(self, *args, cwd=None):
        return self.rematch("--install-git-hook", *args, cwd=cwd or self.repo)

    def commit(self):
        """git commit; its exit code is 0 or 1, the hook's is in hook_rc (git
        shows the hook's stdout on stderr)."""
        head = self.git("rev-parse", "HEAD", cwd=self.repo).out
        res = self.git("commit", "-q", "-m", "change", cwd=self.repo, check=False)
        moved = self.git("rev-parse", "HEAD", cwd=self.repo).out != head
        self.assertEqual(moved, res.rc == 0, repr(res))
        m = re.search(r"commit blocked \(exit code (\d+)\)", res.err)
        res.hook_rc = int(m[1]) if m else 0
        if res.rc == 0:
            self.assertIsNone(m, repr(res))
        return res

    def assertHook(self, res, code):
        self.assertEqual(res.hook_rc, code, f"unexpected hook exit code\n{res!r}")
        self.assertEqual(res.rc != 0, code != 0, repr(res))

    def test_install(self):
        res = self.install()
        self.assertExit(res, 0)
        hook = os.path.join(self.repo, ".git", "hooks", "pre-commit")
        self.assertTrue(os.stat(hook).st_mode & stat.S_IXUSR)
        with open(hook, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("git diff --cached --name-only -z --diff-filter=ACMR", text)
        self.assertIn(os.path.realpath(TOOLS.rematch), text)
        # Again: the same hook is up to date.
        res = self.install()
        self.assertExit(res, 0)
        self.assertIn("up to date", res.out)
        # Another hook is not replaced without --force.
        write(hook, "#!/bin/sh\nexit 0\n")
        res = self.install()
        self.assertExit(res, 2)
        self.assertIn("--force", res.err)
        with open(hook, encoding="utf-8") as f:
            self.assertEqual(f.read(), "#!/bin/sh\nexit 0\n")
        # From a subdirectory, with --force: replaced, the old one kept aside.
        os.mkdir(os.path.join(self.repo, "sub"))
        res = self.install("--force", cwd=os.path.join(self.repo, "sub"))
        self.assertExit(res, 0)
        with open(hook + ".rematch-backup", encoding="utf-8") as f:
            self.assertEqual(f.read(), "#!/bin/sh\nexit 0\n")
        with open(hook, encoding="utf-8") as f:
            self.assertEqual(f.read(), text)

    def test_install_outside_a_repository_is_2(self):
        outside = tempfile.mkdtemp(prefix="rematch-nogit-")
        self.addCleanup(shutil.rmtree, outside)
        res = self.install(cwd=outside)
        self.assertExit(res, 2)
        self.assertIn("not in a git work tree", res.err)

    def test_force_only_with_install(self):
        self.assertExit(self.rematch("--force", "a.cpp"), 2)

    def test_blocks_staged_finding_passes_unstaged(self):
        self.database(files=("good.cpp", "bad.cpp", "broken.cpp"), root=self.repo)
        self.assertExit(self.install(), 0)
        # Staged: a clean file. Not staged: a finding and a file that does not
        # even compile. The hook looks at the staged file only and passes.
        self.rsrc("good.cpp", CLEAN)
        self.rsrc("bad.cpp", body(LOG))
        self.rsrc("broken.cpp", "int broken( {\n")
        self.git("add", "good.cpp", cwd=self.repo)
        res = self.commit()
        self.assertHook(res, 0)
        # Staged: the finding. The commit is blocked and says why.
        self.git("add", "bad.cpp", cwd=self.repo)
        res = self.commit()
        self.assertHook(res, 1)
        self.assertRegex(res.err, r"bad\.cpp:%d:5: warning: .*\[rematch-logging\]" % FIRST)
        self.assertNotIn("broken.cpp", res.out + res.err)
        # The hook alone, as git runs it: rematch's exit code.
        hook = self.run_tool([os.path.join(self.repo, ".git", "hooks", "pre-commit")],
                             cwd=self.repo)
        self.assertExit(hook, 1)
        # Skipped on request.
        env = dict(self.env, REMATCH_SKIP="1")
        res = self.run_tool(["git", "commit", "-q", "-m", "skip"], cwd=self.repo, env=env)
        self.assertExit(res, 0)

    def test_nothing_to_analyse_passes(self):
        self.assertExit(self.install(), 0)
        write(os.path.join(self.repo, "notes.txt"), "text\n")
        self.rsrc("bad.cpp", body(LOG))  # not staged
        self.git("add", "notes.txt", cwd=self.repo)
        self.assertHook(self.commit(), 0)

    def test_missing_database_blocks_with_2(self):
        self.assertExit(self.install(), 0)
        self.rsrc("good.cpp", CLEAN)
        self.git("add", "good.cpp", cwd=self.repo)
        res = self.commit()
        self.assertHook(res, 2)
        self.assertIn("compile_commands.json", res.err)

    def test_build_dir_from_git_config_and_from_install(self):
        self.database(build="out", files=("bad.cpp",), root=self.repo)
        self.rsrc("bad.cpp", body(LOG))
        self.git("add", "bad.cpp", cwd=self.repo)
        self.assertExit(self.install("-p", "out"), 0)
        self.assertHook(self.commit(), 1)  # found out/ from -p: the finding
        self.assertExit(self.install("--force"), 0)  # default build/ again
        self.assertHook(self.commit(), 2)  # no build/compile_commands.json
        self.git("config", "rematch.buildDir", "out", cwd=self.repo)
        self.assertHook(self.commit(), 1)

    def test_changed_lines_setting(self):
        self.database(files=("a.cpp",), root=self.repo)
        self.assertExit(self.install(), 0)
        self.rsrc("a.cpp", body(LOG))
        self.commit_all(cwd=self.repo)  # a legacy finding, committed unchecked
        self.rsrc("a.cpp", "// touched\n" + body(LOG))
        self.git("add", "a.cpp", cwd=self.repo)
        self.assertHook(self.commit(), 1)
        self.git("config", "rematch.changedLines", "true", cwd=self.repo)
        self.rsrc("a.cpp", "// touched again\n" + body(LOG))
        self.git("add", "a.cpp", cwd=self.repo)
        self.assertHook(self.commit(), 0)

    def test_partially_staged_file_is_noted(self):
        self.database(files=("a.cpp",), root=self.repo)
        self.assertExit(self.install(), 0)
        self.rsrc("a.cpp", CLEAN)
        self.git("add", "a.cpp", cwd=self.repo)
        self.rsrc("a.cpp", CLEAN + "// more\n")
        res = self.commit()
        self.assertHook(res, 0)
        self.assertIn("'a.cpp' has unstaged changes", res.err)

    def test_plain_script_copy_works(self):
        # The documented alternative: copy scripts/pre-commit-hook.sh.
        self.database(files=("bad.cpp",), root=self.repo)
        hook = os.path.join(self.repo, ".git", "hooks", "pre-commit")
        shutil.copy(os.path.join(TOOLS.root, "scripts", "pre-commit-hook.sh"), hook)
        os.chmod(hook, 0o755)
        self.git("config", "rematch.program", TOOLS.rematch, cwd=self.repo)
        self.rsrc("bad.cpp", body(LOG))
        self.git("add", "bad.cpp", cwd=self.repo)
        self.assertHook(self.commit(), 1)


def parse_flat_manifest(text):
    """The subset of YAML .pre-commit-hooks.yaml uses: a list of flat
    mappings whose values are scalars or [flow, lists]."""
    def scalar(v):
        v = v.strip()
        if v.startswith("[") and v.endswith("]"):
            return [scalar(x) for x in v[1:-1].split(",") if x.strip()]
        return {"true": True, "false": False}.get(v, v.strip("'\""))
    hooks = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("- "):
            hooks.append({})
            line = line[2:]
        key, _, value = line.strip().partition(":")
        hooks[-1][key] = scalar(value)
    return hooks


class TestPreCommitManifest(Test):
    """.pre-commit-hooks.yaml: the hook the pre-commit framework runs."""

    def manifest(self):
        with open(os.path.join(TOOLS.root, ".pre-commit-hooks.yaml"), encoding="utf-8") as f:
            text = f.read()
        try:
            import yaml  # not in the standard library; optional
            return yaml.safe_load(text)
        except ImportError:
            return parse_flat_manifest(text)

    def test_manifest_fields(self):
        hooks = self.manifest()
        hook = next(h for h in hooks if h["id"] == "rematch")
        self.assertEqual(hook["entry"], "rematch")
        self.assertEqual(hook["language"], "system")
        self.assertEqual(hook["types_or"], ["c", "c++"])
        self.assertTrue(hook["pass_filenames"])
        self.assertEqual(hook["args"], ["-p", "build"])

    def test_runs_as_the_framework_runs_it(self):
        # pre-commit runs `<entry> <args> <staged files>` at the top of the
        # work tree, with the program found on PATH.
        hook = next(h for h in self.manifest() if h["id"] == "rematch")
        self.init_repo()
        self.database(files=("a.cpp", "b.cpp"))
        self.src("a.cpp", CLEAN)
        self.src("b.cpp", body(LOG))
        env = dict(self.env, PATH=os.path.dirname(TOOLS.rematch) + os.pathsep +
                   self.env.get("PATH", ""))
        argv = hook["entry"].split() + hook["args"]
        self.assertExit(self.run_tool(argv + ["a.cpp"], env=env), 0)
        self.assertExit(self.run_tool(argv + ["a.cpp", "b.cpp"], env=env), 1)

    @unittest.skipUnless(shutil.which("pre-commit"), "pre-commit not installed")
    def test_pre_commit_try_repo(self):
        # The framework itself, offline: try-repo clones the hooks repository
        # from a local path; language: system needs no download.
        hooks_repo = self.path("hooks")
        os.mkdir(hooks_repo)
        self.init_repo(cwd=hooks_repo)
        shutil.copy(os.path.join(TOOLS.root, ".pre-commit-hooks.yaml"), hooks_repo)
        self.commit_all(cwd=hooks_repo)
        work = self.path("work")
        os.mkdir(work)
        self.init_repo(cwd=work)
        self.database(files=("a.cpp", "b.cpp"), root=work)
        write(os.path.join(work, "a.cpp"), CLEAN)
        write(os.path.join(work, "b.cpp"), body(LOG))
        env = dict(self.env, PATH=os.path.dirname(TOOLS.rematch) + os.pathsep +
                   self.env.get("PATH", ""), PRE_COMMIT_HOME=self.path(".cache"))
        self.git("add", "a.cpp", cwd=work)
        res = self.run_tool(["pre-commit", "try-repo", hooks_repo, "rematch"],
                            cwd=work, env=env)
        self.assertExit(res, 0)
        self.git("add", "b.cpp", cwd=work)
        res = self.run_tool(["pre-commit", "try-repo", hooks_repo, "rematch"],
                            cwd=work, env=env)
        self.assertExit(res, 1)
        self.assertIn("rematch-logging", res.out)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rematch", required=True)
    p.add_argument("--plugin", required=True)
    p.add_argument("--clang-tidy", required=True, dest="clang_tidy")
    p.add_argument("--root", required=True)
    p.add_argument("--validator")
    p.add_argument("--schema")
    p.add_argument("--python", default=sys.executable)
    ns, rest = p.parse_known_args()
    for k, v in vars(ns).items():
        if v is None:
            setattr(TOOLS, k, None)
        elif k in ("clang_tidy", "python") and os.sep not in v:
            setattr(TOOLS, k, shutil.which(v) or v)
        else:
            setattr(TOOLS, k, os.path.abspath(v))
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
