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
