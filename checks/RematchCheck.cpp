//===--- RematchCheck.cpp - what every rematch check shares ---------------===//

#include "RematchCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang-tidy/GlobList.h"

namespace clang::tidy::rematch {

std::string quoted(llvm::StringRef S) { return ("'" + S + "'").str(); }

namespace {

std::string callableText(const Callable &C) {
  switch (C.K) {
  case Callable::Lambda:
    return "checkpointed lambda";
  case Callable::Function:
    return "checkpointed function " + quoted(C.Name);
  case Callable::Functor:
    return "checkpointed functor " + quoted(C.Name);
  }
  return "checkpointed callable";
}

std::string functionName(const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      return "lambda";
  return withoutTemplateArgs(canonicalName(*FD));
}

} // namespace

RematchCheck::RematchCheck(StringRef Name, ClangTidyContext *Context,
                           EffectKind Kind)
    : ClangTidyCheck(Name, Context), Kind(Kind),
      CheckpointFunctions(
          Options.getLocalOrGlobal("CheckpointFunctions", "").str()),
      ConfigFile(Options.getLocalOrGlobal("RematchConfigFile", "").str()),
      ChainStyle(Options.getLocalOrGlobal("Chain", "notes").str()) {}

void RematchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CheckpointFunctions", CheckpointFunctions);
  Options.store(Opts, "Chain", ChainStyle);
}

void RematchCheck::registerMatchers(ast_matchers::MatchFinder *Finder) {
  // The analysis walks the whole translation unit once; the match is only
  // the moment to run it.
  Finder->addMatcher(ast_matchers::translationUnitDecl().bind("tu"), this);
}

void RematchCheck::check(
    const ast_matchers::MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  Analysis = getSharedAnalysis(Ctx, {CheckpointFunctions, ConfigFile});
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

void RematchCheck::onEndOfTranslationUnit() { Analysis.reset(); }

void RematchCheck::report(const Finding &F, const EffectAnalysis &A,
                          ASTContext &Ctx) {
  std::vector<ChainStep> Chain = A.chain(F.Target->Body, *F.E);
  const Effect &Last = *Chain.back().E;
  std::string Message = callableText(*F.Target);
  if (!F.E->Callee) {
    Message += " " + describe(Last);
  } else if (ChainStyle == "inline") {
    Message += " " + describe(Last) + " via ";
    for (size_t I = 0; I + 1 < Chain.size(); ++I)
      Message += (I ? " -> " : "") + functionName(Chain[I].E->Callee);
  } else {
    const FunctionDecl *Called = F.E->Called ? F.E->Called : F.E->Callee;
    Message += " calls " + quoted(functionName(Called)) + ", which " +
               (F.E->Virtual ? "may, through a virtual call, reach code that "
                             : "") +
               describe(Last);
  }
  Message += "; " + consequence(Last);

  {
    DiagnosticBuilder Diag = diag(F.E->Loc, "%0") << Message;
    if (!F.E->Callee)
      addFixes(Diag, F, A, Ctx);
  }
  // One note per step of the chain, then the checkpoint call.
  for (size_t I = 1; I < Chain.size(); ++I) {
    const ChainStep &Step = Chain[I];
    std::string In = quoted(functionName(Step.In));
    if (Step.E->Callee)
      diag(Step.E->Loc, "%0 calls %1 here", DiagnosticIDs::Note)
          << In << quoted(functionName(Step.E->Callee));
    else
      diag(Step.E->Loc, "%0 %1 here", DiagnosticIDs::Note)
          << In << describe(*Step.E);
  }
  diag(F.Site->Call->getExprLoc(),
       "callable is checkpointed by this call to %0; it runs again during "
       "backward",
       DiagnosticIDs::Note)
      << quoted(F.Site->EntryPoint);
}

} // namespace clang::tidy::rematch
