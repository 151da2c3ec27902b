//===--- Summary.cpp - effect summaries that cross translation units ------===//

#include "Summary.h"
#include "SummaryJson.h"
#include "clang/Basic/FileManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <iterator>
#include <optional>

namespace clang::tidy::rematch {

char SummaryError::ID;

namespace {

// An effect kind's name in a summary is its check's stem.
const char *const KindNames[] = {
#define REMATCH_CHECK(Name, Class, Stem, Kind, Description) Stem,
#include "Checks.def"
};
static_assert(std::size(KindNames) == NumEffectKinds,
              "one name per effect kind");
const char *const RootNames[] = {"local",   "static",        "this",
                                 "param",   "capture",       "unconditional",
                                 "returned"};
static_assert(std::size(RootNames) == Root::Returned + 1,
              "one name per root kind");

} // namespace

const char *effectKindName(EffectKind K) { return KindNames[int(K)]; }

std::optional<EffectKind> effectKindNamed(llvm::StringRef Name) {
  for (unsigned I = 0; I < NumEffectKinds; ++I)
    if (Name == KindNames[I])
      return EffectKind(I);
  return std::nullopt;
}

namespace {

bool hasIndex(Root::Kind K) { return K == Root::Param || K == Root::Returned; }

// A root in a call: "static", "this", "param2", "returned0", ...
std::string rootText(const Root &R) {
  std::string Out = RootNames[int(R.K)];
  if (hasIndex(R.K))
    Out += std::to_string(R.Index);
  return Out;
}

// The inverse of rootText, for exactly the texts rootText writes.
std::optional<Root> parseRoot(llvm::StringRef Whole) {
  llvm::StringRef Text = Whole;
  for (unsigned I = 0; I < std::size(RootNames); ++I) {
    llvm::StringRef Name = RootNames[I];
    if (!Text.consume_front(Name))
      continue;
    unsigned Index = 0;
    if (hasIndex(Root::Kind(I))) {
      if (Text.getAsInteger(10, Index) || Index > 0xffffu)
        return std::nullopt;
    } else if (!Text.empty()) {
      return std::nullopt;
    }
    Root R = Root::of(Root::Kind(I), Index);
    if (rootText(R) != Whole) // "param07"
      return std::nullopt;
    return R;
  }
  return std::nullopt;
}

// Reads fields strictly: a missing or mistyped field is an error, so a
// truncated or foreign file is never half-trusted.
class Reader {
public:
  explicit Reader(llvm::StringRef Path) : Path(Path) {}
  llvm::StringRef path() const { return Path; }

  llvm::Error error(const llvm::Twine &What) const {
    return llvm::make_error<SummaryError>(
        Path.str(), ("invalid summary file: " + What).str());
  }

  llvm::Expected<const sj::Object *> object(const sj::Value &V,
                                                    llvm::StringRef What) {
    if (const sj::Object *O = V.getAsObject())
      return O;
    return error(What + " is not an object");
  }

  llvm::Expected<std::string> string(const sj::Object &O,
                                     llvm::StringRef Key) {
    if (std::optional<llvm::StringRef> S = O.getString(Key))
      return S->str();
    return error("'" + Key + "' is missing or not a string");
  }

  llvm::Expected<int64_t> integer(const sj::Object &O,
                                  llvm::StringRef Key, int64_t Min,
                                  int64_t Max) {
    std::optional<int64_t> I = O.getInteger(Key);
    if (!I)
      return error("'" + Key + "' is missing or not an integer");
    if (*I < Min || *I > Max)
      return error("'" + Key + "' is out of range");
    return *I;
  }

  llvm::Expected<const sj::Array *> array(const sj::Object &O,
                                                  llvm::StringRef Key) {
    if (const sj::Array *A = O.getArray(Key))
      return A;
    return error("'" + Key + "' is missing or not an array");
  }

  // An array of objects (each a What) with two strings each: the inputs'
  // file and hash, the dependencies' key and hash.
  llvm::Error pairs(const sj::Object &O, llvm::StringRef Key,
                    llvm::StringRef What, llvm::StringRef First,
                    llvm::StringRef Second,
                    std::vector<std::pair<std::string, std::string>> &Out) {
    auto A = array(O, Key);
    if (!A)
      return A.takeError();
    for (const sj::Value &V : **A) {
      auto Obj = object(V, What);
      if (!Obj)
        return Obj.takeError();
      auto One = string(**Obj, First);
      if (!One)
        return One.takeError();
      auto Two = string(**Obj, Second);
      if (!Two)
        return Two.takeError();
      Out.emplace_back(std::move(*One), std::move(*Two));
    }
    return llvm::Error::success();
  }

