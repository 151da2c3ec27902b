//===--- Baseline.cpp - --baseline and --write-baseline -------------------===//

#include "Baseline.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace rematch::tool {

namespace {

llvm::Error baselineError(llvm::StringRef Path, const llvm::Twine &Msg) {
  return llvm::createStringError(Path + ": error: invalid baseline: " + Msg);
}

} // namespace

llvm::Expected<std::set<std::string>> parseBaseline(llvm::StringRef Sarif,
                                                    llvm::StringRef Path) {
  llvm::Expected<llvm::json::Value> Doc = llvm::json::parse(Sarif);
  if (!Doc)
    return baselineError(Path, "not JSON: " + llvm::toString(Doc.takeError()));
  const llvm::json::Object *Root = Doc->getAsObject();
  const llvm::json::Array *Runs = Root ? Root->getArray("runs") : nullptr;
  if (!Runs)
    return baselineError(Path, "not a SARIF log (no \"runs\" array)");

  std::set<std::string> Fingerprints;
  bool SawRematchRun = false;
  for (const llvm::json::Value &RunValue : *Runs) {
    const llvm::json::Object *Run = RunValue.getAsObject();
    if (!Run)
      return baselineError(Path, "a run is not an object");
    // A log may merge several tools' runs; only rematch's count.
    const llvm::json::Object *Tool = Run->getObject("tool");
    const llvm::json::Object *Driver =
        Tool ? Tool->getObject("driver") : nullptr;
    std::optional<llvm::StringRef> Name =
        Driver ? Driver->getString("name") : std::nullopt;
    if (!Name || *Name != "rematch")
      continue;
    SawRematchRun = true;
    const llvm::json::Array *Results = Run->getArray("results");
    if (!Results)
      continue; // SARIF allows a run without results: nothing known
    for (const llvm::json::Value &ResultValue : *Results) {
      const llvm::json::Object *Result = ResultValue.getAsObject();
      const llvm::json::Object *Partial =
          Result ? Result->getObject("partialFingerprints") : nullptr;
      std::optional<llvm::StringRef> FP =
          Partial ? Partial->getString("rematch/v1") : std::nullopt;
      if (!FP)
        return baselineError(Path, "a result has no "
                                   "partialFingerprints[\"rematch/v1\"]");
      Fingerprints.insert(FP->str());
    }
  }
  if (!SawRematchRun)
    return baselineError(Path, "no run of the tool \"rematch\" in the log");
  return Fingerprints;
}

llvm::Expected<std::set<std::string>> readBaseline(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError(
        Path + ": error: cannot read baseline: " + Buf.getError().message());
  return parseBaseline((*Buf)->getBuffer(), Path);
}

} // namespace rematch::tool
