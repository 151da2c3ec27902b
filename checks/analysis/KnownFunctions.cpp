//===--- KnownFunctions.cpp - the models, matched against one AST ---------===//

#include "KnownFunctions.h"
#include "BodyScope.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::rematch {

std::string canonicalName(const NamedDecl &D) {
  PrintingPolicy Policy(D.getASTContext().getLangOpts());
  Policy.SuppressInlineNamespace = true;
  Policy.SuppressUnwrittenScope = true;
  Policy.SuppressTemplateArgsInCXXConstructors = true;
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  D.printQualifiedName(OS, Policy);
  OS.flush();
  return Name;
}

std::string displayName(const FunctionDecl *FD) {
  if (!FD)
    return {};
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      return "lambda";
  return withoutTemplateArgs(canonicalName(*FD));
}

std::string withoutTemplateArgs(llvm::StringRef Name) {
  if (!Name.contains('<'))
    return Name.str(); // most names: nothing to take out
  std::string Out;
  Out.reserve(Name.size());
  int Depth = 0;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    // operator<, operator<< and friends are names, not argument lists.
    if (C == 'o' && Name.substr(I).starts_with("operator")) {
      size_t End = I + 8;
      while (End < Name.size() && !std::isalnum((unsigned char)Name[End]) &&
             Name[End] != '_' && Name[End] != ':' && Name[End] != '(')
        ++End;
      if (Depth == 0)
        Out += Name.substr(I, End - I).str();
      I = End - 1;
      continue;
    }
    if (C == '<')
      ++Depth;
    else if (C == '>' && Depth > 0)
      --Depth;
    else if (Depth == 0)
      Out += C;
  }
  return Out;
}

namespace {

std::string withoutSpaces(llvm::StringRef S) {
  std::string Out;
  for (char C : S)
    if (C != ' ' && C != '\t')
      Out += C;
  return Out;
}

// A parameter's type as a model spells it: without references, cv and
// sugar, fully qualified, no spaces.
std::string typeSpelling(QualType T, const ASTContext &Ctx) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = true;
  P.FullyQualifiedName = true;
  P.SuppressInlineNamespace = true;
  return withoutSpaces(T.getAsString(P));
}

bool paramMatches(const ParmVarDecl &P, unsigned Index, const ArgRef &A,
                  const ASTContext &Ctx) {
  if (A.Index >= 0)
    return unsigned(A.Index) == Index;
  if (!A.Param.empty())
    return P.getIdentifier() && P.getName() == A.Param;
  return typeSpelling(P.getType(), Ctx) == withoutSpaces(A.Type);
}

bool hasParam(const FunctionDecl &FD, const ArgRef &A) {
  for (unsigned I = 0; I < FD.getNumParams(); ++I)
    if (paramMatches(*FD.getParamDecl(I), I, A, FD.getASTContext()))
      return true;
  return false;
}

// Some function of FD's name in FD's scope (an overload, a template) has
// the parameter: `at::randn(size)` draws because `at::randn(size, gen)`
// says where from.
bool overloadHasParam(const FunctionDecl &FD, const ArgRef &A) {
  const DeclContext *DC = FD.getDeclContext()->getRedeclContext();
  for (const NamedDecl *ND : DC->lookup(FD.getDeclName())) {
    const FunctionDecl *Other = ND->getAsFunction();
    if (Other && hasParam(*Other, A))
      return true;
  }
  return false;
}

bool inScope(llvm::StringRef Scope, llvm::StringRef Outer) {
  return Scope == Outer ||
         (Scope.starts_with(Outer) && Scope.substr(Outer.size())
                                          .starts_with("::"));
}

bool ruleMatches(const ModelEntry &R, const FunctionDecl &FD,
                 llvm::StringRef Scope, llvm::StringRef Last) {
  if (!R.Namespaces.empty() &&
      llvm::none_of(R.Namespaces,
                    [&](const std::string &NS) { return inScope(Scope, NS); }))
    return false;
  if (!R.Classes.empty() && !llvm::is_contained(R.Classes, Scope))
    return false;
  if (!R.Names.empty() && !llvm::is_contained(R.Names, Last))
    return false;
  if (!Last.starts_with(R.NamePrefix) || !Last.ends_with(R.NameSuffix))
    return false;
  for (const ArgRef &A : R.HasParam)
    if (!hasParam(FD, A))
      return false;
  if (R.OverloadHasParam && !overloadHasParam(FD, *R.OverloadHasParam))
    return false;
  return true;
}

bool overloadMatches(const ModelEntry &E, const FunctionDecl &FD) {
  if (!E.Params)
    return true;
  if (E.Params->size() != FD.getNumParams())
    return false;
  for (unsigned I = 0; I < FD.getNumParams(); ++I)
    if (typeSpelling(FD.getParamDecl(I)->getType(), FD.getASTContext()) !=
        withoutSpaces((*E.Params)[I]))
      return false;
  return true;
}

} // namespace

KnownFunctions::KnownFunctions(std::shared_ptr<const ModelSet> Models)
    : Models(std::move(Models)) {}

