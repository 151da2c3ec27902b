//===--- LoggingCheck.h - rematch-logging ---------------------------------*- C++ -*-===//
#ifndef REMATCH_CHECKS_LOGGINGCHECK_H
#define REMATCH_CHECKS_LOGGINGCHECK_H

#include "RematchCheck.h"

namespace clang::tidy::rematch {

/// Finds logging in checkpointed code.
///
/// For the user-facing documentation see docs/checks/logging.md.
class LoggingCheck : public RematchCheck {
public:
  static constexpr EffectKind Reports = EffectKind::Logging;
  LoggingCheck(StringRef Name, ClangTidyContext *Context)
      : RematchCheck(Name, Context, Reports) {}

protected:
  std::string describe(const EffectFacts &E) const override;
  std::string consequence(const EffectFacts &E) const override;
  void addFixes(DiagnosticBuilder &Diag, const Finding &F,
                const EffectAnalysis &A, ASTContext &Ctx) override;
};

} // namespace clang::tidy::rematch

#endif
