//===--- Summary.h - effect summaries that cross translation units -*- C++ -*-===//
//
// What one translation unit tells the others: for each function it defines
// (keyed by USR), the effects it has on roots its callers can map (globals,
// *this, reference parameters, the world), with the call chain that leads to
// each, in plain file:line:column form. Written by phase one of a
// --summaries-dir run, merged and read back by phase two so that a call into
// a function defined in another file is followed like a local one.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_SUMMARY_H
#define REMATCH_CHECKS_SUMMARY_H

#include "Effect.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace clang::tidy::rematch {

// Bumped whenever the format or its meaning changes: older files are stale.
inline constexpr int SummaryFormatVersion = 4;

struct PlainLocation {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

// One step of a chain inside the defining TU: "<Function> calls <Callee>"
// (Callee set) or the effect itself.
struct SummaryStep {
  std::string Function; // qualified name of the function the step is in
  std::string Callee;   // qualified name when the step is a call
  PlainLocation Loc;
};

struct SummaryEffect {
  EffectKind Kind = EffectKind::StateWrite;
  Root Target;
  std::string Subject;
  std::string Detail;
  bool Virtual = false;
  std::string VarUsr; // rematch-global-read: the global's USR
  // From a model (Effect): the random source, its wording, what is drawn,
  // and when only.
  std::string RngSource;
  std::string RngSourceText;
  std::string Draws;
  std::string May;
  std::vector<SummaryStep> Chain; // from the function's body to the effect
};

struct FunctionEffects {
  std::string Usr;
  std::string Name; // qualified, for messages
  std::vector<SummaryEffect> Effects;
};

// A callable this TU checkpoints whose body is in another TU: that TU
// reports its effects, with a note at this call.
struct SummaryCheckpoint {
  std::string Usr;        // the callable: a function, or a functor's operator()
  std::string Kind;       // "function" or "functor"
  std::string Name;       // qualified, for messages
  std::string EntryPoint; // the entry point called
  std::vector<std::string> Replays;
  PlainLocation Call;     // the checkpoint call
};

// An override defined in this TU of a virtual method declared anywhere: a
// virtual call in another TU may run it.
struct SummaryOverride {
  std::string Method;               // USR of the overridden method
  std::string Override;             // USR of the overriding definition
  std::vector<std::string> Classes; // its class and all the class's bases
};

struct TUSummary {
  int Version = SummaryFormatVersion;
  std::string MainFile;       // absolute path
  std::string CommandHash;    // hash of the compile command
  // Every file the TU read, with its content hash: the summary is reused
  // only while all of them are unchanged.
  std::vector<std::pair<std::string, std::string>> Inputs;
  // The system headers it read. Shared by most TUs and most of a summary's
  // size, so the store keeps each distinct list once, in a file named by
  // SystemInputsKey; only the key is part of this summary's text.
  std::vector<std::string> SystemInputs;
  std::string SystemInputsKey;
  std::vector<FunctionEffects> Functions;
  std::vector<std::string> GlobalsWritten; // USRs of globals written anywhere
  std::vector<std::string> GlobalsEscaping; // USRs whose address escapes
  unsigned CheckpointSites = 0;
  std::vector<SummaryCheckpoint> Checkpoints; // of callables defined elsewhere
  std::vector<SummaryOverride> Overrides;
  // Functions of other TUs this summary was computed with, and the hash of
  // their summaries then ("absent" when none was known): when one changes,
  // this summary is stale too.
  std::vector<std::pair<std::string, std::string>> Dependencies;
};

// The hash every summary and dependency is written with: 16 hex digits of
// xxh3 over Text.
std::string hashText(llvm::StringRef Text);

// A hash of one function's summary, for Dependencies.
std::string hashFunctionEffects(const FunctionEffects &F);

// JSON text of a summary.
std::string serializeSummary(const TUSummary &S);

// Parses and validates a summary; any malformed, truncated or wrong-version
// input is an error naming Path, never a partial summary.
llvm::Expected<TUSummary> parseSummary(llvm::StringRef Text,
                                       llvm::StringRef Path);

} // namespace clang::tidy::rematch

#endif
