//===--- StateWriteCheck.h - rematch-state-write ---------------------------------*- C++ -*-===//
#ifndef REMATCH_CHECKS_STATEWRITECHECK_H
#define REMATCH_CHECKS_STATEWRITECHECK_H

#include "RematchCheck.h"

namespace clang::tidy::rematch {

/// Finds plain writes to outside state in checkpointed code.
///
/// For the user-facing documentation see docs/checks/state-write.md.
class StateWriteCheck : public RematchCheck {
public:
  static constexpr EffectKind Reports = EffectKind::StateWrite;
  StateWriteCheck(StringRef Name, ClangTidyContext *Context)
      : RematchCheck(Name, Context, Reports) {}

protected:
  std::string describe(const EffectFacts &E) const override;
  std::string consequence(const EffectFacts &E) const override;
};

} // namespace clang::tidy::rematch

#endif
