//===--- ModelSet.cpp - the models in force for one configuration ---------===//

#include "ModelSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <mutex>

using namespace llvm;

namespace clang::tidy::rematch {

namespace {

// The configuration's per-family lists are model entries by another name.
void addConfigEntries(const Config &C, std::vector<ModelEntry> &Out) {
  auto Add = [&](const std::vector<std::string> &Names, ModelEffect E) {
    for (const std::string &N : Names) {
      ModelEntry M;
      M.Name = M.Id = trimmedName(N);
      M.Effect = E;
      M.HasEffect = true;
      M.File = C.Path;
      if (!M.Name.empty())
        Out.push_back(std::move(M));
    }
  };
  Add(C.LoggingFunctions, ModelEffect::Logging);
  Add(C.IoFunctions, ModelEffect::Io);
  Add(C.RngFunctions, ModelEffect::Rng);
  Add(C.ClockFunctions, ModelEffect::Nondeterminism);
}

} // namespace

ModelSet::ModelSet(std::vector<std::shared_ptr<const ModelFile>> InFiles,
                   const Config &C)
    : Files(std::move(InFiles)) {
  StringSet<> Disabled;
  for (const auto &F : Files)
    for (const std::string &Id : F->Disable)
      Disabled.insert(Id);
  addConfigEntries(C, ConfigEntries);

  auto AddNamed = [&](const ModelEntry &E) {
    if (!Disabled.contains(E.Id))
      ByName[E.Name].push_back(&E);
  };
  for (const auto &F : Files) {
    for (const ModelEntry &E : F->Functions)
      AddNamed(E);
    for (const ModelEntry &E : F->Rules)
      if (!Disabled.contains(E.Id))
        Rules.push_back(&E);
    for (const ModelTypes &T : F->Types)
      for (const std::string &N : T.Names)
        if (!Disabled.contains(N))
          Types[trimmedName(N)] |= 1u << unsigned(T.Kind);
    for (const std::string &M : F->ContainerMutators)
      ContainerMutators.insert(M);
    for (const ModelMember &M : F->Members) {
      Members.push_back(&M);
      MemberKinds |= 1u << unsigned(M.Kind);
    }
    for (const std::string &V : F->LogStreams)
      LogStreams.insert(trimmedName(V));
    for (const std::string &V : F->StdHandles)
      StdHandles.insert(V);
    for (const std::string &A : F->Analyse)
      Analysed.insert(trimmedName(A));
    for (const ModelSource &S : F->Sources)
      Sources[S.Name] = S;
    for (const ModelCallableObject &O : F->CallableObjects)
      if (!Disabled.contains(O.Class)) {
        ModelCallableObject &Copy = CallableObjects.emplace_back(O);
        Copy.Class = trimmedName(O.Class);
        for (std::string &H : Copy.Holders)
          H = trimmedName(H);
      }
    for (const ModelCallableHolder &H : F->CallableHolders)
      if (!Disabled.contains(H.Class)) {
        ModelCallableHolder &Copy = CallableHolders.emplace_back(H);
        Copy.Class = trimmedName(H.Class);
      }
    for (const ModelEntryPoint &P : F->EntryPoints)
      if (!Disabled.contains(P.Name)) {
        EntryPoints[trimmedName(P.Name)] = P.Replays;
        if (P.Callable)
          CallableArgs[trimmedName(P.Name)] = *P.Callable;
        if (P.ArgumentsFresh)
          FreshArguments.insert(trimmedName(P.Name));
      }
  }
  // The configuration's entries after the files': a project's list names
  // add to what a built-in model says of the same function.
  for (const ModelEntry &E : ConfigEntries)
    AddNamed(E);
  for (const std::string &N : C.ContainerTypes)
    Types[trimmedName(N)] |= 1u << unsigned(TypeKind::Container);
  for (const std::string &N : C.AllowedGlobals)
    AllowedGlobals.insert(trimmedName(N));
  for (const std::string &N : C.CheckpointFunctions) {
    std::string Name = trimmedName(N);
    auto It = C.CheckpointReplays.find(Name);
    std::vector<std::string> &Replays = EntryPoints[Name];
    if (It != C.CheckpointReplays.end())
      Replays = It->second;
    if (auto Arg = C.CheckpointCallable.find(Name);
        Arg != C.CheckpointCallable.end())
      CallableArgs[Name] = Arg->second;
    if (C.CheckpointFreshArguments.count(Name))
      FreshArguments.insert(Name);
  }
  indexOuterScopes();
}

void ModelSet::indexOuterScopes() {
  // A C function, named plainly, is found through std:: as well.
  for (const auto &Entry : ByName) {
    StringRef Name = Entry.getKey();
    OuterScopes.insert(Name.contains("::") ? Name.split("::").first : "std");
  }
  for (const ModelEntry *R : Rules) {
    if (R->Namespaces.empty() && R->Classes.empty())
      AnyUnscopedRule = true;
    for (const std::string &NS : R->Namespaces)
      OuterScopes.insert(StringRef(NS).split("::").first);
    for (const std::string &C : R->Classes)
      OuterScopes.insert(StringRef(C).split("::").first);
  }
  for (const auto &A : Analysed) {
    OuterScopes.insert(A.getKey().split("::").first);
    AnalysedOuter.insert(A.getKey().split("::").first);
  }
}

ArrayRef<const ModelEntry *> ModelSet::named(StringRef Name) const {
  auto It = ByName.find(Name);
  if (It == ByName.end())
    return {};
  return It->second;
}

unsigned ModelSet::typeKinds(StringRef ClassName) const {
  auto It = Types.find(ClassName);
  return It == Types.end() ? 0 : It->second;
}

bool ModelSet::isAnalysed(StringRef Scope) const {
  if (Analysed.empty())
    return false;
  // The scope itself or any enclosing one: a::b::C, a::b, a.
  for (StringRef S = Scope; !S.empty();) {
    if (Analysed.contains(S))
      return true;
    size_t Colon = S.rfind("::");
    if (Colon == StringRef::npos)
      break;
    S = S.take_front(Colon);
  }
  return false;
}

std::vector<std::string> ModelSet::analysedScopes() const {
  std::vector<std::string> Out;
  for (const auto &A : Analysed)
    Out.push_back(A.getKey().str());
  llvm::sort(Out);
  return Out;
}

std::vector<std::string> ModelSet::paths() const {
  std::vector<std::string> Out;
  for (const auto &F : Files)
    Out.push_back(F->Path);
  return Out;
}

const ModelSource *ModelSet::source(StringRef Name) const {
  auto It = Sources.find(Name);
  return It == Sources.end() ? nullptr : &It->second;
}

std::vector<std::pair<std::string, std::string>> ModelSet::replayers() const {
  std::vector<std::pair<std::string, std::string>> Out;
  for (const auto &[Name, S] : Sources)
    if (!S.ReplayedBy.empty())
      Out.emplace_back(S.ReplayedBy.front(), Name.str());
  llvm::sort(Out, [](const auto &A, const auto &B) {
    return A.second < B.second;
  });
  return Out;
}

// --- loading ----------------------------------------------------------------

namespace {

bool isDirectory(const Twine &P) { return sys::fs::is_directory(P); }

} // namespace

namespace {

// share/rematch/models beside a module in bin/ or lib/ (../share), or in a
// multiarch lib/<triple>/ (../../share).
std::string modelsBeside(StringRef Module) {
  if (Module.empty())
    return {};
  SmallString<256> Real;
  if (sys::fs::real_path(Module, Real))
    return {};
  for (int Up : {1, 2}) {
    SmallString<256> Candidate = sys::path::parent_path(Real);
    for (int I = 0; I < Up; ++I)
      sys::path::append(Candidate, "..");
    sys::path::append(Candidate, "share", "rematch", "models");
    sys::path::remove_dots(Candidate, /*remove_dot_dot=*/true);
    if (isDirectory(Candidate))
      return std::string(Candidate);
  }
  return {};
}

std::string findBuiltinModels() {
  // An explicit directory (a packager's layout, the unit tests).
  if (const char *Env = std::getenv("REMATCH_MODELS_DIR"); Env && *Env)
    return std::string(Env);
  // The plugin this code is in, as dlopen was given it; for the program,
  // that is its argv[0], which may be a bare name found on PATH: then the
  // executable itself.
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&findBuiltinModels), &Info) &&
      Info.dli_fname && StringRef(Info.dli_fname).contains('/'))
    if (std::string Dir = modelsBeside(Info.dli_fname); !Dir.empty())
      return Dir;
  return modelsBeside(sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&findBuiltinModels)));
}

