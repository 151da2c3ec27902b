//===--- CacheWriteCheck.h - rematch-cache-write ---------------------------------*- C++ -*-===//
#ifndef REMATCH_CHECKS_CACHEWRITECHECK_H
#define REMATCH_CHECKS_CACHEWRITECHECK_H

#include "RematchCheck.h"

namespace clang::tidy::rematch {

/// Finds mutations of containers that outlive a checkpointed callable.
///
/// For the user-facing documentation see docs/checks/cache-write.md.
class CacheWriteCheck : public RematchCheck {
public:
  static constexpr EffectKind Reports = EffectKind::CacheWrite;
  CacheWriteCheck(StringRef Name, ClangTidyContext *Context)
      : RematchCheck(Name, Context, Reports) {}

protected:
  std::string describe(const EffectFacts &E) const override;
  std::string consequence(const EffectFacts &E) const override;
};

} // namespace clang::tidy::rematch

#endif
