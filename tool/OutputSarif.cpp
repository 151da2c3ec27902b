//===--- OutputSarif.cpp - SARIF 2.1.0 output -----------------------------===//
//
// For code-scanning services (GitHub, GitLab, Azure DevOps) and IDE viewers.
// Notes become both relatedLocations (shown beside the result) and a code
// flow ending at the finding (shown as the path that leads to it), because
// viewers differ in which of the two they display.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace llvm;

namespace rematch::tool {
namespace {

constexpr const char *SchemaUri =
    "https://json.schemastore.org/sarif-2.1.0.json";

// "C:/x" names a drive only on Windows; elsewhere "C:" is a directory name.
bool isWindowsDrivePath(StringRef Path) {
  return sys::path::is_separator('\\') && Path.size() >= 3 &&
         isAlpha(Path[0]) && Path[1] == ':' && Path[2] == '/';
}

// Characters RFC 3986 allows unencoded in a path. ':' is only safe in an
// absolute URI: in the first segment of a relative reference it would read
// as a scheme.
bool isPathChar(unsigned char C, bool AllowColon) {
  if (isAlnum(C))
    return true;
  if (C == ':')
    return AllowColon;
  return StringRef("-._~/!$&'()*+,;=@").contains(C);
}

// rematch-cache-write -> CacheWrite, the check's class name without "Check".
std::string ruleName(StringRef Id) {
  Id.consume_front("rematch-");
  std::string Name;
  bool Upper = true;
  for (char C : Id) {
    if (C == '-') {
      Upper = true;
      continue;
    }
    Name += Upper ? toUpper(C) : C;
    Upper = false;
  }
  return Name;
}

// Each file gets one entry in run.artifacts, which locations refer to by
// index, so a viewer can tell two spellings of a URI are the same file.
class ArtifactTable {
public:
  unsigned indexOf(StringRef File) {
    auto [It, Inserted] = Index.try_emplace(File, Files.size());
    if (Inserted)
      Files.push_back(File.str());
    return It->second;
  }
  const std::vector<std::string> &files() const { return Files; }

private:
  StringMap<unsigned> Index;
  std::vector<std::string> Files;
};

class SarifWriter {
public:
  SarifWriter(raw_ostream &OS, const Results &R,
              const std::vector<RuleInfo> &Rules)
      : J(OS, /*IndentSize=*/2), R(R), Rules(Rules) {
    for (size_t I = 0; I < Rules.size(); ++I)
      RuleIndex.try_emplace(Rules[I].Id, I);
    // Inputs first, in command-line order, then any other file a finding
    // or a note points into (headers).
    for (const FileStatus &File : R.Files)
      Artifacts.indexOf(File.File);
    for (const Finding &F : R.Findings) {
      if (!F.Loc.File.empty())
        Artifacts.indexOf(F.Loc.File);
      for (const Note &N : F.Notes)
        if (!N.Loc.File.empty())
          Artifacts.indexOf(N.Loc.File);
    }
  }

  void write() {
    J.object([&] {
      J.attribute("$schema", SchemaUri);
      J.attribute("version", "2.1.0");
      J.attributeArray("runs", [&] { J.object([&] { writeRun(); }); });
    });
  }

private:
  void writeRun() {
    J.attributeObject(
        "tool", [&] { J.attributeObject("driver", [&] { writeDriver(); }); });
    J.attributeArray("invocations", [&] { writeInvocation(); });
    J.attributeArray("artifacts", [&] {
      for (const std::string &File : Artifacts.files())
        J.object([&] {
          J.attributeObject("location",
                            [&] { J.attribute("uri", pathToUri(File)); });
        });
    });
    std::vector<std::string> Fingerprints = fingerprints(R.Findings);
    J.attributeArray("results", [&] {
      for (size_t I = 0; I < R.Findings.size(); ++I)
        writeResult(R.Findings[I], Fingerprints[I]);
    });
  }

  void writeDriver() {
    J.attribute("name", "rematch");
#ifdef REMATCH_INFORMATION_URI
    J.attribute("informationUri", REMATCH_INFORMATION_URI);
#endif
    J.attribute("version", REMATCH_VERSION);
    J.attributeArray("rules", [&] {
      for (const RuleInfo &Rule : Rules)
        writeRule(Rule);
    });
  }

  void writeRule(const RuleInfo &Rule) {
    // The description reads "what the code does; why the recomputation
    // breaks it": the first half is the one-line summary viewers show.
    StringRef Short = StringRef(Rule.Description).split(';').first.trim();
    J.object([&] {
      J.attribute("id", Rule.Id);
      J.attribute("name", ruleName(Rule.Id));
      J.attributeObject("shortDescription",
                        [&] { J.attribute("text", Short); });
      J.attributeObject("fullDescription",
                        [&] { J.attribute("text", Rule.Description); });
      if (!Rule.HelpUri.empty())
        J.attribute("helpUri", Rule.HelpUri);
      J.attributeObject("defaultConfiguration",
                        [&] { J.attribute("level", "warning"); });
    });
  }