CallModel KnownFunctions::compute(const FunctionDecl &FD) const {
  CallModel M;
  M.Name = withoutTemplateArgs(canonicalName(FD));
  llvm::StringRef Full = M.Name;
  llvm::ArrayRef<const ModelEntry *> Named = Models->named(Full);
  // A C function reached through std:: (libc++ declares some there).
  if (Named.empty() && Full.starts_with("std::") &&
      !Full.drop_front(5).contains("::")) {
    Named = Models->named(Full.drop_front(5));
    if (!Named.empty())
      M.Name = Full.drop_front(5).str();
  }
  // Analysed in system headers: a listed function (torch::save) or one in
  // a listed class or namespace.
  M.Analysed = Full.contains("::") && Models->isAnalysed(Full);
  unsigned NamedKinds = 0;
  for (const ModelEntry *E : Named) {
    if (!overloadMatches(*E, FD))
      continue;
    if (E->Returns && !M.Returns)
      M.Returns = &*E->Returns;
    if (E->Visits && !M.Visits) {
      M.Visits = &*E->Visits;
      M.Modelled = true;
    }
    if (E->Binds && !M.Binds) {
      M.Binds = &*E->Binds;
      M.Modelled = true;
    }
    if (!E->HasEffect)
      continue;
    M.Modelled = true;
    NamedKinds |= 1u << unsigned(E->Effect);
    if (E->Effect != ModelEffect::Pure)
      M.Effects.push_back(E);
  }
  llvm::ArrayRef<const ModelEntry *> Rules = Models->rules();
  if (Rules.empty())
    return M;
  // A function's own `pure` entry says it has no effect, whatever the
  // rules of its family say; what it returns they may still say.
  const bool OwnPure = NamedKinds & (1u << unsigned(ModelEffect::Pure));
  size_t Colon = Full.rfind("::");
  llvm::StringRef Scope =
      Colon == llvm::StringRef::npos ? "" : Full.take_front(Colon);
  llvm::StringRef Last =
      Colon == llvm::StringRef::npos ? Full : Full.drop_front(Colon + 2);
  for (const ModelEntry *R : Rules) {
    // A function's own entry says what it does of its kinds of effect.
    bool Effect = R->HasEffect && !OwnPure &&
                  !(NamedKinds & (1u << unsigned(R->Effect)));
    bool Returns = R->Returns && !M.Returns;
    bool Visits = R->Visits && !M.Visits;
    if ((!Effect && !Returns && !Visits) || !ruleMatches(*R, FD, Scope, Last))
      continue;
    if (Returns)
      M.Returns = &*R->Returns;
    if (Visits) {
      M.Visits = &*R->Visits;
      M.Modelled = true;
    }
    if (!Effect)
      continue;
    M.Modelled = true;
    if (R->Effect != ModelEffect::Pure)
      M.Effects.push_back(R);
  }
  return M;
}

// Whether some model can speak of FD, judged from the names of the scopes
// around it without printing its qualified name: a function at file scope
// is always looked up (C functions are modelled by their plain names), and
// so is one whose scopes have no name at all.
bool KnownFunctions::mayBeModelled(const FunctionDecl &FD) const {
  const DeclContext *Inner = FD.getDeclContext();
  if (Inner->isTranslationUnit())
    return true;
  auto [It, Inserted] = Scopes.try_emplace(Inner, false);
  if (!Inserted)
    return It->second;
  bool Scoped = false, May = false;
  for (const DeclContext *DC = Inner; !DC->isTranslationUnit() && !May;
       DC = DC->getParent()) {
    const auto *ND = dyn_cast<NamedDecl>(DC);
    if (!ND || !ND->getIdentifier())
      continue; // an anonymous namespace, a lambda, extern "C" { }
    Scoped = true;
    May = Models->mayMatchWithin(ND->getName());
  }
  It->second = May || !Scoped;
  return It->second;
}

const CallModel &KnownFunctions::lookup(const FunctionDecl &FD) const {
  static const CallModel Unmodelled;
  const FunctionDecl *Key = FD.getCanonicalDecl();
  if (!mayBeModelled(*Key))
    return Unmodelled;
  auto [It, Inserted] = Index.try_emplace(Key, 0);
  if (Inserted) {
    It->second = Calls.size();
    Calls.push_back(compute(FD));
  }
  return Calls[It->second];
}

int KnownFunctions::paramIndex(const FunctionDecl &FD,
                               const ArgRef &A) const {
  auto [It, Inserted] = Params.try_emplace({&FD, &A}, -1);
  if (Inserted)
    for (unsigned I = 0; I < FD.getNumParams(); ++I)
      if (paramMatches(*FD.getParamDecl(I), I, A, FD.getASTContext())) {
        It->second = int(I);
        break;
      }
  return It->second;
}

