//===--- StepsShared.cpp - what summarize and report agree on -------------===//

#include "StepsShared.h"
#include "ModelSet.h"
#include "Paths.h"
#include "Summaries.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Path.h"
#include <optional>

namespace rematch::tool {

namespace {
constexpr llvm::StringLiteral RootMark = "@ROOT@";

// Replaces From by To where From is a whole path prefix: followed by '/' or
// the end of the text.
std::string replacePrefix(llvm::StringRef Text, llvm::StringRef From,
                          llvm::StringRef To) {
  if (From.empty())
    return Text.str();
  std::string Out;
  size_t Start = 0;
  while (true) {
    size_t At = Text.find(From, Start);
    if (At == llvm::StringRef::npos)
      break;
    size_t End = At + From.size();
    bool Whole = End == Text.size() || Text[End] == '/';
    Out += Text.slice(Start, At);
    Out += Whole ? To : From;
    Start = End;
  }
  Out += Text.substr(Start);
  return Out;
}
} // namespace

std::string toolIdentity() {
  std::string Id =
      "rematch " REMATCH_VERSION " LLVM " LLVM_VERSION_STRING " models";
  for (const std::string &Model : clang::tidy::rematch::builtinModelFiles(
           clang::tidy::rematch::builtinModelsDir()))
    Id += " " + llvm::sys::path::filename(Model).str() + ":" +
          hashFile(Model);
  return Id;
}

FactsSettings settingsOf(const CliOptions &O, llvm::StringRef Root) {
  FactsSettings S;
  S.Tool = toolIdentity();
  S.CheckpointFunctions = O.CheckpointFunctions;
  S.ConfigFile = O.ConfigFile.empty()
                     ? std::string()
                     : relativeTo(absolutePath(O.ConfigFile), Root);
  S.Checks = O.Checks;
  S.Chain = O.Chain;
  S.WarningsAsErrors = O.WarningsAsErrors;
  return S;
}

void forEachOutcomePath(FileOutcome &O,
                        llvm::function_ref<void(std::string &)> Map,
                        llvm::function_ref<void(std::string &)> Text) {
  Map(O.Status.File);
  for (std::string &E : O.Status.Errors)
    Text(E);
  auto OfFinding = [&](Finding &F) {
    Map(F.Loc.File);
    for (Note &N : F.Notes)
      Map(N.Loc.File);
  };
  auto OfFixes = [&](std::vector<clang::tooling::Replacement> &Fixes) {
    for (clang::tooling::Replacement &R : Fixes) {
      std::string Path = R.getFilePath().str();
      Map(Path);
      R = clang::tooling::Replacement(Path, R.getOffset(), R.getLength(),
                                      R.getReplacementText());
    }
  };
  for (Finding &F : O.Findings)
    OfFinding(F);
  OfFixes(O.Fixes);
  for (ConditionalFinding &C : O.Conditional) {
    OfFinding(C.F);
    OfFixes(C.Fixes);
  }
}

llvm::Expected<std::vector<FileFacts>>
gatherFacts(const std::vector<std::string> &Inputs,
            std::vector<size_t> *Named) {
  std::vector<FileFacts> All;
  llvm::StringMap<std::pair<size_t, std::string>> ByFile; // index, input
  std::optional<FactsSettings> Settings;
  std::string SettingsFrom;
  for (const std::string &In : Inputs) {
    std::vector<FileFacts> Read;
    bool IsLink = false;
    if (llvm::Error E = readFactsFile(In, Read, &IsLink))
      return std::move(E);
    for (FileFacts &F : Read) {
      auto [It, Inserted] =
          ByFile.try_emplace(F.File, std::make_pair(All.size(), In));
      if (Named && !IsLink)
        Named->push_back(It->second.first);
      if (!Inserted) {
        const FileFacts &Old = All[It->second.first];
        if (!sameFacts(Old, F))
          return llvm::createStringError(
              (In + ": error: other facts for '" + F.File + "' than " +
               It->second.second +
               " (summarized from other sources or flags)"));
        continue;
      }
      if (!Settings) {
        Settings = F.Settings;
        SettingsFrom = In;
      }
      if (F.Settings.tie() != Settings->tie())
        return llvm::createStringError(
            (In + ": error: '" + F.File +
             "' was summarized with other settings than " + SettingsFrom +
             (F.Settings.Tool != Settings->Tool
                  ? " (another build of rematch)"
                  : " (--checks, --chain, --warnings-as-errors, "
                    "--checkpoint-functions or --config-file)")));
      All.push_back(std::move(F));
    }
  }
  return All;
}

std::string hideRoot(llvm::StringRef Arg, llvm::StringRef Root) {
  return replacePrefix(Arg, Root, RootMark);
}

std::string showRoot(llvm::StringRef Arg, llvm::StringRef Root) {
  return replacePrefix(Arg, RootMark, Root);
}

} // namespace rematch::tool
