//===--- SkipBodies.h - the parse that skips unchanged bodies ---*- C++ -*-===//
#ifndef REMATCH_TOOL_SKIPBODIES_H
#define REMATCH_TOOL_SKIPBODIES_H

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::rematch {
class BodyReplay;
class UnreadBodies;
} // namespace clang::tidy::rematch

namespace rematch::tool {

// The compiler arguments that let the parse skip the bodies of the
// AnalysisHost's BodyReplay (SkipBodies.cpp).
std::vector<std::string> skipBodiesArgs();

// A consumer to ask first of each body whether to skip it (with
// FrontendOptions::SkipFunctionBodies on): a library body Unread says the
// analysis does not read, or one Replay recorded. Either may be null; both
// outlive the parse. The parse's other consumers skip whatever it skips.
std::unique_ptr<clang::ASTConsumer>
skippingConsumer(clang::tidy::rematch::BodyReplay *Replay,
                 const clang::tidy::rematch::UnreadBodies *Unread,
                 clang::CompilerInstance &CI);

} // namespace rematch::tool

#endif
