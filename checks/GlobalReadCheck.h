//===--- GlobalReadCheck.h - rematch-global-read ---------------------------------*- C++ -*-===//
#ifndef REMATCH_CHECKS_GLOBALREADCHECK_H
#define REMATCH_CHECKS_GLOBALREADCHECK_H

#include "RematchCheck.h"

namespace clang::tidy::rematch {

/// Finds reads of mutable static-storage variables in checkpointed code.
///
/// For the user-facing documentation see docs/checks/global-read.md.
class GlobalReadCheck : public RematchCheck {
public:
  static constexpr EffectKind Reports = EffectKind::GlobalRead;
  GlobalReadCheck(StringRef Name, ClangTidyContext *Context)
      : RematchCheck(Name, Context, Reports) {}

protected:
  std::string describe(const EffectFacts &E) const override;
  std::string consequence(const EffectFacts &E) const override;
  std::string consequenceFor(const Finding &F, const EffectFacts &Last,
                             const EffectAnalysis &A) const override;
  void addFixes(DiagnosticBuilder &Diag, const Finding &F,
                const EffectAnalysis &A, ASTContext &Ctx) override;
};

} // namespace clang::tidy::rematch

#endif
