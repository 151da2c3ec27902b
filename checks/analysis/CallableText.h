//===--- CallableText.h - how messages name a checkpointed callable -*- C++ -*-===//
//
// The words of a finding that name the callable and where it was stored:
// the checks print them, and a summary keeps them for `rematch report`,
// which words findings without the AST.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_CALLABLETEXT_H
#define REMATCH_CHECKS_CALLABLETEXT_H

#include "CheckpointSites.h"
#include <string>

namespace clang::tidy::rematch {

// "checkpointed lambda", "checkpointed function 'step'"; for one handed
// over in a value that holds callables, which value, and "may" when it
// holds several.
std::string callableText(const Callable &C);

// The note at C.StoredAt: "'step_' holds the lambda stored here".
std::string storedNoteText(const Callable &C);

} // namespace clang::tidy::rematch

#endif
