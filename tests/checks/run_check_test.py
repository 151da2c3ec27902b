#!/usr/bin/python3
"""Runs one annotated check test through both rematch front ends.

    run_check_test.py --rematch BIN --clang-tidy BIN --plugin SO --inputs DIR
                      [--frontend=both|rematch|clang-tidy] TEST.cpp
    run_check_test.py --selftest

Every rematch check runs on the test file. Each front end must report exactly
the warnings the file declares, and the two front ends must agree on
(check, line, column, message) for every warning, so they cannot drift apart.

Annotations, in a // comment of the test file:

  // expect: rematch-a                      one rematch-a warning on this line
  // expect: rematch-a, rematch-b           one of each on this line
  // expect: rematch-a, rematch-a           two rematch-a warnings
  // expect: rematch-a {{text}} {{more}}    ... whose message contains both
  // expect: rematch-a {{!text}}            ... whose message does not contain text
  // expect-next-line: rematch-a            the same, for the following line
  // expect-note: text                      a note whose message contains text
                                            is reported on this line
  // OPTIONS: Key=Value                     an option for the run (repeatable,
                                            or several separated by ';')
  // ARGS: -std=c++20 -I{shared}/x          compiler arguments after the default
                                            ones ({shared}: the repository's
                                            ../shared; {root}: the repository)
  // REQUIRES: /usr/include/eigen3          skip the test (exit 77) unless the
                                            path exists ({shared}, {root} too)

An annotation may follow other comment text on the line, e.g.
`// NOLINT(rematch-logging) expect: rematch-global-read`. Undeclared warnings
fail, and so do undeclared notes: every note rematch attaches on a line of the
test file must contain one of that line's expect-note texts (one expect-note
covers every note of its line that contains it). Any compiler error fails.

Options: CheckpointFunctions goes to rematch as --checkpoint-functions=... and
to clang-tidy as the CheckpointFunctions check option. Every other key
(LoggingFunctions, RngFunctions, ClockFunctions, IoFunctions, ContainerTypes,
AllowedGlobals, Checks) is written to a temporary .rematch.yaml, given to
rematch with --config-file and to clang-tidy as the RematchConfigFile check
option; comma-separated values become a YAML list.
"""

import argparse
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

CHECK_RE = r"rematch-[a-z0-9]+(?:-[a-z0-9]+)*"
MARKER_RE = re.compile(r"(?:(?<=//)|(?<=\s)|^)(expect-next-line|expect-note|expect):")
ITEM_RE = re.compile(r"\s*(" + CHECK_RE + r")((?:\s*\{\{.*?\}\})*)\s*(?:,|$)")
SUBSTR_RE = re.compile(r"\{\{(.*?)\}\}")
OPTIONS_RE = re.compile(r"^\s*//\s*OPTIONS:(.*)$")
ARGS_RE = re.compile(r"^\s*//\s*ARGS:(.*)$")
REQUIRES_RE = re.compile(r"^\s*//\s*REQUIRES:(.*)$")
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", ".."))
SKIP = 77
DIAG_RE = re.compile(
    r"^(.*?):(\d+):(\d+): (warning|error|fatal error|note|remark): (.*)$")
CHECK_SUFFIX_RE = re.compile(r"^(.*) \[([^\]\s]+)\]$")
# Notes clang adds to any diagnostic, not rematch's own.
CLANG_NOTE_RE = re.compile(r"^(expanded from macro|in instantiation of|"
                           r"while substituting|in file included from)")
COMPILE_ARGS = ["-std=c++17"]


class AnnotationError(Exception):
    pass


class Expectations:
    def __init__(self):
        self.warnings = {}  # line -> [(check, [substrings])]
        self.notes = []     # (line, substring)
        self.options = {}   # key -> value (ordered)
        self.args = []      # extra compiler arguments
        self.requires = []  # paths that must exist


