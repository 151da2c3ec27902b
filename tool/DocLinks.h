//===--- DocLinks.h - where each check's documentation is -------*- C++ -*-===//
//
// SARIF's helpUri and the HTML report link every check to its page. A
// packager may host the pages (REMATCH_DOCS_URL at configure time); an
// installed program links the pages installed beside it
// (<prefix>/share/doc/rematch/checks/); a program in its build tree links the
// source tree's docs/.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_DOCLINKS_H
#define REMATCH_TOOL_DOCLINKS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace rematch::tool {

struct DocLocations {
  std::string Url;          // REMATCH_DOCS_URL, without a trailing '/'
  std::string UrlExtension; // ".md" or ".html", with Url
  std::string InstalledDir; // the installed docs, when they exist
  std::string SourceDir;    // the source tree's docs/
};

// <Url>/checks/<Stem><UrlExtension>, else a file:// URI of
// <InstalledDir or SourceDir>/checks/<Stem>.md.
std::string checkDocUri(llvm::StringRef Stem, const DocLocations &Where);

// This program's: the configured URL, the installed docs found relative to
// the running executable, the source tree it was built from.
const DocLocations &programDocLocations();

} // namespace rematch::tool

#endif
