//===--- CheckpointSites.cpp - where callables become recomputed ----------===//

#include "CheckpointSites.h"
#include "BodyScope.h"
#include "HeldCallables.h"
#include "KnownFunctions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::rematch {

EntryPoints::EntryPoints(const ModelSet &Models) : Models(Models) {
  for (const auto &Entry : Models.entryPoints()) {
    std::string Name = withoutTemplateArgs(Entry.getKey());
    Replays[Name] = Entry.getValue();
    size_t Colon = Name.rfind("::");
    LastNames.insert(Colon == std::string::npos ? Name
                                                : Name.substr(Colon + 2));
  }
}

bool EntryPoints::mayBeAnnotated(const FunctionDecl &FD) const {
  // Attributes are on the declaration (or the template pattern) only when
  // the parameter carries any at all.
  auto Any = [](const FunctionDecl *F) {
    if (!F)
      return false;
    for (const ParmVarDecl *P : F->parameters())
      if (P->hasAttrs())
        return true;
    return false;
  };
  if (Any(&FD) || Any(FD.getTemplateInstantiationPattern()))
    return true;
  if (const FunctionTemplateDecl *T = FD.getPrimaryTemplate())
    return Any(T->getTemplatedDecl());
  return false;
}

std::optional<std::string> EntryPoints::match(const FunctionDecl &FD) const {
  // Most calls are not to an entry point: reject them by their last name
  // before printing a qualified one. The few that share an entry point's
  // last name (std::forward, every module's forward) are answered once.
  if (!FD.getIdentifier() || !LastNames.contains(FD.getName()))
    return std::nullopt;
  auto [It, Inserted] = Matches.try_emplace(&FD);
  if (Inserted) {
    std::string Name = withoutTemplateArgs(canonicalName(FD));
    if (Replays.contains(Name))
      It->second = std::move(Name);
  }
  return It->second;
}

// The annotation Name on FD's parameter I: on the declaration, or on the
// template it was instantiated from.
static const AnnotateAttr *paramAnnotation(const FunctionDecl &FD, unsigned I,
                                           llvm::StringRef Name) {
  auto Find = [I, Name](const FunctionDecl *F) -> const AnnotateAttr * {
    if (!F || I >= F->getNumParams())
      return nullptr;
    for (const auto *A : F->getParamDecl(I)->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == Name)
        return A;
    return nullptr;
  };
  if (const AnnotateAttr *A = Find(&FD))
    return A;
  if (const AnnotateAttr *A = Find(FD.getTemplateInstantiationPattern()))
    return A;
  if (const FunctionTemplateDecl *T = FD.getPrimaryTemplate())
    return Find(T->getTemplatedDecl());
  return nullptr;
}

static const AnnotateAttr *recomputedAttr(const FunctionDecl &FD, unsigned I) {
  return paramAnnotation(FD, I, "rematch::recomputed");
}

// Whether FD's parameter I also carries
// [[clang::annotate("rematch::arguments-fresh")]].
static bool freshArgumentsAttr(const FunctionDecl &FD, unsigned I) {
  return paramAnnotation(FD, I, "rematch::arguments-fresh") != nullptr;
}

bool isRecomputedParam(const FunctionDecl &FD, unsigned I) {
  return recomputedAttr(FD, I) != nullptr;
}

std::vector<std::string> recomputedReplays(const FunctionDecl &FD,
                                           unsigned I) {
  std::vector<std::string> Sources;
  if (const AnnotateAttr *A = recomputedAttr(FD, I))
    for (const Expr *Arg : A->args())
      if (const auto *S = dyn_cast<StringLiteral>(Arg->IgnoreParenImpCasts()))
        Sources.push_back(S->getString().str());
  return Sources;
}

namespace {

// The member functions of RD that Pick chooses: those with a body here, or,
// for a functor or module whose member is defined in another translation
// unit, its declaration. Name: what messages call the callable.
template <class PickT>
void addMethods(const CXXRecordDecl *RD, Callable::Kind K, PickT Pick,
                std::vector<Callable> &Out, const LambdaExpr *Lambda,
                const std::string &Name) {
  if (!RD || !RD->hasDefinition())
    return;
  RD = RD->getDefinition();
  for (const Decl *D : RD->decls()) {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(D)) {
      if (!Pick(*MD))
        continue;
      if (hasBodyHere(*MD))
        Out.push_back({K, MD, Name, Lambda});
      else if (K != Callable::Lambda)
        Out.push_back({K, nullptr, Name, nullptr, nullptr, MD});
    } else if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D)) {
      // Generic lambdas and member templates: the instantiations are what
      // runs.
      const auto *MD = dyn_cast<CXXMethodDecl>(FTD->getTemplatedDecl());
      if (!MD || !Pick(*MD))
        continue;
      for (const FunctionDecl *Spec : FTD->specializations())
        if (hasBodyHere(*Spec)) // a library's skipped: parsed again
          Out.push_back({K, Spec, Name, Lambda});
    }
  }
}

