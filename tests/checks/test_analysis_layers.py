#!/usr/bin/python3
"""Checks that the headers of checks/analysis/ include only what their layer
may (docs/architecture.md): the analysis core splits along the same seams as
the steps of a run, and a header that reaches up or across ties them again.

    base        AST helpers and plain data; no other analysis header
    knowledge   the models, the summary format, other TUs' facts
    collect     facts from one AST (one parse): effects, sites, aliases
    compose     facts across TUs, from summaries alone (no AST)
    coordinate  the per-TU analysis the checks share, and its host

A layer includes its own and those below it; `collect` and `compose` do not
include each other. Every header is placed, and includes form no cycle.

    test_analysis_layers.py [--root REPO]
"""

import argparse
import glob
import os
import re
import sys

LAYERS = {
    "base": ["BodyScope.h", "CacheLayout.h", "Components.h", "Config.h",
             "CopySemantics.h", "DeclPath.h", "Effect.h", "GlobalWrites.h",
             "Model.h", "NoLint.h", "StmtWalk.h", "SummaryJson.h", "Wrappers.h"],
    "knowledge": ["ExternalSummaries.h", "HeldCallables.h",
                  "KnownFunctions.h", "ModelSet.h", "Summary.h",
                  "UnreadBodies.h"],
    "collect": ["Aliases.h", "BodyReplay.h", "CallReach.h", "CallableText.h",
                "NestedLambdas.h", "Rebinds.h",
                "CheckpointSites.h", "EffectCollector.h", "TUWalk.h"],
    "compose": ["Compose.h"],
    "coordinate": ["AnalysisHost.h", "EffectAnalysis.h"],
}
MAY_INCLUDE = {
    "base": {"base"},
    "knowledge": {"base", "knowledge"},
    "collect": {"base", "knowledge", "collect"},
    "compose": {"base", "knowledge", "compose"},
    "coordinate": set(LAYERS),
}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def check(root):
    analysis = os.path.join(root, "checks", "analysis")
    layer_of = {h: layer for layer, hs in LAYERS.items() for h in hs}
    headers = sorted(os.path.basename(p)
                     for p in glob.glob(os.path.join(analysis, "*.h")))
    errors = []
    for h in headers:
        if h not in layer_of:
            errors.append(f"checks/analysis/{h}: in no layer; add it to "
                          f"LAYERS here and to docs/architecture.md")
    for h in layer_of:
        if h not in headers:
            errors.append(f"{h}: listed in a layer but not in "
                          f"checks/analysis/")
    graph = {}
    for h in headers:
        with open(os.path.join(analysis, h), encoding="utf-8") as f:
            text = f.read()
        graph[h] = [i for i in INCLUDE_RE.findall(text) if i in layer_of]
        if h not in layer_of:
            continue
        for i in graph[h]:
            if layer_of[i] not in MAY_INCLUDE[layer_of[h]]:
                errors.append(f"checks/analysis/{h} ({layer_of[h]}) "
                              f"includes {i} ({layer_of[i]})")
        for i in INCLUDE_RE.findall(text):
            if i.startswith(("tool/", "../")) or i in ("RematchCheck.h",):
                errors.append(f"checks/analysis/{h} includes {i}, above the "
                              f"analysis")
    # No cycle (one would hide behind include guards).
    state = {}

    def visit(h, path):
        state[h] = "open"
        for i in graph.get(h, []):
            if state.get(i) == "open":
                errors.append("include cycle: " + " -> ".join(path + [i]))
            elif i not in state:
                visit(i, path + [i])
        state[h] = "done"

    for h in headers:
        if h not in state:
            visit(h, [h])
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", ".."))
    args = ap.parse_args()
    errors = check(os.path.abspath(args.root))
    for e in errors:
        print(e)
    if errors:
        return 1
    print("checks/analysis: every header includes only its layer and below")
    return 0


if __name__ == "__main__":
    sys.exit(main())
