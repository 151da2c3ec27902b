//===--- CopySemantics.cpp - does a copy own its state, or share it? -----===//

#include "CopySemantics.h"
#include "KnownFunctions.h"
#include "Wrappers.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::rematch {

namespace {

// Handle dominates, then Unknown: one shared member makes the copy share.
Copy join(Copy A, Copy B) {
  if (A == Copy::Handle || B == Copy::Handle)
    return Copy::Handle;
  if (A == Copy::Unknown || B == Copy::Unknown)
    return Copy::Unknown;
  return Copy::Value;
}

// `o.p_`, with o the copy constructor's parameter.
bool readsSourceMember(const Expr *E, const ParmVarDecl &Source) {
  // In a template's text, `: p_(o.p_)` of a dependent type stays a list.
  if (const auto *PL = dyn_cast_or_null<ParenListExpr>(E);
      PL && PL->getNumExprs() == 1)
    E = PL->getExpr(0);
  const auto *ME = dyn_cast_or_null<MemberExpr>(skipCopies(E));
  if (!ME || !isa<FieldDecl>(ME->getMemberDecl()))
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  return DRE && DRE->getDecl() == &Source;
}

// The type of Member (a field of the copy constructor's class, or of the
// class template whose text it is) in RD: a template's text names its
// fields with types that depend on its parameters.
QualType fieldType(const ValueDecl *Member, const CXXRecordDecl &RD) {
  if (const auto *F = dyn_cast<FieldDecl>(Member);
      F && F->getParent() != &RD && F->getDeclName().isIdentifier())
    for (const FieldDecl *Mine : RD.fields())
      if (Mine->getDeclName() == F->getDeclName())
        return Mine->getType();
  return Member->getType();
}

// `p_ = o.p_;` or `this->p_ = o.p_;` on a member the copy would share.
bool assignsSourceMember(const Stmt *S, const ParmVarDecl &Source,
                         const CXXRecordDecl &RD, const CopySemantics &Copies) {
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->getOpcode() == BO_Assign) {
    L = BO->getLHS();
    R = BO->getRHS();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
             OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
    L = OC->getArg(0);
    R = OC->getArg(1);
  }
  const auto *ME = dyn_cast_or_null<MemberExpr>(L ? L->IgnoreParenImpCasts()
                                                  : nullptr);
  return ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) &&
         Copies.shares(fieldType(ME->getMemberDecl(), RD)) &&
         readsSourceMember(R, Source);
}

// The text of a written copy constructor: its definition, or for a class
// template's that nothing instantiated (a library's, whose uses the parse
// skipped: UnreadBodies.h), the template's: the answer then does not hang
// on whether some other body instantiated it (fieldType: the template's
// fields are read with the types they have in the class).
const CXXConstructorDecl *writtenCopy(const CXXConstructorDecl &Ctor) {
  if (Ctor.hasBody())
    return cast<CXXConstructorDecl>(Ctor.getDefinition());
  const FunctionDecl *Pattern = Ctor.getTemplateInstantiationPattern();
  const FunctionDecl *Def = Pattern ? Pattern->getDefinition() : nullptr;
  return Def && Def->hasBody() ? dyn_cast<CXXConstructorDecl>(Def) : nullptr;
}

const CXXConstructorDecl *copyConstructor(const CXXRecordDecl &RD) {
  for (const CXXConstructorDecl *C : RD.ctors())
    if (C->isCopyConstructor())
      return C;
  return nullptr;
}

} // namespace

Copy CopySemantics::of(QualType T) const {
  if (T.isNull())
    return Copy::Unknown;
  T = T.getCanonicalType();
  if (T->isReferenceType())
    return Copy::Handle;
  if (T->isDependentType())
    return Copy::Unknown;
  if (const auto *PT = T->getAs<PointerType>())
    return PT->getPointeeType()->isFunctionType() ? Copy::Value : Copy::Handle;
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    return of(AT->getElementType());
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl()) {
    const CXXRecordDecl *Def = RD->getDefinition();
    return Def ? ofClass(*Def) : Copy::Unknown;
  }
  if (T->isRecordType()) // a C struct seen from C++: its fields
    return Copy::Unknown;
  return Copy::Value; // arithmetic, enumerations, member pointers
}

Copy CopySemantics::ofClass(const CXXRecordDecl &RD) const {
  if (auto It = Classes.find(&RD); It != Classes.end())
    return It->second;
  Classes[&RD] = Copy::Value; // while deciding: see the header
  Copy C = declared(RD);
  if (C == Copy::Unknown) {
    const CXXConstructorDecl *Ctor = copyConstructor(RD);
    if (RD.isDependentContext()) {
      C = Copy::Unknown;
    } else if (Ctor && Ctor->isDeleted()) {
      C = Copy::Value; // move-only: what was moved in is owned
    } else if (const CXXConstructorDecl *Def =
                   Ctor && Ctor->isUserProvided() ? writtenCopy(*Ctor)
                                                  : nullptr) {
      // A written copy: what it copies from the source decides.
      const ParmVarDecl *Source = Def->getParamDecl(0);
      C = Copy::Value;
      for (const CXXCtorInitializer *I : Def->inits())
        if (I->isMemberInitializer() && I->isWritten() &&
            shares(fieldType(I->getMember(), RD)) &&
            readsSourceMember(I->getInit(), *Source))
          C = Copy::Handle;
      if (const Stmt *Body = Def->getBody())
        for (const Stmt *S : Body->children())
          if (S && assignsSourceMember(S, *Source, RD, *this))
            C = Copy::Handle;
    } else {
      C = members(RD);
    }
  }
  Classes[&RD] = C;
  return C;
}

Copy CopySemantics::members(const CXXRecordDecl &RD) const {
  Copy C = Copy::Value;
  for (const CXXBaseSpecifier &B : RD.bases())
    C = join(C, of(B.getType()));
  for (const FieldDecl *F : RD.fields())
    C = join(C, of(F->getType()));
  return C;
}

// What the models say of the class itself: Unknown when they say nothing.
Copy CopySemantics::declared(const CXXRecordDecl &RD) const {
  QualType T(RD.getTypeForDecl(), 0);
  if (Known.isHandle(T) || Known.isView(T))
    return Copy::Handle;
  if (!Known.isDeclaredValue(RD))
    return Copy::Unknown;
  // A container of values is a value; of pointers or handles, it shares.
  Copy C = Copy::Value;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&RD);
  if (!Spec)
    return C;
  for (const TemplateArgument &A : Spec->getTemplateArgs().asArray()) {
    if (A.getKind() == TemplateArgument::Type)
      C = join(C, of(A.getAsType()));
    else if (A.getKind() == TemplateArgument::Pack)
      for (const TemplateArgument &P : A.pack_elements())
        if (P.getKind() == TemplateArgument::Type)
          C = join(C, of(P.getAsType()));
  }
  return C;
}

} // namespace clang::tidy::rematch
