#!/usr/bin/env bash
# rematch pre-commit hook: runs rematch on the staged C and C++ files and
# blocks the commit when it reports a finding or cannot analyse a file.
#
# Install: `rematch --install-git-hook [-p <build dir>] [--force]`, or copy
# this file to .git/hooks/pre-commit and make it executable.
# Settings (git config, all optional):
#   rematch.buildDir      directory holding compile_commands.json, relative to
#                         the top of the work tree (default: build)
#   rematch.program       the rematch program (default: rematch on PATH);
#                         the environment variable REMATCH overrides both
#   rematch.changedLines  true: report only findings on lines changed since
#                         HEAD (rematch --changed-lines=HEAD)
# Skip it once: git commit --no-verify, or REMATCH_SKIP=1 git commit.
# Exit codes: 0 nothing to analyse or no findings; otherwise rematch's own:
# 1 findings, 2 configuration error (e.g. no compile_commands.json), 3 a file
# could not be analysed.
# A staged file is analysed as it is in the work tree: when it also has
# unstaged changes, the hook says so.
set -u

if [[ "${REMATCH_SKIP:-}" == 1 ]]; then
  exit 0
fi
top=$(git rev-parse --show-toplevel) || exit 2
cd "$top" || exit 2

rematch=${REMATCH:-$(git config --get rematch.program)}
rematch=${rematch:-rematch} # rematch:default-program
build=$(git config --get rematch.buildDir)
build=${build:-build} # rematch:default-build-dir

# Added, copied, modified or renamed in the index; NUL-separated so that any
# file name survives. Headers too, as the pre-commit framework's hook does.
staged=()
while IFS= read -r -d '' f; do
  staged+=("$f")
done < <(git diff --cached --name-only -z --diff-filter=ACMR -- \
  '*.c' '*.cc' '*.cpp' '*.cxx' '*.c++' '*.C' '*.cu' \
  '*.h' '*.hh' '*.hpp' '*.hxx' '*.h++' '*.H' '*.inl' '*.ipp' '*.tpp')
if [[ ${#staged[@]} -eq 0 ]]; then
  exit 0
fi

while IFS= read -r -d '' f; do
  echo "rematch: note: '$f' has unstaged changes; the work-tree version is analysed" >&2
done < <(git --literal-pathspecs diff --name-only -z -- "${staged[@]}")

args=(-p "$build")
if [[ "$(git config --bool --get rematch.changedLines)" == true ]] &&
  git rev-parse --verify --quiet HEAD >/dev/null; then
  args+=(--changed-lines=HEAD)
fi

if ! command -v "$rematch" >/dev/null 2>&1; then
  echo "rematch: error: '$rematch' not found; set git config rematch.program or REMATCH" >&2
  exit 2
fi
# A name starting with '-' would read as an option.
files=()
for f in "${staged[@]}"; do
  if [[ "$f" == -* ]]; then files+=("./$f"); else files+=("$f"); fi
done
"$rematch" "${args[@]}" "${files[@]}"
rc=$?
if [[ $rc -ne 0 ]]; then
  echo "rematch: commit blocked (exit code $rc); fix the findings above, or commit with --no-verify to skip the check" >&2
fi
exit $rc