  void writeInvocation() {
    bool AnyFailed = false;
    for (const FileStatus &File : R.Files)
      AnyFailed |= File.Status == FileStatus::State::Failed;
    J.object([&] {
      J.attribute("executionSuccessful", !AnyFailed);
      J.attributeArray("toolExecutionNotifications", [&] {
        for (const FileStatus &File : R.Files)
          if (File.Status == FileStatus::State::Failed)
            writeFailure(File);
      });
    });
  }

  void writeFailure(const FileStatus &File) {
    std::string Text = File.File + ": error: file could not be analysed";
    for (const std::string &Error : File.Errors)
      Text += "\n" + Error;
    J.object([&] {
      J.attribute("level", "error");
      J.attributeObject("message", [&] { J.attribute("text", Text); });
      J.attributeArray("locations", [&] {
        J.object([&] {
          J.attributeObject("physicalLocation",
                            [&] { writeArtifactLocation(File.File); });
        });
      });
    });
  }

  void writeResult(const Finding &F, const std::string &Fingerprint) {
    J.object([&] {
      J.attribute("ruleId", F.Check);
      auto It = RuleIndex.find(F.Check);
      if (It != RuleIndex.end())
        J.attribute("ruleIndex", It->second);
      J.attribute("level", F.Level == "error" ? "error" : "warning");
      writeMessage(F.Message);
      J.attributeArray("locations", [&] {
        J.object([&] { writePhysicalLocation(F.Loc); });
      });
      if (!F.Notes.empty()) {
        J.attributeArray("relatedLocations", [&] {
          for (size_t I = 0; I < F.Notes.size(); ++I)
            J.object([&] {
              J.attribute("id", I);
              writePhysicalLocation(F.Notes[I].Loc);
              writeMessage(F.Notes[I].Message);
            });
        });
        writeCodeFlow(F);
      }
      J.attributeObject("partialFingerprints",
                        [&] { J.attribute("rematch/v1", Fingerprint); });
    });
  }

  // The notes walk from the cause to the effect; the finding is the last
  // step.
  void writeCodeFlow(const Finding &F) {
    auto Step = [&](const Location &Loc, StringRef Message) {
      J.object([&] {
        J.attributeObject("location", [&] {
          writePhysicalLocation(Loc);
          writeMessage(Message);
        });
      });
    };
    J.attributeArray("codeFlows", [&] {
      J.object([&] {
        J.attributeArray("threadFlows", [&] {
          J.object([&] {
            J.attributeArray("locations", [&] {
              for (const Note &N : F.Notes)
                Step(N.Loc, N.Message);
              Step(F.Loc, F.Message);
            });
          });
        });
      });
    });
  }

  void writeMessage(StringRef Text) {
    J.attributeObject("message", [&] { J.attribute("text", Text); });
  }

  void writePhysicalLocation(const Location &Loc) {
    if (Loc.File.empty())
      return;
    J.attributeObject("physicalLocation", [&] {
      writeArtifactLocation(Loc.File);
      if (Loc.Line == 0)
        return;
      J.attributeObject("region", [&] {
        J.attribute("startLine", Loc.Line);
        if (Loc.Column != 0)
          J.attribute("startColumn", Loc.Column);
      });
    });
  }

  void writeArtifactLocation(StringRef File) {
    J.attributeObject("artifactLocation", [&] {
      J.attribute("uri", pathToUri(File));
      J.attribute("index", Artifacts.indexOf(File));
    });
  }

  json::OStream J;
  const Results &R;
  const std::vector<RuleInfo> &Rules;
  StringMap<size_t> RuleIndex;
  ArtifactTable Artifacts;
};

} // namespace

std::string pathToUri(StringRef Path) {
  std::string Slashed = Path.str();
  // A backslash separates directories only where the host says so; on POSIX
  // it is an ordinary file-name byte and gets percent-encoded below.
  if (sys::path::is_separator('\\'))
    std::replace(Slashed.begin(), Slashed.end(), '\\', '/');
  StringRef P = Slashed;

  std::string Uri;
  bool Absolute = false;
  if (P.starts_with("//")) { // UNC: //server/share/...
    Uri = "file:";
    Absolute = true;
  } else if (P.starts_with("/")) {
    Uri = "file://";
    Absolute = true;
  } else if (isWindowsDrivePath(P)) {
    Uri = "file:///";
    Absolute = true;
  }
  for (unsigned char C : P) {
    if (isPathChar(C, Absolute)) {
      Uri += C;
      continue;
    }
    Uri += '%';
    Uri += hexdigit(C >> 4, /*LowerCase=*/false);
    Uri += hexdigit(C & 0xF, /*LowerCase=*/false);
  }
  return Uri;
}

void writeSarif(raw_ostream &OS, const Results &R,
                const std::vector<RuleInfo> &Rules) {
  SarifWriter(OS, R, Rules).write();
  OS << '\n';
}

} // namespace rematch::tool
