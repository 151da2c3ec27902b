#!/usr/bin/env python3
"""The report formats made for other tools and for people:
--format=codeclimate (GitLab Code Quality) and --format=html, the latter
rendered in headless Chromium.

Usage:
  test_formats.py --rematch <rematch> --root <source root>
                  [--chromium <chromium>] [--artefacts <dir>]
                  [unittest arguments, e.g. TestHtml]

Both run rematch on the shipped examples (examples/lint) from the source root,
as the cli.examples-sarif test does, and compare with its JSON output.
--artefacts: where the HTML report and its screenshot are kept.
Standard library only.
"""

import argparse
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from rematch_testing import TempDirTest, write  # noqa: E402

TOOLS = argparse.Namespace()

EXAMPLES = ["examples/lint/custom_entry_point.cpp", "examples/lint/training_step.cpp"]
EXAMPLE_ARGS = ["--", "-std=c++17", "-I", "runtime/include"]
# The HTML report is of all of examples/lint, as scripts/demo.sh runs it;
# libtorch_block.cpp needs libtorch's API headers (libtorch-dev).
TORCH_API = "/usr/include/torch/csrc/api/include"


def all_examples():
    names = sorted(n for n in os.listdir(os.path.join(TOOLS.root, "examples", "lint"))
                   if n.endswith(".cpp"))
    args = list(EXAMPLE_ARGS)
    if os.path.isdir(TORCH_API):
        args += ["-I", TORCH_API]
    else:
        names = [n for n in names if n != "libtorch_block.cpp"]
    return ["examples/lint/" + n for n in names], args


class FormatTest(TempDirTest):
    prefix = "rematch-formats-"

    def rematch(self, *args, cwd=None):
        return self.run_tool([TOOLS.rematch] + list(args), cwd=cwd or TOOLS.root)

    def examples(self, *args):
        res = self.rematch(*args, *EXAMPLES, *EXAMPLE_ARGS)
        self.assertEqual(res.rc, 1, res)  # the examples have findings
        return res

    def example_findings(self):
        findings = self.examples("--format=json").json()["findings"]
        self.assertGreater(len(findings), 3)
        return findings


class TestCodeClimate(FormatTest):
    def test_issues_match_json_and_sarif(self):
        findings = self.example_findings()
        issues = self.examples("--format=codeclimate").json()
        sarif = self.examples("--format=sarif").json()
        sarif_fps = [r["partialFingerprints"]["rematch/v1"]
                     for r in sarif["runs"][0]["results"]]
        self.assertEqual(len(issues), len(findings))
        for issue, f, sarif_fp in zip(issues, findings, sarif_fps):
            self.assertEqual(sorted(issue), ["categories", "check_name", "content",
                                             "description", "fingerprint",
                                             "location", "severity", "type"]
                             if f["notes"] else
                             ["categories", "check_name", "description",
                              "fingerprint", "location", "severity", "type"])
            self.assertEqual(issue["type"], "issue")
            self.assertEqual(issue["check_name"], f["check"])
            self.assertEqual(issue["description"], f["message"])
            self.assertEqual(issue["categories"], ["Bug Risk"])
            self.assertEqual(issue["severity"], "major")
            self.assertEqual(issue["fingerprint"], f["fingerprint"])
            self.assertEqual(issue["fingerprint"], sarif_fp)
            self.assertEqual(issue["location"],
                             {"path": f["file"], "lines": {"begin": f["line"]}})
        # GitLab keys issues by fingerprint: all distinct.
        self.assertEqual(len({i["fingerprint"] for i in issues}), len(issues))

    def test_errors_are_critical(self):
        issues = self.examples("--format=codeclimate",
                               "--warnings-as-errors=rematch-logging").json()
        severities = {(i["check_name"] == "rematch-logging", i["severity"])
                      for i in issues}
        self.assertEqual(severities, {(True, "critical"), (False, "major")})

    def test_absolute_and_dotted_paths_are_repository_relative(self):
        with open(os.path.join(TOOLS.root, EXAMPLES[1]), encoding="utf-8") as f:
            write(self.path("src", "a.cpp"), f.read())
        inc = os.path.join(TOOLS.root, "runtime", "include")
        for spelling in (self.path("src", "a.cpp"), "./src/a.cpp"):
            with self.subTest(spelling=spelling):
                res = self.rematch("--format=codeclimate", spelling,
                                   "--", "-std=c++17", "-I", inc, cwd=self.dir)
                self.assertEqual(res.rc, 1, res)
                paths = {i["location"]["path"] for i in res.json()}
                self.assertEqual(paths, {"src/a.cpp"})

    def test_no_findings_is_an_empty_array(self):
        f = write(self.path("clean.cpp"), "int main() { return 0; }\n")
        res = self.rematch("--format=codeclimate", f, "--", "-std=c++17", cwd=self.dir)
        self.assertEqual(res.rc, 0, res)
        self.assertEqual(res.out, "[]\n")

    def test_unknown_format_names_the_formats(self):
        res = self.rematch("--format=gitlab", EXAMPLES[0])
        self.assertEqual(res.rc, 2, res)
        self.assertIn("unknown --format 'gitlab' (expected text, json, sarif, "
                      "codeclimate or html)", res.err)


