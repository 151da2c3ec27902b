//===--- TUWalk.cpp - the translation unit, one walk per body -------------===//

#include "TUWalk.h"
#include "BodyReplay.h"
#include "ExternalSummaries.h"
#include "HeldCallables.h"
#include "StmtWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <numeric>

namespace clang::tidy::rematch {

namespace {
constexpr uint8_t WalkedBit = 0x80; // TUWalk::Others: facts are read
} // namespace

// Declarations (phase one) and the scan of a body (phase two): finds the
// sites, indexes overrides, lists definitions, feeds the global-use
// collector. As the effect walk's observer it does the same for the nodes
// that walk is told of.
class TUWalk::Walker : public RecursiveASTVisitor<Walker>, public BodyObserver {
  using Base = RecursiveASTVisitor<Walker>;

public:
  Walker(TUWalk &T, const EntryPoints &EP, const ExternalSummaries *Remote)
      : T(T), SM(T.Ctx.getSourceManager()), Uses(T.Out.Uses), EP(EP),
        Remote(Remote) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  // Types hold no checkpoint site and no evaluated use of a global: a call
  // or an address in decltype, sizeof or an array bound is unevaluated or
  // constant, and a template argument's address is seen again where the
  // instantiation uses it.
  bool TraverseTypeLoc(TypeLoc) { return true; }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc) { return true; }

  // Asked of what sits at namespace scope only: what is declared inside a
  // class or a function is where that class or function is.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        D->getLexicalDeclContext()->isFileContext() &&
        D->getLocation().isValid() && SM.isInSystemHeader(D->getLocation()))
      return true;
    return Base::TraverseDecl(D);
  }

  // The common nodes directly (StmtWalk.h), the others through the visitor.
  // In phase one a function's body is set aside as a unit.
  bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
    if (S && S == PendingBody && !T.InBodies) {
      T.addUnit(PendingFunction);
      PendingBody = nullptr;
      return true;
    }
    walkStatements(
        S, [](const Stmt &) { return true; },
        [this](Stmt *Plain) { visitNode(*Plain); },
        [this](Stmt *Other) { Base::TraverseStmt(Other); });
    return true;
  }

  // A checkpointed lambda met by the scan is read by the effect walk, which
  // finds its sites and uses: the scan takes what surrounds its body.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    if (!T.InBodies || !T.divert(L->getCallOperator()))
      return Base::TraverseLambdaExpr(L);
    for (unsigned I = 0, N = L->capture_size(); I != N; ++I) {
      const LambdaCapture *C = L->capture_begin() + I;
      if (C->isExplicit())
        TraverseLambdaCapture(L, C, L->capture_init_begin()[I]);
    }
    if (L->hasExplicitParameters())
      for (ParmVarDecl *P : L->getCallOperator()->parameters())
        TraverseDecl(P);
    T.walk(L->getCallOperator(), /*Observed=*/true);
    return true;
  }

  // Every node of a body, from the scan or the effect walk.
  LLVM_ATTRIBUTE_ALWAYS_INLINE void visitNode(Stmt &S) {
    Uses.onStmt(S);
    if (T.Out.Recorder && T.Out.Recorder->active())
      T.Out.Recorder->onStmt(S);
    if (const auto *CE = dyn_cast<CallExpr>(&S))
      visitCall(*CE);
    // A lambda's call operator is no declaration the walk visits: what it
    // returns (a getter's std::function) is told here.
    else if (const auto *L = dyn_cast<LambdaExpr>(&S))
      T.Out.Held.onFunction(*L->getCallOperator());
    else if (const auto *FR = dyn_cast<CXXForRangeStmt>(&S))
      if (const VarDecl *V = FR->getLoopVariable())
        T.Out.Held.onRange(*V, FR->getRangeInit());
  }
  bool VisitStmt(Stmt *S) {
    visitNode(*S);
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    Uses.onVarDecl(*VD);
    if (T.Out.Recorder && T.Out.Recorder->active())
      T.Out.Recorder->onVarDecl(*VD);
    T.Out.Held.onVarDecl(*VD);
    return true;
  }

  bool VisitFieldDecl(FieldDecl *FD) {
    T.Out.Held.onField(*FD);
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    bool HasBody = FD->doesThisDeclarationHaveABody();
    T.Out.Held.onFunction(*FD);
    if (T.Out.Recorder && T.Out.Recorder->active())
      T.Out.Recorder->onNestedFunction();
    if (HasBody) {
      ++T.Out.FunctionsWithBody;
      if (!T.InBodies) {
        PendingBody = FD->getBody();
        PendingFunction = FD;
      }
    } else if (T.skipped(FD)) {
      // Its body was not parsed: a unit all the same, read from its record.
      HasBody = true;
      ++T.Out.FunctionsWithBody;
      if (!T.InBodies)
        T.addUnit(FD);
      if (T.Out.Recorder)
        T.Out.Recorder->carry(*FD, T.Out.Replay->recordOf(FD));
    }
    if (T.Out.Definitions && HasBody && !FD->isDependentContext() &&
        !T.Known.isModelled(*FD, SM))
      T.Out.Definitions->push_back(FD);
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      indexOverride(MD);
    if (Remote && HasBody && !FD->isDependentContext()) {
      // A functor or module is checkpointed under its class's name (its
      // operator() or the model's method, such as forward, runs).
      auto Maybe = [this](const NamedDecl &D) {
        return D.getIdentifier() && Remote->mayBeCheckpointed(D.getName());
      };
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (Maybe(*FD) || (MD && Maybe(*MD->getParent())))
        T.Out.Candidates.push_back(FD);
    }
    return true;
  }

  // --- BodyObserver: the effect walk's nodes --------------------------------
  void onStmt(Stmt &S) override { visitNode(S); }
  void onVarDecl(VarDecl &VD) override { VisitVarDecl(&VD); }
  void onFunctionDecl(FunctionDecl &FD) override { VisitFunctionDecl(&FD); }
  void skipped(Stmt *S) override { TraverseStmt(S); }
  void skipped(Decl *D) override { TraverseDecl(D); }

