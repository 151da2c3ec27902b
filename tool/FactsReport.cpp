//===--- FactsReport.cpp - findings a link adds, without parsing ---------===//

#include "FactsReport.h"
#include "Compose.h"
#include "RematchCheck.h"
#include "RematchOptions.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"
#include "clang-tidy/GlobList.h"
#include "llvm/Support/Path.h"
#include <set>

namespace rematch::tool {

using namespace clang::tidy;
using namespace clang::tidy::rematch;

FactsReporter::FactsReporter(const CliOptions &O) {
  ClangTidyOptions Opts = ClangTidyOptions::getDefaults();
  Opts.Checks = "-*," + O.Checks;
  namespace keys = clang::tidy::rematch::options;
  Opts.CheckOptions[keys::Chain] = {O.Chain, 0};
  Context = std::make_unique<ClangTidyContext>(
      std::make_unique<DefaultOptionsProvider>(ClangTidyGlobalOptions(),
                                               Opts));
  Context->setCurrentFile("rematch-report.cpp");
  ClangTidyCheckFactories Factories;
  for (const auto &Entry : ClangTidyModuleRegistry::entries())
    if (Entry.getName() == "rematch-module")
      Entry.instantiate()->addCheckFactories(Factories);
  Checks = Factories.createChecks(Context.get());
  for (const auto &C : Checks)
    if (const auto *R = dynamic_cast<const RematchCheck *>(C.get()))
      ByKind[int(R->reports())] = R;
  AsErrors = std::make_unique<GlobList>(O.WarningsAsErrors);
  InlineChains = O.Chain == "inline";
}

FactsReporter::~FactsReporter() = default;

namespace {

// The check that reports effects of kind K.
std::string checkOf(EffectKind K) {
  return std::string("rematch-") + effectKindName(K);
}

std::string placeKey(int Kind, const PlainLocation &L) {
  return std::to_string(Kind) + "@" + L.File + ":" + std::to_string(L.Line) +
         ":" + std::to_string(L.Column);
}

// Whether the analysis reports E of a callable that C's site checkpoints
// (EffectAnalysis::computeFindings), the program P deciding which globals
// can change.
bool reported(const SummaryEffect &E, const SummaryCallable &C,
              ProgramView &P) {
  if (!reportedAtSite(E.Target, E.Kind, E.RngSource, C.ArgumentsFresh,
                      C.Replays))
    return false;
  return !(E.Kind == EffectKind::GlobalRead && !E.VarUsr.empty() &&
           P.hashOf(globalDependency(E.VarUsr)) != "written");
}

// Whether every fact the parse looked up that the link changed is one the
// composition followed: a function, the overrides of a method, or a global
// one of the effects reads. Otherwise the parse reached it along a path the
// summaries do not show (through a lambda, or a system header's template).
// Changed: the global keys the link changed.
bool followed(const TUSummary &S, const ComposedCallables &C, ProgramView &P,
              std::set<std::string> &Changed) {
  for (const auto &[Key, Hash] : S.Dependencies) {
    if (P.hashOf(Key) == Hash)
      continue;
    if (!C.Asked.contains(Key))
      return false;
    if (isGlobalDependency(Key))
      Changed.insert(Key);
  }
  return true;
}

// The first effect the analysis would report at each kind and place.
struct Pick {
  size_t Callable, Effect;
};
std::map<std::string, Pick> firstPicks(const TUSummary &S,
                                       const ComposedCallables &C,
                                       ProgramView &P) {
  std::map<std::string, Pick> First;
  for (size_t I = 0; I < C.Effects.size(); ++I)
    for (size_t J = 0; J < C.Effects[I].size(); ++J) {
      const SummaryEffect &E = C.Effects[I][J].E;
      if (!E.Chain.empty() && reported(E, S.Callables[I], P))
        First.try_emplace(placeKey(int(E.Kind), E.Chain.front().Loc),
                          Pick{I, J});
    }
  return First;
}

// EffectAnalysis::dropInlineTwins from facts: a finding that starts inside
// a lambda written in a callable, where a chain through a call that runs
// the lambda passes too, is reported through that call only.
bool within(const PlainLocation &L,
            const std::pair<PlainLocation, PlainLocation> &Body) {
  auto Pos = [](const PlainLocation &X) {
    return std::make_pair(X.Line, X.Column);
  };
  return L.File == Body.first.File && Pos(Body.first) <= Pos(L) &&
         Pos(L) <= Pos(Body.second);
}
void dropInlineTwins(std::map<std::string, Pick> &First, const TUSummary &S,
                     const ComposedCallables &C) {
  std::set<std::string> Passed;
  for (const auto &[Key, At] : First) {
    const SummaryEffect &E = C.Effects[At.Callable][At.Effect].E;
    for (size_t I = 1; I < E.Chain.size(); ++I)
      Passed.insert(placeKey(int(E.Kind), E.Chain[I].Loc));
  }
  for (auto It = First.begin(); It != First.end();) {
    const CallableEffect &E = C.Effects[It->second.Callable][It->second.Effect];
    const PlainLocation &L = E.E.Chain.front().Loc;
    bool Twin = Passed.count(It->first) &&
                llvm::any_of(S.Callables[It->second.Callable].Nested,
                             [&](const auto &B) { return within(L, B); });
    It = Twin ? First.erase(It) : std::next(It);
  }
}

// The places of the findings the summary made, each still the first there
// and made without the link; nullopt when one is not.
std::optional<std::set<std::string>>
storedStay(const TUSummary &S, const ComposedCallables &C,
           const std::map<std::string, Pick> &First,
           const std::set<std::string> &Changed) {
  std::set<std::string> Stored;
  for (const auto &[Kind, At] : S.Reported) {
    std::optional<EffectKind> K = effectKindNamed(Kind);
    if (!K)
      return std::nullopt;
    std::string Key = placeKey(int(*K), At);
    auto It = First.find(Key);
    if (It == First.end())
      return std::nullopt;
    const CallableEffect &E = C.Effects[It->second.Callable][It->second.Effect];
    if (E.OtherTU || (E.E.Kind == EffectKind::GlobalRead &&
                      Changed.count(globalDependency(E.E.VarUsr))))
      return std::nullopt;
    Stored.insert(std::move(Key));
  }
  return Stored;
}

// The finding the summarizing parse made at E's place as if the global it
// reads were written, when the link says it is.
const ConditionalFinding *
conditionalAt(const SummaryEffect &E,
              const std::vector<ConditionalFinding> &Conditional,
              const std::set<std::string> &Changed) {
  const PlainLocation &L = E.Chain.front().Loc;
  const std::string Check = checkOf(E.Kind);
  for (const ConditionalFinding &C : Conditional)
    if (C.F.Check == Check && C.F.Loc.Line == L.Line &&
        C.F.Loc.Column == L.Column &&
        llvm::sys::path::filename(C.F.Loc.File) ==
            llvm::sys::path::filename(L.File) &&
        Changed.count(C.IfWritten))
      return &C;
  return nullptr;
}

} // namespace

std::optional<Finding>
FactsReporter::worded(const CallableEffect &E, const SummaryCallable &C,
                      const TUSummary &S) const {
  auto Check = ByKind.find(int(E.E.Kind));
  if (Check == ByKind.end())
    return Finding(); // not enabled: no finding, and no reason to parse
  const PlainLocation &L = E.E.Chain.front().Loc;
  auto Line = llvm::find_if(C.Lines, [&](const auto &P) {
    return P.first == std::to_string(L.Line);
  });
  if (Line == C.Lines.end())
    return std::nullopt;
  auto ReplayedBy = [&](llvm::StringRef Source) -> std::string {
    for (const auto &[Entry, Of] : S.ReplayedBy)
      if (Of == Source)
        return Entry;
    return "";
  };
  RematchCheck::Words W = Check->second->wordFacts(E, C, ReplayedBy);
  Finding F;
  F.Check = Check->second->checkName().str();
  F.Level = AsErrors->contains(F.Check) ? "error" : "warning";
  F.Message = std::move(W.Message);
  F.Loc = {L.File, L.Line, L.Column};
  F.SourceLine = Line->second;
  for (auto &[At, Text] : W.Notes)
    F.Notes.push_back({{At.File, At.Line, At.Column}, std::move(Text)});
  return F;
}

std::optional<FactsReporter::Added>
FactsReporter::added(const TUSummary &S,
                     const std::vector<ConditionalFinding> &Conditional,
                     ProgramView &P) const {
  if (!S.FromFacts)
    return std::nullopt;
  // Only what other files' functions do, which globals they write and
  // which overrides they define.
  if (!dependenciesHold(S, P, [&](llvm::StringRef Key) {
        return !isProgramFactKey(Key) || isGlobalDependency(Key) ||
               isOverridesDependency(Key);
      }))
    return std::nullopt;
  const std::optional<ComposedCallables> Composed =
      composeCallables(S, *P.composed());
  std::set<std::string> Changed;
  if (!Composed || !followed(S, *Composed, P, Changed))
    return std::nullopt;
  std::map<std::string, Pick> First = firstPicks(S, *Composed, P);
  dropInlineTwins(First, S, *Composed);
  const std::optional<std::set<std::string>> Stored =
      storedStay(S, *Composed, First, Changed);
  if (!Stored)
    return std::nullopt;
  Added Out;
  for (const auto &[Key, At] : First) {
    if (Stored->count(Key))
      continue;
    const CallableEffect &E = Composed->Effects[At.Callable][At.Effect];
    const PlainLocation &L = E.E.Chain.front().Loc;
    if (suppressedByNoLint(S.NoLints, checkOf(E.E.Kind), L.Line, L.Column))
      continue; // clang-tidy drops it, its notes and its fix-its
    if (E.E.Kind == EffectKind::GlobalRead && !E.OtherTU)
      if (const ConditionalFinding *If =
              conditionalAt(E.E, Conditional, Changed)) {
        if (ByKind.count(int(E.E.Kind))) {
          Out.Findings.push_back(If->F);
          Out.Fixes.insert(Out.Fixes.end(), If->Fixes.begin(),
                           If->Fixes.end());
        }
        continue;
      }
    // Own effects carry fix-its; the rest is worded differently.
    if (E.E.Chain.size() < 2 || E.Held || (E.E.Virtual && InlineChains))
      return std::nullopt;
    std::optional<Finding> F = worded(E, S.Callables[At.Callable], S);
    if (!F)
      return std::nullopt;
    if (!F->Check.empty())
      Out.Findings.push_back(std::move(*F));
  }
  return Out;
}

bool FactsReporter::complete(const TUSummary &S, FileOutcome &Out,
                             ProgramView &P) const {
  std::optional<Added> Add = added(S, Out.Conditional, P);
  if (!Add)
    return false;
  Out.Findings.insert(Out.Findings.end(), Add->Findings.begin(),
                      Add->Findings.end());
  Out.Fixes.insert(Out.Fixes.end(), Add->Fixes.begin(), Add->Fixes.end());
  Out.Conditional.clear();
  return true;
}

} // namespace rematch::tool