// Found when the program or plugin is loaded, before clang's tools change
// the working directory a relative module path is relative to.
[[maybe_unused]] const std::string &BuiltinModelsDir = builtinModelsDir();

} // namespace

std::vector<std::string> builtinModelFiles(const std::string &Dir) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::extension(It->path()) == ".yaml")
      Out.push_back(It->path());
  llvm::sort(Out);
  return Out;
}

std::string builtinModelsDir() {
  static const std::string Dir = findBuiltinModels();
  return Dir;
}

namespace {

// Every model file is read once per process, whichever configuration names
// it; a file that fails keeps failing with the same message.
Expected<std::shared_ptr<const ModelFile>> loadOnce(const std::string &Path) {
  static std::mutex Mutex;
  static std::map<std::string, std::shared_ptr<const ModelFile>> Loaded;
  static std::map<std::string, std::string> Failed;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (auto It = Loaded.find(Path); It != Loaded.end())
    return It->second;
  if (auto It = Failed.find(Path); It != Failed.end())
    return createStringError(std::errc::invalid_argument, "%s",
                             It->second.c_str());
  Expected<ModelFile> F = loadModelFile(Path);
  if (!F) {
    std::string Message = toString(F.takeError());
    Failed[Path] = Message;
    return createStringError(std::errc::invalid_argument, "%s",
                             Message.c_str());
  }
  auto Shared = std::make_shared<const ModelFile>(std::move(*F));
  Loaded[Path] = Shared;
  return Shared;
}

// What makes two configurations' model sets differ.
std::string configKey(const Config &C) {
  std::string K;
  auto Add = [&](StringRef Tag, const std::vector<std::string> &L) {
    K += Tag;
    for (const std::string &S : L)
      K += S + '\x1f';
    K += '\x1e';
  };
  Add("M", C.Models);
  Add("L", C.LoggingFunctions);
  Add("I", C.IoFunctions);
  Add("R", C.RngFunctions);
  Add("C", C.ClockFunctions);
  Add("T", C.ContainerTypes);
  Add("A", C.AllowedGlobals);
  Add("E", C.CheckpointFunctions);
  for (const auto &[Name, Replays] : C.CheckpointReplays)
    Add("P" + Name, Replays);
  for (const auto &[Name, Arg] : C.CheckpointCallable)
    Add("K" + Name, {std::to_string(Arg)});
  Add("F", {C.CheckpointFreshArguments.begin(),
            C.CheckpointFreshArguments.end()});
  return K;
}

} // namespace

