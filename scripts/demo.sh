#!/usr/bin/env bash
# The main job on the shipped examples: build rematch, then run it on
# examples/lint/ (text output, then SARIF into build/examples.sarif): a
# library's annotated API, a configured entry point, and a hand-written
# libtorch checkpoint whose hazards sit inside libtorch's calls.
# Exits 0 when rematch reported the expected findings (exit code 1).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${REMATCH_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh" -DREMATCH_BUILD_TESTS=OFF -DREMATCH_BUILD_BENCH=OFF
cd "$root"
# libtorch_block.cpp includes libtorch's API headers (libtorch-dev).
flags=(-- -std=c++17 -I runtime/include -I /usr/include/torch/csrc/api/include)
set +e
"$build/tool/rematch" examples/lint/*.cpp "${flags[@]}"
text_rc=$?
"$build/tool/rematch" --format=sarif --output="$build/examples.sarif" \
  examples/lint/*.cpp "${flags[@]}"
sarif_rc=$?
set -e
echo "rematch exit codes: text $text_rc, sarif $sarif_rc (1 = findings); SARIF in $build/examples.sarif"
[[ $text_rc -eq 1 && $sarif_rc -eq 1 ]]
