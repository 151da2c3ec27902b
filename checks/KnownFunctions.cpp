//===--- KnownFunctions.cpp - library functions with known effects -------===//

#include "KnownFunctions.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"

namespace clang::tidy::rematch {

namespace {

// C library functions: reached as ::name or std::name, keyed by plain name.
constexpr const char *CLogging[] = {"printf", "vprintf", "puts",  "putchar",
                                    "perror", "syslog",  "vsyslog"};
constexpr const char *CIo[] = {
    "fopen", "freopen", "fclose", "fread",  "fwrite", "fgets",  "fgetc",
    "getc",  "fscanf",  "system", "popen",  "pclose", "open",   "read",
    "pread", "pwrite",  "remove", "rename", "unlink", "mkdir",  "rmdir",
    "creat", "fsync",   "ftruncate", "truncate"};
constexpr const char *CRng[] = {"rand",    "random",  "drand48", "lrand48",
                                "mrand48", "erand48", "nrand48", "jrand48",
                                "rand_r",  "arc4random", "getrandom"};
constexpr const char *CClock[] = {"time",          "clock",
                                  "clock_gettime", "gettimeofday",
                                  "getenv",        "secure_getenv",
                                  "timespec_get",  "getpid"};

constexpr const char *CxxLogging[] = {
    "std::print",       "std::println",     "fmt::print",
    "fmt::println",     "spdlog::info",     "spdlog::warn",
    "spdlog::error",    "spdlog::debug",    "spdlog::trace",
    "spdlog::critical", "spdlog::log",      "spdlog::logger::info",
    "spdlog::logger::warn", "spdlog::logger::error", "spdlog::logger::debug",
    "spdlog::logger::trace", "spdlog::logger::critical", "spdlog::logger::log",
    "google::LogMessage::LogMessage", "google::LogMessage::stream"};
constexpr const char *CxxClock[] = {
    "std::chrono::system_clock::now", "std::chrono::steady_clock::now",
    "std::chrono::high_resolution_clock::now", "std::chrono::utc_clock::now",
    "std::chrono::file_clock::now", "std::this_thread::get_id"};

constexpr const char *StdContainers[] = {
    "std::vector",        "std::deque",         "std::list",
    "std::forward_list",  "std::map",           "std::multimap",
    "std::unordered_map", "std::unordered_multimap", "std::set",
    "std::multiset",      "std::unordered_set", "std::unordered_multiset",
    "std::basic_string",  "std::queue",         "std::stack",
    "std::priority_queue"};

constexpr const char *RandomEngines[] = {
    "std::mt19937", "std::mt19937_64", "std::minstd_rand", "std::minstd_rand0",
    "std::ranlux24", "std::ranlux48", "std::knuth_b",
    "std::default_random_engine",
    "std::mersenne_twister_engine", "std::linear_congruential_engine",
    "std::subtract_with_carry_engine", "std::discard_block_engine",
    "std::independent_bits_engine", "std::shuffle_order_engine"};

constexpr const char *FileStreams[] = {
    "std::basic_ofstream", "std::basic_ifstream", "std::basic_fstream",
    "std::basic_filebuf",  "std::ofstream",       "std::ifstream",
    "std::fstream"};

void add(llvm::StringMap<Family> &Map, llvm::ArrayRef<const char *> Names,
         Family F) {
  for (const char *N : Names)
    Map[N] = F;
}

void add(llvm::StringMap<Family> &Map, const std::vector<std::string> &Names,
         Family F) {
  for (const std::string &N : Names) {
    llvm::StringRef S = llvm::StringRef(N).trim();
    S.consume_front("::");
    Map[S] = F;
  }
}

bool isCLibraryName(llvm::StringRef Name) {
  static const llvm::StringSet<> All = [] {
    llvm::StringSet<> S;
    for (llvm::ArrayRef<const char *> List : {llvm::ArrayRef<const char *>(CLogging),
                       llvm::ArrayRef<const char *>(CIo),
                       llvm::ArrayRef<const char *>(CRng),
                       llvm::ArrayRef<const char *>(CClock)})
      for (const char *N : List)
        S.insert(N);
    for (const char *N : {"fprintf", "vfprintf", "fputs", "fputc", "putc",
                          "write", "fflush"})
      S.insert(N);
    return S;
  }();
  return All.contains(Name);
}

} // namespace

std::string canonicalName(const NamedDecl &D) {
  PrintingPolicy Policy(D.getASTContext().getLangOpts());
  Policy.SuppressInlineNamespace = true;
  Policy.SuppressUnwrittenScope = true;
  Policy.SuppressTemplateArgsInCXXConstructors = true;
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  D.printQualifiedName(OS, Policy);
  OS.flush();
  llvm::StringRef Ref(Name);
  if (Ref.starts_with("std::") && isCLibraryName(Ref.drop_front(5)))
    return Ref.drop_front(5).str();
  return Name;
}

KnownFunctions::KnownFunctions(const Config &C) {
  add(Functions, CLogging, Family::Logging);
  add(Functions, CIo, Family::Io);
  add(Functions, CRng, Family::Rng);
  add(Functions, CClock, Family::Clock);
  add(Functions, CxxLogging, Family::Logging);
  add(Functions, CxxClock, Family::Clock);
  Functions["std::system"] = Family::Io;
  Functions["std::random_device::operator()"] = Family::Rng;
  add(Functions, C.LoggingFunctions, Family::Logging);
  add(Functions, C.IoFunctions, Family::Io);
  add(Functions, C.RngFunctions, Family::Rng);
  add(Functions, C.ClockFunctions, Family::Clock);

  for (const char *N : StdContainers)
    Containers.insert(N);
  for (const std::string &N : C.ContainerTypes) {
    llvm::StringRef S = llvm::StringRef(N).trim();
    S.consume_front("::");
    Containers.insert(S);
  }
  for (const std::string &N : C.AllowedGlobals) {
    llvm::StringRef S = llvm::StringRef(N).trim();
    S.consume_front("::");
    AllowedGlobals.insert(S);
  }
}

Family KnownFunctions::classify(const FunctionDecl &FD) const {
  // Printing a qualified name is the expensive part: once per function.
  auto [It, Inserted] = FamilyCache.try_emplace(&FD, Family::None);
  if (!Inserted)
    return It->second;
  // Constructors are listed as Class::Class; spdlog's free functions are
  // templates whose printed names carry no arguments, so the plain lookup
  // covers them.
  auto Known = Functions.find(canonicalName(FD));
  Family F = Known == Functions.end() ? Family::None : Known->second;
  FamilyCache[&FD] = F;
  return F;
}

const KnownFunctions::ClassInfo &KnownFunctions::classInfo(QualType T) const {
  static const ClassInfo None;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType().getCanonicalType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return None;
  auto [It, Inserted] = Classes.try_emplace(RD);
  if (!Inserted)
    return It->second;
  ClassInfo &I = It->second;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    I.Name = canonicalName(*Spec->getSpecializedTemplate());
  else
    I.Name = canonicalName(*RD);
  const std::string &N = I.Name;
  if (!N.empty() && Containers.contains(N))
    I.Kinds |= Container;
  if (N == "std::map" || N == "std::unordered_map")
    I.Kinds |= MapLike;
  if (llvm::is_contained(RandomEngines, llvm::StringRef(N)))
    I.Kinds |= RandomEngine;
  if (N == "std::random_device")
    I.Kinds |= RandomDevice;
  if (N == "rematch::Generator")
    I.Kinds |= ReplayedGenerator;
  if (llvm::is_contained(FileStreams, llvm::StringRef(N)))
    I.Kinds |= FileStream;
  return I;
}

const std::string &KnownFunctions::className(QualType T) const {
  return classInfo(T).Name;
}

bool KnownFunctions::isContainer(QualType T) const { return is(T, Container); }
bool KnownFunctions::isMapLike(QualType T) const { return is(T, MapLike); }
bool KnownFunctions::isRandomEngine(QualType T) const {
  return is(T, RandomEngine);
}
bool KnownFunctions::isRandomDevice(QualType T) const {
  return is(T, RandomDevice);
}
bool KnownFunctions::isReplayedGenerator(QualType T) const {
  return is(T, ReplayedGenerator);
}
bool KnownFunctions::isFileStream(QualType T) const { return is(T, FileStream); }

bool KnownFunctions::isAllowedGlobal(const NamedDecl &D) const {
  return AllowedGlobals.contains(canonicalName(D));
}

bool KnownFunctions::isMutatingContainerMethod(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = {
      "insert",     "emplace",      "emplace_back", "emplace_front",
      "emplace_hint", "push_back",  "push_front",   "pop_back",
      "pop_front",  "try_emplace",  "insert_or_assign", "erase",
      "clear",      "resize",       "push",         "pop",
      "assign",     "append",       "merge",        "extract"};
  return Names.contains(Name);
}

} // namespace clang::tidy::rematch
