#!/usr/bin/env bash
# The test suite under sanitizers, in build directories of its own:
#  1. AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer included)
#     over the runtime, the checks, the rematch program, the plugin and
#     every test that exercises them;
#  2. the same over the libtorch adapter and every torch test, built on their
#     own (tests/torch/standalone) at -O1, one process (libtorch itself is not
#     instrumented: ASan sees its heap through its allocator's interceptors);
#  3. ThreadSanitizer over the runtime and its tests (TSan cannot be combined
#     with ASan);
#  4. each libFuzzer target for REMATCH_FUZZ_SECONDS (default 20) as a smoke
#     test (scripts/fuzz.sh); 0 skips it.
# .ci/run calls it after scripts/test.sh. Directories: REMATCH_ASAN_BUILD_DIR
# (default build-asan), REMATCH_ASAN_TORCH_BUILD_DIR (build-asan-torch),
# REMATCH_TSAN_BUILD_DIR (build-tsan), REMATCH_FUZZ_BUILD_DIR (build-fuzz).
# REMATCH_JOBS (default 2) as build.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
asan_dir=${REMATCH_ASAN_BUILD_DIR:-$root/build-asan}
asan_torch_dir=${REMATCH_ASAN_TORCH_BUILD_DIR:-$root/build-asan-torch}
tsan_dir=${REMATCH_TSAN_BUILD_DIR:-$root/build-tsan}
jobs=${REMATCH_JOBS:-2}
fuzz_seconds=${REMATCH_FUZZ_SECONDS:-20}
bash "$root/scripts/setup-deps.sh"
start=$SECONDS

# A sanitizer report is always a failure: abort (a signal, never exit code
# 1, which would read as "findings"), with a symbolized stack.
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
export LSAN_OPTIONS=suppressions=$root/tests/reliability/lsan.supp:print_suppressions=0
export TSAN_OPTIONS=halt_on_error=1:abort_on_error=1:second_deadlock_stack=1
symbolizer=$(command -v llvm-symbolizer-19 || true)
if [[ -n $symbolizer ]]; then
  export ASAN_SYMBOLIZER_PATH=$symbolizer TSAN_SYMBOLIZER_PATH=$symbolizer
fi

echo "sanitize: ASan+UBSan build in $asan_dir"
sanflags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
# The benchmarks measure nothing useful under ASan; the install test builds a
# g++ consumer against the instrumented runtime, which g++ cannot link.
cmake -S "$root" -B "$asan_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++-19 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="$sanflags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DREMATCH_BUILD_BENCH=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON \
  -DREMATCH_CLANG_TIDY="$root/tests/reliability/asan-clang-tidy.sh" >/dev/null
cmake --build "$asan_dir" -j "$jobs"
# runtime-gxx rebuilds the plain runtime with g++ (no sanitizer): covered by
# scripts/test.sh. install.consumer: see above. bazel.aspect tests Bazel's
# side (the rule, the sandbox, the caches) and runs in scripts/test.sh; the
# rematch steps it runs are tested under the sanitizers by cli.steps.
failed=()
ctest --test-dir "$asan_dir" --output-on-failure -j "$jobs" \
  -E '^(runtime-gxx|install\.|bazel\.)' || failed+=("ASan+UBSan tests")
echo "sanitize: ASan+UBSan done after $((SECONDS - start)) s"

echo "sanitize: ASan+UBSan build of the libtorch adapter in $asan_torch_dir"
# Its own project: the main ASan build leaves libtorch out (the torch tests'
# one-process-per-test discovery and the example would cost minutes), and -O1
# with line tables compiles torch's headers faster than RelWithDebInfo.
cmake -S "$root/tests/torch/standalone" -B "$asan_torch_dir" -G Ninja \
  -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_CXX_FLAGS="-O1 -g1 $sanflags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DREMATCH_TORCH_ALL_TESTS=ON -DREMATCH_TORCH_OPTIONAL=ON >/dev/null
cmake --build "$asan_torch_dir" -j "$jobs"
if [[ -x $asan_torch_dir/torch_standalone_test ]]; then
  "$asan_torch_dir/torch_standalone_test" --gtest_brief=1 ||
    failed+=("ASan+UBSan torch tests")
else
  echo "sanitize: libtorch not found, the torch tests are skipped"
fi
echo "sanitize: ASan+UBSan torch done after $((SECONDS - start)) s"

echo "sanitize: TSan build of the runtime in $tsan_dir"
cmake -S "$root/runtime" -B "$tsan_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++-19 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
  -DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
cmake --build "$tsan_dir" -j "$jobs"
ctest --test-dir "$tsan_dir" --output-on-failure -j "$jobs" || failed+=("TSan tests")
echo "sanitize: TSan done after $((SECONDS - start)) s"

if [[ $fuzz_seconds -gt 0 ]]; then
  echo "sanitize: fuzz smoke test, ${fuzz_seconds} s per target"
  REMATCH_FUZZ_JOBS=$jobs bash "$root/scripts/fuzz.sh" "$fuzz_seconds" ||
    failed+=("fuzzing")
fi
if [[ ${#failed[@]} -ne 0 ]]; then
  echo "sanitize: FAILED: ${failed[*]} ($((SECONDS - start)) s)" >&2
  exit 1
fi
echo "sanitize: all passed in $((SECONDS - start)) s"