def parse_annotations(text, known_checks=None):
    exp = Expectations()
    for lineno, line in enumerate(text.splitlines(), 1):
        m = ARGS_RE.match(line)
        if m:
            exp.args.extend(expand(a) for a in m.group(1).split())
            continue
        m = REQUIRES_RE.match(line)
        if m:
            exp.requires.extend(expand(a) for a in m.group(1).split())
            continue
        m = OPTIONS_RE.match(line)
        if m:
            for part in m.group(1).split(";"):
                part = part.strip()
                if not part:
                    continue
                if "=" not in part:
                    raise AnnotationError(
                        "line %d: OPTIONS entry %r is not Key=Value" % (lineno, part))
                key, value = part.split("=", 1)
                exp.options[key.strip()] = expand(value.strip())
            continue
        start = line.find("//")
        if start < 0:
            continue
        comment = line[start + 2:]
        markers = list(MARKER_RE.finditer(comment))
        for i, mk in enumerate(markers):
            end = markers[i + 1].start() if i + 1 < len(markers) else len(comment)
            body = comment[mk.end():end]
            cut = body.find("//")
            if cut >= 0:
                body = body[:cut]
            kind = mk.group(1)
            if kind == "expect-note":
                sub = body.strip()
                inner = SUBSTR_RE.fullmatch(sub)
                if inner:
                    sub = inner.group(1)
                if not sub:
                    raise AnnotationError("line %d: empty expect-note" % lineno)
                exp.notes.append((lineno, sub))
                continue
            target = lineno + 1 if kind == "expect-next-line" else lineno
            items = parse_items(body, lineno)
            for check, _ in items:
                if known_checks is not None and check not in known_checks:
                    raise AnnotationError(
                        "line %d: unknown check %r" % (lineno, check))
            exp.warnings.setdefault(target, []).extend(items)
    return exp


def expand(arg):
    return arg.replace("{shared}", os.path.join(os.path.dirname(ROOT), "shared")) \
              .replace("{root}", ROOT)


def parse_items(body, lineno):
    items = []
    pos = 0
    body = body.rstrip()
    while pos < len(body):
        m = ITEM_RE.match(body, pos)
        if not m or m.end() == pos:
            raise AnnotationError(
                "line %d: cannot parse annotation near %r" % (lineno, body[pos:]))
        items.append((m.group(1), SUBSTR_RE.findall(m.group(2))))
        pos = m.end()
    if not items:
        raise AnnotationError("line %d: annotation names no check" % lineno)
    return items


def known_check_names():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "checks", "Checks.def")
    try:
        with open(path, encoding="utf-8") as f:
            names = re.findall(r'^REMATCH_CHECK\(\s*"([^"]+)"', f.read(), re.M)
    except OSError:
        return None
    return set(names) or None


class Diag:
    def __init__(self, check, level, message, file, line, column, notes):
        self.check, self.level, self.message = check, level, message
        self.file, self.line, self.column = file, line, column
        self.notes = notes  # [(file, line, column, message)]

    def key(self):
        return (self.check, self.line, self.column, self.message)

    def __str__(self):
        return "%d:%d: %s [%s]" % (self.line, self.column, self.message, self.check)


class RunResult:
    def __init__(self):
        self.diags = []      # rematch-* warnings in the test file
        self.elsewhere = []  # rematch-* warnings in other files
        self.errors = []     # compiler errors and tool failures


def same_file(a, b, cwd):
    return os.path.realpath(os.path.join(cwd, a)) == os.path.realpath(b)


