#!/usr/bin/env bash
# The whole test suite: install what is missing, build everything, run ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${REMATCH_BUILD_DIR:-$root/build}
# Explicit: a build directory configured by demo.sh has the tests off.
bash "$root/scripts/build.sh" -DREMATCH_BUILD_TESTS=ON -DREMATCH_BUILD_BENCH=ON \
  -DREMATCH_BUILD_EXAMPLES=ON "$@"
ctest --test-dir "$build" --output-on-failure -j "${REMATCH_JOBS:-2}"
