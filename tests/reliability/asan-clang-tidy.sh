#!/usr/bin/env bash
# clang-tidy-19 for the sanitizer build (scripts/sanitize.sh): the plugin
# there is compiled with -fsanitize=address,undefined, and the uninstrumented
# clang-tidy can only load it with the ASan runtime (which carries the UBSan
# handlers too) preloaded. Leak checking stays off in this process: the leaks
# it would find are clang-tidy's own, not the plugin's; the rematch program
# runs the same checks with leak checking on.
set -euo pipefail
runtime=$(clang++-19 -print-file-name=libclang_rt.asan-x86_64.so)
export LD_PRELOAD=$runtime${LD_PRELOAD:+:$LD_PRELOAD}
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
exec "${REMATCH_REAL_CLANG_TIDY:-clang-tidy-19}" "$@"