def parse_rematch_json(stdout, returncode, test_file, cwd):
    res = RunResult()
    if returncode not in (0, 1):
        res.errors.append("rematch exited with %d" % returncode)
    try:
        data = json.loads(stdout)
    except ValueError as e:
        res.errors.append("rematch printed no valid JSON (%s)" % e)
        return res
    if data.get("version") != 1:
        res.errors.append("unexpected JSON version %r" % data.get("version"))
    for f in data.get("files", []):
        for err in f.get("errors", []):
            res.errors.append("%s: %s" % (f.get("file"), err))
        if str(f.get("status", "")).lower().startswith("fail") and not f.get("errors"):
            res.errors.append("%s: status %s" % (f.get("file"), f.get("status")))
    findings = data.get("findings", [])
    for f in findings:
        check = f.get("check", "")
        if check.startswith("clang-diagnostic-error") or f.get("level") == "error" \
                and not check.startswith("rematch-"):
            res.errors.append("%s:%s:%s: error: %s [%s]" % (
                f.get("file"), f.get("line"), f.get("column"), f.get("message"), check))
            continue
        if not check.startswith("rematch-"):
            continue
        notes = [(n.get("file", ""), int(n.get("line", 0)), int(n.get("column", 0)),
                  n.get("message", "")) for n in f.get("notes", [])]
        d = Diag(check, f.get("level", ""), f.get("message", ""), f.get("file", ""),
                 int(f.get("line", 0)), int(f.get("column", 0)), notes)
        (res.diags if same_file(d.file, test_file, cwd) else res.elsewhere).append(d)
    rematch_findings = [f for f in findings if f.get("check", "").startswith("rematch-")]
    if returncode == 0 and rematch_findings:
        res.errors.append("rematch exited with 0 but reported findings")
    if returncode == 1 and not findings:
        res.errors.append("rematch exited with 1 but reported no findings")
    return res


def parse_clang_tidy_text(stdout, returncode, test_file, cwd):
    res = RunResult()
    if returncode != 0:
        res.errors.append("clang-tidy exited with %d" % returncode)
    current = None
    for raw in stdout.splitlines():
        m = DIAG_RE.match(raw)
        if not m:
            continue
        file, line, col, level, rest = m.groups()
        line, col = int(line), int(col)
        if level == "note":
            if current is not None:
                current.notes.append((file, line, col, rest))
            continue
        current = None
        cm = CHECK_SUFFIX_RE.match(rest)
        message, checks = (cm.group(1), cm.group(2).split(",")) if cm else (rest, [])
        names = [c for c in checks if not c.startswith("-")]
        check = names[0] if names else ""
        if check.startswith("rematch-"):
            d = Diag(check, level, message, file, line, col, [])
            (res.diags if same_file(file, test_file, cwd) else res.elsewhere).append(d)
            current = d
        elif level in ("error", "fatal error"):
            res.errors.append(raw)
    return res


def fits(message, sub):
    """{{text}} must be in the message; {{!text}} must not."""
    if sub.startswith("!"):
        return sub[1:] not in message
    return sub in message


def match(exp, result, test_file):
    """Returns a list of failure lines (empty when the run matches)."""
    failures = list(result.errors)
    for d in result.elsewhere:
        failures.append("unexpected (in %s): %s" % (d.file, d))
    by_line = {}
    for d in result.diags:
        by_line.setdefault(d.line, []).append(d)
    for line in sorted(set(by_line) | set(exp.warnings)):
        actual = list(by_line.get(line, []))
        wanted = sorted(exp.warnings.get(line, []), key=lambda it: -len(it[1]))
        unmatched = []
        for check, subs in wanted:
            hit = next((d for d in actual if d.check == check
                        and all(fits(d.message, s) for s in subs)), None)
            if hit is None:
                unmatched.append((check, subs))
            else:
                actual.remove(hit)
        for check, subs in unmatched:
            same = [d for d in actual if d.check == check]
            if same:
                failures.append("line %d: [%s] message %r does not contain %s" % (
                    line, check, same[0].message, " and ".join(repr(s) for s in subs)))
                actual.remove(same[0])
            else:
                failures.append("missing:    line %d: [%s]%s" % (
                    line, check, "".join(" {{%s}}" % s for s in subs)))
        for d in actual:
            failures.append("unexpected: %s" % d)
    for line, sub in exp.notes:
        if not any(same_file(nf, test_file, os.getcwd()) and nl == line and sub in nm
                   for d in result.diags for (nf, nl, _, nm) in d.notes):
            failures.append("missing note: line %d: %r" % (line, sub))
    failures.extend(undeclared_notes(exp, result, test_file))
    return failures


