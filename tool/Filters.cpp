//===--- Filters.cpp - which findings a run reports -----------------------===//

#include "Filters.h"
#include "Paths.h"
#include "Baseline.h"
#include "Driver.h"
#include "Output.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <map>

namespace rematch::tool {

namespace {

// git reports paths below the real top-level directory: symlinks resolved.
std::string realPath(llvm::StringRef File) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(File, Real))
    return absolutePath(File);
  return std::string(Real);
}

} // namespace

llvm::Expected<FindingFilters> FindingFilters::create(const CliOptions &O) {
  FindingFilters F;
  if (!O.Baseline.empty()) {
    llvm::Expected<std::set<std::string>> B = readBaseline(O.Baseline);
    if (!B)
      return B.takeError();
    F.Baseline = std::move(*B);
  }
  if (!O.LineFilter.empty()) {
    llvm::Expected<JsonLineFilter> L = JsonLineFilter::parse(O.LineFilter);
    if (!L)
      return L.takeError();
    F.Lines = std::move(*L);
  }
  if (!O.ChangedLines.empty()) {
    llvm::Expected<ChangedLines> C =
        ChangedLines::create(O.ChangedLines, O.Files);
    if (!C)
      return C.takeError();
    F.Changed = std::move(*C);
  }
  if (!O.WriteBaseline.empty()) {
    // Opened for appending only to learn early that it can be written; the
    // baseline itself is written after the analysis. The baseline read above
    // may be the same file.
    std::error_code EC;
    {
      llvm::raw_fd_ostream Probe(O.WriteBaseline, EC, llvm::sys::fs::OF_Append);
    }
    if (EC)
      return llvm::createStringError(
          O.WriteBaseline + ": error: cannot write baseline: " + EC.message());
    F.WriteBaseline = O.WriteBaseline;
  }
  return F;
}

llvm::Error FindingFilters::apply(Results &R, llvm::raw_ostream &Err) {
  std::vector<std::string> Prints = fingerprints(R.Findings);
  for (size_t I = 0; I < R.Findings.size(); ++I)
    R.Findings[I].Fingerprint = Prints[I];

  if (!WriteBaseline.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(WriteBaseline, EC);
    if (EC)
      return llvm::createStringError(
          WriteBaseline + ": error: cannot write baseline: " + EC.message());
    writeSarif(OS, R, ruleTable());
  }

  if (Changed) {
    std::vector<std::string> Files;
    for (const Finding &F : R.Findings)
      Files.push_back(realPath(F.Loc.File));
    std::string Warnings;
    Changed->load(Files, Warnings);
    Err << Warnings;
  }

  size_t InBaseline = 0, OffLines = 0;
  std::vector<Finding> Kept;
  for (Finding &F : R.Findings) {
    if (Baseline && Baseline->count(F.Fingerprint)) {
      ++InBaseline;
      continue;
    }
    if ((Lines &&
         !Lines->passes(F.Loc.File, absolutePath(F.Loc.File), F.Loc.Line)) ||
        (Changed && !Changed->passes(realPath(F.Loc.File), F.Loc.Line))) {
      ++OffLines;
      continue;
    }
    Kept.push_back(std::move(F));
  }
  R.Findings = std::move(Kept);

  if (InBaseline + OffLines > 0) {
    Err << "rematch: " << InBaseline + OffLines << " finding"
        << (InBaseline + OffLines == 1 ? "" : "s") << " not reported (";
    if (InBaseline)
      Err << InBaseline << " in the baseline" << (OffLines ? ", " : "");
    if (OffLines)
      Err << OffLines << " outside the selected lines";
    Err << ")\n";
  }
  return llvm::Error::success();
}

} // namespace rematch::tool
