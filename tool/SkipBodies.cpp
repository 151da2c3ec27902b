//===--- SkipBodies.cpp - the parse that skips unchanged bodies -----------===//
//
// clang-tidy builds its own front-end action; the parse of a file whose
// bodies were recorded (checks/analysis/BodyReplay.h) reaches it through a
// plugin action the command line adds (skipBodiesArgs()), which finds them
// in the host of the parse's file system (AnalysisHost.h), with the
// library bodies the analysis does not read (UnreadBodies.h). The plugin turns
// on FrontendOptions::SkipFunctionBodies and, as the first consumer, says
// for each body whether to skip it; clang-tidy's own consumers skip
// whatever the first one skips.
//
//===----------------------------------------------------------------------===//

#include "SkipBodies.h"
#include "AnalysisHost.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

namespace rematch::tool {
namespace {

using clang::tidy::rematch::BodyReplay;

class SkipConsumer : public clang::ASTConsumer {
public:
  SkipConsumer(BodyReplay *Replay,
               const clang::tidy::rematch::UnreadBodies *Unread,
               clang::CompilerInstance &CI)
      : Replay(Replay), Unread(Unread), CI(CI) {}
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    const clang::FunctionDecl *FD = D ? D->getAsFunction() : nullptr;
    if (!FD)
      return false;
    if (Unread && Unread->unread(*FD, CI.getSourceManager()))
      return true;
    return Replay && Replay->decide(*FD, CI.getSourceManager(), CI.getLangOpts());
  }

private:
  BodyReplay *Replay;
  const clang::tidy::rematch::UnreadBodies *Unread;
  clang::CompilerInstance &CI;
};

class SkipBodiesAction : public clang::PluginASTAction {
protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override {
    const clang::tidy::rematch::AnalysisHost *Host =
        clang::tidy::rematch::hostOf(CI.getVirtualFileSystem());
    if (!Host || (!Host->Bodies && !Host->Unread))
      return std::make_unique<clang::ASTConsumer>(); // skips nothing: off
    CI.getFrontendOpts().SkipFunctionBodies = true;
    return skippingConsumer(Host->Bodies.get(), Host->Unread.get(), CI);
  }
  bool ParseArgs(const clang::CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

clang::FrontendPluginRegistry::Add<SkipBodiesAction>
    Registered("rematch-skip-bodies",
               "skip the function bodies rematch recorded as unchanged "
               "or does not read");

} // namespace

std::unique_ptr<clang::ASTConsumer>
skippingConsumer(BodyReplay *Replay,
                 const clang::tidy::rematch::UnreadBodies *Unread,
                 clang::CompilerInstance &CI) {
  return std::make_unique<SkipConsumer>(Replay, Unread, CI);
}

std::vector<std::string> skipBodiesArgs() {
  (void)Registered; // keeps this file's registration in the program
  return {"-Xclang", "-add-plugin", "-Xclang", "rematch-skip-bodies"};
}

} // namespace rematch::tool
