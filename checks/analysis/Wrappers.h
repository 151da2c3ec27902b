//===--- Wrappers.h - what clang wraps around an expression -----*- C++ -*-===//
//
// Parentheses, implicit casts, temporaries, cleanups and functional casts:
// the nodes clang puts around a value that change nothing the analysis
// asks about. The lowest layer of checks/analysis: it includes nothing of
// the analysis.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_WRAPPERS_H
#define REMATCH_CHECKS_ANALYSIS_WRAPPERS_H

#include "clang/AST/Expr.h"

namespace clang::tidy::rematch {

// E without what clang wraps around it: parentheses, implicit casts,
// temporaries, cleanups and functional casts.
const Expr *skipWrappers(const Expr *E);

} // namespace clang::tidy::rematch

#endif
