//===--- OutputCodeClimate.cpp - GitLab Code Quality output ---------------===//
//
// GitLab's merge-request widget reads a Code Climate issue array
// (artifacts: reports: codequality:). GitLab keys issues by fingerprint, so
// the fingerprint is SARIF's: a finding keeps its identity in code scanning,
// baselines and GitLab alike.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace llvm;

namespace rematch::tool {

std::string codeClimatePath(StringRef File, StringRef BaseDir) {
  std::string Path = File.str();
  if (!BaseDir.empty() && sys::path::is_absolute(Path)) {
    SmallString<256> Base(BaseDir);
    sys::path::remove_dots(Base, /*remove_dot_dot=*/true);
    SmallString<256> Abs(Path);
    sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    StringRef Rest = Abs;
    if (Rest.consume_front(Base) && !Rest.empty() &&
        sys::path::is_separator(Rest.front())) {
      Rest = Rest.drop_while([](char C) { return sys::path::is_separator(C); });
      Path = Rest.str();
    }
  }
  StringRef P = Path;
  while (P.consume_front("./"))
    ;
  return P.str();
}

std::string codeClimateSeverity(StringRef Level) {
  // A finding is a wrong gradient waiting to happen, not a style nit.
  return Level == "error" ? "critical" : "major";
}

void writeCodeClimate(raw_ostream &OS, const Results &R, StringRef BaseDir) {
  std::vector<std::string> Fingerprints = fingerprints(R.Findings);
  {
    json::OStream J(OS, /*IndentSize=*/2);
    J.array([&] {
      for (size_t I = 0; I < R.Findings.size(); ++I) {
        const Finding &F = R.Findings[I];
        J.object([&] {
          J.attribute("type", "issue");
          J.attribute("check_name", F.Check);
          J.attribute("description", F.Message);
          J.attributeArray("categories", [&] { J.value("Bug Risk"); });
          J.attribute("severity", codeClimateSeverity(F.Level));
          J.attribute("fingerprint", Fingerprints[I]);
          J.attributeObject("location", [&] {
            J.attribute("path", codeClimatePath(F.Loc.File, BaseDir));
            J.attributeObject("lines", [&] {
              // Lines are 1-based; GitLab rejects 0.
              J.attribute("begin", std::max(F.Loc.Line, 1u));
            });
          });
          // The call chain, for Code Climate readers that show a body.
          if (!F.Notes.empty()) {
            std::string Body;
            for (const Note &N : F.Notes)
              Body += "- " + codeClimatePath(N.Loc.File, BaseDir) + ":" +
                      std::to_string(N.Loc.Line) + ": " + N.Message + "\n";
            J.attributeObject("content", [&] { J.attribute("body", Body); });
          }
        });
      }
    });
  }
  OS << '\n';
}

} // namespace rematch::tool
