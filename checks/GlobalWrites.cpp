//===--- GlobalWrites.cpp - which globals anything writes -----------------===//

#include "GlobalWrites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::rematch {

namespace {

// Records uses that only read; every other use of a global counts as a
// possible write. Reading is the narrow, provable case, so anything this
// does not understand errs on the side of "may be written".
class UseScanner : public RecursiveASTVisitor<UseScanner> {
  using Base = RecursiveASTVisitor<UseScanner>;

public:
  explicit UseScanner(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(D->getLocation()))
      return true;
    return Base::TraverseDecl(D);
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    if (E->getCastKind() == CK_LValueToRValue)
      markRead(E->getSubExpr());
    return true;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *E) {
    if (const CXXMethodDecl *MD = E->getMethodDecl())
      if (MD->isConst() || MD->isStatic())
        if (const Expr *Obj = E->getImplicitObjectArgument()) {
          const auto *ME =
              dyn_cast<MemberExpr>(E->getCallee()->IgnoreParens());
          if (!ME || !ME->isArrow())
            markRead(Obj);
        }
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(E->getCalleeDecl()))
      if (MD->isConst() && E->getNumArgs() > 0)
        markRead(E->getArg(0));
    return true;
  }

  bool VisitCallExpr(CallExpr *E) {
    const FunctionDecl *FD = E->getDirectCallee();
    if (!FD)
      return true;
    unsigned Offset = isa<CXXOperatorCallExpr>(E) && isa<CXXMethodDecl>(FD);
    for (unsigned I = Offset; I < E->getNumArgs(); ++I) {
      unsigned P = I - Offset;
      if (P >= FD->getNumParams())
        break;
      QualType T = FD->getParamDecl(P)->getType();
      if (T->isReferenceType() && T.getNonReferenceType().isConstQualified())
        markRead(E->getArg(I));
    }
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    // `const T &r = g;` reads.
    QualType T = VD->getType();
    if (VD->getInit() && T->isReferenceType() &&
        T.getNonReferenceType().isConstQualified())
      markRead(VD->getInit());
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()))
      if (VD->hasGlobalStorage())
        Uses.push_back(E);
    return true;
  }

  bool VisitMemberExpr(MemberExpr *E) {
    if (const auto *VD = dyn_cast<VarDecl>(E->getMemberDecl()))
      if (VD->hasGlobalStorage())
        Uses.push_back(E);
    return true;
  }

  llvm::DenseSet<const VarDecl *> result() const {
    llvm::DenseSet<const VarDecl *> Out;
    for (const Expr *E : Uses) {
      if (ReadOnly.contains(E))
        continue;
      const ValueDecl *D = isa<DeclRefExpr>(E)
                               ? cast<DeclRefExpr>(E)->getDecl()
                               : cast<MemberExpr>(E)->getMemberDecl();
      Out.insert(cast<VarDecl>(D)->getCanonicalDecl());
    }
    return Out;
  }

private:
  // The global at the base of an access path (g, g.a, g.a[2]) is only read.
  void markRead(const Expr *E) {
    for (unsigned Depth = 0; E && Depth < 32; ++Depth) {
      E = E->IgnoreParenImpCasts();
      if (isa<DeclRefExpr>(E)) {
        ReadOnly.insert(E);
        return;
      }
      if (const auto *ME = dyn_cast<MemberExpr>(E)) {
        if (isa<VarDecl>(ME->getMemberDecl())) {
          ReadOnly.insert(E);
          return;
        }
        if (ME->isArrow())
          return; // reading through a pointer says nothing of the pointer
        E = ME->getBase();
      } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
        if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
          return;
        E = AS->getBase();
      } else {
        return;
      }
    }
  }

  const SourceManager &SM;
  std::vector<const Expr *> Uses;
  llvm::SmallPtrSet<const Expr *, 32> ReadOnly;
};

} // namespace

llvm::DenseSet<const VarDecl *> findModifiableGlobals(ASTContext &Ctx) {
  UseScanner Scanner(Ctx);
  Scanner.TraverseAST(Ctx);
  return Scanner.result();
}

} // namespace clang::tidy::rematch
