//===--- ExternalSummaries.cpp - other translation units' effects ---------===//

#include "ExternalSummaries.h"
#include "llvm/Support/FileSystem.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/STLExtras.h"
#include <mutex>

namespace clang::tidy::rematch {

void ExternalSummaries::addFunction(FunctionEffects F) {
  std::string Usr = F.Usr;
  Functions.try_emplace(Usr, std::move(F));
}

void ExternalSummaries::add(const TUSummary &S) {
  for (const std::string &G : S.GlobalsWritten)
    Modifiable.insert(G);
  for (const std::string &G : S.GlobalsEscaping)
    Modifiable.insert(G);
  for (const SummaryOverride &O : S.Overrides) {
    std::vector<SummaryOverride> &List = Overrides[O.Method];
    // An override defined in a header is in every TU that includes it.
    if (llvm::none_of(List, [&](const SummaryOverride &Known) {
          return Known.Override == O.Override;
        }))
      List.push_back(O);
  }
  for (const SummaryHeld &H : S.Held) {
    std::vector<SummaryHeld> &List = Held[H.Place];
    // A store in a header is in every TU that includes it.
    if (llvm::none_of(List, [&](const SummaryHeld &Known) {
          return Known.Callable == H.Callable;
        }))
      List.push_back(H);
  }
  for (const SummaryCheckpoint &C : S.Checkpoints) {
    Checkpoints[C.Usr].push_back(C);
    llvm::StringRef Name = C.Name;
    size_t Colon = Name.rfind("::");
    CheckpointedNames.insert(Colon == llvm::StringRef::npos
                                 ? Name
                                 : Name.drop_front(Colon + 2));
  }
}

namespace {
template <class T>
llvm::ArrayRef<T> listOf(const llvm::StringMap<std::vector<T>> &Map,
                         llvm::StringRef Key) {
  auto It = Map.find(Key);
  return It == Map.end() ? llvm::ArrayRef<T>() : llvm::ArrayRef<T>(It->second);
}
} // namespace

llvm::ArrayRef<SummaryOverride>
ExternalSummaries::overridesOf(llvm::StringRef Usr) const {
  return listOf(Overrides, Usr);
}

llvm::ArrayRef<SummaryHeld>
ExternalSummaries::heldIn(llvm::StringRef Place) const {
  return listOf(Held, Place);
}

llvm::ArrayRef<SummaryCheckpoint>
ExternalSummaries::checkpointsOf(llvm::StringRef Usr) const {
  return listOf(Checkpoints, Usr);
}

const FunctionEffects *ExternalSummaries::lookup(llvm::StringRef Usr) const {
  auto It = Functions.find(Usr);
  return It == Functions.end() ? nullptr : &It->second;
}

// The dependency keys that are not a function's USR, by prefix.
constexpr llvm::StringLiteral GlobalKey = "global:";
constexpr llvm::StringLiteral CheckpointedKey = "checkpointed:";
constexpr llvm::StringLiteral OverridesKey = "overrides:";
constexpr llvm::StringLiteral HeldKey = "held:";

std::string globalDependency(llvm::StringRef Usr) {
  return (GlobalKey + Usr).str();
}

std::string checkpointDependency(llvm::StringRef Usr) {
  return (CheckpointedKey + Usr).str();
}

std::string overridesDependency(llvm::StringRef Usr) {
  return (OverridesKey + Usr).str();
}

std::string heldDependency(llvm::StringRef Usr) {
  return (HeldKey + Usr).str();
}

bool isGlobalDependency(llvm::StringRef Key) {
  return Key.starts_with(GlobalKey);
}

bool isOverridesDependency(llvm::StringRef Key) {
  return Key.starts_with(OverridesKey);
}

llvm::StringRef overriddenMethod(llvm::StringRef Key) {
  return isOverridesDependency(Key) ? Key.drop_front(OverridesKey.size())
                                    : llvm::StringRef();
}

bool isProgramFactKey(llvm::StringRef Key) {
  return Key.starts_with(GlobalKey) || Key.starts_with(CheckpointedKey) ||
         Key.starts_with(OverridesKey) || isOwnerDependency(Key) ||
         Key.starts_with(HeldKey);
}

bool ExternalSummaries::reportsIn(llvm::StringRef Callable,
                                  llvm::StringRef MainFile) const {
  auto It = Owners.find(Callable);
  return It == Owners.end() || It->second == MainFile;
}

namespace {
std::string hashKeys(std::vector<std::string> Keys) {
  llvm::sort(Keys);
  std::string All;
  for (const std::string &K : Keys)
    All += K + "\x1e";
  return hashText(All);
}
} // namespace

std::string ExternalSummaries::hashOf(llvm::StringRef Usr) const {
  if (Usr.consume_front(OverridesKey)) {
    std::vector<std::string> Keys;
    for (const SummaryOverride &O : overridesOf(Usr)) {
      std::string K = O.Override;
      for (const std::string &C : O.Classes)
        K += "\x1f" + C;
      Keys.push_back(std::move(K));
    }
    return Keys.empty() ? "none" : hashKeys(std::move(Keys));
  }
  if (Usr.consume_front(HeldKey)) {
    std::vector<std::string> Keys;
    for (const SummaryHeld &H : heldIn(Usr))
      Keys.push_back(H.Callable + "\x1f" + H.StoredAt.File + ":" +
                     std::to_string(H.StoredAt.Line) + ":" +
                     std::to_string(H.StoredAt.Column));
    return Keys.empty() ? "none" : hashKeys(std::move(Keys));
  }
  if (llvm::StringRef Callable, MainFile;
      splitOwnerDependency(Usr, Callable, MainFile))
    return reportsIn(Callable, MainFile) ? "yes" : "no";
  if (Usr.consume_front(GlobalKey))
    return isModifiable(Usr) ? "written" : "constant";
  if (Usr.consume_front(CheckpointedKey)) {
    llvm::ArrayRef<SummaryCheckpoint> Sites = checkpointsOf(Usr);
    if (Sites.empty())
      return "none";
    // The sites in a fixed order, whichever TU was merged first.
    std::vector<std::string> Keys;
    for (const SummaryCheckpoint &C : Sites) {
      std::string K = C.Kind + "\x1f" + C.Name + "\x1f" + C.EntryPoint +
                      "\x1f" + C.Call.File + ":" +
                      std::to_string(C.Call.Line) + ":" +
                      std::to_string(C.Call.Column);
      for (const std::string &R : C.Replays)
        K += "\x1f" + R;
      Keys.push_back(std::move(K));
    }
    return hashKeys(std::move(Keys));
  }
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

// Where each class local to a function (a lambda's closure above all) among
// Args is: "@L<offset>" in its file.
void addLocalClasses(llvm::ArrayRef<TemplateArgument> Args,
                     const SourceManager &SM, std::string &Out) {
  for (const TemplateArgument &A : Args) {
    if (A.getKind() == TemplateArgument::Pack) {
      addLocalClasses(A.getPackAsArray(), SM, Out);
      continue;
    }
    if (A.getKind() != TemplateArgument::Type)
      continue;
    QualType T = A.getAsType().getNonReferenceType();
    const CXXRecordDecl *RD = T->getPointeeOrArrayElementType()
                                  ->getAsCXXRecordDecl();
    if (RD && (RD->isLambda() || RD->isLocalClass()))
      Out += "@L" + std::to_string(SM.getFileOffset(
                        SM.getExpansionLoc(RD->getLocation())));
  }
}

} // namespace

std::string usrOf(const Decl &D) {
  llvm::SmallString<128> Buf;
  if (index::generateUSRForDecl(&D, Buf))
    return {};
  std::string Usr(Buf);
  // Clang names a lambda's closure type by the function it is written in
  // only: two instantiations of one template for two lambdas of that
  // function would share a USR, and a summary would mix their facts.
  const SourceManager &SM = D.getASTContext().getSourceManager();
  if (const auto *FD = dyn_cast<FunctionDecl>(&D))
    if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs())
      addLocalClasses(Args->asArray(), SM, Usr);
  for (const DeclContext *DC = D.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(DC))
      addLocalClasses(CTS->getTemplateArgs().asArray(), SM, Usr);
  return Usr;
}

} // namespace clang::tidy::rematch