def undeclared_notes(exp, result, test_file):
    """A note of a warning that lands on a line of the test file must be
    declared there: some expect-note of that line is part of its message.
    Notes in other files, and clang's own ("expanded from macro"), are
    not checked."""
    declared = {}
    for line, sub in exp.notes:
        declared.setdefault(line, []).append(sub)
    failures, seen = [], set()
    for d in result.diags:
        for nf, nl, _, nm in d.notes:
            if not same_file(nf, test_file, os.getcwd()) or CLANG_NOTE_RE.match(nm):
                continue
            if any(sub in nm for sub in declared.get(nl, [])) or (nl, nm) in seen:
                continue
            seen.add((nl, nm))
            failures.append("undeclared note: line %d: %r (of the warning on line %d)"
                            % (nl, nm, d.line))
    return failures


def yaml_quote(s):
    return "'" + s.replace("'", "''") + "'"


def corpus_files(checks_dir):
    """Every file of the check corpus: tests/checks/*.cpp and one directory
    below, sorted."""
    return sorted(glob.glob(os.path.join(checks_dir, "*.cpp")) +
                  glob.glob(os.path.join(checks_dir, "*", "*.cpp")))


def write_config(exp, tmpdir):
    """Writes the options other than CheckpointFunctions as a .rematch.yaml;
    returns its path, or None when there are none."""
    others = [(k, v) for k, v in exp.options.items() if k != "CheckpointFunctions"]
    if not others:
        return None
    path = os.path.join(tmpdir, ".rematch.yaml")
    with open(path, "w", encoding="utf-8") as f:
        for key, value in others:
            if key == "Checks":
                f.write("%s: %s\n" % (key, yaml_quote(value)))
            else:
                items = [v.strip() for v in value.split(",") if v.strip()]
                f.write("%s: [%s]\n" % (key, ", ".join(yaml_quote(v) for v in items)))
    return path


def rematch_command(args, exp, test_file, config):
    cmd = [args.rematch, "--format=json"]
    if "CheckpointFunctions" in exp.options:
        cmd.append("--checkpoint-functions=" + exp.options["CheckpointFunctions"])
    if config:
        cmd.append("--config-file=" + config)
    return cmd + [test_file, "--"] + COMPILE_ARGS + exp.args + [
        "-isystem", args.inputs]


def clang_tidy_command(args, exp, test_file, config):
    # An explicit --config also keeps any .clang-tidy above the test out.
    opts = []
    if "CheckpointFunctions" in exp.options:
        opts.append("CheckpointFunctions: " + yaml_quote(exp.options["CheckpointFunctions"]))
    if config:
        opts.append("RematchConfigFile: " + yaml_quote(config))
    config_text = "{Checks: '-*,rematch-*'%s}" % (
        ", CheckOptions: {%s}" % ", ".join(opts) if opts else "")
    return [args.clang_tidy, "--load=" + args.plugin, "--checks=-*,rematch-*",
            "--config=" + config_text, test_file, "--"] + COMPILE_ARGS + \
        exp.args + ["-isystem", args.inputs]


def saved_output_path(directory, test_file):
    """Where --save-output keeps the rematch run of test_file."""
    key = hashlib.sha256(os.path.abspath(test_file).encode()).hexdigest()[:16]
    return os.path.join(directory, key + ".json")


def output_identity(rematch, text):
    """What a saved run was made with: the binary (path, mtime, size) and
    the test file's text. A saved run is used only while all are the same."""
    st = os.stat(rematch)
    return {"rematch": os.path.abspath(rematch),
            "stamp": [st.st_mtime_ns, st.st_size],
            "source": hashlib.sha256(text.encode()).hexdigest()}


def save_output(directory, test_file, text, rematch, rc, out):
    """Keeps the rematch run of test_file for bench/corpus_scores.py
    --saved (corpus.strict scores what the check tests ran)."""
    os.makedirs(directory, exist_ok=True)
    entry = dict(output_identity(rematch, text), rc=rc, stdout=out,
                 cwd=os.getcwd())
    path = saved_output_path(directory, test_file)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(entry, f)
    os.replace(path + ".tmp", path)


def saved_output(directory, test_file, text, rematch):
    """(rc, stdout, cwd) of a saved run of test_file made with this binary
    and this text, or None."""
    try:
        with open(saved_output_path(directory, test_file), encoding="utf-8") as f:
            entry = json.load(f)
    except (OSError, ValueError):
        return None
    identity = output_identity(rematch, text)
    if any(entry.get(k) != v for k, v in identity.items()):
        return None
    return entry["rc"], entry["stdout"], entry["cwd"]


