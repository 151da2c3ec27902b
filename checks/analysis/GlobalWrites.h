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
#include "clang/AST/Stmt.h"
#include <vector>
#include "llvm/ADT/DenseSet.h"

namespace clang {
class ASTContext;
class CXXForRangeStmt;
class CXXMethodDecl;
}

namespace clang::tidy::rematch {

// Fed every expression and variable of the TU (outside system headers) by
// the analysis' one walk; result() is the canonical declarations of the
// variables with static storage duration that some code may modify: every
// use that is not plainly a read of the value (a load, a const member call,
// binding to a const reference).
class GlobalUseCollector {
public:
  void onStmt(const Stmt &S);
  void onVarDecl(const VarDecl &VD);
  llvm::DenseSet<const VarDecl *> result() const;
  // Where the uses stand, and the globals the uses since Mark modify (a
  // body's, once its walk is over): BodyReplay records them.
  size_t mark() const { return Uses.size(); }
  std::vector<const VarDecl *> modifiedSince(size_t Mark) const;
  // A body that was not parsed modifies VD (BodyReplay).
  void addModified(const VarDecl *VD) { Replayed.push_back(VD); }

private:
  void markRead(const Expr *E);
  static bool isGlobal(const ValueDecl *D);
  static bool hasConstTwin(const CXXMethodDecl *MD);
  static bool readsThroughTwins(const CXXForRangeStmt &FR);
  std::vector<const Expr *> Uses;
  llvm::DenseSet<const Expr *> ReadOnly;
  std::vector<const VarDecl *> Replayed;
};

} // namespace clang::tidy::rematch

#endif