  template <size_t N>
  llvm::Expected<unsigned> name(const sj::Object &O,
                                llvm::StringRef Key,
                                const char *const (&Names)[N]) {
    llvm::Expected<std::string> S = string(O, Key);
    if (!S)
      return S.takeError();
    for (unsigned I = 0; I < N; ++I)
      if (*S == Names[I])
        return I;
    return error("unknown " + Key + " '" + *S + "'");
  }

  llvm::Expected<PlainLocation> location(const sj::Value &V) {
    auto O = object(V, "location");
    if (!O)
      return O.takeError();
    PlainLocation L;
    auto File = string(**O, "file");
    auto Line = integer(**O, "line", 0, UINT32_MAX);
    auto Col = integer(**O, "column", 0, UINT32_MAX);
    if (!File)
      return File.takeError();
    if (!Line)
      return Line.takeError();
    if (!Col)
      return Col.takeError();
    L.File = *File;
    L.Line = *Line;
    L.Column = *Col;
    return L;
  }

  // The location Key of O, which a What must have.
  llvm::Expected<PlainLocation> requiredLocation(const sj::Object &O,
                                                 llvm::StringRef Key,
                                                 llvm::StringRef What) {
    const sj::Value *V = O.get(Key);
    if (!V)
      return error("a " + What + " has no '" + Key + "'");
    return location(*V);
  }

  // The array Key of O, each element read with Read (Reader &, const
  // sj::Value &) -> llvm::Expected<T>, appended to Out.
  template <class T, class ReadFn>
  llvm::Error each(const sj::Object &O, llvm::StringRef Key, ReadFn Read,
                   std::vector<T> &Out) {
    auto A = array(O, Key);
    if (!A)
      return A.takeError();
    for (const sj::Value &V : **A) {
      llvm::Expected<T> X = Read(*this, V);
      if (!X)
        return X.takeError();
      Out.push_back(std::move(*X));
    }
    return llvm::Error::success();
  }

  // The strings Keys name in O, each into its field.
  llvm::Error fields(
      const sj::Object &O,
      std::initializer_list<std::pair<const char *, std::string *>> Keys) {
    for (auto [Key, Field] : Keys) {
      auto Value = string(O, Key);
      if (!Value)
        return Value.takeError();
      *Field = std::move(*Value);
    }
    return llvm::Error::success();
  }

  // A boolean written only when set: Out stays false when Key is absent.
  llvm::Error flag(const sj::Object &O, llvm::StringRef Key, bool &Out) {
    if (!O.get(Key))
      return llvm::Error::success();
    std::optional<bool> B = O.getBoolean(Key);
    if (!B)
      return error("'" + Key + "' is not a boolean");
    Out = *B;
    return llvm::Error::success();
  }

  llvm::Error strings(const sj::Object &O, llvm::StringRef Key,
                      std::vector<std::string> &Out) {
    auto A = array(O, Key);
    if (!A)
      return A.takeError();
    for (const sj::Value &V : **A) {
      std::optional<llvm::StringRef> S = V.getAsString();
      if (!S)
        return error("'" + Key + "' holds a non-string");
      Out.push_back(S->str());
    }
    return llvm::Error::success();
  }

private:
  llvm::StringRef Path;
};

llvm::Expected<SummaryStep> readStep(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "step");
  if (!O)
    return O.takeError();
  SummaryStep Step;
  if (llvm::Error E = R.fields(**O, {{"function", &Step.Function},
                                     {"callee", &Step.Callee}}))
    return std::move(E);
  auto Loc = R.requiredLocation(**O, "location", "step");
  if (!Loc)
    return Loc.takeError();
  Step.Loc = *Loc;
  return Step;
}

// The fields of an effect written only when set: most effects come from no
// model and go through no alias.
llvm::Error readOptional(Reader &R, const sj::Object &O, SummaryEffect &E) {
  for (auto [Key, Field] :
       {std::pair<const char *, std::string *>{"rng_source", &E.RngSource},
        {"rng_source_text", &E.RngSourceText},
        {"draws", &E.Draws},
        {"may", &E.May},
        {"via", &E.Via},
        {"via_call", &E.ViaCall}}) {
    if (!O.get(Key))
      continue;
    auto V = R.string(O, Key);
    if (!V)
      return V.takeError();
    *Field = *V;
  }
  for (auto [Key, Field] :
       {std::pair<const char *, PlainLocation *>{"mutated_at", &E.MutatedAt},
        {"alias_at", &E.AliasAt}}) {
    const sj::Value *L = O.get(Key);
    if (!L)
      continue;
    auto Loc = R.location(*L);
    if (!Loc)
      return Loc.takeError();
    if (!Loc->Line) // line 0 means none, which is not written
      return R.error("'" + llvm::Twine(Key) + "' has line 0");
    *Field = *Loc;
  }
  if (O.get("mutated_slot")) {
    auto Slot = R.integer(O, "mutated_slot", 1, 0xffff);
    if (!Slot)
      return Slot.takeError();
    E.MutatedSlot = *Slot;
  }
  if (O.get("returned_read")) {
    std::optional<bool> B = O.getBoolean("returned_read");
    if (!B || !*B) // written only when true
      return R.error("'returned_read' is not true");
    E.ReturnedRead = true;
  }
  return llvm::Error::success();
}

// An effect's fields, each checked where it is read.
llvm::Expected<SummaryEffect> readEffect(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "effect");
  if (!O)
    return O.takeError();
  SummaryEffect E;
  auto Kind = R.name(**O, "kind", KindNames);
  if (!Kind)
    return Kind.takeError();
  E.Kind = EffectKind(*Kind);
  auto RootKind = R.name(**O, "root", RootNames);
  if (!RootKind)
    return RootKind.takeError();
  auto Index = R.integer(**O, "index", 0, 0xffff);
  if (!Index)
    return Index.takeError();
  E.Target = Root::of(Root::Kind(*RootKind), *Index);
  if (llvm::Error Err = R.fields(**O, {{"subject", &E.Subject},
                                       {"detail", &E.Detail},
                                       {"var", &E.VarUsr}}))
    return std::move(Err);
  std::optional<bool> Virtual = (*O)->getBoolean("virtual");
  if (!Virtual)
    return R.error("'virtual' is missing or not a boolean");
  E.Virtual = *Virtual;
  if (llvm::Error Err = readOptional(R, **O, E))
    return std::move(Err);
  if (llvm::Error Err = R.each(**O, "chain", readStep, E.Chain))
    return std::move(Err);
  if (E.Chain.empty())
    return R.error("an effect has an empty chain");
  return E;
}