void addCallOperators(const CXXRecordDecl *RD, Callable::Kind K,
                      std::vector<Callable> &Out,
                      const LambdaExpr *Lambda = nullptr) {
  std::string Name =
      K == Callable::Lambda || !RD ? "" : canonicalName(*RD);
  addMethods(
      RD, K,
      [](const CXXMethodDecl &MD) {
        return MD.getOverloadedOperator() == OO_Call;
      },
      Out, Lambda, Name);
}

bool isStdFunction(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "function" &&
         canonicalName(*RD) == "std::function";
}

// What a checkpoint call's argument denotes: lambdas, functions, functors,
// and the objects the models say run a member function (modules).
class Collector {
public:
  Collector(const ModelSet &Models, const HeldCallables *Held)
      : Models(Models), Held(Held) {}

  // Set by collect(): the expression is a value holding callables, whose
  // contents the whole TU tells (HeldCallables).
  bool Deferred = false;

  void collect(const Expr *E, std::vector<Callable> &Out, unsigned Depth) {
    E = skipWrappers(E);
    if (!E || Depth > 8)
      return;
    if (const auto *L = dyn_cast<LambdaExpr>(E)) {
      addCallOperators(L->getLambdaClass(), Callable::Lambda, Out, L);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf)
        return collect(UO->getSubExpr(), Out, Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
        if (const FunctionDecl *Def = FD->getDefinition())
          Out.push_back({Callable::Function, Def, canonicalName(*FD), nullptr});
        else if (!FD->isTemplateInstantiation())
          Out.push_back({Callable::Function, nullptr, canonicalName(*FD),
                         nullptr, nullptr, FD});
        return;
      }
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        // A local initialised with a lambda (or a std::function built from
        // one) is that lambda.
        if (VD->hasLocalStorage() && VD->getInit() &&
            !VD->getType()->isReferenceType() &&
            !(Held && Held->holderOf(VD->getType()))) {
          size_t Before = Out.size();
          collect(VD->getInit(), Out, Depth + 1);
          if (Out.size() != Before)
            return;
        }
      }
    } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (isStdFunction(CE->getType()) ||
          CE->getConstructor()->isCopyOrMoveConstructor()) {
        if (CE->getNumArgs() > 0)
          collect(CE->getArg(0), Out, Depth + 1);
        return;
      }
    }
    // Any other value of class type: a functor, a module, or a holder of one
    // (a variable, an element of a list of modules, a member).
    QualType T = E->getType().getNonReferenceType();
    if (Held && Held->holderOf(T)) {
      Deferred = true;
      return;
    }
    if (isStdFunction(T))
      return;
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      addObject(RD, Out);
  }

private:
  void addObject(const CXXRecordDecl *RD, std::vector<Callable> &Out) {
    for (const ModelCallableObject &O : Models.callableObjects())
      if (const CXXRecordDecl *Runs = runner(RD, O, 0)) {
        addRunMethod(Runs, O.Method, Out);
        return;
      }
    addCallOperators(RD, RD->isLambda() ? Callable::Lambda : Callable::Functor,
                     Out);
  }

  // The class whose Method runs when an object of class RD is passed: RD
  // when it is or derives from O.Class, the held class when RD is (or
  // derives from) one of O.Holders.
  const CXXRecordDecl *runner(const CXXRecordDecl *RD,
                              const ModelCallableObject &O, unsigned Depth) {
    RD = RD ? RD->getDefinition() : nullptr;
    if (!RD || Depth > 4)
      return nullptr;
    bool Derives = false;
    const CXXRecordDecl *Held = nullptr;
    auto Visit = [&](const CXXRecordDecl *C) {
      if (C->getIdentifier() && canonicalName(*C) == O.Class)
        Derives = true;
      else if (!Held)
        Held = held(C, O, Depth);
      return !Derives;
    };
    if (Visit(RD))
      RD->forallBases(Visit);
    return Derives ? RD : Held;
  }

  const CXXRecordDecl *held(const CXXRecordDecl *C,
                            const ModelCallableObject &O, unsigned Depth) {
    const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(C);
    if (!S || S->getTemplateArgs().size() == 0 ||
        !llvm::is_contained(O.Holders,
                            canonicalName(*S->getSpecializedTemplate())))
      return nullptr;
    const TemplateArgument &A = S->getTemplateArgs()[0];
    if (A.getKind() != TemplateArgument::Type)
      return nullptr;
    return runner(A.getAsType()->getAsCXXRecordDecl(), O, Depth + 1);
  }

  // Method of RD, or of the nearest base that declares it; named for RD
  // (a BatchNorm1dImpl runs the forward of its BatchNormImplBase).
  void addRunMethod(const CXXRecordDecl *RD, StringRef Method,
                    std::vector<Callable> &Out) {
    auto Named = [Method](const CXXMethodDecl &MD) {
      return MD.getIdentifier() && MD.getName() == Method;
    };
    std::string Name = canonicalName(*RD);
    size_t Before = Out.size();
    addMethods(RD, Callable::Module, Named, Out, nullptr, Name);
    if (Out.size() != Before)
      return;
    RD->forallBases([&](const CXXRecordDecl *B) {
      addMethods(B, Callable::Module, Named, Out, nullptr, Name);
      return Out.size() == Before;
    });
  }

  const ModelSet &Models;
  const HeldCallables *Held;
};

} // namespace