class DomText(html.parser.HTMLParser):
    """The text of the page, and of each <article class="finding"> with its
    attributes, as a browser left it."""

    def __init__(self):
        super().__init__()
        self.text = []
        self.articles = []  # (attrs, [text])
        self._depth = 0     # inside an article: elements open in it
        self._skip = 0      # inside <script> or <style>
        self.counts = {}    # check -> count shown in the table at the top
        self._row = None
        self._cells = []

    VOID = {"meta", "input", "br", "img", "link", "hr"}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
        if tag == "article":
            self.articles.append((attrs, []))
            self._depth = 1
        elif self._depth and tag not in self.VOID:
            self._depth += 1
        if tag == "tr" and "data-check" in attrs:
            self._row, self._cells = attrs["data-check"], []
        if tag == "td" and self._row:
            self._cells.append("")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1
        if self._depth:
            self._depth -= 1
        if tag == "tr" and self._row:
            self.counts[self._row] = int(self._cells[-1])
            self._row = None

    def handle_data(self, data):
        if self._skip:
            return
        self.text.append(data)
        if self._depth:
            self.articles[-1][1].append(data)
        if self._row and self._cells:
            self._cells[-1] += data.strip()


def flat(parts):
    return re.sub(r"\s+", " ", "".join(parts))


