//===--- EffectAnalysis.h - effects of checkpointed code, per TU -*- C++ -*-===//
//
// Computed once per translation unit and shared by every rematch check: the
// checkpoint sites, an effect summary per function (its own effects plus
// those of everything it calls, mapped to its own roots), and the findings:
// effects on outside state reachable from a checkpointed callable. Checks
// only filter by kind and report.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_EFFECTANALYSIS_H
#define REMATCH_CHECKS_EFFECTANALYSIS_H

#include "BodyReplay.h"
#include "CheckpointSites.h"
#include "Config.h"
#include "Effect.h"
#include "EffectCollector.h"
#include "ExternalSummaries.h"
#include "HeldCallables.h"
#include "KnownFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>
#include <variant>
#include <vector>

namespace clang {
class ASTContext;
}

namespace clang::tidy::rematch {

struct AnalysisHost;
class PlainLocations; // SummaryExport.cpp

struct FunctionSummary {
  std::vector<Effect> Effects; // own effects first, then inherited ones
  // What it returns an alias of (globals, *this, parameters' objects).
  std::vector<ReturnedAlias> Returns;
};

struct Finding {
  const Effect *E = nullptr;            // in the callable's summary
  const CheckpointSite *Site = nullptr; // the first site that checkpoints it
  const Callable *Target = nullptr;
  // A read of a global the program's facts judged constant, reported as if
  // some TU wrote it (AnalysisHost::ConditionalSink): the dependency key.
  std::string IfWritten;
};

// One step of a call chain, from the checkpointed callable to the effect: a
// call, or at the end the effect itself. In this TU it is the function the
// step is in and its Effect there; past a call into another TU, the step as
// that TU's summary wrote it.
struct ChainStep {
  struct Here {
    const FunctionDecl *In;
    const Effect *E; // inherited: the call; own: the effect
  };
  std::variant<Here, const SummaryStep *> Where;

  const Here *here() const { return std::get_if<Here>(&Where); }
  const SummaryStep *there() const {
    const SummaryStep *const *P = std::get_if<const SummaryStep *>(&Where);
    return P ? *P : nullptr;
  }
};

// The steps of a finding's chain and what happens at their end: the last
// Effect here, or the SummaryEffect of another TU that the chain ends in.
struct EffectChain {
  std::vector<ChainStep> Steps;
  const EffectFacts *Last = nullptr;
  // Ending in another TU through an alias: where the alias was taken.
  const PlainLocation *LastAliasAt = nullptr;
};

// What the analysis needs to know besides the AST.
struct AnalysisSettings {
  std::string CheckpointFunctions; // comma-separated, from the option
  std::string ConfigFile;          // explicit .rematch.yaml; empty: discover
  std::string Models;              // comma-separated model files, added
  // Summaries to read when the front end lent none (the plugin).
  std::string SummariesDir;
  // What the front end hands this translation unit's analysis
  // (AnalysisHost.h); null for the plugin.
  const AnalysisHost *Host = nullptr;
};

class EffectAnalysis {
public:
  EffectAnalysis(ASTContext &Ctx, const AnalysisSettings &S);
  ~EffectAnalysis();

  const Config &config() const { return Cfg; }
  // The models in force; only valid when configError() is empty.
  const KnownFunctions &known() const { return *Known; }
  // Non-empty when the configuration could not be read ("file:line:col: ...").
  const std::string &configError() const { return ConfigError; }
  // True exactly once, for the first caller: who reports the config error.
  bool claimConfigErrorReport();

  const std::vector<CheckpointSite> &sites() const { return Sites; }
  const std::vector<Finding> &findings() const { return Findings; }
  const FunctionSummary *summary(const FunctionDecl *FD) const;

  // The steps from the callable's body down to the effect itself.
  EffectChain chain(const FunctionDecl *Body, const Effect &E) const;