def run(cmd):
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
    except OSError as e:
        return 127, "", "cannot run %s: %s" % (cmd[0], e)
    return proc.returncode, proc.stdout, proc.stderr


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rematch")
    ap.add_argument("--clang-tidy", dest="clang_tidy")
    ap.add_argument("--plugin")
    ap.add_argument("--inputs")
    ap.add_argument("--frontend", choices=["both", "rematch", "clang-tidy"],
                    default="both")
    ap.add_argument("--save-output", dest="save_output",
                    help="keep the rematch run here (bench/corpus_scores.py --saved)")
    ap.add_argument("--selftest", action="store_true",
                    help="check the runner's own parsing and matching")
    ap.add_argument("test", nargs="?")
    args = ap.parse_args(argv)
    if args.selftest:
        return selftest()
    needed = {"rematch": ["rematch"], "clang-tidy": ["clang_tidy", "plugin"],
              "both": ["rematch", "clang_tidy", "plugin"]}[args.frontend]
    missing = [n for n in needed + ["inputs", "test"] if not getattr(args, n)]
    if missing:
        ap.error("missing: " + ", ".join(missing))

    test_file = os.path.abspath(args.test)
    args.inputs = os.path.abspath(args.inputs)
    with open(test_file, encoding="utf-8") as f:
        text = f.read()
    try:
        exp = parse_annotations(text, known_check_names())
    except AnnotationError as e:
        print("%s: bad annotation: %s" % (args.test, e))
        return 1
    missing_paths = [p for p in exp.requires if not os.path.exists(p)]
    if missing_paths:
        print("skipped: %s is not here" % ", ".join(missing_paths))
        return SKIP

    runs = {}
    ok = True
    with tempfile.TemporaryDirectory(prefix="rematch-check-") as tmpdir:
        config = write_config(exp, tmpdir)
        if args.frontend in ("both", "rematch"):
            cmd = rematch_command(args, exp, test_file, config)
            rc, out, err = run(cmd)
            runs["rematch"] = (cmd, parse_rematch_json(out, rc, test_file, os.getcwd()), err)
            if args.save_output:
                save_output(args.save_output, test_file, text, args.rematch,
                            rc, out)
        if args.frontend in ("both", "clang-tidy"):
            cmd = clang_tidy_command(args, exp, test_file, config)
            rc, out, err = run(cmd)
            runs["clang-tidy"] = (cmd, parse_clang_tidy_text(out, rc, test_file, os.getcwd()), err)

    for name, (cmd, result, err) in runs.items():
        failures = match(exp, result, test_file)
        if failures:
            ok = False
            print("FAIL [%s] %s" % (name, args.test))
            print("  command: " + " ".join(cmd))
            if result.errors and err.strip():
                print("  stderr (last 30 lines):")
                print("\n".join("    " + l for l in err.splitlines()[-30:]))
            for line in failures:
                print("  " + line)
        else:
            print("ok   [%s] %d warnings as declared" % (name, len(result.diags)))

    if len(runs) == 2:
        a = {d.key() for d in runs["rematch"][1].diags}
        b = {d.key() for d in runs["clang-tidy"][1].diags}
        if a != b:
            ok = False
            print("FAIL the front ends disagree on (check, line, column, message):")
            for k in sorted(a - b, key=lambda k: (k[1], k[2], k[0])):
                print("  only rematch:    %d:%d: %s [%s]" % (k[1], k[2], k[3], k[0]))
            for k in sorted(b - a, key=lambda k: (k[1], k[2], k[0])):
                print("  only clang-tidy: %d:%d: %s [%s]" % (k[1], k[2], k[3], k[0]))
    return 0 if ok else 1


# ---- self test ---------------------------------------------------------------