llvm::Expected<SummaryCall> readCall(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "call");
  if (!O)
    return O.takeError();
  SummaryCall C;
  std::string Object;
  if (llvm::Error E = R.fields(**O, {{"callee", &C.Callee},
                                     {"name", &C.CalleeName},
                                     {"object", &Object}}))
    return std::move(E);
  auto Loc = R.requiredLocation(**O, "location", "call");
  if (!Loc)
    return Loc.takeError();
  C.Loc = *Loc;
  std::vector<std::string> Roots{Object};
  if (llvm::Error E = R.strings(**O, "args", Roots))
    return std::move(E);
  for (size_t I = 0; I < Roots.size(); ++I) {
    std::optional<Root> Parsed = parseRoot(Roots[I]);
    if (!Parsed)
      return R.error("unknown root '" + Roots[I] + "'");
    if (I == 0)
      C.Object = *Parsed;
    else
      C.Args.push_back(*Parsed);
  }
  if ((*O)->get("class")) {
    auto Class = R.string(**O, "class");
    if (!Class)
      return Class.takeError();
    C.Virtual = true;
    C.StaticClass = *Class;
  }
  if ((*O)->get("held")) {
    auto Place = R.string(**O, "held");
    if (!Place)
      return Place.takeError();
    C.HeldPlace = *Place;
  }
  return C;
}

llvm::Expected<SummaryReturn> readReturn(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "return");
  if (!O)
    return O.takeError();
  SummaryReturn X;
  auto Text = R.string(**O, "root");
  if (!Text)
    return Text.takeError();
  std::optional<Root> Parsed = parseRoot(*Text);
  if (!Parsed || !Parsed->isOutside() || Parsed->K == Root::Capture ||
      Parsed->K == Root::Unconditional)
    return R.error("a return has root '" + *Text + "'");
  X.R = *Parsed;
  if (X.R.K == Root::Static)
    if (llvm::Error E =
            R.fields(**O, {{"var", &X.VarUsr}, {"name", &X.VarName}}))
      return std::move(E);
  return X;
}

} // namespace

