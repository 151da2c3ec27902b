//===--- OutputJson.cpp - rematch's own JSON output -----------------------===//
//
// A flat, versioned format for scripts that find SARIF too heavy. Keys are
// written in a fixed order so the output diffs well; docs/output.md is the
// contract.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace rematch::tool {
namespace {

void writeLocation(json::OStream &J, const Location &Loc) {
  J.attribute("file", Loc.File);
  J.attribute("line", Loc.Line);
  J.attribute("column", Loc.Column);
}

void writeFile(json::OStream &J, const FileStatus &File) {
  J.object([&] {
    J.attribute("file", File.File);
    J.attribute("status", File.Status == FileStatus::State::Failed
                              ? "failed"
                              : "analysed");
    J.attributeArray("errors", [&] {
      for (const std::string &Error : File.Errors)
        J.value(Error);
    });
  });
}

void writeFinding(json::OStream &J, const Finding &F,
                  const std::string &Fingerprint) {
  J.object([&] {
    J.attribute("check", F.Check);
    J.attribute("level", F.Level);
    J.attribute("message", F.Message);
    writeLocation(J, F.Loc);
    J.attribute("fingerprint", Fingerprint);
    J.attributeArray("notes", [&] {
      for (const Note &N : F.Notes)
        J.object([&] {
          writeLocation(J, N.Loc);
          J.attribute("message", N.Message);
        });
    });
  });
}

} // namespace

void writeJson(raw_ostream &OS, const Results &R) {
  std::vector<std::string> Fingerprints = fingerprints(R.Findings);
  {
    json::OStream J(OS, /*IndentSize=*/2);
    J.object([&] {
      J.attribute("version", 1);
      J.attributeArray("files", [&] {
        for (const FileStatus &File : R.Files)
          writeFile(J, File);
      });
      J.attributeArray("findings", [&] {
        for (size_t I = 0; I < R.Findings.size(); ++I)
          writeFinding(J, R.Findings[I], Fingerprints[I]);
      });
    });
  }
  OS << '\n';
}

} // namespace rematch::tool