SELFTEST_SOURCE = """\
// OPTIONS: CheckpointFunctions=nn::checkpoint,Trainer::run
// OPTIONS: LoggingFunctions=a::log; AllowedGlobals=g_x
  seg.forward([&] { // expect-note: call to 'rematch::Segment::forward'
    ++g; // expect: rematch-counter-update {{increments 'g'}}
    std::cout << g_scale; // expect: rematch-logging, rematch-global-read {{'g_scale'}}
    // expect-next-line: rematch-state-write {{writes}} {{'h'}}
    h = 1;
    ++g; // NOLINT(rematch-logging) expect: rematch-counter-update, rematch-counter-update
  });
"""


def selftest():
    problems = []

    def expect(cond, what):
        if not cond:
            problems.append(what)

    exp = parse_annotations(SELFTEST_SOURCE)
    expect(exp.options == {"CheckpointFunctions": "nn::checkpoint,Trainer::run",
                           "LoggingFunctions": "a::log", "AllowedGlobals": "g_x"},
           "options parsed: %r" % exp.options)
    expect(exp.notes == [(3, "call to 'rematch::Segment::forward'")], "notes: %r" % exp.notes)
    expect(exp.warnings.get(4) == [("rematch-counter-update", ["increments 'g'"])],
           "line 4: %r" % exp.warnings.get(4))
    expect(exp.warnings.get(5) == [("rematch-logging", []),
                                   ("rematch-global-read", ["'g_scale'"])],
           "line 5: %r" % exp.warnings.get(5))
    expect(exp.warnings.get(7) == [("rematch-state-write", ["writes", "'h'"])],
           "line 7: %r" % exp.warnings.get(7))
    expect(6 not in exp.warnings, "expect-next-line applied to its own line")
    expect(len(exp.warnings.get(8, [])) == 2, "line 8: %r" % exp.warnings.get(8))
    for bad in ["x; // expect: ", "x; // expect: counter-update",
                "x; // expect: rematch-logging {{unterminated"]:
        try:
            parse_annotations(bad)
            problems.append("accepted bad annotation %r" % bad)
        except AnnotationError:
            pass
    try:
        parse_annotations("x; // expect: rematch-loging", {"rematch-logging"})
        problems.append("accepted unknown check name")
    except AnnotationError:
        pass

    f = "/tmp/t.cpp"
    note = "callable is checkpointed by this call to 'rematch::Segment::forward'; it runs again during backward"

    def finding(check, line, col, msg, notes=()):
        return {"check": check, "level": "warning", "message": msg, "file": f,
                "line": line, "column": col, "fingerprint": "x",
                "notes": [{"file": f, "line": l, "column": 3, "message": m} for l, m in notes]}

    good = [finding("rematch-counter-update", 4, 5, "checkpointed lambda increments 'g'; the recomputation in backward increments it again", [(3, note)]),
            finding("rematch-logging", 5, 5, "checkpointed lambda logs through 'std::cout'; the recomputation in backward logs again", [(3, note)]),
            finding("rematch-global-read", 5, 18, "checkpointed lambda reads mutable global 'g_scale'; the recomputation in backward may see a different value", [(3, note)]),
            finding("rematch-state-write", 7, 5, "checkpointed lambda writes 'h'; the recomputation in backward writes it again"),
            finding("rematch-counter-update", 8, 5, "checkpointed lambda increments 'g'; x"),
            finding("rematch-counter-update", 8, 7, "checkpointed lambda increments 'g'; y")]
    doc = {"version": 1, "files": [{"file": f, "status": "analysed", "errors": []}],
           "findings": good}
    res = parse_rematch_json(json.dumps(doc), 1, f, "/")
    expect(match(exp, res, f) == [], "good JSON run fails: %r" % match(exp, res, f))

    bad = dict(doc, findings=good[1:] + [finding("rematch-io", 9, 1, "m")])
    fails = match(exp, parse_rematch_json(json.dumps(bad), 1, f, "/"), f)
    expect(any(s.startswith("missing:    line 4") for s in fails), "missing not found: %r" % fails)
    expect(any(s.startswith("unexpected: 9:1") for s in fails), "unexpected not found: %r" % fails)
    expect(any(s.startswith("missing note") for s in fails) is False,
           "note on another warning should count: %r" % fails)

    wrong = [dict(good[0], message="checkpointed lambda increments 'k'")] + good[1:]
    fails = match(exp, parse_rematch_json(json.dumps(dict(doc, findings=wrong)), 1, f, "/"), f)
    expect(any("does not contain" in s for s in fails), "substring mismatch: %r" % fails)

    negated = parse_annotations("x; // expect: rematch-io {{!secret}}\n")
    said = [finding("rematch-io", 1, 1, "reads a secret")]
    fails = match(negated, parse_rematch_json(json.dumps(dict(doc, findings=said)), 1, f, "/"), f)
    expect(any("does not contain" in s for s in fails), "negated substring: %r" % fails)
    quiet = [finding("rematch-io", 1, 1, "reads a value")]
    fails = match(negated, parse_rematch_json(json.dumps(dict(doc, findings=quiet)), 1, f, "/"), f)
    expect(fails == [], "negated substring absent: %r" % fails)

    nonotes = [dict(d, notes=[]) for d in good]
    fails = match(exp, parse_rematch_json(json.dumps(dict(doc, findings=nonotes)), 1, f, "/"), f)
    expect(fails == ["missing note: line 3: \"call to 'rematch::Segment::forward'\""],
           "missing note: %r" % fails)

    # A note on a line of the file that no expect-note there declares fails
    # the line, once however many warnings carry it; one in a header or
    # clang's own does not.
    extra = [dict(d, notes=d["notes"] + [{"file": f, "line": 4, "column": 5,
                                           "message": "'g' is an alias of 'h' taken here"},
                                          {"file": "/tmp/mock.h", "line": 1, "column": 2,
                                           "message": "'LOG' logs here"},
                                          {"file": f, "line": 5, "column": 2,
                                           "message": "expanded from macro 'LOG'"}])
             for d in good]
    fails = match(exp, parse_rematch_json(json.dumps(dict(doc, findings=extra)), 1, f, "/"), f)
    expect(fails == ["undeclared note: line 4: \"'g' is an alias of 'h' taken here\" "
                     "(of the warning on line 4)"], "undeclared note: %r" % fails)

    failed = {"version": 1, "files": [{"file": f, "status": "failed",
                                       "errors": ["t.cpp:1:1: error: boom"]}], "findings": []}
    expect(match(exp, parse_rematch_json(json.dumps(failed), 3, f, "/"), f)[0]
           == "rematch exited with 3", "exit 3 not reported")

    text = "\n".join([
        "/tmp/t.cpp:4:5: warning: %s [rematch-counter-update]" % good[0]["message"],
        "    4 |     ++g;",
        "      |     ^",
        "/tmp/t.cpp:3:3: note: %s" % note,
        "/tmp/t.cpp:5:5: warning: %s [rematch-logging]" % good[1]["message"],
        "/tmp/t.cpp:5:18: warning: %s [rematch-global-read,-warnings-as-errors]" % good[2]["message"],
        "/tmp/t.cpp:7:5: warning: %s [rematch-state-write]" % good[3]["message"],
        "/tmp/mock.h:1:2: note: expanded from macro 'LOG'",
        "/tmp/t.cpp:8:5: warning: %s [rematch-counter-update]" % good[4]["message"],
        "/tmp/t.cpp:8:7: warning: %s [rematch-counter-update]" % good[5]["message"],
        "Suppressed 3 warnings (3 NOLINT).",
        "6 warnings generated.",
    ])
    tidy = parse_clang_tidy_text(text, 0, f, "/")
    expect(match(exp, tidy, f) == [], "good text run fails: %r" % match(exp, tidy, f))
    expect({d.key() for d in tidy.diags} == {d.key() for d in res.diags},
           "text and JSON keys differ")
    expect(len(tidy.diags[0].notes) == 1, "note not attached")

    broken = "/tmp/t.cpp:2:1: error: unknown type name 'foo' [clang-diagnostic-error]\n"
    expect(parse_clang_tidy_text(broken, 1, f, "/").errors != [], "compiler error not caught")

    for p in problems:
        print("selftest: " + p)
    print("selftest: %s" % ("FAIL" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
