//===--- CacheDirectory.cpp - how the cache's entries are written ---------===//

#include "CacheDirectory.h"
#include "CacheLayout.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

namespace rematch::tool {

namespace fs = llvm::sys::fs;

namespace {

// A unique temporary beside Path, removed if the process is interrupted.
// Its name ends in ".tmp-" and twelve hex digits: never a summary's
// (".summary.json"), nor any other entry's name.
std::error_code createTemporary(llvm::StringRef Path, int &FD,
                                std::string &Temp) {
  llvm::SmallString<256> Name;
  if (std::error_code EC =
          fs::createUniqueFile(Path + ".tmp-%%%%%%%%%%%%", FD, Name))
    return EC;
  Temp = std::string(Name);
  llvm::sys::RemoveFileOnSignal(Temp);
  return {};
}

void removeTemporary(const std::string &Temp) {
  fs::remove(Temp);
  llvm::sys::DontRemoveFileOnSignal(Temp);
}

std::error_code renameTemporary(const std::string &Temp, llvm::StringRef Path) {
  std::error_code EC = fs::rename(Temp, Path);
  if (EC)
    fs::remove(Temp);
  llvm::sys::DontRemoveFileOnSignal(Temp);
  return EC;
}

unsigned sweep(llvm::StringRef Dir, std::chrono::seconds MaxAge) {
  const auto Now = std::chrono::system_clock::now();
  unsigned Removed = 0;
  std::error_code EC;
  for (fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (!isTemporary(llvm::sys::path::filename(It->path())))
      continue;
    fs::file_status St;
    if (fs::status(It->path(), St) ||
        Now - St.getLastModificationTime() < MaxAge)
      continue;
    if (!fs::remove(It->path()))
      ++Removed;
  }
  return Removed;
}

} // namespace

std::error_code writeAtomically(llvm::StringRef Path, llvm::StringRef Text) {
  int FD = -1;
  std::string Temp;
  if (std::error_code EC = createTemporary(Path, FD, Temp))
    return EC;
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      EC = OS.error();
      OS.clear_error();
    }
  }
  if (EC) {
    removeTemporary(Temp);
    return EC;
  }
  return renameTemporary(Temp, Path);
}

llvm::Expected<PendingEntry> PendingEntry::create(llvm::StringRef Path) {
  int FD = -1;
  std::string Temp;
  if (std::error_code EC = createTemporary(Path, FD, Temp))
    return llvm::errorCodeToError(EC);
  fs::closeFile(FD);
  return PendingEntry(Path.str(), std::move(Temp));
}

PendingEntry::PendingEntry(PendingEntry &&Other) noexcept
    : Path(std::move(Other.Path)), Temp(std::move(Other.Temp)) {
  Other.Temp.clear();
}

PendingEntry::~PendingEntry() {
  if (!Temp.empty())
    removeTemporary(Temp);
}

std::error_code PendingEntry::commit() {
  std::error_code EC = renameTemporary(Temp, Path);
  Temp.clear();
  return EC;
}

bool isTemporary(llvm::StringRef Name) {
  Name.consume_back(".tmp"); // a compiler's own temporary of ours
  size_t At = Name.rfind(".tmp-");
  if (At == llvm::StringRef::npos)
    return false;
  llvm::StringRef Digits = Name.substr(At + 5);
  return Digits.size() == 12 &&
         llvm::all_of(Digits, [](char C) { return llvm::isHexDigit(C); });
}

unsigned repairCache(llvm::StringRef Dir, std::chrono::seconds MaxAge) {
  return sweep(Dir, MaxAge) +
         sweep(clang::tidy::rematch::CacheLayout(Dir.str()).preambles(),
               MaxAge);
}

} // namespace rematch::tool
