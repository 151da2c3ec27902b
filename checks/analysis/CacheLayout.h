//===--- CacheLayout.h - the names in a summaries directory -----*- C++ -*-===//
//
// One place says what a summaries directory (`--summaries-dir`, the default
// `.rematch-cache`, the plugin's RematchSummariesDir) holds and how each
// entry is named; the summary store, the findings cache, the body records,
// the system-header lists and the preamble cache (tool/) keep their entries
// under these names only, and the plugin reads summaries by them. An entry
// of one source file is named by the file's name (for people) and a hash of
// its absolute path (for uniqueness).
//
//   <name>.<hash>.summary.json           the file's summary (Summary.h)
//   <name>.<hash>.summary.json.bodies    its bodies' records (BodyReplay.h)
//   <name>.<hash>.findings               its findings (tool/FindingsCache.h)
//   system-<key>.list                    system headers a summary read
//   <dir>.preambles/                     precompiled preambles, beside the
//                                        directory (CI jobs copy it whole)
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_CACHELAYOUT_H
#define REMATCH_CHECKS_ANALYSIS_CACHELAYOUT_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang::tidy::rematch {

class CacheLayout {
public:
  explicit CacheLayout(std::string Dir) : Dir(std::move(Dir)) {}

  const std::string &dir() const { return Dir; }
  std::string summary(llvm::StringRef MainFile) const;
  std::string bodies(llvm::StringRef MainFile) const;
  std::string findings(llvm::StringRef MainFile) const;
  std::string systemList(llvm::StringRef Key) const;
  std::string preambles() const { return Dir + PreamblesSuffix.str(); }

  // The bodies' records beside the summary at SummaryPath.
  static std::string bodiesOfSummary(llvm::StringRef SummaryPath);
  // Whether Path names a summary (of any directory).
  static bool isSummary(llvm::StringRef Path);
  // Whether Dir is a preamble cache (of any summaries directory).
  static bool isPreambles(llvm::StringRef Dir);

private:
  static constexpr llvm::StringLiteral PreamblesSuffix = ".preambles";
  std::string entry(llvm::StringRef MainFile, llvm::StringRef Ext) const;
  std::string Dir;
};

} // namespace clang::tidy::rematch

#endif
