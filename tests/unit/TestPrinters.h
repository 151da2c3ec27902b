//===--- TestPrinters.h - GoogleTest printers for LLVM types --------------===//
//
// Stock GoogleTest cannot print llvm::StringRef (LLVM's own copy is patched
// to); without this a failing EXPECT_EQ on one does not compile.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TESTS_UNIT_TESTPRINTERS_H
#define REMATCH_TESTS_UNIT_TESTPRINTERS_H

#include "llvm/ADT/StringRef.h"
#include <ostream>

namespace llvm {
// Found by argument-dependent lookup from GoogleTest's printers.
inline void PrintTo(StringRef S, std::ostream *OS) {
  *OS << '"' << std::string_view(S.data(), S.size()) << '"';
}
} // namespace llvm

#endif
