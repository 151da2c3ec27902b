//===--- RematchCheck.cpp - what every rematch check shares ---------------===//

#include "RematchCheck.h"
#include "AnalysisHost.h"
#include "CallableText.h"
#include "RematchOptions.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang-tidy/GlobList.h"

namespace clang::tidy::rematch {

std::string quoted(llvm::StringRef S) { return ("'" + S + "'").str(); }

std::string through(const EffectFacts &E) {
  return E.Via.empty() ? std::string() : " through " + quoted(E.Via);
}

namespace {

// What a callable run through a value is, in messages.
std::string heldBodyText(const FunctionDecl *FD) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (MD && MD->getParent()->isLambda())
    return "a lambda";
  return quoted(displayName(FD));
}

} // namespace

RematchCheck::RematchCheck(StringRef Name, ClangTidyContext *Context,
                           EffectKind Kind)
    : ClangTidyCheck(Name, Context), Kind(Kind),
      CheckpointFunctions(
          Options.getLocalOrGlobal(options::CheckpointFunctions, "").str()),
      ConfigFile(Options.getLocalOrGlobal(options::ConfigFile, "").str()),
      Models(Options.getLocalOrGlobal(options::Models, "").str()),
      SummariesDir(Options.getLocalOrGlobal(options::SummariesDir, "").str()),
      ChainStyle(Options.getLocalOrGlobal(options::Chain, "notes").str()) {}

void RematchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, options::CheckpointFunctions, CheckpointFunctions);
  Options.store(Opts, options::ConfigFile, ConfigFile);
  Options.store(Opts, options::Models, Models);
  Options.store(Opts, options::SummariesDir, SummariesDir);
  Options.store(Opts, options::Chain, ChainStyle);
}

void RematchCheck::registerMatchers(ast_matchers::MatchFinder *Finder) {
  // The analysis walks the whole translation unit once; the match is only
  // the moment to run it.
  Finder->addMatcher(ast_matchers::translationUnitDecl().bind("tu"), this);
}

void RematchCheck::check(
    const ast_matchers::MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const AnalysisHost *Host =
      hostOf(Ctx.getSourceManager().getFileManager().getVirtualFileSystem());
  Analysis = getSharedAnalysis(
      Ctx, {CheckpointFunctions, ConfigFile, Models, SummariesDir, Host});
  if (Host && Host->RematchChecksOnly && !CutTraversal) {
    // The match on the translation unit comes before the traversal descends
    // into it, and RecursiveASTVisitor reads the scope when it does: an
    // empty scope ends the traversal there. After the analysis, whose own
    // walk reads the scope too; restored at the end of the TU.
    Ctx.setTraversalScope({});
    CutTraversal = &Ctx;
  }
  if (!Analysis->configError().empty()) {
    if (Analysis->claimConfigErrorReport())
      configurationDiag("%0") << Analysis->configError();
    return;
  }
  if (const std::optional<std::string> &Globs = Analysis->config().Checks)
    if (!GlobList(*Globs).contains(getID()))
      return;
  for (const Finding &F : Analysis->findings())
    if (F.E->Kind == Kind)
      report(F, *Analysis, Ctx);
}

void RematchCheck::onEndOfTranslationUnit() {
  Analysis.reset();
  if (CutTraversal) {
    CutTraversal->setTraversalScope({CutTraversal->getTranslationUnitDecl()});
    CutTraversal = nullptr;
  }
}

// A location for a step in another translation unit, loading its file into
// this TU's source manager so clang-tidy can print and filter the note.
static SourceLocation locationOf(const PlainLocation &P, ASTContext &Ctx) {
  SourceManager &SM = Ctx.getSourceManager();
  if (P.File.empty() || P.Line == 0)
    return {};
  llvm::Expected<FileEntryRef> FE =
      SM.getFileManager().getFileRef(P.File, /*OpenFile=*/false);
  if (!FE) {
    llvm::consumeError(FE.takeError());
    return {};
  }
  FileID FID = SM.getOrCreateFileID(*FE, SrcMgr::C_User);
  return SM.translateLineCol(FID, P.Line, std::max(P.Column, 1u));
}