void collectCallables(const Expr *E, const ModelSet &Models,
                      std::vector<Callable> &Out) {
  Collector(Models, nullptr).collect(E, Out, 0);
}

namespace {

// Which arguments of a checkpoint call hold what it checkpoints.
struct ArgumentChoice {
  unsigned Offset = 0;           // an operator call's arguments after its object
  std::optional<unsigned> Named; // the entry point's callable parameter
  bool Annotated = false;        // parameters marked as recomputed
};

void addReplays(CheckpointSite &Site, std::vector<std::string> Sources) {
  for (std::string &Source : Sources)
    if (!llvm::is_contained(Site.Replays, Source))
      Site.Replays.push_back(std::move(Source));
}

// The callables of the chosen arguments into Site (Callables, HeldArgs).
// Without a named or annotated parameter, the callable is the first
// argument that is a lambda, function or functor; failing one, the first
// module (checkpoint(module, fn, inputs) runs fn, checkpoint(module,
// inputs) the module's forward).
void collectSiteArguments(const CallExpr &CE, const FunctionDecl &FD,
                          const ArgumentChoice &A, const ModelSet &Models,
                          const HeldCallables *Held, CheckpointSite &Site) {
  bool First = !A.Named && !A.Annotated;
  Collector Args(Models, Held);
  std::vector<Callable> Found, Modules;
  std::vector<const Expr *> HeldModules;
  for (unsigned I = A.Offset; I < CE.getNumArgs(); ++I) {
    unsigned Param = I - A.Offset;
    if (A.Named ? Param != *A.Named
                : A.Annotated && !isRecomputedParam(FD, Param))
      continue;
    if (A.Annotated) { // what the function replays, its annotation says
      addReplays(Site, recomputedReplays(FD, Param));
      Site.ArgumentsFresh |= freshArgumentsAttr(FD, Param);
    }
    Found.clear();
    Args.Deferred = false;
    Args.collect(CE.getArg(I), Found, 0);
    if (Args.Deferred && Found.empty()) {
      // A module container is a module: the first lambda wins over it.
      const ModelCallableHolder *H = Held->holderOf(CE.getArg(I)->getType());
      if (First && H && H->Runs != "operator()") {
        HeldModules.push_back(CE.getArg(I));
        continue;
      }
      Site.HeldArgs.push_back(CE.getArg(I));
      if (First)
        break;
      continue;
    }
    for (Callable &C : Found)
      C.Arg = CE.getArg(I);
    bool IsModule = !Found.empty() && Found.front().K == Callable::Module;
    if (First && IsModule) {
      if (Modules.empty())
        Modules = std::move(Found);
      continue;
    }
    llvm::append_range(Site.Callables, Found);
    if (First && !Found.empty())
      break; // the first callable argument; the rest are its data
  }
  if (Site.Callables.empty() && Site.HeldArgs.empty()) {
    Site.Callables = std::move(Modules);
    Site.HeldArgs = std::move(HeldModules);
  }
}

} // namespace

void collectCheckpointSite(const CallExpr &CE, const EntryPoints &EP,
                           const HeldCallables *Held,
                           std::vector<CheckpointSite> &Out) {
  const FunctionDecl *FD = CE.getDirectCallee();
  if (!FD)
    return;
  // Only an entry point, or a function that may be annotated, checkpoints.
  std::optional<std::string> Entry = EP.match(*FD);
  if (!Entry && !EP.mayBeAnnotated(*FD))
    return;
  ArgumentChoice A;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&CE))
    if (isa<CXXMethodDecl>(FD) && OC->getNumArgs() > 0)
      A.Offset = 1;
  A.Named = Entry ? EP.callableArg(*Entry) : std::nullopt;
  if (!A.Named && EP.mayBeAnnotated(*FD))
    for (unsigned P = 0; P < FD->getNumParams() && !A.Annotated; ++P)
      A.Annotated = isRecomputedParam(*FD, P);
  if (!Entry && !A.Annotated)
    return;
  CheckpointSite Site;
  Site.Call = &CE;
  collectSiteArguments(CE, *FD, A, EP.models(), Held, Site);
  if (Site.Callables.empty() && Site.HeldArgs.empty())
    return;
  Site.EntryPoint = Entry ? *Entry : canonicalName(*FD);
  if (Entry && EP.models().argumentsFresh(*Entry))
    Site.ArgumentsFresh = true;
  if (Entry)
    addReplays(Site, EP.replays(*Entry));
  Out.push_back(std::move(Site));
}

} // namespace clang::tidy::rematch
