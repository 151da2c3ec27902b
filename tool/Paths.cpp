//===--- Paths.cpp - one way to make a path absolute ----------------------===//

#include "Paths.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace rematch::tool {

std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> P(Path);
  if (Base.empty())
    llvm::sys::fs::make_absolute(P);
  else
    llvm::sys::fs::make_absolute(Base, P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

} // namespace rematch::tool
