//===--- ExternalSummaries.cpp - other translation units' effects ---------===//

#include "ExternalSummaries.h"
#include "clang/AST/Decl.h"
#include "clang/Index/USRGeneration.h"
#include <mutex>

namespace clang::tidy::rematch {

void ExternalSummaries::add(const TUSummary &S) {
  for (const FunctionEffects &F : S.Functions)
    Functions.try_emplace(F.Usr, F);
  for (const std::string &G : S.GlobalsWritten)
    Modifiable.insert(G);
  for (const std::string &G : S.GlobalsEscaping)
    Modifiable.insert(G);
}

const FunctionEffects *ExternalSummaries::lookup(llvm::StringRef Usr) const {
  auto It = Functions.find(Usr);
  return It == Functions.end() ? nullptr : &It->second;
}

std::string ExternalSummaries::hashOf(llvm::StringRef Usr) const {
  const FunctionEffects *F = lookup(Usr);
  if (!F)
    return "absent";
  std::lock_guard<std::mutex> Lock(HashMutex);
  auto [It, Inserted] = Hashes.try_emplace(Usr);
  if (Inserted)
    It->second = hashFunctionEffects(*F);
  return It->second;
}

bool ExternalSummaries::isModifiable(llvm::StringRef Usr) const {
  return Modifiable.contains(Usr);
}

bool ExternalSummaries::isModifiable(const VarDecl &VD) const {
  std::string Usr = usrOf(VD);
  return !Usr.empty() && isModifiable(Usr);
}

namespace {
std::mutex Mutex;
std::shared_ptr<const ExternalSummaries> Installed;
SummarySink Sink;
} // namespace

void setExternalSummaries(std::shared_ptr<const ExternalSummaries> S) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Installed = std::move(S);
}

std::shared_ptr<const ExternalSummaries> getExternalSummaries() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Installed;
}

void setSummarySink(SummarySink S) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Sink = std::move(S);
}

SummarySink getSummarySink() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Sink;
}

std::string usrOf(const Decl &D) {
  llvm::SmallString<128> Buf;
  if (index::generateUSRForDecl(&D, Buf))
    return {};
  return std::string(Buf);
}

} // namespace clang::tidy::rematch
