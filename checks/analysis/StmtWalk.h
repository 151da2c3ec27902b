//===--- StmtWalk.h - a body's common nodes, walked directly -*- C++ -*-===//
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

// How the visitor would traverse a node: Other when it does more than visit
// the node and then its children (declarations, template arguments, written
// types that are not skipped), otherwise which children it has, so that the
// commonest nodes need no call into Stmt::children().
enum class StmtShape {
  Other,
  Leaf,
  CastSub,
  ParenSub,
  MemberBase,
  Binary,
  Children
};

inline StmtShape shapeOf(const Stmt &S) {
  switch (S.getStmtClass()) {
  case Stmt::DeclRefExprClass:
    return cast<DeclRefExpr>(S).hasExplicitTemplateArgs() ? StmtShape::Other
                                                          : StmtShape::Leaf;
  case Stmt::MemberExprClass:
    return cast<MemberExpr>(S).hasExplicitTemplateArgs()
               ? StmtShape::Other
               : StmtShape::MemberBase;
  case Stmt::IntegerLiteralClass:
  case Stmt::FloatingLiteralClass:
  case Stmt::CharacterLiteralClass:
  case Stmt::StringLiteralClass:
  case Stmt::CXXBoolLiteralExprClass:
  case Stmt::CXXNullPtrLiteralExprClass:
  case Stmt::CXXThisExprClass:
  case Stmt::NullStmtClass:
  case Stmt::BreakStmtClass:
  case Stmt::ContinueStmtClass:
    return StmtShape::Leaf;
  case Stmt::ImplicitCastExprClass:
    return StmtShape::CastSub;
  case Stmt::ParenExprClass:
    return StmtShape::ParenSub;
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass:
    return StmtShape::Binary;
  case Stmt::CStyleCastExprClass: // their written types: skipped
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXFunctionalCastExprClass:
  case Stmt::CXXConstCastExprClass:
  case Stmt::CXXReinterpretCastExprClass:
  case Stmt::CXXTemporaryObjectExprClass:
  case Stmt::UnaryOperatorClass:
  case Stmt::ConditionalOperatorClass:
  case Stmt::ArraySubscriptExprClass:
  case Stmt::CallExprClass:
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass:
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXBindTemporaryExprClass:
  case Stmt::ExprWithCleanupsClass:
  case Stmt::ConstantExprClass:
  case Stmt::CompoundStmtClass:
  case Stmt::ReturnStmtClass:
  case Stmt::IfStmtClass:
  case Stmt::ForStmtClass:
  case Stmt::WhileStmtClass:
  case Stmt::DoStmtClass:
  case Stmt::SwitchStmtClass:
  case Stmt::CaseStmtClass:
  case Stmt::DefaultStmtClass:
    return StmtShape::Children;
  default:
    return StmtShape::Other;
  }
}

// Walks Root depth first: Visit(S) for each node whose shape is not Other
// (and that Keep(S) leaves to the walk), then its children; Other(S) for
// any other node, which is then the caller's to traverse with everything
// below it.
template <class KeepFn, class VisitFn, class OtherFn>
void walkStatements(Stmt *Root, KeepFn Keep, VisitFn Visit, OtherFn Other) {
  llvm::SmallVector<Stmt *, 32> Stack{Root};
  while (!Stack.empty()) {
    Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    StmtShape Shape = shapeOf(*S);
    if (Shape == StmtShape::Other || !Keep(*S)) {
      Other(S);
      continue;
    }
    Visit(S);
    switch (Shape) {
    case StmtShape::Other:
    case StmtShape::Leaf:
      break;
    case StmtShape::CastSub:
      Stack.push_back(cast<ImplicitCastExpr>(S)->getSubExpr());
      break;
    case StmtShape::ParenSub:
      Stack.push_back(cast<ParenExpr>(S)->getSubExpr());
      break;
    case StmtShape::MemberBase:
      Stack.push_back(cast<MemberExpr>(S)->getBase());
      break;
    case StmtShape::Binary: // the first child on top
      Stack.push_back(cast<BinaryOperator>(S)->getRHS());
      Stack.push_back(cast<BinaryOperator>(S)->getLHS());
      break;
    case StmtShape::Children: {
      size_t First = Stack.size();
      for (Stmt *Child : S->children())
        Stack.push_back(Child);
      std::reverse(Stack.begin() + First, Stack.end());
      break;
    }
    }
  }
}

} // namespace clang::tidy::rematch

#endif