Expected<std::shared_ptr<const ModelSet>> modelsFor(const Config &C) {
  static std::mutex Mutex;
  static std::map<std::string, std::shared_ptr<const ModelSet>> Sets;
  std::string Key = configKey(C);
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (auto It = Sets.find(Key); It != Sets.end())
      return It->second;
  }
  std::string Dir = builtinModelsDir();
  if (Dir.empty())
    return createStringError(
        std::errc::no_such_file_or_directory,
        "rematch: error: cannot find the built-in models (share/rematch/"
        "models beside the program, or REMATCH_MODELS_DIR)");
  std::vector<std::string> Paths = builtinModelFiles(Dir);
  for (const std::string &P : C.Models)
    Paths.push_back(P);
  std::vector<std::shared_ptr<const ModelFile>> Files;
  for (const std::string &P : Paths) {
    Expected<std::shared_ptr<const ModelFile>> F = loadOnce(P);
    if (!F)
      return F.takeError();
    Files.push_back(std::move(*F));
  }
  auto Set = std::make_shared<const ModelSet>(std::move(Files), C);
  std::lock_guard<std::mutex> Lock(Mutex);
  return Sets.try_emplace(Key, std::move(Set)).first->second;
}

const ModelMember *ModelSet::member(TypeKind K, llvm::StringRef Name) const {
  // The last that names it: a project's file comes after the built-in ones.
  for (auto It = Members.rbegin(); It != Members.rend(); ++It) {
    if ((*It)->Kind != K)
      continue;
    for (llvm::StringRef N : (*It)->Names)
      if (N.ends_with("*") ? Name.starts_with(N.drop_back()) : Name == N)
        return *It;
  }
  return nullptr;
}

} // namespace clang::tidy::rematch
