//===--- Wrappers.h - what clang wraps around an expression -----*- C++ -*-===//
//
// Parentheses, implicit casts, temporaries, cleanups and functional casts:
// the nodes clang puts around a value that change nothing the analysis
// asks about; and the parts of a call (its object, its arguments), however
// clang spells it. The lowest layer of checks/analysis: it includes nothing
// of the analysis.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_WRAPPERS_H
#define REMATCH_CHECKS_ANALYSIS_WRAPPERS_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"

namespace clang::tidy::rematch {

// E without what clang wraps around it: parentheses, implicit casts,
// temporaries, cleanups and functional casts.
const Expr *skipWrappers(const Expr *E);
// The same, but only through the implicit casts that keep the object (no
// conversion to another value: a pointer decay, an integral cast).
const Expr *skipWrappersToObject(const Expr *E);
// The same, and through copy and move constructors: the object a copy was
// made of (a closure passed by value, a member read into a copy).
const Expr *skipCopies(const Expr *E);

// The object a call is made on (a member call's, or a member operator's
// first argument), with whether it is reached through `->`, and the
// arguments after it.
struct CallParts {
  const Expr *Object = nullptr;
  bool Arrow = false;
  llvm::ArrayRef<const Expr *> Args;
};
CallParts partsOf(const CallExpr &CE);

} // namespace clang::tidy::rematch

#endif