namespace {

// The function a step calls, as messages name it; empty at the effect.
std::string stepCallee(const ChainStep &S) {
  if (const SummaryStep *There = S.there())
    return There->Callee;
  const Effect &E = *S.here()->E;
  return E.inherited() ? displayName(E.Callee) : std::string();
}

// The words report() and wordFacts() share, so that a finding made from
// facts reads as a parse's.

// "... via f -> g": every callee of the chain, in order.
std::string viaText(llvm::ArrayRef<std::string> Callees) {
  std::string Text;
  for (const std::string &Callee : Callees)
    if (!Callee.empty())
      Text += (Text.empty() ? "" : " -> ") + Callee;
  return " via " + Text;
}

// "calls 'f', which <What>": an effect inherited at a direct or virtual
// call (Called: the function the call names).
std::string callsText(llvm::StringRef Called, bool Virtual,
                      const std::string &What) {
  return " calls " + quoted(Called) + ", which " +
         (Virtual ? "may, through a virtual call, reach code that " : "") +
         What;
}

std::string stepText(llvm::StringRef In, llvm::StringRef Callee) {
  return quoted(In) + " calls " + quoted(Callee) + " here";
}

std::string aliasText(const EffectFacts &E) {
  return quoted(E.Via) + " is an alias of " + quoted(E.Subject) +
         " taken here";
}

std::string checkpointText(llvm::StringRef EntryPoint) {
  return "callable is checkpointed by this call to " + quoted(EntryPoint) +
         "; it runs again during backward";
}

// The steps of a chain after the callable's own that get a note: all, or
// for one thousands deep the first and last Keep, Gap told how many it
// skipped before the step at index Resume.
constexpr size_t Keep = 24;
template <class StepFn, class GapFn>
void forNotedSteps(size_t Size, StepFn Step, GapFn Gap) {
  for (size_t I = 1; I < Size; ++I) {
    if (Size > 2 * Keep + 2 && I == Keep + 1) {
      I = Size - Keep;
      Gap(Size - 2 * Keep - 1, I);
    }
    Step(I);
  }
}

std::string gapText(size_t Skipped) {
  return "... " + std::to_string(Skipped) + " more calls in between ...";
}

} // namespace

std::string RematchCheck::message(const Finding &F, const EffectChain &Chain,
                                  const EffectAnalysis &A) const {
  const EffectFacts &Last = *Chain.Last;
  const std::string What =
      describeFor(Last, *F.Site) + through(Last) +
      (Last.May.empty() ? "" : " (may: " + Last.May + ")");
  std::string Message = callableText(*F.Target);
  if (!F.E->inherited()) {
    Message += " " + What;
  } else if (ChainStyle == "inline") {
    std::vector<std::string> Callees;
    for (const ChainStep &S : Chain.Steps)
      Callees.push_back(stepCallee(S));
    Message += " " + What + viaText(Callees);
    if (F.E->Held)
      Message += " (may: through " + heldText(*F.E, A) + ")";
    else if (F.E->Virtual)
      Message += " (may: through a virtual call)";
  } else if (F.E->Held) {
    Message += " calls " + heldText(*F.E, A) + ", which may run " +
               heldCallableText(*F.E, A) + " it holds that " + What;
  } else {
    const FunctionDecl *Called = F.E->Called ? F.E->Called : F.E->Callee;
    Message += callsText(displayName(Called), F.E->Virtual, What);
  }
  return Message + "; " + consequenceFor(F, Last, A);
}

