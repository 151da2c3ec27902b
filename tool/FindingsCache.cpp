//===--- FindingsCache.cpp - findings of unchanged files ------------------===//

#include "FindingsCache.h"
#include "CacheDirectory.h"
#include "CacheLayout.h"
#include "Summaries.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace rematch::tool {

using clang::tidy::rematch::hashText;

namespace {

constexpr llvm::StringLiteral Magic = "rematch-findings 1";

} // namespace

std::string dependencyText(
    llvm::ArrayRef<std::pair<std::string, std::string>> Dependencies) {
  std::string Text;
  for (const auto &[Key, Hash] : Dependencies)
    Text += Key + "\x1f" + Hash + "\n";
  return Text;
}

std::string FindingsCache::pathFor(llvm::StringRef MainFile) const {
  return Names.findings(MainFile);
}

std::optional<FileOutcome> FindingsCache::lookup(
    const TUSummary &Summary, llvm::StringRef Stamp,
    ProgramView &Program) const {
  auto Buf = llvm::MemoryBuffer::getFile(pathFor(Summary.MainFile));
  if (!Buf)
    return std::nullopt;
  // Magic, options, identity, stamp, then the dependencies up to an empty
  // line, then the outcome.
  llvm::StringRef Rest = (*Buf)->getBuffer();
  auto Line = [&Rest] {
    auto [L, R] = Rest.split('\n');
    Rest = R;
    return L;
  };
  if (Line() != Magic || Line() != hashText(Options) ||
      Line() != tuIdentity(Summary))
    return std::nullopt;
  bool SameProgram = Line() == Stamp;
  TUSummary Computed; // what the outcome was computed with
  for (llvm::StringRef L = Line(); !L.empty(); L = Line()) {
    auto [Key, Hash] = L.rsplit('\x1f'); // keys may hold one
    Computed.Dependencies.emplace_back(Key.str(), Hash.str());
  }
  if (!SameProgram) {
    const TUSummary *Full = Program.summaryOf(Summary.MainFile);
    if (!Full)
      return std::nullopt;
    Computed.Functions = Full->Functions;
    if (!dependenciesHold(Computed, Program))
      return std::nullopt;
  }
  FileOutcome O;
  if (!decodeOutcome(Rest, Summary.MainFile, O))
    return std::nullopt;
  O.FromCache = true;
  return O;
}

void FindingsCache::store(const TUSummary &Summary, const FileOutcome &O,
                          llvm::StringRef Dependencies,
                          llvm::StringRef Stamp) const {
  if (O.Status.Status == FileStatus::State::Failed)
    return;
  FileOutcome Kept;
  Kept.Status.Errors = O.Status.Errors;
  Kept.Findings = O.Findings;
  Kept.Fixes = O.Fixes;
  std::string Text = Magic.str() + "\n" + hashText(Options) + "\n" +
                     tuIdentity(Summary) + "\n" + Stamp.str() + "\n" +
                     Dependencies.str() + "\n" +
                     encodeOutcome(Kept);
  (void)writeAtomically(pathFor(Summary.MainFile), Text);
}

} // namespace rematch::tool
