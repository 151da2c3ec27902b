//===--- AnalysisHost.cpp - what the program gives the checks -------------===//

#include "AnalysisHost.h"

namespace clang::tidy::rematch {

const char HostedFileSystem::ID = 0;

const AnalysisHost *hostOf(llvm::vfs::FileSystem &FS) {
  const AnalysisHost *Found = nullptr;
  FS.visit([&](llvm::vfs::FileSystem &Layer) {
    if (const auto *Hosted = llvm::dyn_cast<HostedFileSystem>(&Layer))
      if (!Found)
        Found = &Hosted->host();
  });
  return Found;
}

} // namespace clang::tidy::rematch
