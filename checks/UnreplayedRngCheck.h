//===--- UnreplayedRngCheck.h - rematch-unreplayed-rng ---------------------------------*- C++ -*-===//
#ifndef REMATCH_CHECKS_UNREPLAYEDRNGCHECK_H
#define REMATCH_CHECKS_UNREPLAYEDRNGCHECK_H

#include "RematchCheck.h"

namespace clang::tidy::rematch {

/// Finds random draws whose state the recomputation does not replay.
///
/// For the user-facing documentation see docs/checks/unreplayed-rng.md.
class UnreplayedRngCheck : public RematchCheck {
public:
  static constexpr EffectKind Reports = EffectKind::UnreplayedRng;
  UnreplayedRngCheck(StringRef Name, ClangTidyContext *Context)
      : RematchCheck(Name, Context, Reports) {}

protected:
  std::string describe(const EffectFacts &E) const override;
  std::string describeFor(const EffectFacts &E,
                          const CheckpointSite &Site) const override;
  std::string consequence(const EffectFacts &E) const override;
  std::string suggestion(const EffectFacts &E, const CheckpointSite &Site,
                         ReplayerOf ReplayedBy) const override;
};

} // namespace clang::tidy::rematch

#endif
