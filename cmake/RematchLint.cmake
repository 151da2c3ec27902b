# rematch_add_lint(<target> [CHECKS <globs>] [WARNINGS_AS_ERRORS <globs>]
#                  [CONFIG_FILE <.rematch.yaml>]
#                  [SUMMARIES_DIR <dir> | NO_SUMMARIES])
# Runs the rematch checks on <target>'s C and C++ sources as they compile:
# sets <target>'s CXX_CLANG_TIDY and C_CLANG_TIDY to
#   clang-tidy-19 --load=<librematch-tidy.so> --checks=-*,<CHECKS>
# (CHECKS defaults to rematch-*). Findings are compiler-style warnings in the
# build log; WARNINGS_AS_ERRORS (e.g. rematch-*) makes them fail the build.
# Needs the Makefile or Ninja generator and clang-tidy-19: the plugin loads
# only into the clang-tidy of the LLVM it was built against.
# Calls into other files are followed with the whole-program summaries in
# SUMMARIES_DIR (default: ${CMAKE_BINARY_DIR}/.rematch-cache, where
# `rematch -p ${CMAKE_BINARY_DIR}` keeps them), read and never written: a
# compile step cannot summarise a program still being built, so the chains
# are those of the last `rematch` run; without summaries there, each file
# alone. NO_SUMMARIES: each file alone.
function(rematch_add_lint target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NO_SUMMARIES"
    "CHECKS;WARNINGS_AS_ERRORS;CONFIG_FILE;SUMMARIES_DIR" "")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "rematch_add_lint: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "rematch_add_lint: ${target} is not a target")
  endif()
  if(NOT REMATCH_HAS_TOOL OR NOT EXISTS "${REMATCH_TIDY_PLUGIN}")
    message(FATAL_ERROR "rematch_add_lint: this rematch package has no "
      "checker plugin (it was built with REMATCH_BUILD_TOOL=OFF)")
  endif()
  find_program(REMATCH_CLANG_TIDY_EXECUTABLE NAMES clang-tidy-19 clang-tidy
    HINTS ${REMATCH_LLVM_BINDIR} NO_DEFAULT_PATH)
  find_program(REMATCH_CLANG_TIDY_EXECUTABLE NAMES clang-tidy-19)
  if(NOT REMATCH_CLANG_TIDY_EXECUTABLE)
    message(FATAL_ERROR "rematch_add_lint: clang-tidy-19 not found; set "
      "REMATCH_CLANG_TIDY_EXECUTABLE")
  endif()
  if(NOT ARG_CHECKS)
    set(ARG_CHECKS "rematch-*")
  endif()
  set(cmd ${REMATCH_CLANG_TIDY_EXECUTABLE} "--load=${REMATCH_TIDY_PLUGIN}"
    "--checks=-*,${ARG_CHECKS}")
  if(ARG_WARNINGS_AS_ERRORS)
    list(APPEND cmd "--warnings-as-errors=${ARG_WARNINGS_AS_ERRORS}")
  endif()
  if(ARG_NO_SUMMARIES AND ARG_SUMMARIES_DIR)
    message(FATAL_ERROR "rematch_add_lint: NO_SUMMARIES and SUMMARIES_DIR contradict each other")
  endif()
  set(options "")
  if(ARG_CONFIG_FILE)
    get_filename_component(cfg "${ARG_CONFIG_FILE}" ABSOLUTE)
    list(APPEND options "RematchConfigFile: '${cfg}'")
  endif()
  if(NOT ARG_NO_SUMMARIES)
    if(NOT ARG_SUMMARIES_DIR)
      set(ARG_SUMMARIES_DIR "${CMAKE_BINARY_DIR}/.rematch-cache")
    endif()
    get_filename_component(sums "${ARG_SUMMARIES_DIR}" ABSOLUTE)
    list(APPEND options "RematchSummariesDir: '${sums}'")
  endif()
  if(options)
    list(JOIN options ", " joined)
    list(APPEND cmd "--config={CheckOptions: {${joined}}}")
  endif()
  set_property(TARGET ${target} PROPERTY CXX_CLANG_TIDY ${cmd})
  set_property(TARGET ${target} PROPERTY C_CLANG_TIDY ${cmd})
endfunction()
