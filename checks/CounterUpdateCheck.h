//===--- CounterUpdateCheck.h - rematch-counter-update ---------------------------------*- C++ -*-===//
#ifndef REMATCH_CHECKS_COUNTERUPDATECHECK_H
#define REMATCH_CHECKS_COUNTERUPDATECHECK_H

#include "RematchCheck.h"

namespace clang::tidy::rematch {

/// Finds increments and compound assignments of outside state in checkpointed code.
///
/// For the user-facing documentation see docs/checks/counter-update.md.
class CounterUpdateCheck : public RematchCheck {
public:
  static constexpr EffectKind Reports = EffectKind::CounterUpdate;
  CounterUpdateCheck(StringRef Name, ClangTidyContext *Context)
      : RematchCheck(Name, Context, Reports) {}

protected:
  std::string describe(const EffectFacts &E) const override;
  std::string consequence(const EffectFacts &E) const override;
};

} // namespace clang::tidy::rematch

#endif
