//===--- IoCheck.h - rematch-io ---------------------------------*- C++ -*-===//
#ifndef REMATCH_CHECKS_IOCHECK_H
#define REMATCH_CHECKS_IOCHECK_H

#include "RematchCheck.h"

namespace clang::tidy::rematch {

/// Finds file and process I/O in checkpointed code.
///
/// For the user-facing documentation see docs/checks/io.md.
class IoCheck : public RematchCheck {
public:
  static constexpr EffectKind Reports = EffectKind::Io;
  IoCheck(StringRef Name, ClangTidyContext *Context)
      : RematchCheck(Name, Context, Reports) {}

protected:
  std::string describe(const EffectFacts &E) const override;
  std::string consequence(const EffectFacts &E) const override;
};

} // namespace clang::tidy::rematch

#endif
