//===--- BodyReplay.cpp - unchanged bodies, not parsed again --------------===//

#include "BodyReplay.h"
#include "BodyScope.h"
#include "DeclPath.h"
#include "ExternalSummaries.h"
#include "Summary.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::rematch {

namespace {

// The records' fields: tab-separated, escaped.
void put(std::string &Out, llvm::StringRef S) {
  for (char C : S) {
    if (C == '\\')
      Out += "\\\\";
    else if (C == '\t')
      Out += "\\t";
    else if (C == '\n')
      Out += "\\n";
    else
      Out += C;
  }
  Out += '\t';
}
void put(std::string &Out, long long V) { put(Out, std::to_string(V)); }

std::string unescape(llvm::StringRef S) {
  if (!S.contains('\\'))
    return S.str();
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '\\' || I + 1 == S.size()) {
      Out += S[I];
      continue;
    }
    char C = S[++I];
    Out += C == 't' ? '\t' : C == 'n' ? '\n' : C;
  }
  return Out;
}

class Fields {
public:
  explicit Fields(llvm::StringRef Line) : Rest(Line) {}
  llvm::StringRef raw() {
    auto [Head, Tail] = Rest.split('\t');
    Rest = Tail;
    return Head;
  }
  std::string str() { return unescape(raw()); }
  long long num() {
    long long V = 0;
    if (raw().getAsInteger(10, V))
      Bad = true;
    return V;
  }
  bool empty() const { return Rest.empty(); }
  bool Bad = false;

private:
  llvm::StringRef Rest;
};

// A body's record read back: its fields, with locations as offsets from the
// body's start and declarations by their codes (DeclPath.h). Declarations
// are looked up only for an output asked for (Out, Modified not null).
class FactsReader {
public:
  FactsReader(llvm::StringRef Facts, SourceLocation Base, ASTContext &Ctx)
      : F(Facts), Base(Base), Ctx(Ctx) {}

  bool done() const { return F.empty() || F.Bad; }

  void effect(FactsPool *Pool, DirectFacts *Out) {
    Effect E;
    EffectFacts X;
    long long Kind = F.num();
    if (Kind < 0 || Kind >= static_cast<long long>(NumEffectKinds)) {
      F.Bad = true;
      return;
    }
    X.Kind = static_cast<EffectKind>(Kind);
    unsigned Flags = F.num();
    E.Spelled = Flags & 1;
    E.Virtual = Flags & 2;
    E.Held = Flags & 4;
    E.ReturnedRead = Flags & 8;
    E.PartOfChange = Flags & 16;
    E.Target = root();
    E.MutatedSlot = static_cast<std::uint16_t>(F.num());
    E.Loc = loc();
    E.MutatedAt = loc();
    E.AliasAt = loc();
    E.Var = dyn_cast_or_null<VarDecl>(decl(Out != nullptr));
    for (std::string *S : {&X.Subject, &X.Detail, &X.RngSource,
                           &X.RngSourceText, &X.Draws, &X.May, &X.Via})
      *S = F.str();
    if (Out) {
      E.setFacts(Pool->intern(std::move(X)));
      Out->Effects.push_back(std::move(E));
    }
  }

  void call(DirectFacts *Out) {
    CallSite C;
    C.Callee = dyn_cast_or_null<FunctionDecl>(decl(Out != nullptr));
    C.Loc = loc();
    C.Object = root();
    C.Virtual = F.num();
    C.StaticClass = dyn_cast_or_null<CXXRecordDecl>(decl(Out != nullptr));
    for (long long N = F.num(); N > 0 && !F.Bad; --N)
      C.Args.push_back(root());
    if (Out)
      Out->Calls.push_back(std::move(C));
  }

  void returned(DirectFacts *Out) {
    ReturnedAlias R;
    R.R = root();
    R.Var = dyn_cast_or_null<VarDecl>(decl(Out != nullptr));
    if (Out)
      Out->Returns.push_back(R);
  }

  void modified(std::vector<const VarDecl *> *Modified) {
    const auto *VD = dyn_cast_or_null<VarDecl>(decl(Modified != nullptr));
    if (Modified && VD)
      Modified->push_back(VD->getCanonicalDecl());
  }