std::string inputPath(llvm::StringRef Name, const FileManager &Files) {
  llvm::SmallString<256> Path(Name);
  Files.makeAbsolutePath(Path);
  llvm::SmallString<256> Lexical(Path);
  llvm::sys::path::remove_dots(Lexical, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::exists(Lexical) && !llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  return std::string(Lexical);
}

namespace {
constexpr llvm::StringLiteral OwnerKey = "owner:";
constexpr char OwnerSeparator = '\x1f';
} // namespace

std::string ownerDependency(llvm::StringRef Callable,
                            llvm::StringRef MainFile) {
  return (OwnerKey + Callable + llvm::Twine(OwnerSeparator) + MainFile).str();
}

bool isOwnerDependency(llvm::StringRef Key) { return Key.starts_with(OwnerKey); }

bool splitOwnerDependency(llvm::StringRef Key, llvm::StringRef &Callable,
                          llvm::StringRef &MainFile) {
  if (!Key.consume_front(OwnerKey))
    return false;
  std::tie(Callable, MainFile) = Key.rsplit(OwnerSeparator);
  return true;
}

void mapOwnerDependencyFile(std::string &Key,
                            llvm::function_ref<void(std::string &)> Map) {
  if (!isOwnerDependency(Key))
    return;
  auto [Head, File] = llvm::StringRef(Key).rsplit(OwnerSeparator);
  std::string Path = File.str();
  Map(Path);
  Key = (Head + llvm::Twine(OwnerSeparator) + Path).str();
}

void forEachPath(TUSummary &S, llvm::function_ref<void(std::string &)> Map) {
  auto At = [&](PlainLocation &L) {
    if (!L.File.empty())
      Map(L.File);
  };
  Map(S.MainFile);
  for (auto &[File, Hash] : S.Inputs)
    Map(File);
  for (std::string &File : S.SystemInputs)
    Map(File);
  auto OfFunction = [&](FunctionFacts &F) {
    for (SummaryEffect &E : F.Effects) {
      for (SummaryStep &Step : E.Chain)
        At(Step.Loc);
      At(E.MutatedAt);
      At(E.AliasAt);
    }
    for (SummaryCall &C : F.Calls)
      At(C.Loc);
  };
  for (FunctionFacts &F : S.Functions)
    OfFunction(F);
  for (SummaryCheckpoint &C : S.Checkpoints)
    At(C.Call);
  for (SummaryCallable &C : S.Callables) {
    OfFunction(C.Facts);
    At(C.Call);
    At(C.StoredAt);
    for (auto &[Begin, End] : C.Nested) {
      At(Begin);
      At(End);
    }
  }
  for (auto &[Kind, Loc] : S.Reported)
    At(Loc);
  for (SummaryHeld &H : S.Held)
    At(H.StoredAt);
  for (auto &[Key, Hash] : S.Dependencies)
    mapOwnerDependencyFile(Key, Map);
}

std::string hashText(llvm::StringRef Text) {
  char Buf[17];
  snprintf(Buf, sizeof Buf, "%016llx",
           (unsigned long long)llvm::xxh3_64bits(Text));
  return Buf;
}

namespace {

// The writer streams the document (sj::Writer) instead of building a
// json::Value tree: a tree copies every nested array and object where it is
// put into its parent (initializer lists copy), which cost more than the
// parse on a file with thousands of functions. Each object's keys are
// written in sorted order, as json::Value prints them, so the text is the
// one a tree would give.
class Writer {
public:
  explicit Writer(std::string &Out) : J(Out) {}

  void location(llvm::StringRef Key, const PlainLocation &L) {
    J.attributeObject(Key, [&] {
      J.attribute("column", L.Column);
      J.attribute("file", L.File);
      J.attribute("line", L.Line);
    });
  }

  void strings(llvm::StringRef Key, const std::vector<std::string> &List) {
    J.attributeArray(Key, [&] {
      for (const std::string &S : List)
        J.value(S);
    });
  }

  void pairs(llvm::StringRef Key, llvm::StringRef First,
             llvm::StringRef Second,
             const std::vector<std::pair<std::string, std::string>> &List) {
    // Sorted keys: the two names in order.
    bool Swap = Second < First;
    J.attributeArray(Key, [&] {
      for (const std::pair<std::string, std::string> &P : List)
        J.object([&] {
          const std::string &A = P.first, &B = P.second;
          J.attribute(Swap ? Second : First, Swap ? B : A);
          J.attribute(Swap ? First : Second, Swap ? A : B);
        });
    });
  }

  void effect(const SummaryEffect &E) {
    auto Optional = [&](llvm::StringRef Key, const std::string &Value) {
      if (!Value.empty())
        J.attribute(Key, Value);
    };
    auto OptionalAt = [&](llvm::StringRef Key, const PlainLocation &L) {
      if (L.Line) // line 0 means none
        location(Key, L);
    };
    J.object([&] {
      OptionalAt("alias_at", E.AliasAt);
      J.attributeArray("chain", [&] {
        for (const SummaryStep &Step : E.Chain)
          J.object([&] {
            J.attribute("callee", Step.Callee);
            J.attribute("function", Step.Function);
            location("location", Step.Loc);
          });
      });
      J.attribute("detail", E.Detail);
      Optional("draws", E.Draws);
      J.attribute("index", E.Target.Index);
      J.attribute("kind", KindNames[int(E.Kind)]);
      Optional("may", E.May);
      OptionalAt("mutated_at", E.MutatedAt);
      if (E.MutatedSlot)
        J.attribute("mutated_slot", E.MutatedSlot);
      if (E.ReturnedRead)
        J.attribute("returned_read", true);
      Optional("rng_source", E.RngSource);
      Optional("rng_source_text", E.RngSourceText);
      J.attribute("root", RootNames[int(E.Target.K)]);
      J.attribute("subject", E.Subject);
      J.attribute("var", E.VarUsr);
      Optional("via", E.Via);
      Optional("via_call", E.ViaCall);
      J.attribute("virtual", E.Virtual);
    });
  }

  void effects(const std::vector<SummaryEffect> &Effects) {
    J.attributeArray("effects", [&] {
      for (const SummaryEffect &E : Effects)
        effect(E);
    });
  }

  void returns(const std::vector<SummaryReturn> &Returns) {
    J.attributeArray("returns", [&] {
      for (const SummaryReturn &X : Returns)
        J.object([&] {
          if (X.R.K == Root::Static)
            J.attribute("name", X.VarName);
          J.attribute("root", rootText(X.R));
          if (X.R.K == Root::Static)
            J.attribute("var", X.VarUsr);
        });
    });
  }

  void call(const SummaryCall &C) {
    J.object([&] {
      J.attributeArray("args", [&] {
        for (const Root &R : C.Args)
          J.value(rootText(R));
      });
      J.attribute("callee", C.Callee);
      if (C.Virtual) // written for a virtual call only
        J.attribute("class", C.StaticClass);
      if (!C.HeldPlace.empty()) // written for a call that runs a holder only
        J.attribute("held", C.HeldPlace);
      location("location", C.Loc);
      J.attribute("name", C.CalleeName);
      J.attribute("object", rootText(C.Object));
    });
  }

  void function(const FunctionFacts &F) {
    J.object([&] {
      J.attributeArray("calls", [&] {
        for (const SummaryCall &C : F.Calls)
          call(C);
      });
      effects(F.Effects);
      J.attribute("name", F.Name);
      returns(F.Returns);
      J.attribute("usr", F.Usr);
    });
  }

  void functionEffects(const FunctionEffects &F) {
    J.object([&] {
      effects(F.Effects);
      J.attribute("name", F.Name);
      returns(F.Returns);
      J.attribute("usr", F.Usr);
    });
  }

  // The head: what names the TU and tells whether the summary still
  // describes it, with the hash of the body's text.
  void head(const TUSummary &S, llvm::StringRef BodyHash) {
    J.object([&] {
      J.attribute("body_hash", BodyHash);
      J.attribute("command_hash", S.CommandHash);
      J.attribute("format", "rematch-summary");
      pairs("inputs", "file", "hash", S.Inputs);
      J.attribute("main_file", S.MainFile);
      J.attribute("system_inputs", S.SystemInputsKey);
      J.attribute("version", S.Version);
      J.attribute("writer", S.Writer);
    });
  }

  void callable(const SummaryCallable &C) {
    J.object([&] {
      if (C.ArgumentsFresh)
        J.attribute("arguments_fresh", true);
      location("call", C.Call);
      J.attribute("entry_point", C.EntryPoint);
      J.attributeWith("facts", [&] { function(C.Facts); });
      pairs("lines", "line", "text", C.Lines);
      if (!C.Nested.empty())
        J.attributeArray("nested", [&] {
          for (const auto &Body : C.Nested)
            J.object([&] {
              location("begin", Body.first);
              location("end", Body.second);
            });
        });
      strings("replays", C.Replays);
      if (C.StoredAt.Line) {
        location("stored_at", C.StoredAt);
        J.attribute("stored_note", C.StoredNote);
      }
      J.attribute("text", C.Text);
    });
  }

  // The body: what the TU says of the program.
  void body(const TUSummary &S) {
    J.object([&] {
      if (!S.Callables.empty())
        J.attributeArray("callables", [&] {
          for (const SummaryCallable &C : S.Callables)
            callable(C);
        });
      J.attribute("checkpoint_sites", S.CheckpointSites);
      J.attributeArray("checkpoints", [&] {
        for (const SummaryCheckpoint &C : S.Checkpoints)
          J.object([&] {
            if (C.ArgumentsFresh)
              J.attribute("arguments_fresh", true);
            location("call", C.Call);
            J.attribute("entry_point", C.EntryPoint);
            J.attribute("kind", C.Kind);
            J.attribute("name", C.Name);
            strings("replays", C.Replays);
            J.attribute("usr", C.Usr);
          });
      });
      pairs("dependencies", "usr", "hash", S.Dependencies);
      if (S.FromFacts)
        J.attribute("from_facts", true);
      J.attributeArray("functions", [&] {
        for (const FunctionFacts &F : S.Functions)
          function(F);
      });
      strings("globals_escaping", S.GlobalsEscaping);
      strings("globals_written", S.GlobalsWritten);
      strings("header_callables", S.HeaderCallables);
      J.attributeArray("held", [&] {
        for (const SummaryHeld &H : S.Held)
          J.object([&] {
            J.attribute("callable", H.Callable);
            J.attribute("lambda", H.Lambda);
            J.attribute("name", H.Name);
            J.attribute("place", H.Place);
            J.attribute("place_name", H.PlaceName);
            location("stored_at", H.StoredAt);
          });
      });
      if (!S.NoLints.empty())
        J.attributeArray("nolint", [&] {
          for (const NoLintComment &C : S.NoLints)
            J.object([&] {
              if (C.Checks)
                J.attribute("checks", *C.Checks);
              J.attribute("column", C.Column);
              J.attribute("kind", noLintKindName(C.K));
              J.attribute("line", C.Line);
            });
        });
      J.attributeArray("overrides", [&] {
        for (const SummaryOverride &O : S.Overrides)
          J.object([&] {
            strings("classes", O.Classes);
            J.attribute("method", O.Method);
            J.attribute("override", O.Override);
          });
      });
      if (!S.ReplayedBy.empty())
        pairs("replayed_by", "entry_point", "source", S.ReplayedBy);
      if (!S.Reported.empty())
        J.attributeArray("reported", [&] {
          for (const auto &Where : S.Reported)
            J.object([&] {
              J.attribute("kind", Where.first);
              location("location", Where.second);
            });
        });
    });
  }

private:
  sj::Writer J;
};

} // namespace

std::string hashFunctionEffects(const FunctionEffects &F) {
  std::string Out;
  Writer(Out).functionEffects(F);
  return hashText(Out);
}

// The key that starts a summary's second line.
constexpr llvm::StringLiteral BodyKey = "\"body\":";

std::string serializeSummary(const TUSummary &S) {
  std::string Body, Head;
  Writer(Body).body(S);
  Writer(Head).head(S, hashText(Body));
  Head.pop_back(); // the head's closing brace: the body is one more key
  Head.reserve(Head.size() + BodyKey.size() + Body.size() + 4);
  Head += ",\n";
  Head += BodyKey;
  Head += Body;
  Head += "}\n";
  return Head;
}

namespace {

// The head's fields, each checked where it is read.
llvm::Error readHead(Reader &R, const sj::Object &O, TUSummary &S,
                     std::string &BodyHash) {
  if (O.getString("format") != llvm::StringRef("rematch-summary"))
    return R.error("not a rematch summary");
  auto Version = R.integer(O, "version", 0, INT32_MAX);
  if (!Version)
    return Version.takeError();
  if (*Version != SummaryFormatVersion)
    return llvm::make_error<SummaryError>(
        R.path().str(),
        ("invalid summary file: version " + llvm::Twine(*Version) +
         ", expected " + llvm::Twine(SummaryFormatVersion))
            .str(),
        int(*Version));
  if (llvm::Error E = R.fields(O, {{"main_file", &S.MainFile},
                                  {"command_hash", &S.CommandHash},
                                  {"writer", &S.Writer},
                                  {"system_inputs", &S.SystemInputsKey},
                                  {"body_hash", &BodyHash}}))
    return E;
  return R.pairs(O, "inputs", "input", "file", "hash", S.Inputs);
}

llvm::Expected<FunctionFacts> readFunction(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "function");
  if (!O)
    return O.takeError();
  FunctionFacts F;
  if (llvm::Error E = R.each(**O, "calls", readCall, F.Calls))
    return std::move(E);
  if (llvm::Error E = R.fields(**O, {{"usr", &F.Usr}, {"name", &F.Name}}))
    return std::move(E);
  if (llvm::Error E = R.each(**O, "effects", readEffect, F.Effects))
    return std::move(E);
  if (llvm::Error E = R.each(**O, "returns", readReturn, F.Returns))
    return std::move(E);
  // What a call returns, named by its place among the calls.
  auto Bad = [&](const Root &Target) {
    return Target.K == Root::Returned && Target.Index >= F.Calls.size();
  };
  if (llvm::any_of(F.Effects,
                   [&](const SummaryEffect &E) { return Bad(E.Target); }) ||
      llvm::any_of(F.Returns,
                   [&](const SummaryReturn &X) { return Bad(X.R); }) ||
      llvm::any_of(F.Calls, [&](const SummaryCall &C) {
        return Bad(C.Object) || llvm::any_of(C.Args, Bad);
      }))
    return R.error("a root names a call the function does not make");
  return F;
}

llvm::Expected<SummaryCheckpoint> readCheckpoint(Reader &R,
                                                 const sj::Value &V) {
  auto O = R.object(V, "checkpoint");
  if (!O)
    return O.takeError();
  SummaryCheckpoint C;
  if (llvm::Error E = R.fields(**O, {{"usr", &C.Usr},
                                     {"kind", &C.Kind},
                                     {"name", &C.Name},
                                     {"entry_point", &C.EntryPoint}}))
    return std::move(E);
  if (C.Kind != "function" && C.Kind != "functor" && C.Kind != "module" &&
      C.Kind != "value")
    return R.error("unknown checkpoint kind '" + C.Kind + "'");
  if (llvm::Error E = R.strings(**O, "replays", C.Replays))
    return std::move(E);
  if (llvm::Error E = R.flag(**O, "arguments_fresh", C.ArgumentsFresh))
    return std::move(E);
  auto Loc = R.requiredLocation(**O, "call", "checkpoint");
  if (!Loc)
    return Loc.takeError();
  C.Call = *Loc;
  return C;
}

llvm::Expected<SummaryOverride> readOverride(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "override");
  if (!O)
    return O.takeError();
  SummaryOverride X;
  if (llvm::Error E = R.fields(**O, {{"method", &X.Method},
                                     {"override", &X.Override}}))
    return std::move(E);
  if (llvm::Error E = R.strings(**O, "classes", X.Classes))
    return std::move(E);
  return X;
}

