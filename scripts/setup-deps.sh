#!/usr/bin/env bash
# Installs the Debian 12 packages rematch needs, only those that are missing.
# Idempotent: a second run installs nothing and prints one line.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 python3-jsonschema
  clang-19 clang-tidy-19 llvm-19-dev llvm-19-tools libclang-19-dev libclang-cpp19-dev
  googletest libgtest-dev libbenchmark-dev
  libtorch-dev  # optional for the build; CI builds and tests rematch::torch with it
  libeigen3-dev # Eigen headers for the framework-model tests
  libclang-rt-19-dev # sanitizer and libFuzzer runtimes (scripts/sanitize.sh, fuzz.sh)
  chromium      # headless browser: the HTML report's rendering test
  bazel-bootstrap # Bazel 4.2.3: the test of bazel/rematch.bzl (offline)
  # The test's remote executor (tests/bazel/remote_execution.py): the
  # Remote Execution API's .proto files, compiled for Python, over gRPC.
  bazel-bootstrap-source protobuf-compiler python3-protobuf python3-grpcio
)
# Optional extras asked for by name, e.g. REMATCH_EXTRA_PACKAGES="libtorch-dev".
if [[ -n "${REMATCH_EXTRA_PACKAGES:-}" ]]; then
  read -r -a extra <<<"$REMATCH_EXTRA_PACKAGES"
  packages+=("${extra[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup-deps: all packages present"
  exit 0
fi

echo "setup-deps: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
