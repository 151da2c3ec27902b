//===--- StmtWalk.h - the common nodes of a body, walked directly -*- C++ -*-===//
//
// Most nodes of a function body are statements and expressions that
// RecursiveASTVisitor traverses by visiting the node and then its children,
// nothing else: no declarations, no template arguments, no types worth a
// look. The analysis' two walks take those nodes themselves, with an
// explicit stack (deep expressions cannot exhaust the thread's stack), and
// hand every other node to the visitor, whose children come back to them.
// The order is the visitor's: depth first, children in order.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_STMTWALK_H
#define REMATCH_CHECKS_STMTWALK_H

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

namespace clang::tidy::rematch {

// The visitor would visit S and then its children, and nothing else (the
// casts' written types are skipped by both walkers).
inline bool isPlainStmt(const Stmt &S) {
  switch (S.getStmtClass()) {
  case Stmt::DeclRefExprClass:
    return !cast<DeclRefExpr>(S).hasExplicitTemplateArgs();
  case Stmt::MemberExprClass:
    return !cast<MemberExpr>(S).hasExplicitTemplateArgs();
  case Stmt::ImplicitCastExprClass:
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXFunctionalCastExprClass:
  case Stmt::CXXConstCastExprClass:
  case Stmt::CXXReinterpretCastExprClass:
  case Stmt::CXXTemporaryObjectExprClass:
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass:
  case Stmt::UnaryOperatorClass:
  case Stmt::ConditionalOperatorClass:
  case Stmt::ParenExprClass:
  case Stmt::ArraySubscriptExprClass:
  case Stmt::CallExprClass:
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass:
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXBindTemporaryExprClass:
  case Stmt::ExprWithCleanupsClass:
  case Stmt::ConstantExprClass:
  case Stmt::CXXThisExprClass:
  case Stmt::IntegerLiteralClass:
  case Stmt::FloatingLiteralClass:
  case Stmt::CharacterLiteralClass:
  case Stmt::StringLiteralClass:
  case Stmt::CXXBoolLiteralExprClass:
  case Stmt::CXXNullPtrLiteralExprClass:
  case Stmt::CompoundStmtClass:
  case Stmt::ReturnStmtClass:
  case Stmt::NullStmtClass:
  case Stmt::BreakStmtClass:
  case Stmt::ContinueStmtClass:
  case Stmt::IfStmtClass:
  case Stmt::ForStmtClass:
  case Stmt::WhileStmtClass:
  case Stmt::DoStmtClass:
  case Stmt::SwitchStmtClass:
  case Stmt::CaseStmtClass:
  case Stmt::DefaultStmtClass:
    return true;
  default:
    return false;
  }
}

// S's children, the first on top. The commonest nodes without a call into
// Stmt::children().
inline void pushChildren(Stmt &S, llvm::SmallVectorImpl<Stmt *> &Stack) {
  switch (S.getStmtClass()) {
  case Stmt::DeclRefExprClass:
  case Stmt::IntegerLiteralClass:
  case Stmt::FloatingLiteralClass:
  case Stmt::CharacterLiteralClass:
  case Stmt::StringLiteralClass:
  case Stmt::CXXBoolLiteralExprClass:
  case Stmt::CXXNullPtrLiteralExprClass:
  case Stmt::CXXThisExprClass:
    return;
  case Stmt::ImplicitCastExprClass:
    Stack.push_back(cast<ImplicitCastExpr>(S).getSubExpr());
    return;
  case Stmt::ParenExprClass:
    Stack.push_back(cast<ParenExpr>(S).getSubExpr());
    return;
  case Stmt::MemberExprClass:
    Stack.push_back(cast<MemberExpr>(S).getBase());
    return;
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass:
    Stack.push_back(cast<BinaryOperator>(S).getRHS());
    Stack.push_back(cast<BinaryOperator>(S).getLHS());
    return;
  default: {
    size_t First = Stack.size();
    for (Stmt *Child : S.children())
      Stack.push_back(Child);
    std::reverse(Stack.begin() + First, Stack.end());
    return;
  }
  }
}

// Walks Root depth first: Visit(S) for each node Plain(S) accepts, then its
// children; Other(S) for any other node, which is then the caller's to
// traverse with everything below it.
template <class PlainFn, class VisitFn, class OtherFn>
void walkStatements(Stmt *Root, PlainFn Plain, VisitFn Visit, OtherFn Other) {
  llvm::SmallVector<Stmt *, 32> Stack{Root};
  while (!Stack.empty()) {
    Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    if (!Plain(*S)) {
      Other(S);
      continue;
    }
    Visit(S);
    pushChildren(*S, Stack);
  }
}

} // namespace clang::tidy::rematch

#endif
