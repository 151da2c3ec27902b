# rematch_add_lint(<target> [CHECKS <globs>] [WARNINGS_AS_ERRORS <globs>]
#                  [CONFIG_FILE <.rematch.yaml>])
# Runs the rematch checks on <target>'s C and C++ sources as they compile:
# sets <target>'s CXX_CLANG_TIDY and C_CLANG_TIDY to
#   clang-tidy-19 --load=<librematch-tidy.so> --checks=-*,<CHECKS>
# (CHECKS defaults to rematch-*). Findings are compiler-style warnings in the
# build log; WARNINGS_AS_ERRORS (e.g. rematch-*) makes them fail the build.
# Needs the Makefile or Ninja generator and clang-tidy-19: the plugin loads
# only into the clang-tidy of the LLVM it was built against.
function(rematch_add_lint target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG ""
    "CHECKS;WARNINGS_AS_ERRORS;CONFIG_FILE" "")
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
  if(ARG_CONFIG_FILE)
    get_filename_component(cfg "${ARG_CONFIG_FILE}" ABSOLUTE)
    list(APPEND cmd "--config={CheckOptions: {RematchConfigFile: '${cfg}'}}")
  endif()
  set_property(TARGET ${target} PROPERTY CXX_CLANG_TIDY ${cmd})
  set_property(TARGET ${target} PROPERTY C_CLANG_TIDY ${cmd})
endfunction()
