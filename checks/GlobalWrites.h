//===--- GlobalWrites.h - which globals anything writes ---------*- C++ -*-===//
//
// rematch-global-read only matters for a global that can change: one that
// some code writes, or whose address escapes (after which anything may write
// it). This scan finds those globals in a whole translation unit; with
// --summaries-dir the sets of all translation units are merged.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_GLOBALWRITES_H
#define REMATCH_CHECKS_GLOBALWRITES_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseSet.h"

namespace clang {
class ASTContext;
}

namespace clang::tidy::rematch {

// Canonical declarations of the variables with static storage duration that
// some code in the TU (outside system headers) may modify: every use that is
// not plainly a read of the value (a load, a const member call, binding to a
// const reference or pointer to const).
llvm::DenseSet<const VarDecl *> findModifiableGlobals(ASTContext &Ctx);

} // namespace clang::tidy::rematch

#endif
