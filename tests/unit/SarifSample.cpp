//===--- SarifSample.cpp - write the sample SARIF the schema test checks --===//
//
// Usage: rematch_sarif_sample <output.sarif>
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "SampleResults.h"
#include "llvm/Support/raw_ostream.h"

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    llvm::errs() << "usage: " << Argv[0] << " <output.sarif>\n";
    return 2;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Argv[1], EC);
  if (EC) {
    llvm::errs() << Argv[1] << ": error: " << EC.message() << "\n";
    return 2;
  }
  rematch::tool::writeSarif(OS, rematch::tool::test::sampleResults(),
                            rematch::tool::test::sampleRules());
  return 0;
}
