//===--- Summary.cpp - effect summaries that cross translation units ------===//

#include "Summary.h"
#include "SummaryJson.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"
#include <iterator>
#include <optional>

namespace clang::tidy::rematch {

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

llvm::json::Value toJson(const PlainLocation &L) {
  return llvm::json::Object{
      {"file", L.File}, {"line", L.Line}, {"column", L.Column}};
}

// Reads fields strictly: a missing or mistyped field is an error, so a
// truncated or foreign file is never half-trusted.
class Reader {
public:
  explicit Reader(llvm::StringRef Path) : Path(Path) {}

  llvm::Error error(const llvm::Twine &What) const {
    return llvm::createStringError(
        (Path + ": error: invalid summary file: " + What).str());
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

// An effect's fields, each checked where it is read (a flat list, as in
// parseSummary).
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
  auto Subject = R.string(**O, "subject");
  auto Detail = R.string(**O, "detail");
  if (!Subject)
    return Subject.takeError();
  if (!Detail)
    return Detail.takeError();
  E.Subject = *Subject;
  E.Detail = *Detail;
  std::optional<bool> Virtual = (*O)->getBoolean("virtual");
  if (!Virtual)
    return R.error("'virtual' is missing or not a boolean");
  E.Virtual = *Virtual;
  auto Var = R.string(**O, "var");
  if (!Var)
    return Var.takeError();
  E.VarUsr = *Var;
  // Written only when set: most effects come from no model and go through
  // no alias.
  for (auto [Key, Field] :
       {std::pair<const char *, std::string *>{"rng_source", &E.RngSource},
        {"rng_source_text", &E.RngSourceText},
        {"draws", &E.Draws},
        {"may", &E.May},
        {"via", &E.Via},
        {"via_call", &E.ViaCall}}) {
    if (!(*O)->get(Key))
      continue;
    auto V = R.string(**O, Key);
    if (!V)
      return V.takeError();
    *Field = *V;
  }
  for (auto [Key, Field] :
       {std::pair<const char *, PlainLocation *>{"mutated_at", &E.MutatedAt},
        {"alias_at", &E.AliasAt}}) {
    const sj::Value *L = (*O)->get(Key);
    if (!L)
      continue;
    auto Loc = R.location(*L);
    if (!Loc)
      return Loc.takeError();
    if (!Loc->Line) // line 0 means none, which is not written
      return R.error("'" + llvm::Twine(Key) + "' has line 0");
    *Field = *Loc;
  }
  if ((*O)->get("mutated_slot")) {
    auto Slot = R.integer(**O, "mutated_slot", 1, 0xffff);
    if (!Slot)
      return Slot.takeError();
    E.MutatedSlot = *Slot;
  }
  if ((*O)->get("returned_read")) {
    std::optional<bool> B = (*O)->getBoolean("returned_read");
    if (!B || !*B) // written only when true
      return R.error("'returned_read' is not true");
    E.ReturnedRead = true;
  }
  auto Chain = R.array(**O, "chain");
  if (!Chain)
    return Chain.takeError();
  if ((*Chain)->empty())
    return R.error("an effect has an empty chain");
  for (const sj::Value &SV : **Chain) {
    auto SO = R.object(SV, "step");
    if (!SO)
      return SO.takeError();
    SummaryStep Step;
    auto Fn = R.string(**SO, "function");
    auto Callee = R.string(**SO, "callee");
    const sj::Value *LocV = (*SO)->get("location");
    if (!Fn)
      return Fn.takeError();
    if (!Callee)
      return Callee.takeError();
    if (!LocV)
      return R.error("a step has no location");
    auto Loc = R.location(*LocV);
    if (!Loc)
      return Loc.takeError();
    Step.Function = *Fn;
    Step.Callee = *Callee;
    Step.Loc = *Loc;
    E.Chain.push_back(std::move(Step));
  }
  return E;
}

llvm::Expected<SummaryCall> readCall(Reader &R, const sj::Value &V) {
  auto O = R.object(V, "call");
  if (!O)
    return O.takeError();
  SummaryCall C;
  auto Callee = R.string(**O, "callee");
  auto Name = R.string(**O, "name");
  auto Object = R.string(**O, "object");
  if (!Callee)
    return Callee.takeError();
  if (!Name)
    return Name.takeError();
  if (!Object)
    return Object.takeError();
  C.Callee = *Callee;
  C.CalleeName = *Name;
  const sj::Value *LocV = (*O)->get("location");
  if (!LocV)
    return R.error("a call has no location");
  auto Loc = R.location(*LocV);
  if (!Loc)
    return Loc.takeError();
  C.Loc = *Loc;
  std::vector<std::string> Roots{*Object};
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
  if (X.R.K == Root::Static) {
    auto Var = R.string(**O, "var");
    auto Name = R.string(**O, "name");
    if (!Var)
      return Var.takeError();
    if (!Name)
      return Name.takeError();
    X.VarUsr = *Var;
    X.VarName = *Name;
  }
  return X;
}

} // namespace

std::string hashText(llvm::StringRef Text) {
  char Buf[17];
  snprintf(Buf, sizeof Buf, "%016llx",
           (unsigned long long)llvm::xxh3_64bits(Text));
  return Buf;
}

namespace {

llvm::json::Value effectJson(const SummaryEffect &E) {
  llvm::json::Array Chain;
  for (const SummaryStep &Step : E.Chain)
    Chain.push_back(llvm::json::Object{{"function", Step.Function},
                                       {"callee", Step.Callee},
                                       {"location", toJson(Step.Loc)}});
  llvm::json::Object Effect{{"kind", KindNames[int(E.Kind)]},
                            {"root", RootNames[int(E.Target.K)]},
                            {"index", E.Target.Index},
                            {"subject", E.Subject},
                            {"detail", E.Detail},
                            {"virtual", E.Virtual},
                            {"var", E.VarUsr},
                            {"chain", std::move(Chain)}};
  for (auto [Key, Value] :
       {std::pair<const char *, const std::string *>{"rng_source",
                                                     &E.RngSource},
        {"rng_source_text", &E.RngSourceText},
        {"draws", &E.Draws},
        {"may", &E.May},
        {"via", &E.Via},
        {"via_call", &E.ViaCall}})
    if (!Value->empty())
      Effect[Key] = *Value;
  for (auto [Key, Value] :
       {std::pair<const char *, const PlainLocation *>{"mutated_at",
                                                       &E.MutatedAt},
        {"alias_at", &E.AliasAt}})
    if (Value->Line)
      Effect[Key] = toJson(*Value);
  if (E.MutatedSlot)
    Effect["mutated_slot"] = E.MutatedSlot;
  if (E.ReturnedRead)
    Effect["returned_read"] = true;
  return Effect;
}

llvm::json::Array returnsJson(const std::vector<SummaryReturn> &Returns) {
  llvm::json::Array Out;
  for (const SummaryReturn &X : Returns) {
    llvm::json::Object O{{"root", rootText(X.R)}};
    if (X.R.K == Root::Static) {
      O["var"] = X.VarUsr;
      O["name"] = X.VarName;
    }
    Out.push_back(std::move(O));
  }
  return Out;
}

llvm::json::Array effectsJson(const std::vector<SummaryEffect> &Effects) {
  llvm::json::Array Out;
  for (const SummaryEffect &E : Effects)
    Out.push_back(effectJson(E));
  return Out;
}

llvm::json::Value callJson(const SummaryCall &C) {
  llvm::json::Array Args;
  for (const Root &R : C.Args)
    Args.push_back(rootText(R));
  llvm::json::Object Call{{"callee", C.Callee},
                          {"name", C.CalleeName},
                          {"location", toJson(C.Loc)},
                          {"object", rootText(C.Object)},
                          {"args", std::move(Args)}};
  if (C.Virtual)
    Call["class"] = C.StaticClass; // written for a virtual call only
  if (!C.HeldPlace.empty())
    Call["held"] = C.HeldPlace; // written for a call that runs a holder only
  return Call;
}

} // namespace

std::string hashFunctionEffects(const FunctionEffects &F) {
  llvm::json::Object O{{"usr", F.Usr},
                       {"name", F.Name},
                       {"effects", effectsJson(F.Effects)},
                       {"returns", returnsJson(F.Returns)}};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(std::move(O));
  return hashText(OS.str());
}

std::string serializeSummary(const TUSummary &S) {
  llvm::json::Array Deps;
  for (const auto &[Usr, Hash] : S.Dependencies)
    Deps.push_back(llvm::json::Object{{"usr", Usr}, {"hash", Hash}});
  llvm::json::Array Inputs;
  for (const auto &[File, Hash] : S.Inputs)
    Inputs.push_back(llvm::json::Object{{"file", File}, {"hash", Hash}});
  llvm::json::Array Functions;
  for (const FunctionFacts &F : S.Functions) {
    llvm::json::Array Calls;
    for (const SummaryCall &C : F.Calls)
      Calls.push_back(callJson(C));
    Functions.push_back(llvm::json::Object{{"usr", F.Usr},
                                           {"name", F.Name},
                                           {"effects", effectsJson(F.Effects)},
                                           {"calls", std::move(Calls)},
                                           {"returns", returnsJson(F.Returns)}});
  }
  llvm::json::Array Checkpoints;
  for (const SummaryCheckpoint &C : S.Checkpoints)
    Checkpoints.push_back(llvm::json::Object{{"usr", C.Usr},
                                             {"kind", C.Kind},
                                             {"name", C.Name},
                                             {"entry_point", C.EntryPoint},
                                             {"replays", C.Replays},
                                             {"call", toJson(C.Call)}});
  llvm::json::Array Overrides;
  for (const SummaryOverride &O : S.Overrides)
    Overrides.push_back(llvm::json::Object{{"method", O.Method},
                                           {"override", O.Override},
                                           {"classes", O.Classes}});
  llvm::json::Array Held;
  for (const SummaryHeld &H : S.Held)
    Held.push_back(llvm::json::Object{{"place", H.Place},
                                      {"place_name", H.PlaceName},
                                      {"callable", H.Callable},
                                      {"name", H.Name},
                                      {"lambda", H.Lambda},
                                      {"stored_at", toJson(H.StoredAt)}});
  llvm::json::Object Root{
      {"format", "rematch-summary"},
      {"version", S.Version},
      {"main_file", S.MainFile},
      {"command_hash", S.CommandHash},
      {"inputs", std::move(Inputs)},
      {"system_inputs", S.SystemInputsKey},
      {"functions", std::move(Functions)},
      {"globals_written", S.GlobalsWritten},
      {"globals_escaping", S.GlobalsEscaping},
      {"checkpoint_sites", S.CheckpointSites},
      {"checkpoints", std::move(Checkpoints)},
      {"overrides", std::move(Overrides)},
      {"held", std::move(Held)},
      {"header_callables", S.HeaderCallables},
      {"dependencies", std::move(Deps)},
      {"writer", S.Writer}};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(std::move(Root)) << "\n";
  return OS.str();
}

// Reads the document's fields in the order writeSummary writes them, each
// checked where it is read: a flat list (over 80 lines) that mirrors the
// writer rather than an algorithm to split.
llvm::Expected<TUSummary> parseSummary(llvm::StringRef Text,
                                       llvm::StringRef Path) {
  Reader R(Path);
  llvm::Expected<sj::Value> Parsed = sj::parse(Text);
  if (!Parsed)
    return R.error(llvm::toString(Parsed.takeError()));
  auto Top = R.object(*Parsed, "the document");
  if (!Top)
    return Top.takeError();
  const sj::Object &O = **Top;
  if (O.getString("format") != llvm::StringRef("rematch-summary"))
    return R.error("not a rematch summary");
  auto Version = R.integer(O, "version", 0, INT32_MAX);
  if (!Version)
    return Version.takeError();
  if (*Version != SummaryFormatVersion)
    return R.error("version " + llvm::Twine(*Version) + ", expected " +
                   llvm::Twine(SummaryFormatVersion));
  TUSummary S;
  auto Main = R.string(O, "main_file");
  auto Cmd = R.string(O, "command_hash");
  auto Sites = R.integer(O, "checkpoint_sites", 0, INT32_MAX);
  if (!Main)
    return Main.takeError();
  if (!Cmd)
    return Cmd.takeError();
  if (!Sites)
    return Sites.takeError();
  S.MainFile = *Main;
  S.CommandHash = *Cmd;
  S.CheckpointSites = *Sites;
  auto Writer = R.string(O, "writer");
  if (!Writer)
    return Writer.takeError();
  S.Writer = *Writer;

  auto SystemKey = R.string(O, "system_inputs");
  if (!SystemKey)
    return SystemKey.takeError();
  S.SystemInputsKey = *SystemKey;
  if (llvm::Error E = R.pairs(O, "inputs", "input", "file", "hash", S.Inputs))
    return std::move(E);

  auto Functions = R.array(O, "functions");
  if (!Functions)
    return Functions.takeError();
  for (const sj::Value &V : **Functions) {
    auto FO = R.object(V, "function");
    if (!FO)
      return FO.takeError();
    FunctionFacts F;
    auto Usr = R.string(**FO, "usr");
    auto Name = R.string(**FO, "name");
    auto Effects = R.array(**FO, "effects");
    auto Calls = R.array(**FO, "calls");
    if (!Calls)
      return Calls.takeError();
    for (const sj::Value &CV : **Calls) {
      auto C = readCall(R, CV);
      if (!C)
        return C.takeError();
      F.Calls.push_back(std::move(*C));
    }
    if (!Usr)
      return Usr.takeError();
    if (!Name)
      return Name.takeError();
    if (!Effects)
      return Effects.takeError();
    F.Usr = *Usr;
    F.Name = *Name;
    for (const sj::Value &EV : **Effects) {
      auto E = readEffect(R, EV);
      if (!E)
        return E.takeError();
      F.Effects.push_back(std::move(*E));
    }
    auto Returns = R.array(**FO, "returns");
    if (!Returns)
      return Returns.takeError();
    for (const sj::Value &RV : **Returns) {
      auto X = readReturn(R, RV);
      if (!X)
        return X.takeError();
      F.Returns.push_back(std::move(*X));
    }
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
    S.Functions.push_back(std::move(F));
  }
  if (llvm::Error E = R.pairs(O, "dependencies", "dependency", "usr", "hash",
                             S.Dependencies))
    return std::move(E);
  auto Checkpoints = R.array(O, "checkpoints");
  if (!Checkpoints)
    return Checkpoints.takeError();
  for (const sj::Value &V : **Checkpoints) {
    auto CO = R.object(V, "checkpoint");
    if (!CO)
      return CO.takeError();
    SummaryCheckpoint C;
    for (auto [Key, Field] : {std::pair<const char *, std::string *>{"usr", &C.Usr},
                              {"kind", &C.Kind},
                              {"name", &C.Name},
                              {"entry_point", &C.EntryPoint}}) {
      auto Value = R.string(**CO, Key);
      if (!Value)
        return Value.takeError();
      *Field = *Value;
    }
    if (C.Kind != "function" && C.Kind != "functor" && C.Kind != "module" &&
        C.Kind != "value")
      return R.error("unknown checkpoint kind '" + C.Kind + "'");
    if (llvm::Error E = R.strings(**CO, "replays", C.Replays))
      return std::move(E);
    const sj::Value *Call = (*CO)->get("call");
    if (!Call)
      return R.error("a checkpoint has no call");
    auto Loc = R.location(*Call);
    if (!Loc)
      return Loc.takeError();
    C.Call = *Loc;
    S.Checkpoints.push_back(std::move(C));
  }
  auto Overrides = R.array(O, "overrides");
  if (!Overrides)
    return Overrides.takeError();
  for (const sj::Value &V : **Overrides) {
    auto OO = R.object(V, "override");
    if (!OO)
      return OO.takeError();
    SummaryOverride X;
    auto Method = R.string(**OO, "method");
    auto Override = R.string(**OO, "override");
    if (!Method)
      return Method.takeError();
    if (!Override)
      return Override.takeError();
    X.Method = *Method;
    X.Override = *Override;
    if (llvm::Error E = R.strings(**OO, "classes", X.Classes))
      return std::move(E);
    S.Overrides.push_back(std::move(X));
  }
  auto Held = R.array(O, "held");
  if (!Held)
    return Held.takeError();
  for (const sj::Value &V : **Held) {
    auto HO = R.object(V, "held callable");
    if (!HO)
      return HO.takeError();
    SummaryHeld X;
    for (auto [Key, Field] :
         {std::pair<const char *, std::string *>{"place", &X.Place},
          {"place_name", &X.PlaceName},
          {"callable", &X.Callable},
          {"name", &X.Name}}) {
      auto Value = R.string(**HO, Key);
      if (!Value)
        return Value.takeError();
      *Field = *Value;
    }
    std::optional<bool> Lambda = (*HO)->getBoolean("lambda");
    if (!Lambda)
      return R.error("a held callable has no 'lambda'");
    X.Lambda = *Lambda;
    const sj::Value *At = (*HO)->get("stored_at");
    if (!At)
      return R.error("a held callable has no 'stored_at'");
    auto Loc = R.location(*At);
    if (!Loc)
      return Loc.takeError();
    X.StoredAt = *Loc;
    S.Held.push_back(std::move(X));
  }
  if (llvm::Error E = R.strings(O, "globals_written", S.GlobalsWritten))
    return std::move(E);
  if (llvm::Error E = R.strings(O, "globals_escaping", S.GlobalsEscaping))
    return std::move(E);
  if (llvm::Error E = R.strings(O, "header_callables", S.HeaderCallables))
    return std::move(E);
  return S;
}

llvm::Expected<TUSummary> readSummaryFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError(
        (Path + ": error: cannot read summary: " + Buf.getError().message())
            .str());
  return parseSummary((*Buf)->getBuffer(), Path);
}

} // namespace clang::tidy::rematch
