# Locates LLVM/Clang 19 and defines rematch_llvm_flags(<target>), which gives a
# target the flags LLVM's headers need. Only checks/ and tool/ use it: the
# runtime keeps the user's own flags (RTTI and exceptions on).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR
   NOT CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 19 OR
   CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 20)
  message(FATAL_ERROR
    "the rematch checker must be built with clang++-19 (g++ mangles some "
    "clang-tidy symbols differently): configure with "
    "-DCMAKE_CXX_COMPILER=clang++-19, or -DREMATCH_BUILD_TOOL=OFF for the runtime only")
endif()

# LLVM's FindFFI (run by ClangConfig) probes libffi with the C compiler
# whenever CMAKE_C_COMPILER is defined, which naming one does
# (-DCMAKE_C_COMPILER=clang-19, or a parent project's C), and fails unless C
# is enabled; otherwise it probes with the C++ compiler.
if(DEFINED CMAKE_C_COMPILER)
  enable_language(C)
endif()
find_package(Clang 19.1 CONFIG REQUIRED
  HINTS /usr/lib/llvm-19/lib/cmake/clang)
message(STATUS "rematch: Clang ${Clang_VERSION} from ${Clang_DIR}")

set(REMATCH_LLVM_BINDIR "${LLVM_TOOLS_BINARY_DIR}")
find_program(REMATCH_CLANG_TIDY NAMES clang-tidy-19 clang-tidy
  HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
find_program(REMATCH_CLANG_TIDY NAMES clang-tidy-19)

function(rematch_llvm_flags target)
  target_include_directories(${target} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
  target_compile_definitions(${target} PUBLIC ${LLVM_DEFINITIONS_LIST})
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${target} PUBLIC -fno-rtti)
  endif()
endfunction()
