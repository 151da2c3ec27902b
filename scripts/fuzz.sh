#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) and runs each for <seconds>, then
# prints per target: executions, coverage (libFuzzer's final cov:/ft:),
# corpus size and crashes.
#
#   bash scripts/fuzz.sh <seconds> [target...]   # default: every target
#
# REMATCH_FUZZ_BUILD_DIR (default build-fuzz) is the build directory; the
# grown corpus and any crash reproducers go under it (corpus/<target>/,
# artifacts/<target>/), the seeds in fuzz/corpus/<target>/ are only read.
# REMATCH_FUZZ_JOBS (default 1) runs that many targets at once.
# Exit status: 0 when no target crashed, 1 otherwise.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:?usage: fuzz.sh <seconds> [target...]}
shift
build=${REMATCH_FUZZ_BUILD_DIR:-$root/build-fuzz}
jobs=${REMATCH_FUZZ_JOBS:-1}

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-19 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREMATCH_BUILD_FUZZERS=ON \
  -DREMATCH_BUILD_TESTS=OFF -DREMATCH_BUILD_BENCH=OFF \
  -DREMATCH_BUILD_EXAMPLES=OFF >/dev/null
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(config model summary trace_diff)
fi
cmake --build "$build" -j "${REMATCH_JOBS:-2}" \
  --target "${targets[@]/#/fuzz_}"

run_one() {
  local t=$1 log=$build/fuzz-$1.log
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t"
  # -timeout: one input running 10 s is a hang; -rss_limit_mb: a blow-up.
  "$build/fuzz/fuzz_$t" "$build/corpus/$t" "$root/fuzz/corpus/$t" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$t/" \
    >"$log" 2>&1 || true
}

# Only reproducers written by this run count: older ones stay for reading.
stamp=$build/.fuzz-start
mkdir -p "$build"
touch "$stamp"

pids=()
for t in "${targets[@]}"; do
  run_one "$t" &
  pids+=($!)
  while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n || true; done
done
for p in "${pids[@]}"; do wait "$p" || true; done

status=0
printf '%-12s %8s %12s %8s %8s %8s %8s\n' target seconds executions cov ft corpus crashes
for t in "${targets[@]}"; do
  log=$build/fuzz-$t.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  crashes=$(find "$build/artifacts/$t" -type f -newer "$stamp" | wc -l)
  printf '%-12s %8s %12s %8s %8s %8s %8s\n' "$t" "$seconds" "${execs:-?}" \
    "${cov:-?}" "${ft:-?}" "${corp:-?}" "$crashes"
  if [[ $crashes -ne 0 || -z $execs ]]; then
    status=1
    echo "fuzz: $t: see $log and $build/artifacts/$t/" >&2
    grep -m5 -E 'ERROR:|SUMMARY:|deadly signal|Test unit written' "$log" >&2 || true
  fi
done
exit $status