private:
  void visitCall(const CallExpr &CE) {
    T.Out.Held.onCall(CE);
    collectCheckpointSite(CE, EP, &T.Out.Held, Found);
    for (CheckpointSite &Site : Found)
      T.addSite(std::move(Site));
    Found.clear();
  }

  void indexOverride(const CXXMethodDecl *MD) {
    if (!MD->isVirtual() ||
        !(MD->doesThisDeclarationHaveABody() || MD->hasSkippedBody()))
      return;
    std::vector<const CXXMethodDecl *> Work(MD->overridden_methods().begin(),
                                            MD->overridden_methods().end());
    llvm::DenseSet<const CXXMethodDecl *> Seen;
    while (!Work.empty()) {
      const CXXMethodDecl *Overridden = Work.back();
      Work.pop_back();
      if (!Seen.insert(Overridden).second)
        continue;
      T.Out.Overrides[Overridden->getCanonicalDecl()].push_back(MD);
      Work.insert(Work.end(), Overridden->overridden_methods().begin(),
                  Overridden->overridden_methods().end());
    }
  }

  TUWalk &T;
  const SourceManager &SM;
  GlobalUseCollector &Uses;
  const EntryPoints &EP;
  const ExternalSummaries *Remote; // set when other TUs checkpoint callables
  std::vector<CheckpointSite> Found; // reused
  // Phase one: the body of the function visited last, which the traversal
  // reaches next (only its constructor initialisers come between; a body
  // that is not set aside there is scanned where it is).
  const Stmt *PendingBody = nullptr;
  const FunctionDecl *PendingFunction = nullptr;
};

TUWalk::TUWalk(ASTContext &Ctx, const KnownFunctions &Known, FactsPool &Pool,
               const EntryPoints &EP, const ExternalSummaries *Remote,
               Output Out, ExpandFn Expand)
    : Ctx(Ctx), Known(Known), Pool(Pool), Out(Out),
      Expand(std::move(Expand)),
      W(std::make_unique<Walker>(*this, EP, Remote)) {}

TUWalk::~TUWalk() = default;

void TUWalk::declarations() { W->TraverseAST(Ctx); }

void TUWalk::addUnit(const FunctionDecl *FD) {
  UnitIndex[FD] = Units.size();
  Units.push_back({FD, Seq++});
  // Wanted before its declaration was reached (a site's callable defined
  // after it).
  if (!Others.empty())
    if (auto It = Others.find(FD); It != Others.end()) {
      Units.back().Want = It->second;
      Others.erase(It);
    }
}

void TUWalk::addSite(CheckpointSite Site) {
  SiteOrder.emplace_back(InBodies ? CurrentSeq : Seq++,
                         static_cast<unsigned>(SiteOrder.size()));
  for (const Callable &C : Site.Callables)
    if (C.Body)
      want(C.Body, Reached);
  Out.Sites.push_back(std::move(Site));
}

void TUWalk::want(const FunctionDecl *FD, uint8_t Why) {
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  uint8_t *Bits;
  if (auto It = UnitIndex.find(FD); It != UnitIndex.end())
    Bits = &Units[It->second].Want;
  else
    Bits = &Others[FD];
  if ((*Bits | Why) == *Bits)
    return;
  *Bits |= Why;
  Queue.push_back(FD);
}

// A lambda the scan meets: read by the effect walk there when it is wanted.
bool TUWalk::divert(const FunctionDecl *LambdaOperator) {
  if (Others.empty())
    return false;
  uint8_t Bits = Others.lookup(LambdaOperator);
  return (Bits & ~WalkedBit) && !(Bits & WalkedBit);
}

bool TUWalk::skipped(const FunctionDecl *FD) const {
  return Out.Replay && Out.Replay->isSkipped(FD);
}

// A skipped body's scan: the globals it modifies, as recorded.
void TUWalk::replayUses(const FunctionDecl *FD) {
  for (const VarDecl *VD : Out.Replay->modified(*FD, Ctx))
    Out.Uses.addModified(VD);
}

