//===--- NoLint.cpp - the NOLINT comments of a file -----------------------===//

#include "NoLint.h"
#include "clang-tidy/GlobList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <tuple>

namespace clang::tidy::rematch {

namespace {

std::optional<NoLintComment::Kind> kindOfWord(llvm::StringRef Word) {
  return llvm::StringSwitch<std::optional<NoLintComment::Kind>>(Word)
      .Case("NOLINT", NoLintComment::ThisLine)
      .Case("NOLINTNEXTLINE", NoLintComment::NextLine)
      .Case("NOLINTBEGIN", NoLintComment::Begin)
      .Case("NOLINTEND", NoLintComment::End)
      .Default(std::nullopt);
}

// "a, b" -> "a,b": clang-tidy pairs a NOLINTBEGIN with a NOLINTEND by
// their checks written so.
std::string withoutSpaces(llvm::StringRef Checks) {
  llvm::SmallVector<llvm::StringRef> Parts;
  Checks.split(Parts, ',');
  for (llvm::StringRef &P : Parts)
    P = P.trim();
  return llvm::join(Parts, ",");
}

bool covers(const NoLintComment &C, llvm::StringRef Check) {
  // Negative globs are ignored: "-x" would suppress nothing.
  return CachedGlobList(C.Checks.value_or("*"), /*KeepNegativeGlobs=*/false)
      .contains(Check);
}

bool before(unsigned L1, unsigned C1, unsigned L2, unsigned C2) {
  return std::tie(L1, C1) < std::tie(L2, C2);
}

struct Block {
  const NoLintComment *Begin, *End;
};

// The blocks the comments form, and whether none is left unpaired.
bool formBlocks(llvm::ArrayRef<NoLintComment> Comments,
                std::vector<Block> &Blocks) {
  std::vector<const NoLintComment *> Open;
  bool Paired = true;
  for (const NoLintComment &C : Comments) {
    if (C.K == NoLintComment::Begin) {
      Open.push_back(&C);
    } else if (C.K == NoLintComment::End) {
      if (!Open.empty() && Open.back()->Checks == C.Checks) {
        Blocks.push_back({Open.back(), &C});
        Open.pop_back();
      } else {
        Paired = false;
      }
    }
  }
  return Paired && Open.empty();
}

} // namespace

std::vector<NoLintComment> noLintComments(llvm::StringRef Text) {
  static constexpr llvm::StringLiteral Word = "NOLINT";
  std::vector<NoLintComment> Out;
  unsigned Line = 1;
  size_t LineStart = 0, Counted = 0;
  size_t Pos = 0;
  while ((Pos = Text.find(Word, Pos)) != llvm::StringRef::npos) {
    for (; Counted < Pos; ++Counted)
      if (Text[Counted] == '\n') {
        ++Line;
        LineStart = Counted + 1;
      }
    size_t At = Pos;
    Pos += Word.size();
    while (Pos < Text.size() && llvm::isAlpha(Text[Pos]))
      ++Pos;
    std::optional<NoLintComment::Kind> K = kindOfWord(Text.slice(At, Pos));
    if (!K)
      continue;
    NoLintComment C;
    C.K = *K;
    C.Line = Line;
    C.Column = unsigned(At - LineStart) + 1;
    if (Pos < Text.size() && Text[Pos] == '(') {
      size_t Close = Text.find_first_of("\n)", Pos + 1);
      if (Close != llvm::StringRef::npos && Text[Close] == ')') {
        C.Checks = withoutSpaces(Text.slice(Pos + 1, Close));
        Pos = Close + 1;
      } else {
        ++Pos; // an unclosed list: all checks, as clang-tidy reads it
      }
    }
    Out.push_back(std::move(C));
  }
  return Out;
}

const char *noLintKindName(NoLintComment::Kind K) {
  switch (K) {
  case NoLintComment::ThisLine:
    return "NOLINT";
  case NoLintComment::NextLine:
    return "NOLINTNEXTLINE";
  case NoLintComment::Begin:
    return "NOLINTBEGIN";
  case NoLintComment::End:
    return "NOLINTEND";
  }
  return "NOLINT";
}

std::optional<NoLintComment::Kind> noLintKindNamed(llvm::StringRef Name) {
  return kindOfWord(Name);
}

bool noLintBlocksPair(llvm::ArrayRef<NoLintComment> Comments) {
  std::vector<Block> Blocks;
  return formBlocks(Comments, Blocks);
}

bool suppressedByNoLint(llvm::ArrayRef<NoLintComment> Comments,
                        llvm::StringRef Check, unsigned Line,
                        unsigned Column) {
  for (const NoLintComment &C : Comments)
    if (((C.K == NoLintComment::ThisLine && C.Line == Line) ||
         (C.K == NoLintComment::NextLine && C.Line + 1 == Line)) &&
        covers(C, Check))
      return true;
  std::vector<Block> Blocks;
  formBlocks(Comments, Blocks);
  return llvm::any_of(Blocks, [&](const Block &B) {
    return before(B.Begin->Line, B.Begin->Column, Line, Column) &&
           before(Line, Column, B.End->Line, B.End->Column) &&
           covers(*B.Begin, Check);
  });
}

} // namespace clang::tidy::rematch