  // Whether the global a GlobalRead effect reads can change between the
  // passes, and how we know.
  enum class GlobalChange {
    Constant,     // nothing writes it and its address stays where we see
    Written,      // some code we see writes it or lets its address escape
    OtherTUMayWrite, // external linkage, single-file run: unknown here
  };
  GlobalChange globalChange(const Effect &E) const;
  // The dependency key of the program's facts that decided globalChange(E);
  // empty when this TU alone decided it.
  std::string globalKey(const Effect &E) const;

  // What a call that runs a holder's callables (Effect::Held) ran at Call:
  // the value Target came from, where it was stored.
  const HeldValue *heldAt(SourceLocation Call,
                          const FunctionDecl *Target) const;
  // The same for a callable another TU stored (Callable: its USR, the
  // effect's ExternalUsr), or null.
  const SummaryHeld *remoteHeldAt(SourceLocation Call,
                                  const std::string *Callable) const;
  // Whether the effect came through a call that runs a holder.
  bool isHeld(SourceLocation Call, const FunctionDecl *Target,
              const std::string *ExternalUsr) const {
    return ExternalUsr ? remoteHeldAt(Call, ExternalUsr) != nullptr
                       : heldAt(Call, Target) != nullptr;
  }

private:
  // The steps of the constructor.
  std::shared_ptr<const ModelSet> configure(const AnalysisSettings &S);
  void walk(bool Exporting);
  std::vector<Callable> callablesHeld(llvm::ArrayRef<HeldValue> Values) const;
  void resolveHeldSites();
  void remoteHeldSites();
  void solve();

  // WrittenThrough: the calls (by location) whose returned alias the
  // function writes through.
  void markReadsPartOfChange(FunctionSummary &S,
                             const llvm::DenseSet<unsigned> &WrittenThrough) const;
  // The sites of other TUs that checkpoint these functions defined here.
  std::vector<CheckpointSite>
  remoteSites(llvm::ArrayRef<const FunctionDecl *> Candidates);
  // What a call may run that this TU defines: the callee, and for a virtual
  // call every override defined here.
  const FunctionDecl *analysable(const FunctionDecl *FD) const;
  void addTargets(const CallSite &C,
                  std::vector<const FunctionDecl *> &Out) const;
  void addHeldTargets(const CallSite &C,
                      std::vector<const FunctionDecl *> &Out) const;
  const FunctionEffects *externalEffects(const FunctionDecl *FD) const;
  const FunctionEffects *externalOf(const Effect &E) const;
  std::vector<const SummaryOverride *> remoteOverrides(const CallSite &C) const;
  // A call that runs what a place other TUs can name holds: that place.
  const NamedDecl *sharedHeldPlace(const CallSite &C) const;
  // The callables other TUs store into it, remembered for remoteHeldAt.
  std::vector<const SummaryHeld *> remoteHeld(const CallSite &C) const;
  // This TU's stores into places other TUs can name (S.Held), and the
  // bodies stored, whose facts the summary must carry.
  std::vector<const FunctionDecl *> describeHeld(TUSummary &S) const;
  std::string cachedUsr(const Decl *D) const;
  std::string headerCallableIdentity(const Callable &C) const;
  bool reportedHere(const Callable &C) const;

  // This TU's summary for the others (Summary.h), while a sink is installed.
  TUSummary exportSummary();
  void describeInputs(TUSummary &S) const;
  void describeCheckpoints(TUSummary &S) const;
  void describeFunctions(TUSummary &S,
                         llvm::ArrayRef<const FunctionDecl *> Seeds);
  // Captures: keep the effects on a lambda's captures (a callable's).
  std::optional<FunctionFacts>
  exportFunction(const FunctionDecl &FD, const DirectFacts &F,
                 llvm::function_ref<bool(const CallSite &)> Keep,
                 PlainLocations &Where, bool Captures = false) const;
  // What `rematch report` needs of the checkpointed callables
  // (Summary.h, SummaryCallable): which ones, and their facts (none, and
  // S.FromFacts false, when something the summary keeps of Exported, the
  // functions it describes, is in a macro).
  using CallableAt = std::pair<const CheckpointSite *, const Callable *>;
  std::vector<CallableAt> reportableCallables(TUSummary &S) const;
  void describeCallables(
      TUSummary &S, llvm::ArrayRef<CallableAt> Reportable,
      llvm::ArrayRef<const DirectFacts *> Exported,
      llvm::function_ref<const DirectFacts &(const FunctionDecl *)> FactsOf,
      llvm::function_ref<bool(const CallSite &)> Keep,
      PlainLocations &Where) const;
  bool locatedInMacro(const DirectFacts &F,
                      llvm::function_ref<bool(const CallSite &)> Keep) const;
  std::optional<SummaryCallable>
  describeCallable(const CheckpointSite &Site, const Callable &C,
                   const DirectFacts &F,
                   llvm::function_ref<bool(const CallSite &)> Keep,
                   PlainLocations &Where, size_t Index) const;

