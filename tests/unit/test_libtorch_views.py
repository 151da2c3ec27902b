#!/usr/bin/env python3
"""models/libtorch.yaml's views against the installed ATen schemas.

    test_libtorch_views.py --root REPO [--schemas ATen/RegistrationDeclarations.h]

ATen's schemas mark an op whose result shares its input's storage with an
alias set: `Tensor(a) self ... -> Tensor(a)` (or `Tensor(a)[]`). Every such
op that the C++ API offers (not `_`-prefixed) must be in the model's view
rules, and every name in those rules must be such an op or one of the C++
API's own accessors. Exits 77 (skipped) when libtorch's headers are absent.
"""
import argparse
import os
import re
import sys

# The C++ API's own ways to the same storage, which no schema lists.
CPP_ONLY = {"operator[]", "data", "data_ptr", "accessor", "packed_accessor32",
            "packed_accessor64", "generic_packed_accessor", "index"}
# Schema names the model leaves out: lift_fresh is an internal of tensor
# creation (torch.tensor's functionalization), not an API to call.
NOT_VIEWS = {"lift_fresh"}


def rule_names(model_text, rule_id):
    m = re.search(r"- Id: %s\n(.*?)(?=\n  - |\nFunctions:|\Z)" % re.escape(rule_id),
                  model_text, re.S)
    if not m:
        sys.exit("no rule %s in the model" % rule_id)
    names = re.search(r"Names: \[(.*?)\]", m.group(1), re.S).group(1)
    names = re.sub(r"#[^\n]*", "", names)
    return {n.strip().strip('"') for n in names.split(",") if n.strip()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--schemas",
                    default="/usr/include/ATen/RegistrationDeclarations.h")
    args = ap.parse_args()
    if not os.path.exists(args.schemas):
        print("skipped: %s not found" % args.schemas)
        return 77
    with open(args.schemas, encoding="utf-8") as f:
        schemas = re.findall(r'"schema": "aten::([A-Za-z0-9_]+)(?:\.[A-Za-z0-9_]+)?'
                             r'\(([^"]*)\) -> ([^"]*)"', f.read())
    views = set()
    for name, params, result in schemas:
        if name.startswith("_"):
            continue
        # A result in a read-only alias set of a parameter's: a view.
        # `Tensor(a -> *)`: the elements of a list result share it too.
        sets = re.findall(r"Tensor\(([a-z])(?: -> \*)?\)", params)
        if any(re.match(r"\(?Tensor\(%s\)" % s, result) for s in sets):
            views.add(name)
    with open(os.path.join(args.root, "models", "libtorch.yaml"),
              encoding="utf-8") as f:
        model = f.read()
    listed = set()
    for rule in ("aten-view-methods", "aten-maybe-view-methods",
                 "aten-view-functions", "aten-maybe-view-functions"):
        listed |= rule_names(model, rule)
    missing = sorted(views - listed - NOT_VIEWS)
    unknown = sorted(listed - views - CPP_ONLY)
    print("%d schema views, %d names in the model" % (len(views), len(listed)))
    if missing:
        print("views the model does not list: " + ", ".join(missing))
    if unknown:
        print("model names no schema makes a view: " + ", ".join(unknown))
    return 1 if missing or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