llvm::Expected<SummaryHeld> readHeld(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "held callable");
  if (!O)
    return O.takeError();
  SummaryHeld X;
  if (llvm::Error E = R.fields(**O, {{"place", &X.Place},
                                     {"place_name", &X.PlaceName},
                                     {"callable", &X.Callable},
                                     {"name", &X.Name}}))
    return std::move(E);
  std::optional<bool> Lambda = (*O)->getBoolean("lambda");
  if (!Lambda)
    return R.error("a held callable has no 'lambda'");
  X.Lambda = *Lambda;
  auto Loc = R.requiredLocation(**O, "stored_at", "held callable");
  if (!Loc)
    return Loc.takeError();
  X.StoredAt = *Loc;
  return X;
}

llvm::Expected<SummaryCallable> readCallable(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "callable");
  if (!O)
    return O.takeError();
  SummaryCallable C;
  const sj::Value *Facts = (*O)->get("facts");
  if (!Facts)
    return R.error("a callable has no 'facts'");
  llvm::Expected<FunctionFacts> F = readFunction(R, *Facts);
  if (!F)
    return F.takeError();
  C.Facts = std::move(*F);
  if (llvm::Error E = R.fields(**O, {{"text", &C.Text},
                                     {"entry_point", &C.EntryPoint}}))
    return std::move(E);
  if (llvm::Error E = R.strings(**O, "replays", C.Replays))
    return std::move(E);
  if (llvm::Error E = R.pairs(**O, "lines", "line", "line", "text", C.Lines))
    return std::move(E);
  if (llvm::Error E = R.flag(**O, "arguments_fresh", C.ArgumentsFresh))
    return std::move(E);
  auto Call = R.requiredLocation(**O, "call", "callable");
  if (!Call)
    return Call.takeError();
  C.Call = *Call;
  if (const sj::Array *Nested = (*O)->getArray("nested"))
    for (const sj::Value &N : *Nested) {
      auto Body = R.object(N, "nested lambda");
      if (!Body)
        return Body.takeError();
      auto Begin = R.requiredLocation(**Body, "begin", "nested lambda");
      if (!Begin)
        return Begin.takeError();
      auto End = R.requiredLocation(**Body, "end", "nested lambda");
      if (!End)
        return End.takeError();
      C.Nested.emplace_back(std::move(*Begin), std::move(*End));
    }
  if ((*O)->get("stored_at")) {
    auto At = R.requiredLocation(**O, "stored_at", "callable");
    if (!At)
      return At.takeError();
    C.StoredAt = *At;
    if (llvm::Error E = R.fields(**O, {{"stored_note", &C.StoredNote}}))
      return std::move(E);
  }
  return C;
}

