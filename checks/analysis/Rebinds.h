//===--- Rebinds.h - straight-line rebinding of a body's handles -*- C++ -*-===//
//
// The one place the alias layer (Aliases.h) looks at order. A handle or
// pointer variable of a body (a by-value parameter, a local) assigned by a
// statement of the body's outermost block, `x = torch::relu(conv1(x));`,
// holds only what that and later assignments give it in every statement
// after: nothing jumps back over a statement of the outermost block but a
// goto, and a body with one is left flow-insensitive. So the residual
// block's `x += residual;` after the rebinding updates conv1's output, not
// the caller's tensor.
//
// It scans the body itself, before the effect walk: the walk asks about a
// use while the assignments after it (a loop's) are still unseen.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_REBINDS_H
#define REMATCH_CHECKS_REBINDS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::rematch {

class Rebinds {
public:
  explicit Rebinds(const FunctionDecl &FD);

  // The values assigned to V from the last outermost-block assignment
  // before Use on (that one, and every later one anywhere in the body);
  // empty when no such assignment comes before Use.
  llvm::SmallVector<const Expr *, 2> after(const VarDecl &V,
                                           const Expr &Use) const;

private:
  struct Assignment {
    const Expr *Value;
    SourceLocation Begin, End; // of the assignment, expansion locations
    bool Outermost;
  };
  void scan(const Stmt *S, bool Outermost);
  void add(const Expr *Lhs, const Expr *Value, const Stmt &At,
           bool Outermost);

  const SourceManager &SM;
  bool Jumps = false;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<Assignment, 2>> Of;
};

} // namespace clang::tidy::rematch

#endif