  Fields F;

private:
  SourceLocation loc() {
    llvm::StringRef S = F.raw();
    long long V = 0;
    if (S == "x")
      return SourceLocation();
    if (S.getAsInteger(10, V))
      F.Bad = true;
    return Base.getLocWithOffset(static_cast<int>(V));
  }
  const NamedDecl *decl(bool Wanted) {
    llvm::StringRef S = F.raw();
    if (S.empty() || !Wanted)
      return nullptr;
    const NamedDecl *D = resolveDecl(unescape(S), Ctx);
    if (!D)
      F.Bad = true;
    return D;
  }
  Root root() {
    Root R;
    long long K = F.num();
    if (K < Root::Local || K > Root::Returned)
      F.Bad = true;
    else
      R.K = static_cast<Root::Kind>(K);
    R.Index = static_cast<std::uint16_t>(F.num());
    return R;
  }

  SourceLocation Base;
  ASTContext &Ctx;
};

// A body's record written: the inverse of FactsReader. Bad when a fact
// cannot be replayed (a location outside the body, a declaration without a
// code, a call's result as a root).
class FactsWriter {
public:
  FactsWriter(const SourceManager &SM, unsigned Begin, unsigned End)
      : SM(SM), Begin(Begin), End(End) {}

  // False when E cannot be recorded (what composition added to it).
  bool effect(const Effect &E) {
    if (E.inherited() || E.Callee || E.Called || E.VarUsr || E.ExternalUsr)
      return false;
    put(Out, "E");
    put(Out, static_cast<long long>(E.Kind));
    put(Out, E.Spelled | E.Virtual << 1 | E.Held << 2 | E.ReturnedRead << 3 |
                 E.PartOfChange << 4);
    root(E.Target);
    put(Out, static_cast<long long>(E.MutatedSlot));
    loc(E.Loc);
    loc(E.MutatedAt);
    loc(E.AliasAt);
    decl(E.Var);
    const EffectFacts &X = E.facts();
    for (const std::string *S : {&X.Subject, &X.Detail, &X.RngSource,
                                 &X.RngSourceText, &X.Draws, &X.May, &X.Via})
      put(Out, *S);
    return true;
  }

  void call(const CallSite &C) {
    put(Out, "C");
    decl(C.Callee);
    loc(C.Loc);
    root(C.Object);
    put(Out, static_cast<long long>(C.Virtual));
    decl(C.StaticClass);
    put(Out, static_cast<long long>(C.Args.size()));
    for (const Root &R : C.Args)
      root(R);
  }

  void returned(const ReturnedAlias &R) {
    put(Out, "R");
    root(R.R);
    decl(R.Var);
  }

  void modified(const VarDecl *VD) {
    put(Out, "M");
    decl(VD);
  }

  std::string Out;
  bool Bad = false;

private:
  void loc(SourceLocation L) {
    if (L.isInvalid()) {
      put(Out, "x");
      return;
    }
    if (!inMainFile(L, SM)) {
      Bad = true;
      return;
    }
    unsigned O = SM.getFileOffset(L);
    if (O < Begin || O > End)
      Bad = true;
    put(Out, static_cast<long long>(O) - Begin);
  }
  void decl(const NamedDecl *D) {
    if (!D) {
      put(Out, "");
      return;
    }
    std::optional<std::string> Code = encodeDecl(D);
    if (!Code)
      Bad = true;
    else
      put(Out, *Code);
  }
  void root(const Root &R) {
    if (R.K == Root::Returned)
      Bad = true;
    put(Out, static_cast<long long>(R.K));
    put(Out, static_cast<long long>(R.Index));
  }

  const SourceManager &SM;
  unsigned Begin, End;
};

} // namespace

// --- BodyReplay --------------------------------------------------------------

BodyReplay::BodyReplay(llvm::StringRef T, llvm::StringSet<> Rejected)
    : Text(T.str()), Rejected(std::move(Rejected)) {
  llvm::StringRef Rest(Text);
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    Fields F(Line);
    Record R;
    R.Usr = F.str();
    R.BodyHash = F.str();
    R.PrefixHash = F.str();
    R.ScopeHash = F.str();
    if (R.Usr.empty() || R.ScopeHash.empty() || this->Rejected.contains(R.Usr))
      continue;
    R.Line = Line;
    llvm::StringRef After = Line;
    for (int I = 0; I < 4; ++I)
      After = After.split('\t').second;
    R.Facts = After;
    Records.push_back(std::move(R));
  }
  for (const Record &R : Records)
    ByBodyHash[R.BodyHash].push_back(&R);
}