llvm::Expected<std::pair<std::string, PlainLocation>>
readReported(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "reported finding");
  if (!O)
    return O.takeError();
  std::pair<std::string, PlainLocation> X;
  if (llvm::Error E = R.fields(**O, {{"kind", &X.first}}))
    return std::move(E);
  auto At = R.requiredLocation(**O, "location", "reported finding");
  if (!At)
    return At.takeError();
  X.second = *At;
  return X;
}

llvm::Expected<NoLintComment> readNoLint(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "NOLINT comment");
  if (!O)
    return O.takeError();
  NoLintComment C;
  auto Kind = R.string(**O, "kind");
  if (!Kind)
    return Kind.takeError();
  std::optional<NoLintComment::Kind> K = noLintKindNamed(*Kind);
  if (!K)
    return R.error("unknown NOLINT kind '" + *Kind + "'");
  C.K = *K;
  auto Line = R.integer(**O, "line", 1, UINT32_MAX);
  if (!Line)
    return Line.takeError();
  auto Column = R.integer(**O, "column", 1, UINT32_MAX);
  if (!Column)
    return Column.takeError();
  C.Line = *Line;
  C.Column = *Column;
  if ((*O)->get("checks")) {
    auto Checks = R.string(**O, "checks");
    if (!Checks)
      return Checks.takeError();
    C.Checks = std::move(*Checks);
  }
  return C;
}