void RematchCheck::report(const Finding &F, const EffectAnalysis &A,
                          ASTContext &Ctx) {
  const EffectChain Chain = A.chain(F.Target->Body, *F.E);
  const EffectFacts &Last = *Chain.Last;
  // Never a primary location users cannot edit: a callable whose body is
  // in a system header (a library functor passed to the entry point) is
  // reported at the argument that hands it over, its effect in a note.
  const SourceManager &SM = Ctx.getSourceManager();
  // The checkpoint call: here, or in the TU whose summary named it.
  const SourceLocation SiteLoc = F.Site->Call
                                     ? F.Site->Call->getExprLoc()
                                     : locationOf(F.Site->RemoteCall, Ctx);
  SourceLocation Where = F.E->Loc;
  const bool InSystemHeader =
      Where.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Where)) &&
      (F.Target->Arg || SiteLoc.isValid());
  if (InSystemHeader)
    Where = F.Target->Arg ? F.Target->Arg->getExprLoc() : SiteLoc;
  {
    DiagnosticBuilder Diag = diag(Where, "%0") << message(F, Chain, A);
    if (!F.E->inherited() && !InSystemHeader)
      addFixes(Diag, F, A, Ctx);
  }
  if (F.Target->StoredIn && F.Target->StoredAt.isValid())
    diag(F.Target->StoredAt, "%0", DiagnosticIDs::Note)
        << storedNoteText(*F.Target);
  if (InSystemHeader)
    noteStep(F.Target->Body, *F.E);
  else
    noteAlias(*F.E);
  noteHeld(*F.E, A, Ctx);
  noteChain(Chain, Ctx, A);
  if (SiteLoc.isValid()) {
    diag(SiteLoc, "%0", DiagnosticIDs::Note)
        << checkpointText(F.Site->EntryPoint);
    auto Replayer = [&](llvm::StringRef Source) -> std::string {
      const ModelSource *S = A.known().models().source(Source);
      return S && !S->ReplayedBy.empty() ? S->ReplayedBy.front() : "";
    };
    if (std::string Fix = suggestion(Last, *F.Site, Replayer); !Fix.empty())
      diag(SiteLoc, "%0", DiagnosticIDs::Note) << Fix;
  }
}

// The value a held call ran a callable of, by its place ('rt', 'seq').
std::string RematchCheck::heldText(const Effect &E, const EffectAnalysis &A) {
  if (const SummaryHeld *H = A.remoteHeldAt(E.Loc, E.ExternalUsr))
    return quoted(H->PlaceName);
  const HeldValue *V = A.heldAt(E.Loc, E.Callee);
  return V && V->In ? quoted(V->In->getNameAsString())
                    : quoted(displayName(E.Called));
}

// The callable a held call ran: here, or stored by another TU.
std::string RematchCheck::heldCallableText(const Effect &E,
                                           const EffectAnalysis &A) {
  if (const SummaryHeld *H = A.remoteHeldAt(E.Loc, E.ExternalUsr))
    return H->Lambda ? "a lambda" : quoted(H->Name);
  return heldBodyText(E.Callee);
}

// Where the callable a held call ran was stored.
void RematchCheck::noteHeld(const Effect &E, const EffectAnalysis &A,
                            ASTContext &Ctx) {
  if (!E.Held)
    return;
  std::string Place;
  SourceLocation At;
  if (const SummaryHeld *H = A.remoteHeldAt(E.Loc, E.ExternalUsr)) {
    Place = H->PlaceName;
    At = locationOf(H->StoredAt, Ctx);
  } else if (const HeldValue *V = A.heldAt(E.Loc, E.Callee); V && V->In) {
    Place = V->In->getNameAsString();
    At = V->At;
  }
  if (At.isInvalid())
    return;
  diag(At, "%0 holds %1, stored here", DiagnosticIDs::Note)
      << quoted(Place) << heldCallableText(E, A);
}

void RematchCheck::noteStep(const FunctionDecl *In, const Effect &E) {
  if (E.inherited())
    diag(E.Loc, "%0", DiagnosticIDs::Note)
        << stepText(displayName(In), displayName(E.Callee));
  else
    diag(E.Loc, "%0 %1 here", DiagnosticIDs::Note)
        << quoted(displayName(In)) << describe(E.facts()) + through(E.facts());
  noteAlias(E);
}

// Where the alias a change went through was taken from the object.
void RematchCheck::noteAlias(const Effect &E) {
  if (E.inherited() || E.AliasAt.isInvalid() || E.facts().Via.empty())
    return;
  diag(E.AliasAt, "%0", DiagnosticIDs::Note) << aliasText(E.facts());
}

