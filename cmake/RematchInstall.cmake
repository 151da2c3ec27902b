# Installs the CMake package `rematch` so that a project can write
#   find_package(rematch CONFIG REQUIRED)
# and get rematch::runtime, rematch_audit(<target>) and, when the checker was
# built, rematch::rematch and rematch_add_lint(<target>). The runtime's
# targets are in the export set rematchTargets (runtime/CMakeLists.txt); the
# checker's files are found by path (tool/CMakeLists.txt installs them).
# Included by the top-level CMakeLists.txt and by a standalone runtime build.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(REMATCH_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/rematch"
  CACHE STRING "Where the rematch CMake package goes, relative to the prefix")

install(EXPORT rematchTargets
  NAMESPACE rematch::
  FILE rematchTargets.cmake
  DESTINATION ${REMATCH_INSTALL_CMAKEDIR})

# The libtorch adapter, when it was built: its own export set and file, read
# by the package's torch component after it has found Torch.
if(TARGET rematch_torch)
  install(EXPORT rematchTorchTargets
    NAMESPACE rematch::
    FILE rematchTorchTargets.cmake
    DESTINATION ${REMATCH_INSTALL_CMAKEDIR})
  set(REMATCH_PACKAGE_HAS_TORCH ON)
  # A hint for the consumer's find_dependency(Torch): the libtorch rematch
  # was built against.
  set(REMATCH_PACKAGE_TORCH_DIR "${Torch_DIR}")
else()
  set(REMATCH_PACKAGE_HAS_TORCH OFF)
  set(REMATCH_PACKAGE_TORCH_DIR "")
endif()

# With the checker: its documentation, which the installed program's SARIF
# helpUri links (tool/DocLinks.cpp) unless REMATCH_DOCS_URL is set.
if(TARGET rematch)
  install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../docs/
    DESTINATION ${CMAKE_INSTALL_DOCDIR}
    FILES_MATCHING PATTERN "*.md")
  # The Bazel rules: the install prefix is the @rematch repository, with
  # this BUILD file (docs/bazel.md).
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/../bazel/rematch.bzl
                ${CMAKE_CURRENT_LIST_DIR}/../bazel/repository/BUILD.bazel
    DESTINATION ${CMAKE_INSTALL_DATADIR}/rematch/bazel)
endif()

# The plugin and the program are part of the package only when built here.
if(TARGET rematch-tidy)
  set(REMATCH_PACKAGE_HAS_TOOL ON)
else()
  set(REMATCH_PACKAGE_HAS_TOOL OFF)
endif()
# rematch_add_lint looks for clang-tidy here first: the plugin works only
# with the clang-tidy of the LLVM it was built against.
set(REMATCH_PACKAGE_LLVM_BINDIR "${REMATCH_LLVM_BINDIR}")

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/rematchConfig.cmake.in
  ${PROJECT_BINARY_DIR}/rematch-package/rematchConfig.cmake
  INSTALL_DESTINATION ${REMATCH_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR)
# 0.x: a minor release may change the interface.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/rematch-package/rematchConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)

install(FILES
  ${PROJECT_BINARY_DIR}/rematch-package/rematchConfig.cmake
  ${PROJECT_BINARY_DIR}/rematch-package/rematchConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/../runtime/cmake/RematchAudit.cmake
  ${CMAKE_CURRENT_LIST_DIR}/RematchLint.cmake
  DESTINATION ${REMATCH_INSTALL_CMAKEDIR})
