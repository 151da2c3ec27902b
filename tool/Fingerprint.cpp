//===--- Fingerprint.cpp - finding identities across edits ----------------===//
//
// Baselines and SARIF consumers match findings between runs by fingerprint.
// Line numbers move whenever code is added above, so they are left out; the
// source line's text stands in for the position, and an occurrence index
// separates findings that would otherwise collide.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"
#include <unordered_map>

using namespace llvm;

namespace rematch::tool {
namespace {

// Re-indenting or re-wrapping whitespace must not change the identity.
std::string normaliseWhitespace(StringRef Line) {
  std::string Out;
  bool PendingSpace = false;
  for (char C : Line) {
    if (isSpace(C)) {
      PendingSpace = !Out.empty();
      continue;
    }
    if (PendingSpace)
      Out += ' ';
    PendingSpace = false;
    Out += C;
  }
  return Out;
}

uint64_t hashFinding(const Finding &F) {
  std::string Key;
  // NUL separators keep ("ab", "c") and ("a", "bc") apart.
  for (StringRef Part :
       {StringRef(F.Check), StringRef(F.Loc.File), StringRef(F.Message)}) {
    Key += Part;
    Key += '\0';
  }
  Key += normaliseWhitespace(F.SourceLine);
  // xxh3 is a fixed, published algorithm: fingerprints stay comparable
  // across LLVM versions and machines.
  return xxh3_64bits(Key);
}

} // namespace

std::vector<std::string> fingerprints(const std::vector<Finding> &Findings) {
  std::vector<std::string> Result;
  Result.reserve(Findings.size());
  // Not a DenseMap: any 64-bit value, its reserved keys included, can occur.
  std::unordered_map<uint64_t, unsigned> Seen;
  for (const Finding &F : Findings) {
    if (!F.Fingerprint.empty()) {
      Result.push_back(F.Fingerprint);
      continue;
    }
    uint64_t Hash = hashFinding(F);
    unsigned Occurrence = Seen[Hash]++;
    std::string Text;
    raw_string_ostream OS(Text);
    OS << format_hex_no_prefix(Hash, 16) << ':' << Occurrence;
    Result.push_back(std::move(Text));
  }
  return Result;
}

} // namespace rematch::tool