class TestHtml(FormatTest):
    """The report of examples/, opened in headless Chromium."""

    @classmethod
    def setUpClass(cls):
        if not TOOLS.chromium:
            raise unittest.SkipTest("no chromium (Debian package chromium)")
        cls.artefacts = TOOLS.artefacts or tempfile.mkdtemp(prefix="rematch-html-")
        os.makedirs(cls.artefacts, exist_ok=True)
        cls.report = os.path.join(cls.artefacts, "examples-report.html")
        # One report and its JSON twin for every test: the examples take a
        # while to analyse with libtorch's headers.
        files, args = all_examples()
        for fmt, out in (("--format=html", "--output=" + cls.report),
                         ("--format=json", "--output=" + cls.report + ".json")):
            proc = subprocess.run([TOOLS.rematch, fmt, out, *files, *args],
                                  cwd=TOOLS.root, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=600)
            if proc.returncode != 1 or proc.stdout:
                raise AssertionError("rematch %s: exit %d\n%s" % (
                    fmt, proc.returncode, proc.stderr.decode("utf-8", "replace")))
        with open(cls.report + ".json", encoding="utf-8") as f:
            cls.findings = json.load(f)["findings"]
        cls.files = files

    def browse(self, url_suffix="", *flags):
        profile = tempfile.mkdtemp(prefix="rematch-chromium-")
        try:
            proc = subprocess.run(
                [TOOLS.chromium, "--headless", "--no-sandbox", "--disable-gpu",
                 "--user-data-dir=" + profile, *flags,
                 "file://" + self.report + url_suffix],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=180)
        finally:
            shutil.rmtree(profile, ignore_errors=True)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode("utf-8", "replace"))
        return proc.stdout.decode("utf-8")

    def write_report(self):
        self.assertGreater(len(self.findings), 3)
        return self.findings

    def test_rendered_page_has_every_finding_and_chain_step(self):
        findings = self.write_report()
        # Findings from every example file, libtorch's included when present.
        self.assertEqual(sorted({f["file"] for f in findings}), self.files)
        dom = DomText()
        dom.feed(self.browse("", "--dump-dom"))
        page = flat(dom.text)
        # Counts per check at the top.
        expected = {}
        for f in findings:
            expected[f["check"]] = expected.get(f["check"], 0) + 1
        self.assertEqual(dom.counts, expected)
        self.assertIn("%d findings in" % len(findings), page)
        # One article per finding, in report order, with its message, its
        # location and every step of its call chain.
        self.assertEqual(len(dom.articles), len(findings))
        for i, (f, (attrs, text)) in enumerate(zip(findings, dom.articles)):
            body = flat(text)
            self.assertEqual(attrs.get("id"), "finding-%d" % (i + 1))
            self.assertEqual(attrs.get("data-check"), f["check"])
            self.assertNotIn("hidden", attrs)
            self.assertIn(flat([f["message"]]), body)
            self.assertIn("%s:%d:%d" % (f["file"], f["line"], f["column"]), body)
            for n in f["notes"]:
                self.assertIn(flat([n["message"]]), body, n)
                self.assertIn("%s:%d:%d" % (n["file"], n["line"], n["column"]), body)
            self.assertIn(f["fingerprint"], body)
        # The code around a finding: the source line itself.
        with open(os.path.join(TOOLS.root, findings[0]["file"]), encoding="utf-8") as src:
            line = src.read().splitlines()[findings[0]["line"] - 1]
        self.assertIn(flat([line]).strip(), flat(dom.articles[0][1]))

    def test_filter_by_check(self):
        findings = self.write_report()
        check = findings[0]["check"]
        dom = DomText()
        dom.feed(self.browse("#check=" + check, "--dump-dom"))
        shown = [a for a, _ in dom.articles if "hidden" not in a]
        self.assertEqual({a["data-check"] for a in shown}, {check})
        self.assertEqual(len(shown), sum(f["check"] == check for f in findings))
        self.assertIn("Showing %d of %d findings" % (len(shown), len(findings)),
                      flat(dom.text))

    def test_screenshot(self):
        self.write_report()
        png = os.path.join(self.artefacts, "examples-report.png")
        if os.path.exists(png):
            os.remove(png)
        self.browse("", "--window-size=1280,2400", "--hide-scrollbars",
                    "--screenshot=" + png)
        with open(png, "rb") as f:
            data = f.read()
        self.assertTrue(data.startswith(b"\x89PNG\r\n\x1a\n"))
        # A rendered page, not a blank one (a white 1280x2400 PNG is ~10 KB).
        self.assertGreater(len(data), 40000)

    def test_self_contained(self):
        self.write_report()
        with open(self.report, encoding="utf-8") as f:
            page = f.read()
        for fetch in ("<script src", "<link", "@import", "url(", "<img", "@font-face"):
            self.assertNotIn(fetch, page)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rematch", required=True)
    p.add_argument("--root", required=True)
    p.add_argument("--chromium", default=shutil.which("chromium") or "")
    p.add_argument("--artefacts", default="")
    ns, rest = p.parse_known_args()
    vars(TOOLS).update(vars(ns))
    TOOLS.rematch = os.path.abspath(TOOLS.rematch)
    TOOLS.root = os.path.abspath(TOOLS.root)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