bool KnownFunctions::isModelled(const FunctionDecl &FD,
                                const SourceManager &SM) const {
  if (!hasBodyHere(FD))
    return true;
  const CallModel &M = lookup(FD);
  if (M.Modelled)
    return true;
  if (M.Analysed)
    return false;
  if (SM.isInSystemHeader(FD.getLocation()))
    return true;
  const DeclContext *DC = FD.getDeclContext();
  while (DC && !DC->isTranslationUnit()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (!NS->isInline() && NS->getParent()->isTranslationUnit() &&
          NS->getIdentifier() && NS->getName() == "std")
        return true;
    DC = DC->getParent();
  }
  return false;
}

const KnownFunctions::ClassInfo &
KnownFunctions::classInfo(QualType T) const {
  static const ClassInfo None;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType().getCanonicalType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return None;
  auto [It, Inserted] = Classes.try_emplace(RD);
  if (!Inserted)
    return It->second;
  ClassInfo I;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    I.Name = canonicalName(*Spec->getSpecializedTemplate());
  else
    I.Name = canonicalName(*RD);
  I.Kinds = Models->typeKinds(I.Name);
  // What a class derives from it is too: torch::nn::Dropout is a
  // ModuleHolder, a project's vector wrapper a container.
  if (const CXXRecordDecl *Def = RD->getDefinition())
    for (const CXXBaseSpecifier &B : Def->bases())
      if (!B.getType()->isDependentType())
        I.Kinds |= classInfo(B.getType()).Kinds;
  // classInfo of a base may have grown the map: look the slot up again.
  ClassInfo &Slot = Classes[RD];
  Slot = std::move(I);
  return Slot;
}

const std::string &KnownFunctions::className(QualType T) const {
  return classInfo(T).Name;
}

bool KnownFunctions::isHandle(QualType T) const {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return false;
  return is(T, TypeKind::Handle);
}

bool KnownFunctions::isView(QualType T) const {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return false;
  return is(T, TypeKind::View);
}

bool KnownFunctions::isDeclaredValue(const CXXRecordDecl &RD) const {
  QualType T(RD.getTypeForDecl(), 0);
  return Models->typeKinds(className(T)) & (1u << unsigned(TypeKind::Value));
}

bool KnownFunctions::isLogStream(const VarDecl &VD) const {
  if (!VD.getIdentifier() || !VD.hasGlobalStorage())
    return false;
  return Models->isLogStream(canonicalName(VD));
}

bool KnownFunctions::isAllowedGlobal(const NamedDecl &D) const {
  return Models->isAllowedGlobal(canonicalName(D));
}

EffectKind effectKindOf(ModelEffect Effect) {
  switch (Effect) {
  case ModelEffect::Rng:
    return EffectKind::UnreplayedRng;
  case ModelEffect::StateWrite:
    return EffectKind::StateWrite;
  case ModelEffect::CounterUpdate:
    return EffectKind::CounterUpdate;
  case ModelEffect::CacheWrite:
    return EffectKind::CacheWrite;
  case ModelEffect::Logging:
    return EffectKind::Logging;
  case ModelEffect::Io:
    return EffectKind::Io;
  case ModelEffect::Nondeterminism:
  case ModelEffect::Pure: // never recorded
    return EffectKind::Nondeterminism;
  }
  return EffectKind::Nondeterminism;
}

KindMember KnownFunctions::kindMember(QualType T,
                                      llvm::StringRef Method) const {
  const KindMember Nothing{KindMember::Nothing, EffectKind::StateWrite};
  const unsigned Kinds = classInfo(T).Kinds; // one lookup for every kind
  if (!Kinds)
    return {};
  // Every use of a replayed generator is the runtime's, never a hazard.
  if (Kinds & (1u << unsigned(TypeKind::ReplayedGenerator)))
    return {KindMember::Consumed, EffectKind::UnreplayedRng};
  bool Listed = false;
  for (unsigned K = 0; K <= unsigned(TypeKind::Value); ++K) {
    TypeKind Kind = TypeKind(K);
    if (!(Kinds & (1u << K)))
      continue;
    if (const ModelMember *M = Models->member(Kind, Method))
      return memberAction(*M);
    if (Kind == TypeKind::Container && isContainerMutator(Method))
      return {KindMember::OnObject, EffectKind::CacheWrite};
    Listed |= Kind == TypeKind::Container || Models->hasMembers(Kind);
  }
  // A kind whose members the models list: the others only read it.
  return Listed ? Nothing : KindMember{};
}

KindMember KnownFunctions::memberAction(const ModelMember &M) {
  if (M.Reads)
    return {KindMember::Reads, EffectKind::GlobalRead};
  if (M.Effect == ModelEffect::Pure)
    return {KindMember::Nothing, EffectKind::StateWrite};
  EffectKind K = effectKindOf(M.Effect);
  return {M.World ? KindMember::Unconditional : KindMember::OnObject, K};
}

bool KnownFunctions::isStreamOutputMember(llvm::StringRef Method) {
  return Method == "write" || Method == "put" || Method == "flush" ||
         Method == "operator<<";
}

bool KnownFunctions::readsStreamArgument(const FunctionDecl &FD) {
  return FD.getIdentifier() && FD.getName() == "getline";
}

} // namespace clang::tidy::rematch
