#!/usr/bin/env bash
# Configures and builds rematch into ${REMATCH_BUILD_DIR:-build} with
# clang++-19 and Ninja. Extra arguments go to cmake's configure step.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${REMATCH_BUILD_DIR:-$root/build}
bash "$root/scripts/setup-deps.sh"
cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
# Two cores and LLVM headers: more jobs only thrash.
cmake --build "$build" -j "${REMATCH_JOBS:-2}"
