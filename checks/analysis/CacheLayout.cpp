//===--- CacheLayout.cpp - the names in a summaries directory -------------===//

#include "CacheLayout.h"
#include "Summary.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

namespace clang::tidy::rematch {

namespace {
constexpr llvm::StringLiteral SummaryExt = ".summary.json";
} // namespace

std::string CacheLayout::entry(llvm::StringRef MainFile,
                               llvm::StringRef Ext) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, llvm::sys::path::filename(MainFile) + "." +
                                 hashText(MainFile) + Ext);
  return std::string(P);
}

std::string CacheLayout::summary(llvm::StringRef MainFile) const {
  return entry(MainFile, SummaryExt);
}

std::string CacheLayout::bodies(llvm::StringRef MainFile) const {
  return bodiesOfSummary(summary(MainFile));
}

std::string CacheLayout::bodiesOfSummary(llvm::StringRef SummaryPath) {
  return (SummaryPath + ".bodies").str();
}

std::string CacheLayout::findings(llvm::StringRef MainFile) const {
  return entry(MainFile, ".findings");
}

std::string CacheLayout::systemList(llvm::StringRef Key) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, "system-" + Key + ".list");
  return std::string(P);
}

bool CacheLayout::isSummary(llvm::StringRef Path) {
  return Path.ends_with(SummaryExt);
}

bool CacheLayout::isPreambles(llvm::StringRef Dir) {
  return llvm::sys::path::filename(Dir).ends_with(PreamblesSuffix);
}

} // namespace clang::tidy::rematch
