#!/usr/bin/env bash
# The whole test suite: install what is missing, build everything, run ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${REMATCH_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh" "$@"
ctest --test-dir "$build" --output-on-failure -j "${REMATCH_JOBS:-2}"