// The body's fields, each checked where it is read, in the writer's order.
llvm::Error readBody(Reader &R, const sj::Object &O, TUSummary &S) {
  auto Sites = R.integer(O, "checkpoint_sites", 0, INT32_MAX);
  if (!Sites)
    return Sites.takeError();
  S.CheckpointSites = *Sites;
  if (llvm::Error E = R.each(O, "functions", readFunction, S.Functions))
    return E;
  if (llvm::Error E = R.pairs(O, "dependencies", "dependency", "usr", "hash",
                             S.Dependencies))
    return E;
  if (llvm::Error E = R.each(O, "checkpoints", readCheckpoint, S.Checkpoints))
    return E;
  if (llvm::Error E = R.each(O, "overrides", readOverride, S.Overrides))
    return E;
  if (llvm::Error E = R.each(O, "held", readHeld, S.Held))
    return E;
  if (llvm::Error E = R.strings(O, "globals_written", S.GlobalsWritten))
    return E;
  if (llvm::Error E = R.strings(O, "globals_escaping", S.GlobalsEscaping))
    return E;
  if (llvm::Error E = R.strings(O, "header_callables", S.HeaderCallables))
    return E;
  // Written only when set or not empty.
  if (llvm::Error E = R.flag(O, "from_facts", S.FromFacts))
    return E;
  if (O.get("callables"))
    if (llvm::Error E = R.each(O, "callables", readCallable, S.Callables))
      return E;
  if (O.get("nolint"))
    if (llvm::Error E = R.each(O, "nolint", readNoLint, S.NoLints))
      return E;
  if (O.get("replayed_by"))
    if (llvm::Error E = R.pairs(O, "replayed_by", "replayer", "entry_point",
                               "source", S.ReplayedBy))
      return E;
  if (O.get("reported"))
    if (llvm::Error E = R.each(O, "reported", readReported, S.Reported))
      return E;
  return llvm::Error::success();
}

} // namespace