void RematchCheck::noteChain(const EffectChain &Chain, ASTContext &Ctx,
                             const EffectAnalysis &A) {
  const std::vector<ChainStep> &Steps = Chain.Steps;
  auto LocationOf = [&](const ChainStep &S) {
    const SummaryStep *There = S.there();
    return There ? locationOf(There->Loc, Ctx) : S.here()->E->Loc;
  };
  // One note per step after the callable's own (forNotedSteps).
  forNotedSteps(
      Steps.size(),
      [&](size_t I) {
        const ChainStep &Step = Steps[I];
        if (const ChainStep::Here *H = Step.here()) {
          noteStep(H->In, *H->E);
          noteHeld(*H->E, A, Ctx);
          return;
        }
        const SummaryStep &There = *Step.there();
        SourceLocation L = locationOf(There.Loc, Ctx);
        if (L.isInvalid())
          return;
        if (!There.Callee.empty())
          diag(L, "%0", DiagnosticIDs::Note)
              << stepText(There.Function, There.Callee);
        else
          diag(L, "%0 %1 here", DiagnosticIDs::Note)
              << quoted(There.Function)
              << describe(*Chain.Last) + through(*Chain.Last);
      },
      [&](size_t Skipped, size_t Resume) {
        if (SourceLocation L = LocationOf(Steps[Resume]); L.isValid())
          diag(L, "%0", DiagnosticIDs::Note) << gapText(Skipped);
      });
  if (Chain.LastAliasAt)
    if (SourceLocation L = locationOf(*Chain.LastAliasAt, Ctx); L.isValid())
      diag(L, "%0", DiagnosticIDs::Note) << aliasText(*Chain.Last);
}

} // namespace clang::tidy::rematch

namespace clang::tidy::rematch {

RematchCheck::Words RematchCheck::wordFacts(const CallableEffect &CE,
                                            const SummaryCallable &C,
                                            ReplayerOf ReplayedBy) const {
  const SummaryEffect &E = CE.E;
  const std::vector<SummaryStep> &Steps = E.Chain;
  CheckpointSite Site;
  Site.EntryPoint = C.EntryPoint;
  Site.Replays = C.Replays;
  Site.ArgumentsFresh = C.ArgumentsFresh;
  // The message, as message() words an inherited effect.
  const std::string What = describeFor(E, Site) + through(E) +
                           (E.May.empty() ? "" : " (may: " + E.May + ")");
  Words W;
  W.Message = C.Text;
  if (ChainStyle == "inline") {
    std::vector<std::string> Callees;
    for (const SummaryStep &S : Steps)
      Callees.push_back(S.Callee);
    W.Message += " " + What + viaText(Callees);
    if (E.Virtual)
      W.Message += " (may: through a virtual call)";
  } else {
    W.Message += callsText(Steps.front().Callee, E.Virtual, What);
  }
  W.Message += "; " + consequence(E);
  // The notes, as report() and noteChain() add them.
  if (C.StoredAt.Line)
    W.Notes.push_back({C.StoredAt, C.StoredNote});
  forNotedSteps(
      Steps.size(),
      [&](size_t I) {
        const SummaryStep &S = Steps[I];
        W.Notes.push_back(
            {S.Loc, S.Callee.empty() ? quoted(S.Function) + " " +
                                           describe(E) + through(E) + " here"
                                     : stepText(S.Function, S.Callee)});
      },
      [&](size_t Skipped, size_t Resume) {
        W.Notes.push_back({Steps[Resume].Loc, gapText(Skipped)});
      });
  if (CE.LastAliasAt.Line)
    W.Notes.push_back({CE.LastAliasAt, aliasText(E)});
  W.Notes.push_back({C.Call, checkpointText(C.EntryPoint)});
  if (std::string Fix = suggestion(E, Site, ReplayedBy); !Fix.empty())
    W.Notes.push_back({C.Call, Fix});
  return W;
}

} // namespace clang::tidy::rematch
