//===--- NestedLambdas.h - the lambdas written inside a body -*- C++ -*-===//
//
// The analysis walks a lambda written inside a function's body as part of
// the body, where it is written: the library code it is handed to may run
// it, and nothing else would say so. When the lambda is handed to a function
// this TU follows, its effects come a second time, through the call that
// runs it; the finding then names that call, and the one made where the
// lambda is written goes (EffectAnalysis::dropInlineTwins).
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_NESTEDLAMBDAS_H
#define REMATCH_CHECKS_NESTEDLAMBDAS_H

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include <vector>

namespace clang::tidy::rematch {

// The bodies of the lambdas written inside FD's body, at any depth, as
// ranges of expansion locations.
std::vector<SourceRange> nestedLambdaBodies(const FunctionDecl &FD,
                                            const SourceManager &SM);

// Whether L (its expansion) is inside one of Bodies.
bool insideAny(llvm::ArrayRef<SourceRange> Bodies, SourceLocation L,
               const SourceManager &SM);

} // namespace clang::tidy::rematch

#endif
