//===--- HeldCallables.cpp - what values that hold callables hold ---------===//

#include "HeldCallables.h"
#include "Wrappers.h"
#include "KnownFunctions.h"
#include "ModelSet.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtVisitor.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::rematch {

namespace {
constexpr unsigned MaxDepth = 12;

// The return statements of a body, not those of the lambdas and local
// classes inside it.
void forEachReturn(const Stmt *S,
                   llvm::function_ref<void(const ReturnStmt &)> F) {
  if (!S)
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    F(*R);
    return;
  }
  if (isa<LambdaExpr>(S) || isa<DeclStmt>(S))
    return;
  for (const Stmt *C : S->children())
    forEachReturn(C, F);
}
} // namespace

HeldCallables::HeldCallables(const ModelSet &Models) : Models(Models) {
  for (const ModelCallableHolder &H : Models.callableHolders()) {
    if (!H.Runs.empty())
      RunNames.insert(H.Runs);
  }
}

// The holder template S is a specialization of, when it holds callable
// objects and is not a container (a torch::nn::ModuleHolder, a
// shared_ptr): the class it holds.
const CXXRecordDecl *HeldCallables::heldClass(const CXXRecordDecl *RD) const {
  const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!S || S->getTemplateArgs().size() == 0)
    return nullptr;
  std::string Template = canonicalName(*S->getSpecializedTemplate());
  if (Models.typeKinds(Template) & (1u << unsigned(TypeKind::Container)))
    return nullptr;
  bool Unwraps =
      llvm::any_of(Models.callableObjects(), [&](const ModelCallableObject &O) {
        return llvm::is_contained(O.Holders, Template);
      });
  const TemplateArgument &A = S->getTemplateArgs()[0];
  if (!Unwraps || A.getKind() != TemplateArgument::Type)
    return nullptr;
  return A.getAsType()->getAsCXXRecordDecl();
}

// Whether Pred holds of RD, of a base, or of the class a holder among them
// holds (torch::nn::Sequential derives from ModuleHolder<SequentialImpl>).
bool HeldCallables::anyClass(
    const CXXRecordDecl *RD,
    llvm::function_ref<bool(const CXXRecordDecl &)> Pred,
    unsigned Depth) const {
  RD = RD ? RD->getDefinition() : nullptr;
  if (!RD || Depth > 8)
    return false;
  if (const CXXRecordDecl *Inner = heldClass(RD))
    return anyClass(Inner, Pred, Depth + 1);
  if (Pred(*RD))
    return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (anyClass(B.getType()->getAsCXXRecordDecl(), Pred, Depth + 1))
      return true;
  return false;
}

const ModelCallableHolder *HeldCallables::holderOf(QualType T) const {
  if (T.isNull() || Models.callableHolders().empty())
    return nullptr;
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const Type *Key = T.getCanonicalType().getTypePtr();
  if (!Key->isRecordType())
    return nullptr;
  if (auto It = Kinds.find(Key); It != Kinds.end())
    return It->second;
  const ModelCallableHolder *Found = nullptr;
  anyClass(
      Key->getAsCXXRecordDecl(),
      [&](const CXXRecordDecl &C) {
        if (!C.getIdentifier())
          return false;
        std::string Name = withoutTemplateArgs(canonicalName(C));
        for (const ModelCallableHolder &H : Models.callableHolders())
          if (H.Class == Name)
            Found = &H;
        return Found != nullptr;
      },
      0);
  Kinds[Key] = Found;
  return Found;
}

bool HeldCallables::holdsHolders(QualType T) const {
  T = T.getNonReferenceType();
  const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!S || !(Models.typeKinds(canonicalName(*S->getSpecializedTemplate())) &
              (1u << unsigned(TypeKind::Container))))
    return false;
  // std::vector<std::function<...>>, std::map<K, std::function<...>>.
  return llvm::any_of(S->getTemplateArgs().asArray(),
                      [&](const TemplateArgument &A) {
                        return A.getKind() == TemplateArgument::Type &&
                               holderOf(A.getAsType());
                      });
}

bool HeldCallables::runs(const FunctionDecl &FD) const {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  if (!MD || RunNames.empty())
    return false;
  llvm::StringRef Name = MD->getOverloadedOperator() == OO_Call
                             ? llvm::StringRef("operator()")
                         : MD->getIdentifier() ? MD->getName()
                                               : llvm::StringRef();
  if (Name.empty() || !RunNames.contains(Name))
    return false;
  const ModelCallableHolder *H =
      holderOf(QualType(MD->getParent()->getTypeForDecl(), 0));
  return H && H->Runs == Name;
}

