//===--- NoLint.h - the NOLINT comments of a file, as clang-tidy reads them -*- C++ -*-===//
//
// clang-tidy drops a warning on a line with `NOLINT`, on the line after a
// `NOLINTNEXTLINE`, and between a `NOLINTBEGIN` and its `NOLINTEND`, each
// optionally limited to the checks in parentheses. A summary keeps the
// comments of its main file, so that `rematch report` can drop the findings
// it makes from facts exactly as a parse would (docs/architecture.md,
// "Reporting from facts").
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_NOLINT_H
#define REMATCH_CHECKS_NOLINT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::rematch {

struct NoLintComment {
  enum Kind { ThisLine, NextLine, Begin, End };
  Kind K = ThisLine;
  unsigned Line = 0, Column = 0; // of the N of NOLINT, 1-based, in bytes
  // The checks in parentheses, whitespace around each removed; none: all.
  std::optional<std::string> Checks;
};

// Every NOLINT comment of Text, in order, found as clang-tidy finds them:
// anywhere in the text (a string literal too), "NOLINT" followed by letters
// that make one of the four words, then an optional "(checks)" closed on
// the same line.
std::vector<NoLintComment> noLintComments(llvm::StringRef Text);

// The names summaries write the kinds with ("NOLINTNEXTLINE", ...).
const char *noLintKindName(NoLintComment::Kind K);
std::optional<NoLintComment::Kind> noLintKindNamed(llvm::StringRef Name);

// Whether every NOLINTBEGIN has its NOLINTEND (same checks, nested last in
// first out) and every NOLINTEND its NOLINTBEGIN. When not, clang-tidy
// reports the stray comment as an error the first time it looks for a
// block, which only a parse can say.
bool noLintBlocksPair(llvm::ArrayRef<NoLintComment> Comments);

// Whether clang-tidy drops a warning of Check at Line:Column of a file
// whose NOLINT comments are Comments (which pair).
bool suppressedByNoLint(llvm::ArrayRef<NoLintComment> Comments,
                        llvm::StringRef Check, unsigned Line, unsigned Column);

} // namespace clang::tidy::rematch

#endif