  // FD's own facts: walked, or recorded for a body the parse skipped.
  DirectFacts factsOf(const FunctionDecl &FD);
  // Whether the checks need a body the parse skipped (BodyReplay.h).
  bool needsSkippedBody(); // rejects each such body
  // Whether the analysis needs a body the parse skipped that no record
  // stands in for: a library's, which the parse or its precompiled
  // preamble left out (UnreadBodies.h). Said to the front end
  // (AnalysisHost::UnparsedBodyNeeded), which parses the file again whole.
  bool needsUnparsedBody();

  class SummarySolver; // computeSummaries' state and steps
  void computeSummaries(const std::vector<const FunctionDecl *> &Roots);
  void computeFindings();
  void dropInlineTwins();

  ASTContext &Ctx;
  const AnalysisHost *Host; // from the front end; null: the plugin
  BodyReplay *Replay = nullptr;             // the bodies the parse skipped
  bool UnparsedBody = false; // factsOf met one (needsUnparsedBody)
  std::unique_ptr<BodyRecorder> Recorder;   // records the bodies walked
  Config Cfg;
  std::string ConfigError;
  bool ConfigErrorClaimed = false;
  std::unique_ptr<KnownFunctions> Known;
  FactsPool Pool; // what the effects of this TU's functions did
  std::vector<CheckpointSite> Sites;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionSummary>>
      Summaries;
  std::vector<Finding> Findings;
  // A conditional finding shares a kind and place with another: a report
  // from facts could not tell which one a parse would keep.
  bool ConditionalClash = false;
  std::shared_ptr<const ExternalSummaries> External;
  // The external functions looked up, with the hash of what was found.
  mutable std::map<std::string, std::string> UsedExternal;
  mutable llvm::DenseMap<const Decl *, std::string> UsrCache;
  llvm::DenseSet<const VarDecl *> ModifiableGlobals;
  std::vector<const FunctionDecl *> Definitions; // outside system headers
  // Facts read for the summary, taken over by computeSummaries.
  llvm::DenseMap<const FunctionDecl *, DirectFacts> Prefetched;
  unsigned FunctionsWithBody = 0;                 // seen by the walk
  std::unique_ptr<HeldCallables> Held; // what values holding callables hold
  mutable std::map<std::pair<unsigned, const FunctionDecl *>, HeldValue>
      HeldTargets; // by call location and target
  mutable std::map<std::pair<unsigned, const std::string *>,
                   const SummaryHeld *>
      RemoteHeldTargets; // by call location and the callable's USR
  // Virtual method (canonical) -> the overrides defined in this TU.
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>>
      Overrides;
};

// Whether a site reports an effect on Target of kind K (drawing from
// RngSource), globals aside: one on state outside the callable, not on an
// argument the entry point copies for each run (ArgumentsFresh), not a draw
// from a source it replays. Shared with the report from facts.
bool reportedAtSite(Root Target, EffectKind K, llvm::StringRef RngSource,
                    bool ArgumentsFresh, llvm::ArrayRef<std::string> Replays);

// The analysis of Ctx, shared by the checks of one clang-tidy run: the first
// check to ask computes it; it lives while any check holds it.
std::shared_ptr<EffectAnalysis> getSharedAnalysis(ASTContext &Ctx,
                                                  const AnalysisSettings &S);

} // namespace clang::tidy::rematch

#endif
