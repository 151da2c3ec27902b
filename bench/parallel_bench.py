#!/usr/bin/env python3
"""Throughput of rematch -j N against -j 1 on generated translation units.

Usage:
  parallel_bench.py [--rematch build/tool/rematch] [--files 8]
                    [--functions 100] [--jobs 2] [--runs 3]

Generates --files translation units of the same size (standard headers plus
--functions checkpointed functions each, every one with findings), runs
rematch -j 1 and -j N over all of them --runs times each, alternating, and
prints the best wall time of each and the throughput ratio (goal: >= 1.8 for
-j 2 on two idle cores). Also checks that both runs print the same report.
Standard library only.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

HEADER = """\
#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>
namespace rematch { bool recomputing(); struct Segment { template <class F> decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F&& f) { return f(); } }; }
static int g_steps;
static std::map<std::string, float> g_cache;
"""

FUNCTION = """\
float f{u}_{i}(rematch::Segment &seg, std::vector<float> v) {{
  return seg.forward([&v] {{
    std::sort(v.begin(), v.end());
    std::cout << "step {i} " << v.size() << "\\n";
    ++g_steps;
    g_cache["k{i}"] = v.empty() ? 0.f : v.front();
    float s = 0;
    for (float x : v) s += x;
    return s;
  }});
}}
"""


def generate(directory, files, functions):
    names = []
    for u in range(files):
        name = os.path.join(directory, f"unit{u}.cpp")
        with open(name, "w", encoding="utf-8") as f:
            f.write(HEADER)
            for i in range(functions):
                f.write(FUNCTION.format(u=u, i=i))
        names.append(name)
    return names


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(rematch, jobs, names):
    cpu = cpu_seconds()
    start = time.monotonic()
    proc = subprocess.run([rematch, "-j", str(jobs), "--format=json"] + names +
                          ["--", "-std=c++17"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    seconds = time.monotonic() - start
    cpu = cpu_seconds() - cpu
    if proc.returncode not in (0, 1):
        sys.exit(f"rematch -j {jobs} failed ({proc.returncode}):\n"
                 f"{proc.stderr.decode()}")
    return seconds, cpu, proc.stdout


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rematch",
                   default=os.path.join(here, "..", "build", "tool", "rematch"))
    p.add_argument("--files", type=int, default=8)
    p.add_argument("--functions", type=int, default=100)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()

    with tempfile.TemporaryDirectory(prefix="rematch-bench-") as d:
        names = generate(d, a.files, a.functions)
        best = {1: float("inf"), a.jobs: float("inf")}
        cpu = {1: float("inf"), a.jobs: float("inf")}
        reports = {}
        for r in range(a.runs):
            for jobs in (1, a.jobs):
                seconds, used, out = run(a.rematch, jobs, names)
                best[jobs] = min(best[jobs], seconds)
                cpu[jobs] = min(cpu[jobs], used)
                reports[jobs] = out
                print(f"run {r + 1}: -j {jobs}: {seconds:.2f} s wall, "
                      f"{used:.2f} s CPU", flush=True)
        if reports[1] != reports[a.jobs]:
            sys.exit("the reports of -j 1 and -j %d differ" % a.jobs)
        ratio = best[1] / best[a.jobs]
        print(f"{a.files} files, {a.functions} functions each, "
              f"{len(reports[1])} bytes of report")
        print(f"best of {a.runs}: -j 1 {best[1]:.2f} s "
              f"({best[1] / a.files:.2f} s per file), "
              f"-j {a.jobs} {best[a.jobs]:.2f} s")
        print(f"throughput ratio -j {a.jobs} / -j 1: {ratio:.2f}")
        # On a busy machine the wall-clock ratio says more about the other
        # load than about rematch; the CPU ratio shows what parallelism costs
        # (1.00: nothing), the wall ratio's ceiling on idle cores.
        print(f"CPU time -j 1 / -j {a.jobs}: {cpu[1] / cpu[a.jobs]:.2f}; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
