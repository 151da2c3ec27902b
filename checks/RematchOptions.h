//===--- RematchOptions.h - the option keys of the rematch checks -*- C++ -*-===//
//
// The clang-tidy option keys every rematch check reads, defined once: the
// checks read them (per check, `rematch-logging.CheckpointFunctions`, or
// global), and the rematch program sets the global ones from its flags.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_REMATCHOPTIONS_H
#define REMATCH_CHECKS_REMATCHOPTIONS_H

#include "llvm/ADT/StringRef.h"

namespace clang::tidy::rematch::options {

// Extra checkpoint entry points: `name`, `name[source;source]`, `name+fresh`,
// comma-separated.
inline constexpr llvm::StringLiteral CheckpointFunctions = "CheckpointFunctions";
// An explicit .rematch.yaml instead of the one found upward from the file.
inline constexpr llvm::StringLiteral ConfigFile = "RematchConfigFile";
// Model files added to the built-in ones, comma-separated.
inline constexpr llvm::StringLiteral Models = "Models";
// How call chains are shown: `notes` (default) or `inline`.
inline constexpr llvm::StringLiteral Chain = "Chain";
// A directory of whole-program summaries (a `rematch` run's cache) that the
// analysis reads, never writes, to follow calls into other files: the
// plugin's way to whole-program results (rematch_add_lint() sets it).
inline constexpr llvm::StringLiteral SummariesDir = "RematchSummariesDir";

} // namespace clang::tidy::rematch::options

#endif
