//===--- Link.cpp - rematch link: facts into one program ------------------===//
//
// Joins .rsum and .rlink files without parsing: each file once, in path
// order, so a link of a target's files and its dependencies' links equals
// the link of all their files. Two different facts for one file, or facts
// made with other settings, are an error naming both inputs.
//
//===----------------------------------------------------------------------===//

#include "CacheDirectory.h"
#include "Driver.h"
#include "FactsFile.h"
#include "Steps.h"
#include "StepsShared.h"
#include "Summaries.h"

namespace rematch::tool {

int runLink(const CliOptions &O, llvm::raw_ostream &Err) {
  llvm::Expected<std::vector<FileFacts>> All = gatherFacts(O.Files, nullptr);
  if (!All) {
    Err << llvm::toString(All.takeError()) << "\n";
    return UsageError;
  }
  if (std::error_code EC =
          writeAtomically(O.OutputPath, writeLinkFacts(*All))) {
    Err << O.OutputPath << ": error: cannot write: " << EC.message() << "\n";
    return UsageError;
  }
  return NoFindings;
}

} // namespace rematch::tool
