//===--- ProgramCache.cpp - the one owner of the cache directory ----------===//

#include "ProgramCache.h"
#include "CacheDirectory.h"
#include "Summary.h"
#include "llvm/Support/MemoryBuffer.h"

namespace rematch::tool {

namespace {

// The first word of a file of records (BodyReplay.h): their format.
constexpr llvm::StringLiteral BodiesFormat = "rematch-bodies-1";

} // namespace

ProgramCache::ProgramCache(const SummariesRun &R, uint64_t PreambleCapBytes)
    : Names(R.Dir), InMemory(R.InMemory), NoCache(R.NoCache),
      Store(std::make_unique<SummaryStore>(R.Dir, R.InMemory)) {
  if (!InMemory)
    Findings.emplace(R.Dir, R.ReportOptions);
  if (!InMemory && !NoCache && PreambleCapBytes > 0)
    Preambles.emplace(Names.preambles(), PreambleCapBytes);
}

unsigned ProgramCache::repair() {
  return InMemory ? 0 : repairCache(Names.dir());
}

std::string ProgramCache::bodiesKey(const TUSummary &S) {
  std::string All = S.CommandHash + "\n" + S.SystemInputsKey + "\n";
  for (const auto &[File, Hash] : S.Inputs)
    if (File != S.MainFile)
      All += File + "\t" + llvm::StringRef(Hash).split('@').first.str() + "\n";
  return clang::tidy::rematch::hashText(All);
}

std::shared_ptr<clang::tidy::rematch::BodyReplay>
ProgramCache::bodies(const TUSummary &Old, std::string &Key) const {
  if (InMemory || NoCache)
    return nullptr;
  auto Buf = llvm::MemoryBuffer::getFile(Names.bodies(Old.MainFile));
  if (!Buf)
    return nullptr;
  // The key, then a hash of the records: a damaged file is not used.
  auto [Head, Text] = (*Buf)->getBuffer().split('\n');
  auto [Format, KeyHash] = Head.split(' ');
  auto [Recorded, Hash] = KeyHash.split(' ');
  if (Format != BodiesFormat || Recorded != bodiesKey(Old) ||
      Hash != clang::tidy::rematch::hashText(Text))
    return nullptr;
  Key = Recorded.str();
  return std::make_shared<clang::tidy::rematch::BodyReplay>(Text);
}

void ProgramCache::keepBodies(const TUSummary &Now,
                              llvm::StringRef Text) const {
  if (InMemory || Text.empty())
    return;
  std::string Entry = (BodiesFormat + " " + bodiesKey(Now) + " " +
                       clang::tidy::rematch::hashText(Text) + "\n" + Text)
                          .str();
  (void)writeAtomically(Names.bodies(Now.MainFile), Entry);
}

} // namespace rematch::tool
