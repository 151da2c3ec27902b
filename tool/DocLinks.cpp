//===--- DocLinks.cpp - where each check's documentation is ---------------===//

#include "DocLinks.h"
#include "Output.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

// Set by tool/CMakeLists.txt.
#ifndef REMATCH_DOCS_DIR
#define REMATCH_DOCS_DIR ""
#endif
#ifndef REMATCH_DOCS_URL
#define REMATCH_DOCS_URL ""
#endif
#ifndef REMATCH_DOCS_URL_EXTENSION
#define REMATCH_DOCS_URL_EXTENSION ".md"
#endif
// The installed docs relative to the installed program's directory, e.g.
// "../share/doc/rematch".
#ifndef REMATCH_INSTALLED_DOCS_FROM_BIN
#define REMATCH_INSTALLED_DOCS_FROM_BIN ""
#endif

using namespace llvm;

namespace rematch::tool {

std::string checkDocUri(StringRef Stem, const DocLocations &Where) {
  if (!Where.Url.empty())
    return Where.Url + "/checks/" + Stem.str() + Where.UrlExtension;
  const std::string &Dir =
      Where.InstalledDir.empty() ? Where.SourceDir : Where.InstalledDir;
  if (Dir.empty())
    return "";
  SmallString<256> Page(Dir);
  sys::path::append(Page, "checks", Stem + ".md");
  return pathToUri(Page);
}

namespace {

int AddressInThisProgram;

DocLocations findProgramDocLocations() {
  DocLocations Where;
  Where.Url = StringRef(REMATCH_DOCS_URL).rtrim('/').str();
  Where.UrlExtension = REMATCH_DOCS_URL_EXTENSION;
  Where.SourceDir = REMATCH_DOCS_DIR;
  StringRef FromBin = REMATCH_INSTALLED_DOCS_FROM_BIN;
  if (FromBin.empty())
    return Where;
  std::string Exe = sys::fs::getMainExecutable(nullptr, &AddressInThisProgram);
  if (Exe.empty())
    return Where;
  // In the build tree there is no such directory beside the program.
  SmallString<256> Dir(sys::path::parent_path(Exe));
  sys::path::append(Dir, FromBin);
  sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  SmallString<256> Probe(Dir);
  sys::path::append(Probe, "checks");
  if (sys::fs::is_directory(Probe))
    Where.InstalledDir = Dir.str().str();
  return Where;
}

} // namespace

const DocLocations &programDocLocations() {
  static const DocLocations Where = findProgramDocLocations();
  return Where;
}

} // namespace rematch::tool