const Expr *HeldCallables::objectOf(const Expr *Call) {
  const auto *CE = dyn_cast_or_null<CallExpr>(Call);
  return CE ? partsOf(*CE).Object : nullptr;
}

bool HeldCallables::isShared(const NamedDecl *Place) {
  if (!Place || isa<ParmVarDecl>(Place) || !Place->isExternallyVisible())
    return false;
  const auto *VD = dyn_cast<VarDecl>(Place);
  return !VD || !VD->isLocalVarDecl();
}

// A library's own code (a system header) stores what it is handed into
// its internals: a call of it passes a holder on (expand), it is not
// followed into.
static bool inLibrary(const Decl &D) {
  return D.getASTContext().getSourceManager().isInSystemHeader(D.getLocation());
}

const NamedDecl *HeldCallables::sharedPlace(const NamedDecl *Place) const {
  for (unsigned Depth = 0; Place && Depth < MaxDepth; ++Depth) {
    if (isShared(Place))
      return Place;
    // A local copy or element names one place: follow it.
    const auto *VD = dyn_cast<VarDecl>(Place);
    auto It = VD && VD->isLocalVarDecl() ? Stores.find(Place) : Stores.end();
    if (It == Stores.end() || It->second.size() != 1)
      return nullptr;
    Place = placeOf(It->second.front().Value);
  }
  return nullptr;
}

const NamedDecl *HeldCallables::placeOf(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < MaxDepth; ++Depth) {
    E = skipWrappers(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return VD->getCanonicalDecl();
      return nullptr;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        return FD->getCanonicalDecl();
      if (const auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl()))
        return VD->getCanonicalDecl();
      return nullptr;
    }
    // `*p`, `seq->`, `holder.get()`, `holder.ptr()`: the holder itself.
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_Deref && UO->getOpcode() != UO_AddrOf)
        return nullptr;
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      // `getter()`: what the callable object's operator() returns, not the
      // object (a lambda that returns a std::function is no std::function).
      if (OC->getOperator() == OO_Call)
        if (const FunctionDecl *FD = OC->getDirectCallee())
          return FD->getCanonicalDecl();
      // `hooks[i]`: an element is held where its container is.
      if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2) {
        E = OC->getArg(0);
        continue;
      }
      if ((OC->getOperator() != OO_Arrow && OC->getOperator() != OO_Star) ||
          OC->getNumArgs() != 1)
        return nullptr;
      E = OC->getArg(0);
      continue;
    }
    // A library holder's `get()`/`ptr()` is the holder itself; a member
    // function of the program's is what it returns (below).
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && MD->getIdentifier() && MC->getNumArgs() == 0 &&
          (MD->getName() == "get" || MD->getName() == "ptr") &&
          (inLibrary(*MD) || !MD->isDefined())) {
        E = MC->getImplicitObjectArgument();
        continue;
      }
      // `hooks.at(i)`, `hooks.front()`: in a library container.
      if (MD && MD->getIdentifier() && inLibrary(*MD) &&
          (MD->getName() == "at" || MD->getName() == "front" ||
           MD->getName() == "back")) {
        E = MC->getImplicitObjectArgument();
        continue;
      }
    }
    // What a function defined in the program returns.
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (!isa<CXXOperatorCallExpr>(CE))
          return FD->getCanonicalDecl();
    return nullptr;
  }
  return nullptr;
}

void HeldCallables::store(const NamedDecl *Place, const Expr *Value,
                          SourceLocation At) {
  if (!Place || !Value)
    return;
  ++StoreCount;
  std::vector<HeldValue> &In =
      Stores[cast<NamedDecl>(Place->getCanonicalDecl())];
  // A node both walks visit (a lambda, a range-for) is told twice.
  if (llvm::none_of(In, [&](const HeldValue &H) { return H.Value == Value; }))
    In.push_back({Value, At, Place});
}

void HeldCallables::onVarDecl(const VarDecl &VD) {
  // A range-for's element is initialised with `*__begin`: onRange.
  if (!VD.getInit() || isa<ParmVarDecl>(VD) || VD.isCXXForRangeDecl() ||
      (!holderOf(VD.getType()) && !holdsHolders(VD.getType())))
    return;
  store(&VD, VD.getInit(), VD.getLocation());
}

void HeldCallables::onRange(const VarDecl &Element, const Expr *Range) {
  // `for (auto &h : hooks)`: h holds what the container holds.
  if (Range && holderOf(Element.getType()) && holdsHolders(Range->getType()))
    store(&Element, Range, Element.getLocation());
}

