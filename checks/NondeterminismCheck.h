//===--- NondeterminismCheck.h - rematch-nondeterminism ---------------------------------*- C++ -*-===//
#ifndef REMATCH_CHECKS_NONDETERMINISMCHECK_H
#define REMATCH_CHECKS_NONDETERMINISMCHECK_H

#include "RematchCheck.h"

namespace clang::tidy::rematch {

/// Finds clock, thread-id and environment reads in checkpointed code.
///
/// For the user-facing documentation see docs/checks/nondeterminism.md.
class NondeterminismCheck : public RematchCheck {
public:
  static constexpr EffectKind Reports = EffectKind::Nondeterminism;
  NondeterminismCheck(StringRef Name, ClangTidyContext *Context)
      : RematchCheck(Name, Context, Reports) {}

protected:
  std::string describe(const EffectFacts &E) const override;
  std::string consequence(const EffectFacts &E) const override;
};

} // namespace clang::tidy::rematch

#endif
