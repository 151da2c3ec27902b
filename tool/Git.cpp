//===--- Git.cpp - running git for the line filters and the hook ----------===//

#include "Git.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

namespace rematch::tool {

GitResult runGit(llvm::StringRef Dir, const std::vector<std::string> &Args) {
  GitResult R;
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git) {
    R.Error = "git not found on PATH";
    return R;
  }
  llvm::SmallString<128> OutPath, ErrPath;
  if (llvm::sys::fs::createTemporaryFile("rematch-git", "out", OutPath) ||
      llvm::sys::fs::createTemporaryFile("rematch-git", "err", ErrPath)) {
    R.Error = "cannot create a temporary file for git's output";
    return R;
  }
  auto Cleanup = llvm::make_scope_exit([&] {
    llvm::sys::fs::remove(OutPath);
    llvm::sys::fs::remove(ErrPath);
  });
  std::vector<llvm::StringRef> Argv = {*Git, "-C", Dir};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                OutPath.str(), ErrPath.str()};
  std::string ExecError;
  R.ExitCode = llvm::sys::ExecuteAndWait(*Git, Argv, /*Env=*/std::nullopt,
                                         Redirects, 0, 0, &ExecError);
  if (auto Buf = llvm::MemoryBuffer::getFile(OutPath))
    R.Output = (*Buf)->getBuffer().str();
  if (auto Buf = llvm::MemoryBuffer::getFile(ErrPath))
    R.Error = llvm::StringRef((*Buf)->getBuffer()).trim().str();
  if (R.ExitCode < 0 && R.Error.empty())
    R.Error = ExecError;
  return R;
}

std::optional<std::string> gitTopLevel(llvm::StringRef Dir) {
  GitResult R = runGit(Dir, {"rev-parse", "--show-toplevel"});
  llvm::StringRef Top = llvm::StringRef(R.Output).rtrim("\r\n");
  if (R.ExitCode != 0 || Top.empty())
    return std::nullopt;
  return Top.str();
}

} // namespace rematch::tool