void HeldCallables::onField(const FieldDecl &FD) {
  if (const Expr *Init = FD.getInClassInitializer())
    if (holderOf(FD.getType()))
      store(&FD, Init, FD.getLocation());
}

void HeldCallables::onFunction(const FunctionDecl &FD) {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD);
  bool Returns = holderOf(FD.getReturnType()) != nullptr;
  if ((!Ctor && !Returns) || !FD.doesThisDeclarationHaveABody() ||
      FD.isDependentContext() || inLibrary(FD))
    return;
  if (Ctor)
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->isWritten() && I->getMember() &&
          holderOf(I->getMember()->getType()))
        store(I->getMember(), I->getInit(), I->getSourceLocation());
  if (!Returns)
    return;
  forEachReturn(FD.getBody(), [&](const ReturnStmt &R) {
    if (const Expr *V = R.getRetValue())
      store(&FD, V, R.getReturnLoc());
  });
}

void HeldCallables::onCall(const CallExpr &CE) {
  const FunctionDecl *FD = CE.getDirectCallee();
  if (!FD)
    return;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  // `f = lambda`, `seq_ = register_module("seq", Sequential(...))`.
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&CE)) {
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && MD &&
        holderOf(OC->getArg(0)->getType()))
      store(placeOf(OC->getArg(0)), OC->getArg(1), OC->getOperatorLoc());
    return;
  }
  // `seq->push_back(Dropout(0.5))`: the holder holds the arguments.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&CE))
    if (const ModelCallableHolder *H =
            MD && MD->getIdentifier()
                ? holderOf(QualType(MD->getParent()->getTypeForDecl(), 0))
                : nullptr;
        H && llvm::is_contained(H->Adds, MD->getName())) {
      const NamedDecl *Place = placeOf(MC->getImplicitObjectArgument());
      for (const Expr *Arg : MC->arguments())
        store(Place, Arg, Arg->getExprLoc());
      return;
    }
  // `hooks.push_back(lambda)`: a container of holders holds what is added.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&CE))
    if (MD && MD->getIdentifier() && Models.isContainerMutator(MD->getName()) &&
        holdsHolders(MC->getImplicitObjectArgument()->getType())) {
      const NamedDecl *Place = placeOf(MC->getImplicitObjectArgument());
      for (const Expr *Arg : MC->arguments())
        if (isCallableValue(Arg->getType()))
          store(Place, Arg, Arg->getExprLoc());
      return;
    }
  // An argument bound to a parameter that holds callables: the parameter
  // of the definition, where the body names it.
  unsigned N = std::min<unsigned>(CE.getNumArgs(), FD->getNumParams());
  const FunctionDecl *Params = nullptr;
  for (unsigned I = 0; I < N; ++I) {
    if (!holderOf(FD->getParamDecl(I)->getType()))
      continue;
    if (!Params) {
      const FunctionDecl *Def = FD->getDefinition();
      Params = Def ? Def : FD;
      if (inLibrary(*Params))
        return;
    }
    store(Params->getParamDecl(I), CE.getArg(I), CE.getArg(I)->getExprLoc());
  }
}

void HeldCallables::valuesIn(const NamedDecl *Place,
                             llvm::SmallVectorImpl<HeldValue> &Out) const {
  llvm::SmallVector<const NamedDecl *, 8> Seen;
  auto It = Stores.find(Place);
  if (It == Stores.end())
    return;
  Seen.push_back(Place);
  for (const HeldValue &S : It->second)
    expand(S.Value, S.In, S.At, Out, Seen, 0);
}

void HeldCallables::valuesOf(const Expr *E,
                             llvm::SmallVectorImpl<HeldValue> &Out) const {
  llvm::SmallVector<const NamedDecl *, 8> Seen;
  expand(E, nullptr, SourceLocation(), Out, Seen, 0);
}

