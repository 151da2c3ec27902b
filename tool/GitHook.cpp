//===--- GitHook.cpp - rematch --install-git-hook -------------------------===//

#include "GitHook.h"
#include "Driver.h"
#include "Git.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace rematch::tool {

namespace {

// scripts/pre-commit-hook.sh, as a raw string literal (tool/CMakeLists.txt).
const char HookScript[] =
#include "GitHookScript.inc"
    ;

std::string shellQuote(llvm::StringRef S) {
  std::string Out = "'";
  for (char C : S) {
    if (C == '\'')
      Out += "'\\''";
    else
      Out += C;
  }
  return Out + "'";
}

// Replaces the line carrying Marker with `Var=${Var:-Value} # Marker`.
void setDefault(std::string &Script, llvm::StringRef Var,
                llvm::StringRef Marker, llvm::StringRef Value) {
  size_t At = Script.find(("# " + Marker).str());
  if (At == std::string::npos || Value.empty())
    return;
  size_t Begin = Script.rfind('\n', At);
  Begin = Begin == std::string::npos ? 0 : Begin + 1;
  size_t End = Script.find('\n', At);
  Script.replace(
      Begin, End - Begin,
      (Var + "=${" + Var + ":-" + shellQuote(Value) + "} # " + Marker).str());
}

} // namespace

std::string preCommitHookText(llvm::StringRef Program,
                              llvm::StringRef BuildDir) {
  std::string Script = HookScript;
  setDefault(Script, "rematch", "rematch:default-program", Program);
  setDefault(Script, "build", "rematch:default-build-dir", BuildDir);
  return Script;
}

int installGitHook(const CliOptions &O, llvm::raw_ostream &Out,
                   llvm::raw_ostream &Err) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  // --git-path follows worktrees and core.hooksPath.
  GitResult R = runGit(Cwd, {"rev-parse", "--git-path", "hooks/pre-commit"});
  llvm::StringRef HookRel = llvm::StringRef(R.Output).rtrim("\r\n");
  if (R.ExitCode != 0 || HookRel.empty() || !gitTopLevel(Cwd)) {
    Err << "rematch: error: --install-git-hook: " << Cwd
        << " is not in a git work tree"
        << (R.Error.empty() ? "" : " (" + R.Error + ")") << "\n";
    return UsageError;
  }
  llvm::SmallString<256> Hook(HookRel);
  llvm::sys::fs::make_absolute(Cwd, Hook);
  llvm::sys::path::remove_dots(Hook, /*remove_dot_dot=*/true);

  // The hook runs this very program unless REMATCH or rematch.program say
  // otherwise; a relative -p stays relative to the top of the work tree.
  std::string Program = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&installGitHook));
  std::string Text = preCommitHookText(Program, O.BuildPath);

  if (llvm::sys::fs::exists(Hook)) {
    auto Old = llvm::MemoryBuffer::getFile(Hook);
    if (Old && (*Old)->getBuffer() == Text) {
      Out << "rematch: the pre-commit hook " << Hook << " is up to date\n";
      return NoFindings;
    }
    if (!O.Force) {
      Err << Hook << ": error: a different pre-commit hook is installed; "
          << "rematch --install-git-hook --force replaces it (saving it as "
          << "pre-commit.rematch-backup)\n";
      return UsageError;
    }
    llvm::SmallString<256> Backup(Hook);
    Backup += ".rematch-backup";
    if (std::error_code EC = llvm::sys::fs::rename(Hook, Backup)) {
      Err << Hook << ": error: cannot move the old hook aside: " << EC.message()
          << "\n";
      return UsageError;
    }
    Out << "rematch: saved the previous hook as " << Backup << "\n";
  }

  llvm::StringRef Dir = llvm::sys::path::parent_path(Hook);
  std::error_code EC = llvm::sys::fs::create_directories(Dir);
  if (!EC) {
    llvm::raw_fd_ostream OS(Hook, EC);
    if (!EC)
      OS << Text;
  }
  if (!EC)
    EC = llvm::sys::fs::setPermissions(Hook, llvm::sys::fs::perms(0755));
  if (EC) {
    Err << Hook << ": error: cannot write the hook: " << EC.message() << "\n";
    return UsageError;
  }
  Out << "rematch: installed the pre-commit hook " << Hook << "\n";
  return NoFindings;
}

} // namespace rematch::tool
