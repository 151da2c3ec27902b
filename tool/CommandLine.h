//===--- CommandLine.h - the rematch command-line contract ------*- C++ -*-===//
//
// rematch [options] <file>... [-- <compiler args>]
// Option names are a contract: scripts and CI configurations depend on them.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_COMMANDLINE_H
#define REMATCH_TOOL_COMMANDLINE_H

#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace rematch::tool {

enum class Format { Text, Json, Sarif };

struct CliOptions {
  std::vector<std::string> Files;
  std::optional<std::vector<std::string>> CompileArgs; // after `--`
  std::string BuildPath;                                // -p
  std::string CheckpointFunctions;
  std::string Checks = "rematch-*";
  std::string ConfigFile;
  Format OutputFormat = Format::Text;
  std::string OutputPath; // empty: stdout
  std::string Chain = "notes";
  std::string WarningsAsErrors;
  bool Fix = false;
  bool ListChecks = false;
  bool Help = false;
  bool Version = false;
};

// Parses argv[1..]; the error names the offending argument.
llvm::Expected<CliOptions> parseCommandLine(const std::vector<std::string> &Args);

const char *usageText();

} // namespace rematch::tool

#endif