// What E may be, as a held value stored into In at At: itself when it is
// no holder (a lambda, a module), else what the holder it names or builds
// holds.
void HeldCallables::expand(const Expr *E, const NamedDecl *In,
                           SourceLocation At,
                           llvm::SmallVectorImpl<HeldValue> &Out,
                           llvm::SmallVectorImpl<const NamedDecl *> &Seen,
                           unsigned Depth) const {
  E = skipWrappers(E);
  if (!E || Depth > MaxDepth)
    return;
  if (!holderOf(E->getType()) && !holdsHolders(E->getType())) {
    // A lambda, function, functor or module: held.
    if (!llvm::any_of(Out, [&](const HeldValue &H) { return H.Value == E; }))
      Out.push_back({E, At, In});
    return;
  }
  // A place: what was stored into it.
  if (const NamedDecl *P = placeOf(E)) {
    // A parameter of a call being followed: that call's argument, in the
    // caller's context (register_module returns what it was handed, not
    // what every caller hands it).
    if (const auto *PV = dyn_cast<ParmVarDecl>(P))
      for (size_t F = Frames.size(); F-- > 0;) {
        const CallExpr *Call = Frames[F];
        const FunctionDecl *Callee = Call->getDirectCallee();
        const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
        unsigned I = PV->getFunctionScopeIndex();
        if (!Def || PV->getDeclContext() != Def || I >= Call->getNumArgs())
          continue;
        std::vector<const CallExpr *> Inner(Frames.begin() + F, Frames.end());
        Frames.resize(F);
        expand(Call->getArg(I), In, At, Out, Seen, Depth + 1);
        Frames.insert(Frames.end(), Inner.begin(), Inner.end());
        return;
      }
    if (llvm::is_contained(Seen, P))
      return;
    Seen.push_back(P);
    size_t Before = Out.size();
    const auto *CE = isa<FunctionDecl>(P) ? dyn_cast<CallExpr>(E) : nullptr;
    if (auto It = Stores.find(P); It != Stores.end()) {
      if (CE)
        Frames.push_back(CE);
      // Named by the variable or member the value was stored into, not by
      // the return statement or parameter it passed through on the way.
      bool Names =
          !In || (isa<VarDecl>(P) && !isa<ParmVarDecl>(P)) || isa<FieldDecl>(P);
      for (const HeldValue &S : It->second)
        expand(S.Value, Names ? S.In : In, Names ? S.At : At, Out, Seen,
               Depth + 1);
      if (CE)
        Frames.pop_back();
    }
    // A function whose returns hold nothing seen (a library's
    // register_module, std::move) that takes a holder and returns one
    // passes it on.
    // The object of `f()` is what is called, not what it is handed.
    if (CE && Out.size() == Before)
      for (const Expr *Arg : CE->arguments())
        if (holderOf(Arg->getType()) && Arg != HeldCallables::objectOf(CE))
          expand(Arg, In, At, Out, Seen, Depth + 1);
    return;
  }
  addElements(E, In, At, Out, Seen, Depth);
}

// A function, a holder, or a callable object: what a holder may hold.
bool HeldCallables::isCallableValue(QualType T) const {
  return T->isFunctionType() || T->isFunctionPointerType() || holderOf(T) ||
         isCallableObject(T->getAsCXXRecordDecl());
}

// A lambda's class, a class with an operator(), or an object the models say
// runs a member (a module, through its holders).
bool HeldCallables::isCallableObject(const CXXRecordDecl *RD) const {
  return anyClass(
      RD,
      [&](const CXXRecordDecl &C) {
        if (C.isLambda() ||
            llvm::any_of(C.methods(), [](const CXXMethodDecl *M) {
              return M->getOverloadedOperator() == OO_Call;
            }))
          return true;
        if (!C.getIdentifier())
          return false;
        std::string Name = canonicalName(C);
        return llvm::any_of(
            Models.callableObjects(),
            [&](const ModelCallableObject &O) { return O.Class == Name; });
      },
      0);
}

// A holder built here: `std::function<F>(lambda)`, `Sequential(Linear(..),
// Dropout(..))`, `AnyModule(Dropout())`, ModuleDict's pairs: the callables
// among its arguments, through lists and pairs.
void HeldCallables::addElements(const Expr *E, const NamedDecl *In,
                                SourceLocation At,
                                llvm::SmallVectorImpl<HeldValue> &Out,
                                llvm::SmallVectorImpl<const NamedDecl *> &Seen,
                                unsigned Depth) const {
  E = skipWrappers(E);
  if (!E || Depth > MaxDepth)
    return;
  auto Element = [&](const Expr *A) {
    const Expr *X = skipWrappers(A);
    if (!X)
      return;
    bool Callable = isCallableValue(X->getType());
    if (isa<InitListExpr>(X) || (!Callable && isa<CXXConstructExpr>(X)))
      return addElements(X, In, At, Out, Seen, Depth + 1);
    if (isa<StringLiteral>(X) || X->getType()->isBuiltinType())
      return;
    expand(X, In, At, Out, Seen, Depth + 1);
  };
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *I : IL->inits())
      Element(I);
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    for (const Expr *A : CE->arguments())
      Element(A);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    for (const Expr *A : CE->arguments())
      Element(A);
}

} // namespace clang::tidy::rematch