bool BodyReplay::decide(const FunctionDecl &FD, const SourceManager &SM,
                        const LangOptions &LO) {
  if (Records.empty() || Failed || !isRemovableKind(FD, SM))
    return false;
  std::optional<BodyOffsets> Range = lexBody(FD, SM, LO);
  if (!Range || Range->first < Fed)
    return false; // inside a body cut already (a local class's method)
  // The skeleton up to this body, every body before it cut as the parser
  // met it (in the order of the file): a declaration edited before it
  // shows here, before anything is skipped.
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  Prefix.feed(Buf.slice(Fed, Range->first));
  std::string PrefixNow = Prefix.digest();
  Prefix.feed("{}");
  Fed = Range->second + 1;
  auto It = ByBodyHash.find(hashText(Buf.slice(Range->first, Fed)));
  if (It == ByBodyHash.end())
    return false;
  std::string Usr;
  for (const Record *R : It->second) {
    if (R->PrefixHash != PrefixNow)
      continue;
    if (Usr.empty())
      Usr = usrOf(FD);
    if (R->Usr == Usr) {
      Skipped[&FD] = {R, *Range};
      return true;
    }
  }
  return false;
}

void BodyReplay::verify(ASTContext &Ctx) {
  if (Skipped.empty())
    return;
  auto Ranges = [&](const FunctionDecl &FD) { return rangeOf(FD); };
  llvm::DenseSet<const FunctionDecl *> Verified;
  for (const BodyHashes &B : scopeHashes(Ctx, Ranges)) {
    auto It = Skipped.find(B.Range.FD);
    if (It != Skipped.end() && B.Scope == It->second.R->ScopeHash)
      Verified.insert(B.Range.FD);
  }
  if (Verified.size() != Skipped.size())
    for (const auto &[FD, S] : Skipped)
      if (!Verified.contains(FD))
        reject(*FD);
}

void BodyReplay::reject(const FunctionDecl &FD) {
  auto It = Skipped.find(&FD);
  if (It != Skipped.end())
    Rejected.insert(It->second.R->Usr);
  fail();
}

std::shared_ptr<BodyReplay> BodyReplay::retry() const {
  if (AllFailed || Rejected.empty() || Rejected.size() >= Records.size())
    return nullptr;
  llvm::StringSet<> Out;
  for (const auto &E : Rejected)
    Out.insert(E.getKey());
  return std::make_shared<BodyReplay>(Text, std::move(Out));
}

llvm::StringRef BodyReplay::recordOf(const FunctionDecl *FD) const {
  auto It = Skipped.find(FD);
  return It == Skipped.end() ? llvm::StringRef() : It->second.R->Line;
}

DirectFacts BodyReplay::facts(const FunctionDecl &FD, ASTContext &Ctx,
                              FactsPool &Pool,
                              std::vector<const VarDecl *> *Modified) {
  DirectFacts Out;
  replay(FD, Ctx, &Pool, &Out, Modified);
  return Out;
}

std::vector<const VarDecl *> BodyReplay::modified(const FunctionDecl &FD,
                                                  ASTContext &Ctx) {
  std::vector<const VarDecl *> Out;
  replay(FD, Ctx, nullptr, nullptr, &Out);
  return Out;
}

std::optional<BodyOffsets> BodyReplay::rangeOf(const FunctionDecl &FD) const {
  auto It = Skipped.find(&FD);
  if (It == Skipped.end())
    return std::nullopt;
  return It->second.Body;
}