// The effect walk of FD; Observed when it is also the walk that finds FD's
// sites and uses (a unit, or a lambda inside one).
void TUWalk::walk(const FunctionDecl *FD, bool Observed) {
  DirectFacts F;
  if (skipped(FD)) {
    std::vector<const VarDecl *> Modified;
    F = Out.Replay->facts(*FD, Ctx, Pool, Observed ? &Modified : nullptr);
    for (const VarDecl *VD : Modified)
      Out.Uses.addModified(VD);
  } else {
    // A function that returns a callable holder has its returns read for
    // what it holds (HeldCallables::onFunction): its body is never skipped.
    bool Record = Out.Recorder && Observed && UnitIndex.count(FD) &&
                  !Out.Held.holderOf(FD->getReturnType());
    if (Record)
      Out.Recorder->begin(*FD, Out.Sites.size(), Out.Held.storeCount(),
                          Out.Uses);
    F = collectDirectFacts(*FD, Ctx, Known, Pool,
                           Observed ? W.get() : nullptr);
    if (Record)
      Out.Recorder->end(Out.Sites.size(), Out.Held.storeCount(), F, Out.Uses,
                        Ctx, [this](const FunctionDecl &C) {
                          return Out.Held.runs(C);
                        });
  }
  // Expand only wants more: the facts stay where they are.
  DirectFacts &Stored = Out.Facts[FD];
  Stored = std::move(F);
  uint8_t Why;
  if (auto It = UnitIndex.find(FD); It != UnitIndex.end()) {
    Units[It->second].Walked = true;
    Why = Units[It->second].Want;
  } else {
    uint8_t &Bits = Others[FD];
    Bits |= WalkedBit;
    Why = Bits & ~WalkedBit;
  }
  Expand(*this, *FD, Stored, Why);
}

// What was wanted inside U while U was still to come, now that U is read.
void TUWalk::unpark(const FunctionDecl *U) {
  if (Parked.empty())
    return;
  auto It = Parked.find(U);
  if (It == Parked.end())
    return;
  Queue.insert(Queue.end(), It->second.begin(), It->second.end());
  Parked.erase(It);
}

const FunctionDecl *TUWalk::enclosingUnit(const FunctionDecl *FD) const {
  for (const DeclContext *DC = FD->getLexicalParent();
       DC && !DC->isFileContext(); DC = DC->getLexicalParent())
    if (const auto *F = dyn_cast<FunctionDecl>(DC))
      if (UnitIndex.count(F))
        return F;
  return nullptr;
}

void TUWalk::drain() {
  while (!Queue.empty()) {
    const FunctionDecl *FD = Queue.back();
    Queue.pop_back();
    if (auto It = UnitIndex.find(FD); It != UnitIndex.end()) {
      Unit &U = Units[It->second];
      if (U.Walked) {
        Expand(*this, *FD, Out.Facts.find(FD)->second, U.Want);
      } else if (!U.Done) {
        U.Done = true;
        unsigned Saved = CurrentSeq;
        CurrentSeq = U.Seq;
        walk(FD, /*Observed=*/true);
        CurrentSeq = Saved;
        unpark(FD);
      }
      // Otherwise it was scanned before it was wanted: read after the walk.
      continue;
    }
    uint8_t Bits = Others.lookup(FD);
    if (Bits & WalkedBit) {
      Expand(*this, *FD, Out.Facts.find(FD)->second, Bits & ~WalkedBit);
      continue;
    }
    // Inside a unit still to come: its scan reads it (a lambda), or it is
    // read once the unit is.
    if (const FunctionDecl *In = enclosingUnit(FD))
      if (!Units[UnitIndex.find(In)->second].Done) {
        Parked[In].push_back(FD);
        continue;
      }
    // A system header's function: no site or global use of ours is there
    // (the declarations skipped it), so no observer.
    if (FD->hasBody())
      walk(FD, /*Observed=*/false);
  }
}

void TUWalk::bodies() {
  InBodies = true;
  drain();
  for (unsigned I = Units.size(); I-- > 0;) {
    Unit &U = Units[I];
    if (U.Done)
      continue;
    U.Done = true;
    CurrentSeq = U.Seq;
    if (U.Want)
      walk(U.FD, /*Observed=*/true);
    else if (skipped(U.FD))
      replayUses(U.FD);
    else
      W->TraverseStmt(const_cast<Stmt *>(U.FD->getBody()));
    unpark(U.FD);
    drain();
  }
  // The sites in the order of the translation unit, as the checks report
  // them.
  std::vector<unsigned> Order(Out.Sites.size());
  std::iota(Order.begin(), Order.end(), 0u);
  llvm::sort(Order, [&](unsigned A, unsigned B) { // the keys differ
    return SiteOrder[A] < SiteOrder[B];
  });
  std::vector<CheckpointSite> Sorted;
  Sorted.reserve(Order.size());
  for (unsigned I : Order)
    Sorted.push_back(std::move(Out.Sites[I]));
  Out.Sites = std::move(Sorted);
}

unsigned TUWalk::units() const { return Units.size(); }

unsigned TUWalk::unitsWalkedTwice() const {
  return llvm::count_if(Units,
                        [](const Unit &U) { return U.Want && !U.Walked; });
}

} // namespace clang::tidy::rematch
