//===--- RematchCheck.h - what every rematch check shares ------*- C++ -*-===//
//
// A rematch check is a filter over the shared EffectAnalysis: it picks the
// findings of its effect kind, words them and adds its fix-its. This base
// reads the options (a check's own key, else the global one), obtains the
// analysis, and emits the diagnostic with its chain and checkpoint notes.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_REMATCHCHECK_H
#define REMATCH_CHECKS_REMATCHCHECK_H

#include "Compose.h"
#include "EffectAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <memory>

namespace clang::tidy::rematch {

class RematchCheck : public ClangTidyCheck {
public:
  RematchCheck(StringRef Name, ClangTidyContext *Context, EffectKind Kind);

  // The first entry point that replays a random source; empty: none.
  using ReplayerOf = llvm::function_ref<std::string(llvm::StringRef Source)>;

  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final;
  void onEndOfTranslationUnit() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

  // A finding `rematch report` makes from a link, without the AST, worded
  // and noted as report() does one: an effect a checkpointed callable
  // inherits at a call (not through a value that holds callables), with
  // its callable's facts (Summary.h) and what replays each random source.
  struct Words {
    std::string Message;
    std::vector<std::pair<PlainLocation, std::string>> Notes;
  };
  Words wordFacts(const CallableEffect &E, const SummaryCallable &C,
                  ReplayerOf ReplayedBy) const;
  EffectKind reports() const { return Kind; }
  StringRef checkName() const { return getID(); }

protected:
  // What the effect does, as a verb phrase: "increments 'g_steps'".
  virtual std::string describe(const EffectFacts &E) const = 0;
  // Why that breaks recomputation: "the recomputation in backward ...".
  virtual std::string consequence(const EffectFacts &E) const = 0;
  // The same for the finding's own message, which knows the analysis.
  virtual std::string consequenceFor(const Finding &F, const EffectFacts &Last,
                                     const EffectAnalysis &A) const {
    return consequence(Last);
  }
  // The same for the finding's own message, which knows the entry point.
  virtual std::string describeFor(const EffectFacts &E,
                                  const CheckpointSite &Site) const {
    return describe(E);
  }
  // How to fix it, as a note at the checkpoint call; empty: no note.
  virtual std::string suggestion(const EffectFacts &E,
                                 const CheckpointSite &Site,
                                 ReplayerOf ReplayedBy) const {
    return {};
  }
  // Fix-its for a finding in the callable's own body.
  virtual void addFixes(DiagnosticBuilder &Diag, const Finding &F,
                        const EffectAnalysis &A, ASTContext &Ctx) {}

private:
  void report(const Finding &F, const EffectAnalysis &A, ASTContext &Ctx);
  // The warning's text: the callable, what the chain ends in, the
  // consequence.
  std::string message(const Finding &F, const EffectChain &Chain,
                      const EffectAnalysis &A) const;
  // A note at one step in this TU: a call in In, or the effect itself.
  void noteStep(const FunctionDecl *In, const Effect &E);
  // A note where the alias an own effect went through was taken.
  void noteAlias(const Effect &E);
  // The notes that walk the chain from the callable to the effect.
  void noteChain(const EffectChain &Chain, ASTContext &Ctx,
                 const EffectAnalysis &A);
  // A call that ran one of the callables a value holds: where it was stored.
  void noteHeld(const Effect &E, const EffectAnalysis &A, ASTContext &Ctx);
  static std::string heldText(const Effect &E, const EffectAnalysis &A);
  static std::string heldCallableText(const Effect &E,
                                     const EffectAnalysis &A);

  const EffectKind Kind;
  const std::string CheckpointFunctions;
  const std::string ConfigFile;
  const std::string Models; // comma-separated model files
  const std::string SummariesDir; // summaries read by the plugin
  const std::string ChainStyle; // "notes" or "inline"
  std::shared_ptr<EffectAnalysis> Analysis;
  ASTContext *CutTraversal = nullptr; // whose traversal scope check() emptied
};

// 'name' as a message argument.
std::string quoted(llvm::StringRef S);
// " through 'p'" for a change through an alias, else nothing.
std::string through(const EffectFacts &E);

} // namespace clang::tidy::rematch

#endif