void BodyReplay::replay(const FunctionDecl &FD, ASTContext &Ctx,
                        FactsPool *Pool, DirectFacts *Out,
                        std::vector<const VarDecl *> *Modified) {
  auto It = Skipped.find(&FD);
  if (It == Skipped.end()) {
    fail();
    return;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Base =
      SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(
          It->second.Body.first);
  FactsReader R(It->second.R->Facts, Base, Ctx);
  while (!R.done()) {
    llvm::StringRef Tag = R.F.raw();
    if (Tag == "E")
      R.effect(Pool, Out);
    else if (Tag == "C")
      R.call(Out);
    else if (Tag == "R")
      R.returned(Out);
    else if (Tag == "M")
      R.modified(Modified);
    else
      R.F.Bad = true;
  }
  if (R.F.Bad) {
    reject(FD);
    if (Out)
      *Out = DirectFacts();
    if (Modified)
      Modified->clear();
  }
}

// --- BodyRecorder ------------------------------------------------------------

void BodyRecorder::begin(const FunctionDecl &FD, size_t Sites,
                         size_t HeldStores, const GlobalUseCollector &Uses) {
  if (Current) { // a walk inside a walk: neither is recorded
    Tainted = true;
    return;
  }
  const SourceManager &SM = FD.getASTContext().getSourceManager();
  const auto *CS = dyn_cast_or_null<CompoundStmt>(FD.getBody());
  if (!CS || !isRemovable(FD, SM) || !inMainFile(CS->getLBracLoc(), SM) ||
      !inMainFile(CS->getRBracLoc(), SM))
    return;
  Current = &FD;
  Tainted = false;
  SitesAt = Sites;
  HeldAt = HeldStores;
  UsesAt = Uses.mark();
}

void BodyRecorder::onStmt(const Stmt &S) {
  if (!Current || Tainted)
    return;
  if (S.getBeginLoc().isMacroID() || isa<LambdaExpr, BlockExpr>(S)) {
    Tainted = true;
    return;
  }
  const Decl *D = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(&S))
    D = DRE->getDecl();
  else if (const auto *ME = dyn_cast<MemberExpr>(&S))
    D = ME->getMemberDecl();
  else if (const auto *CE = dyn_cast<CXXConstructExpr>(&S))
    D = CE->getConstructor();
  else if (const auto *Call = dyn_cast<CallExpr>(&S))
    D = Call->getCalleeDecl();
  else if (const auto *DS = dyn_cast<DeclStmt>(&S)) {
    for (const Decl *X : DS->decls())
      if (!isa<VarDecl>(X))
        Tainted = true;
    return;
  }
  if (isGenerated(D))
    Tainted = true;
}

void BodyRecorder::onVarDecl(const VarDecl &VD) {
  if (Current && (VD.isStaticLocal() || isGenerated(&VD)))
    Tainted = true;
}

void BodyRecorder::end(size_t Sites, size_t HeldStores,
                       const DirectFacts &Facts,
                       const GlobalUseCollector &Uses, ASTContext &Ctx,
                       const std::function<bool(const FunctionDecl &)> &RunsHeld) {
  const FunctionDecl *FD = Current;
  Current = nullptr;
  if (!FD || Tainted || Sites != SitesAt || HeldStores != HeldAt)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *CS = cast<CompoundStmt>(FD->getBody());
  FactsWriter W(SM, SM.getFileOffset(CS->getLBracLoc()),
                SM.getFileOffset(CS->getRBracLoc()));
  for (const Effect &E : Facts.Effects)
    if (!W.effect(E))
      return;
  for (const CallSite &C : Facts.Calls) {
    if (C.Callee && RunsHeld(*C.Callee))
      return; // what it runs depends on stores elsewhere in the unit
    W.call(C);
  }
  for (const ReturnedAlias &R : Facts.Returns)
    W.returned(R);
  for (const VarDecl *VD : Uses.modifiedSince(UsesAt))
    W.modified(VD);
  if (!W.Bad)
    Done.push_back({FD, std::move(W.Out)});
}

std::string BodyRecorder::text(ASTContext &Ctx,
                               const BodyReplay *Replay) const {
  if (Done.empty() && Carried.empty())
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  llvm::DenseMap<const FunctionDecl *, const std::string *> Facts;
  for (const Pending &P : Done)
    Facts[P.FD] = &P.Facts;
  // The skeleton cuts the skipped bodies where the parse skipped them.
  auto Range = [&](const FunctionDecl &FD)
      -> std::optional<std::pair<unsigned, unsigned>> {
    return Replay ? Replay->rangeOf(FD) : std::nullopt;
  };
  std::string Out;
  for (const BodyHashes &B : scopeHashes(Ctx, Range)) {
    auto It = Facts.find(B.Range.FD);
    if (It == Facts.end())
      continue;
    put(Out, usrOf(*B.Range.FD));
    put(Out, hashText(Buf.slice(B.Range.Begin, B.Range.End + 1)));
    put(Out, B.Prefix);
    put(Out, B.Scope);
    Out += *It->second;
    Out.back() = '\n'; // the last field's tab
  }
  for (const auto &[FD, Line] : Carried) {
    Out += Line;
    Out += '\n';
  }
  return Out;
}

} // namespace clang::tidy::rematch
