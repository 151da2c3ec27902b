#!/usr/bin/python3
"""Checks that every check's names map one to one, from checks/Checks.def:

    rematch-<stem>  <->  checks/<Class>.h/.cpp  <->  registration in
    checks/RematchTidyModule.cpp  <->  tests/checks/<stem>.cpp  <->
    docs/checks/<stem>.md (and a row in docs/checks/README.md)

and that no check class, test or doc page exists without an entry.

    test_check_mapping.py [--root REPO]
"""

import argparse
import glob
import os
import re
import sys

ENTRY_RE = re.compile(
    r'^REMATCH_CHECK\(\s*"([^"]*)"\s*,\s*(\w+)\s*,\s*"([^"]*)"\s*,\s*(\w+)\s*,\s*"((?:[^"\\]|\\.)*)"\s*\)',
    re.M)
# Classes under checks/ whose names end in Check but that are not checks.
NOT_CHECKS = {"RematchCheck"}  # the shared base class of all checks
# Test files in tests/checks/ that belong to no single check.
EXTRA_TESTS = {"transitive", "callables", "crtp"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def parse_def(root):
    text = read(os.path.join(root, "checks", "Checks.def"))
    entries = ENTRY_RE.findall(text)
    starts = len(re.findall(r"^REMATCH_CHECK\(", text, re.M))
    problems = []
    if starts != len(entries):
        problems.append("checks/Checks.def: %d REMATCH_CHECK entries but only %d "
                        "parse as (\"name\", Class, \"stem\", Kind, \"description\")"
                        % (starts, len(entries)))
    return entries, problems


def check_entry(root, name, cls, stem, desc, module, cmake):
    problems = []
    if name != "rematch-" + stem:
        problems.append("%s: the stem must be the name without 'rematch-' (is %r)" % (name, stem))
    if not cls.endswith("Check"):
        problems.append("%s: class %s does not end in Check" % (name, cls))
    if not desc.strip():
        problems.append("%s: empty description" % name)
    for ext in ("h", "cpp"):
        path = os.path.join(root, "checks", "%s.%s" % (cls, ext))
        if not os.path.isfile(path):
            problems.append("%s: checks/%s.%s is missing" % (name, cls, ext))
        elif not re.search(r"\b%s\b" % cls, read(path)):
            problems.append("%s: checks/%s.%s does not mention %s" % (name, cls, ext, cls))
    if cmake is not None and not re.search(r"\b%s\.cpp\b" % cls, cmake):
        problems.append("%s: checks/CMakeLists.txt does not build %s.cpp" % (name, cls))
    if module is not None:
        literal = re.search(r'registerCheck\s*<\s*%s\s*>\s*\(\s*"%s"\s*\)' % (cls, re.escape(name)),
                            module)
        x_macro = re.search(r'#\s*include\s*"Checks\.def"', module) and "registerCheck" in module
        if not (literal or x_macro):
            problems.append('%s: checks/RematchTidyModule.cpp neither includes Checks.def nor '
                            'has registerCheck<%s>("%s")' % (name, cls, name))

    test = os.path.join(root, "tests", "checks", stem + ".cpp")
    if not os.path.isfile(test):
        problems.append("%s: tests/checks/%s.cpp is missing" % (name, stem))
    elif not re.search(r"expect(?:-next-line)?:[^\n]*(?<![\w-])%s(?![\w-])" % re.escape(name),
                       read(test)):
        problems.append("%s: tests/checks/%s.cpp declares no `expect: %s`" % (name, stem, name))

    doc = os.path.join(root, "docs", "checks", stem + ".md")
    if not os.path.isfile(doc):
        problems.append("%s: docs/checks/%s.md is missing" % (name, stem))
    else:
        first = next((l for l in read(doc).splitlines() if l.strip()), "")
        if not (first.startswith("# ") and re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(name), first)):
            problems.append("%s: docs/checks/%s.md does not start with a title naming the check "
                            "(first line: %r)" % (name, stem, first))
    return problems


def check_strays(root, entries):
    classes = {cls for _, cls, _, _, _ in entries}
    stems = {stem for _, _, stem, _, _ in entries}
    problems = []
    for path in sorted(glob.glob(os.path.join(root, "checks", "*Check.cpp")) +
                       glob.glob(os.path.join(root, "checks", "*Check.h"))):
        cls = os.path.splitext(os.path.basename(path))[0]
        if cls not in classes and cls not in NOT_CHECKS:
            problems.append("checks/%s has no entry in Checks.def" % os.path.basename(path))
    for path in sorted(glob.glob(os.path.join(root, "docs", "checks", "*.md"))):
        stem = os.path.splitext(os.path.basename(path))[0]
        if stem != "README" and stem not in stems:
            problems.append("docs/checks/%s has no entry in Checks.def" % os.path.basename(path))
    for path in sorted(glob.glob(os.path.join(root, "tests", "checks", "*.cpp"))):
        stem = os.path.splitext(os.path.basename(path))[0]
        if stem not in stems and stem not in EXTRA_TESTS:
            problems.append("tests/checks/%s has no entry in Checks.def" % os.path.basename(path))
    index = os.path.join(root, "docs", "checks", "README.md")
    if not os.path.isfile(index):
        problems.append("docs/checks/README.md (the index) is missing")
    else:
        text = read(index)
        for name, _, stem, _, _ in entries:
            if name not in text or "(%s.md)" % stem not in text:
                problems.append("docs/checks/README.md does not list %s with a link to %s.md"
                                % (name, stem))
    return problems


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", ".."))
    root = os.path.abspath(ap.parse_args(argv).root)

    entries, problems = parse_def(root)
    names = [e[0] for e in entries]
    for dup in sorted({n for n in names if names.count(n) > 1}):
        problems.append("%s appears more than once in Checks.def" % dup)
    if names != sorted(names):
        problems.append("Checks.def entries are not sorted by name")

    module_path = os.path.join(root, "checks", "RematchTidyModule.cpp")
    module = read(module_path) if os.path.isfile(module_path) else None
    if module is None:
        problems.append("checks/RematchTidyModule.cpp is missing")
    cmake_path = os.path.join(root, "checks", "CMakeLists.txt")
    cmake = read(cmake_path) if os.path.isfile(cmake_path) else None

    for name, cls, stem, kind, desc in entries:
        problems += check_entry(root, name, cls, stem, desc, module, cmake)
        header = os.path.join(root, "checks", cls + ".h")
        if os.path.isfile(header) and not re.search(
                r"\bEffectKind::%s\b" % kind, read(header)):
            problems.append("%s: checks/%s.h does not report EffectKind::%s"
                            % (name, cls, kind))
    problems += check_strays(root, entries)

    for p in problems:
        print("mapping: " + p)
    print("mapping: %d checks, %s" % (len(entries), "%d problems" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
