//===--- ProgramCache.h - the one owner of the cache directory --*- C++ -*-===//
//
// The cache of a whole-program run (--summaries-dir, default
// .rematch-cache/) and the preamble cache beside it have one owner, made
// once per run by the driver: it repairs what killed runs left, names every
// entry (CacheLayout), and holds the one reader and writer of each kind of
// entry:
//
//   summaries    SummaryStore       a file's facts for the others
//   findings     FindingsCache      the outcome of an unchanged file
//   bodies       bodies()/keep...   the walks of a file's function bodies
//   preambles    PreambleCache      precompiled leading blocks of includes
//
// Every entry is written through CacheDirectory.h (atomically, removed when
// interrupted). A directory that cannot be used (InMemory) keeps the
// summaries of this run in memory and nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_PROGRAMCACHE_H
#define REMATCH_TOOL_PROGRAMCACHE_H

#include "BodyReplay.h"
#include "CacheLayout.h"
#include "FindingsCache.h"
#include "Preamble.h"
#include "Summaries.h"
#include <memory>
#include <optional>
#include <string>

namespace rematch::tool {

class ProgramCache {
public:
  // The cache of R (its directory, whether it can be used, whether what
  // earlier runs kept may be used); PreambleCapBytes 0: no preambles.
  ProgramCache(const SummariesRun &R, uint64_t PreambleCapBytes);

  // Removes the temporaries that killed runs left, in both directories,
  // once older than any write takes; how many. Nothing when InMemory.
  unsigned repair();

  const clang::tidy::rematch::CacheLayout &layout() const { return Names; }
  bool inMemory() const { return InMemory; }

  SummaryStore &summaries() { return *Store; }
  // Null when the directory cannot be used.
  const FindingsCache *findings() const {
    return Findings ? &*Findings : nullptr;
  }
  // Null when preambles are off.
  PreambleCache *preambles() { return Preambles ? &*Preambles : nullptr; }

  // The records of the bodies of MainFile (absolute) that its last analysis
  // walked, if they were made with the translation unit Old describes
  // (its command and every other file it read, by content) and are whole;
  // Key is then what they were made with (bodiesKey).
  std::shared_ptr<clang::tidy::rematch::BodyReplay>
  bodies(const TUSummary &Old, std::string &Key) const;
  // Keeps the records Text of the bodies walked in the analysis whose
  // summary is Now. Nothing when they cannot be written: the next parse
  // walks every body.
  void keepBodies(const TUSummary &Now, llvm::StringRef Text) const;
  // What records of a file's bodies are made with: its summary's compile
  // command and every other file it read, by content (a file touched but
  // not changed keeps the key).
  static std::string bodiesKey(const TUSummary &S);

private:
  clang::tidy::rematch::CacheLayout Names;
  bool InMemory, NoCache;
  std::unique_ptr<SummaryStore> Store;
  std::optional<FindingsCache> Findings;
  std::optional<PreambleCache> Preambles;
};

} // namespace rematch::tool

#endif