llvm::Expected<TUSummary> parseSummaryHead(llvm::StringRef Text,
                                           llvm::StringRef Path,
                                           llvm::StringRef &Body) {
  Reader R(Path);
  auto [First, Second] = Text.split('\n');
  if (!First.consume_back(",") || !Second.consume_front(BodyKey) ||
      !(Second.consume_back("}\n") || Second.consume_back("}"))) {
    // Not two lines: another version's summary, a foreign or a truncated
    // file; the whole text says which.
    llvm::Expected<sj::Value> Whole = sj::parse(Text);
    if (!Whole)
      return R.error(llvm::toString(Whole.takeError()));
    const sj::Object *O = Whole->getAsObject();
    TUSummary Ignored;
    std::string Hash;
    if (!O)
      return R.error("the document is not an object");
    if (llvm::Error E = readHead(R, *O, Ignored, Hash))
      return std::move(E);
    return R.error("the body is not on its own line");
  }
  llvm::Expected<sj::Value> Parsed = sj::parse((First + "}").str());
  if (!Parsed)
    return R.error(llvm::toString(Parsed.takeError()));
  auto Top = R.object(*Parsed, "the head");
  if (!Top)
    return Top.takeError();
  TUSummary S;
  std::string BodyHash;
  if (llvm::Error E = readHead(R, **Top, S, BodyHash))
    return std::move(E);
  if (hashText(Second) != BodyHash)
    return R.error("the body does not match its hash (truncated or damaged)");
  Body = Second;
  return S;
}

llvm::Error parseSummaryBody(llvm::StringRef Body, llvm::StringRef Path,
                             TUSummary &S) {
  Reader R(Path);
  llvm::Expected<sj::Value> Parsed = sj::parse(Body);
  if (!Parsed)
    return R.error(llvm::toString(Parsed.takeError()));
  auto Top = R.object(*Parsed, "the body");
  if (!Top)
    return Top.takeError();
  return readBody(R, **Top, S);
}

llvm::Expected<TUSummary> parseSummary(llvm::StringRef Text,
                                       llvm::StringRef Path) {
  llvm::StringRef Body;
  llvm::Expected<TUSummary> S = parseSummaryHead(Text, Path, Body);
  if (!S)
    return S.takeError();
  if (llvm::Error E = parseSummaryBody(Body, Path, *S))
    return std::move(E);
  return S;
}

llvm::Expected<TUSummary> readSummaryFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::make_error<SummaryError>(
        Path.str(), "cannot read summary: " + Buf.getError().message());
  return parseSummary((*Buf)->getBuffer(), Path);
}

} // namespace clang::tidy::rematch
