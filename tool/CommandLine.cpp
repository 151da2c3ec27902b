//===--- CommandLine.cpp - the rematch command-line contract --------------===//

#include "CommandLine.h"
#include "llvm/ADT/StringRef.h"

namespace rematch::tool {

const char *usageText() {
  return R"(USAGE: rematch [options] <file>... [-- <compiler args>]

Finds effects in activation-checkpointed code that make the recomputation in
backward differ from the original forward.

OPTIONS:
  -p <dir>                        directory holding compile_commands.json
  --checkpoint-functions=<names>  extra checkpoint entry points (qualified,
                                  comma-separated)
  --checks=<globs>                checks to run, clang-tidy syntax
                                  (default: rematch-*)
  --config-file=<path>            use this .rematch.yaml instead of the one
                                  found upward from each source file
  --format=text|json|sarif        output format (default: text)
  --output=<file>                 write the report to <file> (default: stdout)
  --chain=notes|inline            call chains as notes, or inline in the
                                  message (default: notes)
  --warnings-as-errors=<globs>    report matching checks as errors
  --fix                           apply the safe fix-its in place
  --list-checks                   print the enabled checks and exit
  --version                       print the version and exit
  --help                          print this help and exit

EXIT CODES:
  0 no findings, 1 findings, 2 usage or configuration error,
  3 a file could not be analysed (the others are still analysed and reported)
)";
}

namespace {

llvm::Error usageError(const llvm::Twine &Msg) {
  return llvm::createStringError(Msg);
}

} // namespace

llvm::Expected<CliOptions>
parseCommandLine(const std::vector<std::string> &Args) {
  CliOptions O;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "--") {
      O.CompileArgs.emplace(Args.begin() + I + 1, Args.end());
      break;
    }
    if (!A.starts_with("-") || A == "-") {
      O.Files.push_back(A.str());
      continue;
    }
    // Long options take one or two dashes, as clang-tidy's do.
    llvm::StringRef Name = A.drop_front(A.starts_with("--") ? 2 : 1);
    llvm::StringRef Value;
    bool HasValue = false;
    if (size_t Eq = Name.find('='); Eq != llvm::StringRef::npos) {
      Value = Name.substr(Eq + 1);
      Name = Name.substr(0, Eq);
      HasValue = true;
    }
    auto Take = [&](std::string &Into) -> llvm::Error {
      if (!HasValue) {
        if (I + 1 >= Args.size())
          return usageError("option '" + A + "' needs a value");
        Value = Args[++I];
      }
      Into = Value.str();
      return llvm::Error::success();
    };
    auto Flag = [&](bool &Into) -> llvm::Error {
      if (HasValue)
        return usageError("option '" + Name + "' takes no value");
      Into = true;
      return llvm::Error::success();
    };

    llvm::Error E = llvm::Error::success();
    std::string Format, Chain;
    if (Name == "p")
      E = Take(O.BuildPath);
    else if (Name == "checkpoint-functions")
      E = Take(O.CheckpointFunctions);
    else if (Name == "checks")
      E = Take(O.Checks);
    else if (Name == "config-file")
      E = Take(O.ConfigFile);
    else if (Name == "output" || Name == "o")
      E = Take(O.OutputPath);
    else if (Name == "warnings-as-errors")
      E = Take(O.WarningsAsErrors);
    else if (Name == "format") {
      E = Take(Format);
      if (!E) {
        if (Format == "text")
          O.OutputFormat = Format::Text;
        else if (Format == "json")
          O.OutputFormat = Format::Json;
        else if (Format == "sarif")
          O.OutputFormat = Format::Sarif;
        else
          return usageError("unknown --format '" + Format +
                            "' (expected text, json or sarif)");
      }
    } else if (Name == "chain") {
      E = Take(Chain);
      if (!E) {
        if (Chain != "notes" && Chain != "inline")
          return usageError("unknown --chain '" + Chain +
                            "' (expected notes or inline)");
        O.Chain = Chain;
      }
    } else if (Name == "fix")
      E = Flag(O.Fix);
    else if (Name == "list-checks")
      E = Flag(O.ListChecks);
    else if (Name == "help" || Name == "h")
      E = Flag(O.Help);
    else if (Name == "version")
      E = Flag(O.Version);
    else
      return usageError("unknown option '" + A + "'; see rematch --help");
    if (E)
      return std::move(E);
  }
  if (O.Files.empty() && !O.Help && !O.Version && !O.ListChecks)
    return usageError("no input files; see rematch --help");
  return O;
}

} // namespace rematch::tool
