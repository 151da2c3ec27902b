//===--- UnreadBodies.h - function bodies the analysis never reads -*- C++ -*-===//
//
// A function declared in a system header is what its model says
// (KnownFunctions::isModelled), and a call of it is not followed
// (CallReach): the analysis never reads its body, except
//  - in a scope the models analyse (Analyse:, such as torch::nn::
//    ModuleHolder), and
//  - a copy or move constructor, whose initializers and statements tell a
//    copy that owns its state from one that shares it (CopySemantics).
// A parse may skip the other bodies (FrontendOptions::SkipFunctionBodies,
// decided per body by ASTConsumer::shouldSkipFunctionBody) and find the
// same. The precompiled preamble does (tool/Preamble.h), as clangd's skips
// every body in its preambles: most of a framework's headers are bodies.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_UNREADBODIES_H
#define REMATCH_CHECKS_ANALYSIS_UNREADBODIES_H

#include "ModelSet.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include <memory>
#include <string>

namespace clang::tidy::rematch {

class UnreadBodies {
public:
  explicit UnreadBodies(std::shared_ptr<const ModelSet> Models)
      : Models(std::move(Models)) {}

  // Whether the analysis never reads FD's body.
  bool unread(const FunctionDecl &FD, const SourceManager &SM) const;
  // What the answers depend on besides the declarations (the analysed
  // scopes): a parse that skipped bodies by another identity reads others.
  std::string identity() const;

private:
  std::shared_ptr<const ModelSet> Models;
};

} // namespace clang::tidy::rematch

#endif
