//===--- Config.h - .rematch.yaml ------------------------------*- C++ -*-===//
//
// What a project tells rematch about itself: extra checkpoint entry points,
// extra function lists per effect family, globals it vouches for, and which
// checks run. Read from `.rematch.yaml` found upward from each source file,
// or from the file given with --config-file.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_CONFIG_H
#define REMATCH_CHECKS_CONFIG_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang::tidy::rematch {

struct Config {
  // Qualified names ("nn::checkpoint", "Runner::run"); the first callable
  // argument of a call to one of them is checkpointed.
  std::vector<std::string> CheckpointFunctions;
  // Which argument is the checkpointed callable ({Name: ..., Callable: N}
  // in YAML; from 0, the object of a member call not counted), by name.
  std::map<std::string, unsigned> CheckpointCallable;
  // The random sources an entry point replays ({Name: ..., Replays: [...]}
  // in YAML, `name[source;source]` in the plugin option), by name.
  std::map<std::string, std::vector<std::string>> CheckpointReplays;
  // Entry points whose callable gets fresh copies of its arguments on every
  // run ({Name: ..., ArgumentsFresh: true}; `name+fresh` in the option).
  std::set<std::string> CheckpointFreshArguments;
  // The project's own model files (docs/models.md), made absolute against
  // the configuration file's directory.
  std::vector<std::string> Models;
  // Qualified function names added to the built-in lists of each family.
  std::vector<std::string> LoggingFunctions;
  std::vector<std::string> RngFunctions;
  std::vector<std::string> ClockFunctions;
  std::vector<std::string> IoFunctions;
  // Qualified class names treated as containers by rematch-cache-write.
  std::vector<std::string> ContainerTypes;
  // Qualified variable names that rematch-global-read never reports.
  std::vector<std::string> AllowedGlobals;
  // clang-tidy glob list ("-*,rematch-logging"); unset means all checks.
  std::optional<std::string> Checks;
  // The file this came from; empty for the built-in defaults.
  std::string Path;

  // Appends Other's lists to this one's; Other's Checks wins when set.
  void merge(const Config &Other);
};

// A qualified name as written in a list, trimmed, without a leading "::".
std::string trimmedName(llvm::StringRef Name);

// Adds one entry point (nothing for an empty name), with what it replays
// which argument is its callable when given, and whether the callable's
// arguments are fresh on every run.
void addEntryPoint(Config &C, llvm::StringRef Name,
                   std::optional<std::vector<std::string>> Replays,
                   std::optional<unsigned> Callable = std::nullopt,
                   bool ArgumentsFresh = false);

// Adds the entry points of a comma-separated option value, each a name
// optionally followed by the sources it replays: `nn::checkpoint[torch.default]`
// and by `+fresh` when its callable's arguments are fresh on every run
// (several separated by ';'). An error names what is malformed.
llvm::Error addCheckpointFunctions(llvm::StringRef Option, Config &C);

// Parses YAML text. Unknown keys and wrong types are errors; the message is
// "<Path>:<line>:<column>: error: <what>".
llvm::Expected<Config> parseConfig(llvm::StringRef Text, llvm::StringRef Path);

// What is wrong with a clang-tidy glob list of rematch checks: an unknown
// check name, or no check enabled; empty when nothing is.
std::string checkGlobsProblem(llvm::StringRef Globs);
// Only the first half: an unknown check name (for --warnings-as-errors).
std::string unknownCheckProblem(llvm::StringRef Globs);

// LLVM's YAML reader recurses once per nesting level and per empty flow
// entry: text that would take it deeper than rematch's files ever go is
// refused before it is read. Empty when Text is fine; otherwise
// "<Path>:<line>:<col>: error: ...; <What>".
std::string yamlNestingProblem(llvm::StringRef Text, llvm::StringRef Path,
                               llvm::StringRef What);

// Reads and parses a file; a file that cannot be read is an error naming it.
llvm::Expected<Config> loadConfigFile(llvm::StringRef Path);

// The nearest `.rematch.yaml` in the directory of SourceFile or any parent
// directory, if any.
std::optional<std::string> findConfigFile(llvm::StringRef SourceFile);

} // namespace clang::tidy::rematch

#endif
