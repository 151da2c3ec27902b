//===--- fuzz_summary.cpp - libFuzzer target for the summary reader -------===//
//
// parseSummary must reject anything malformed, truncated or of another
// version with an error naming the file, never return a partial summary, and
// never crash. What it accepts must survive serialize -> parse unchanged.
//
//===----------------------------------------------------------------------===//

#include "Summary.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace clang::tidy::rematch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<TUSummary> S = parseSummary(Text, "fuzz.json");
  if (!S) {
    if (!S.errorIsA<SummaryError>())
      std::abort(); // callers tell a bad summary from other errors
    std::string Message = llvm::toString(S.takeError());
    if (!llvm::StringRef(Message).contains("fuzz.json"))
      std::abort(); // the error must name the file
    return 0;
  }
  // Round trip: what was accepted serializes to text that parses back to
  // the same serialization.
  std::string Once = serializeSummary(*S);
  llvm::Expected<TUSummary> Again = parseSummary(Once, "again.json");
  if (!Again) {
    llvm::consumeError(Again.takeError());
    std::abort();
  }
  if (serializeSummary(*Again) != Once)
    std::abort();
  return 0;
}
