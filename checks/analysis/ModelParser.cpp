//===--- ModelParser.cpp - reading model files ----------------------------===//
//
// Model files are read with LLVM's YAML node parser rather than YAML I/O's
// traits: the format has optional nested mappings whose every mistake should
// be named at its own line and column, with the keys allowed there.
//
//===----------------------------------------------------------------------===//

#include "Model.h"
#include "Config.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace llvm;

namespace clang::tidy::rematch {

StringRef effectName(ModelEffect E) {
  switch (E) {
  case ModelEffect::Rng:
    return "rng";
  case ModelEffect::StateWrite:
    return "state-write";
  case ModelEffect::CounterUpdate:
    return "counter-update";
  case ModelEffect::CacheWrite:
    return "cache-write";
  case ModelEffect::Logging:
    return "logging";
  case ModelEffect::Io:
    return "io";
  case ModelEffect::Nondeterminism:
    return "nondeterminism";
  case ModelEffect::Pure:
    return "pure";
  }
  return "pure";
}

namespace {

class Parser {
public:
  Parser(StringRef Path) : Path(Path.str()) {
    SM.setDiagHandler(&Parser::onDiagnostic, this);
  }

  Expected<ModelFile> parse(StringRef Text) {
    this->Text = Text;
    if (std::string Deep = yamlNestingProblem(
            Text, Path, "a model file nests a few levels at most");
        !Deep.empty())
      return createStringError(std::errc::invalid_argument, "%s",
                               Deep.c_str());
    ModelFile M;
    M.Path = Path;
    yaml::Stream S(MemoryBufferRef(Text, Path), SM, /*ShowColors=*/false);
    auto Doc = S.begin();
    if (Doc != S.end() && !Error) {
      yaml::Node *Root = Doc->getRoot();
      if (Root && !Error && !isa<yaml::NullNode>(Root))
        file(Root, M);
      if (!Error && ++Doc != S.end() && !Error)
        fail(Doc->getRoot(), "a model file holds one YAML document");
    }
    if (Error)
      return createStringError(std::errc::invalid_argument, "%s",
                               Error->c_str());
    return M;
  }

private:
  static void onDiagnostic(const SMDiagnostic &D, void *Ctx) {
    auto *Self = static_cast<Parser *>(Ctx);
    if (Self->Error || D.getKind() != SourceMgr::DK_Error)
      return;
    Self->Error = (Self->Path + ":" + Twine(D.getLineNo()) + ":" +
                   Twine(D.getColumnNo() + 1) + ": error: " + D.getMessage())
                      .str();
  }

  // Where N starts, 1-based; 0:0 when the parser, after an error, gave it
  // no position inside the text.
  std::pair<unsigned, unsigned> position(const yaml::Node *N) const {
    if (!N)
      return {0, 0};
    const char *P = N->getSourceRange().Start.getPointer();
    if (!P || P < Text.begin() || P > Text.end())
      return {0, 0};
    return SM.getLineAndColumn(N->getSourceRange().Start);
  }

  // Records the first error, at N's start; always false, to return.
  bool fail(const yaml::Node *N, const Twine &Message) {
    if (Error)
      return false;
    auto [Line, Column] = position(N);
    Error = (Path + ":" + Twine(Line) + ":" + Twine(Column) +
             ": error: " + Message)
                .str();
    return false;
  }

  // A plain or quoted scalar's value.
  std::optional<std::string> scalar(yaml::Node *N, StringRef What) {
    auto *S = dyn_cast_or_null<yaml::ScalarNode>(N);
    if (!S) {
      fail(N, "expected " + What);
      return std::nullopt;
    }
    SmallString<64> Storage;
    std::string V = S->getValue(Storage).trim().str();
    if (V.empty()) {
      fail(N, "expected " + What + ", not an empty string");
      return std::nullopt;
    }
    return V;
  }

  // A sequence of strings, or one string of comma-separated names.
  bool strings(yaml::Node *N, std::vector<std::string> &Out, StringRef What) {
    if (auto *S = dyn_cast_or_null<yaml::ScalarNode>(N)) {
      SmallString<64> Storage;
      SmallVector<StringRef, 8> Parts;
      S->getValue(Storage).split(Parts, ',', -1, false);
      for (StringRef P : Parts)
        if (!P.trim().empty())
          Out.push_back(P.trim().str());
      return true;
    }
    auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(N);
    if (!Seq)
      return fail(N, "expected a list of " + What);
    for (yaml::Node &Item : *Seq) {
      std::optional<std::string> V = scalar(&Item, What.str());
      if (!V)
        return false;
      Out.push_back(std::move(*V));
    }
    return !Error;
  }

  using KeyHandler = function_ref<bool(StringRef Key, yaml::Node *Value)>;

  // Iterates a mapping; an unknown or repeated key is an error naming the
  // keys allowed there.
  bool mapping(yaml::Node *N, StringRef What, ArrayRef<StringRef> Keys,
               KeyHandler Handle) {
    auto *Map = dyn_cast_or_null<yaml::MappingNode>(N);
    if (!Map)
      return fail(N, "expected " + What + " (a mapping)");
    assert(Keys.size() <= 64 && "a mapping's keys are a 64-bit set");
    uint64_t Seen = 0; // by position in Keys
    for (yaml::KeyValueNode &KV : *Map) {
      if (Error)
        return false;
      auto *K = dyn_cast_or_null<yaml::ScalarNode>(KV.getKey());
      if (!K)
        return fail(KV.getKey(), "expected a key");
      SmallString<32> Storage;
      StringRef Key = K->getValue(Storage);
      const StringRef *Known = find(Keys, Key);
      if (Known == Keys.end()) {
        std::string Allowed = join(Keys, ", ");
        return fail(K, "unknown key '" + Key + "' in " + What +
                           "; expected one of: " + Allowed);
      }
      uint64_t Bit = uint64_t(1) << (Known - Keys.begin());
      if (Seen & Bit)
        return fail(K, "key '" + Key + "' given twice in " + What);
      Seen |= Bit;
      // The key as the list spells it: Storage does not outlive the value.
      if (!Handle(*Known, KV.getValue()))
        return fail(KV.getValue(), "invalid value of '" + *Known + "'");
    }
    return !Error;
  }

  template <class T, class F>
  bool list(yaml::Node *N, StringRef What, std::vector<T> &Out, F Each) {
    auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(N);
    if (!Seq)
      return fail(N, "expected a list of " + What);
    for (yaml::Node &Item : *Seq) {
      T V;
      if (!Each(&Item, V))
        return false;
      Out.push_back(std::move(V));
    }
    return !Error;
  }

  bool number(yaml::Node *N, int &Out) {
    std::optional<std::string> V = scalar(N, "an argument index");
    if (!V)
      return false;
    unsigned U;
    if (StringRef(*V).getAsInteger(10, U) || U > 64)
      return fail(N, "expected an argument index (0, 1, ...), not '" + *V +
                         "'");
    Out = int(U);
    return true;
  }

  // true | false.
  bool flag(yaml::Node *V, bool &Out) {
    auto S = scalar(V, "true or false");
    if (!S)
      return false;
    if (*S != "true" && *S != "false")
      return fail(V, "expected true or false");
    Out = *S == "true";
    return true;
  }

  // {Arg: N} | {Param: name} | {Type: spelling}; exactly one of them.
  bool argKey(StringRef Key, yaml::Node *V, ArgRef &A) {
    if (Key == "Arg")
      return number(V, A.Index);
    if (Key == "Param") {
      auto S = scalar(V, "a parameter name");
      return S && (A.Param = *S, true);
    }
    if (Key == "Type") {
      auto S = scalar(V, "a parameter type");
      return S && (A.Type = *S, true);
    }
    return false;
  }

  bool argOnly(yaml::Node *N, const yaml::Node *Where, ArgRef &A,
               StringRef What) {
    bool Ok = mapping(N, What, {"Arg", "Param", "Type"},
                      [&](StringRef K, yaml::Node *V) {
                        return argKey(K, V, A);
                      });
    return Ok && checkArg(Where, A, What);
  }

  bool checkArg(const yaml::Node *N, const ArgRef &A, StringRef What) {
    int Given = (A.Index >= 0) + !A.Param.empty() + !A.Type.empty();
    if (Given != 1)
      return fail(N, What + " names its argument with exactly one of Arg, "
                            "Param or Type");
    return true;
  }

  bool condition(yaml::Node *N, Condition &C) {
    bool HasIs = false;
    bool Ok = mapping(
        N, "a condition", {"Arg", "Param", "Type", "Is", "Field", "Default"},
        [&](StringRef K, yaml::Node *V) {
          if (argKey(K, V, C.Arg))
            return true;
          if (Error)
            return false;
          if (K == "Field") {
            auto S = scalar(V, "an options field name");
            return S && (C.Field = *S, true);
          }
          auto S = scalar(V, K == "Is" ? "absent, nullopt, false or true"
                                       : "true or false");
          if (!S)
            return false;
          if (K == "Default") {
            if (*S != "true" && *S != "false")
              return fail(V, "expected true or false, not '" + *S + "'");
            C.Default = *S == "true";
            return true;
          }
          HasIs = true;
          if (*S == "absent")
            C.Is = Condition::Absent;
          else if (*S == "nullopt")
            C.Is = Condition::Nullopt;
          else if (*S == "false")
            C.Is = Condition::False;
          else if (*S == "true")
            C.Is = Condition::True;
          else
            return fail(V, "expected absent, nullopt, false or true, not '" +
                               *S + "'");
          return true;
        });
    if (!Ok || !checkArg(N, C.Arg, "a condition"))
      return false;
    if (!HasIs)
      return fail(N, "a condition needs 'Is'");
    if (!C.Field.empty() &&
        (C.Is == Condition::Absent || C.Is == Condition::Nullopt))
      return fail(N, "a condition on a Field is about its value: Is must be "
                     "true or false");
    return true;
  }

  // One condition or a list of them.
  bool conditions(yaml::Node *N, std::vector<Condition> &Out) {
    if (isa_and_nonnull<yaml::SequenceNode>(N))
      return list(N, "conditions", Out,
                  [&](yaml::Node *I, Condition &C) { return condition(I, C); });
    Condition C;
    if (!condition(N, C))
      return false;
    Out.push_back(std::move(C));
    return true;
  }

  bool effect(yaml::Node *N, ModelEffect &E) {
    auto S = scalar(N, "an effect");
    if (!S)
      return false;
    for (ModelEffect K :
         {ModelEffect::Rng, ModelEffect::StateWrite, ModelEffect::CounterUpdate,
          ModelEffect::CacheWrite, ModelEffect::Logging, ModelEffect::Io,
          ModelEffect::Nondeterminism, ModelEffect::Pure})
      if (*S == effectName(K)) {
        E = K;
        return true;
      }
    return fail(N, "unknown effect '" + *S +
                       "'; expected one of: rng, state-write, counter-update, "
                       "cache-write, logging, io, nondeterminism, pure");
  }

  // `this`, or {Arg: N} / {Param: name} / {Type: T}.
  bool target(yaml::Node *N, ModelTarget &T) {
    if (auto *S = dyn_cast_or_null<yaml::ScalarNode>(N)) {
      SmallString<16> Storage;
      StringRef Word = S->getValue(Storage).trim();
      if (Word == "this" || Word == "process") {
        T.K = Word == "this" ? ModelTarget::This : ModelTarget::Process;
        return true;
      }
      return fail(N, "expected 'this', 'process' or an argument ({Arg: N}, "
                     "{Param: name} or {Type: T})");
    }
    T.K = ModelTarget::Argument;
    return argOnly(N, N, T.Arg, "a target");
  }

  // {AliasOf: this | args | {Arg: N} | {Param: name} | {Type: T}}, with an
  // optional May.
  bool returns(yaml::Node *N, AliasRule &R) {
    bool HasAlias = false;
    bool Ok = mapping(N, "Returns", {"AliasOf", "May"},
                      [&](StringRef K, yaml::Node *V) -> bool {
                        if (K == "May") {
                          auto S = scalar(V, "when the result is an alias");
                          return S && (R.May = *S, true);
                        }
                        HasAlias = true;
                        if (auto *S = dyn_cast_or_null<yaml::ScalarNode>(V)) {
                          SmallString<16> Storage;
                          StringRef Word = S->getValue(Storage).trim();
                          if (Word == "this" || Word == "args") {
                            R.K = Word == "this" ? AliasRule::This
                                                 : AliasRule::Arguments;
                            return true;
                          }
                          return fail(V, "expected 'this', 'args' or an "
                                         "argument ({Arg: N}, {Param: name} "
                                         "or {Type: T})");
                        }
                        R.K = AliasRule::Argument;
                        return argOnly(V, V, R.Arg, "AliasOf");
                      });
    if (Ok && !HasAlias)
      return fail(N, "Returns needs 'AliasOf'");
    return Ok;
  }

  // Visits: {Callable: <arg>, Elements: <arg>}, both required.
  bool visits(yaml::Node *N, ModelVisit &V) {
    bool HasCallable = false, HasElements = false;
    bool Ok = mapping(N, "Visits", {"Callable", "Elements"},
                      [&](StringRef K, yaml::Node *X) {
                        bool Callable = K == "Callable";
                        (Callable ? HasCallable : HasElements) = true;
                        return argOnly(X, X, Callable ? V.Callable : V.Elements,
                                       Callable ? "Callable" : "Elements");
                      });
    if (Ok && (!HasCallable || !HasElements))
      return fail(N, "Visits needs 'Callable' and 'Elements'");
    return Ok;
  }

  // Binds: {Callable: <arg>, Placeholders: <namespace>}; Callable required.
  bool binds(yaml::Node *N, ModelBind &B) {
    bool HasCallable = false;
    bool Ok = mapping(N, "Binds", {"Callable", "Placeholders"},
                      [&](StringRef K, yaml::Node *X) {
                        if (K == "Placeholders") {
                          auto S = scalar(X, "a namespace");
                          return S && (B.Placeholders = *S, true);
                        }
                        HasCallable = true;
                        return argOnly(X, X, B.Callable, "Callable");
                      });
    if (Ok && !HasCallable)
      return fail(N, "Binds needs 'Callable'");
    return Ok;
  }

  // A function entry or rule: one branch per key, then the checks that
  // need several keys. A flat list (over 80 lines) read key by key.
  bool entry(yaml::Node *N, ModelEntry &E, bool Rule) {
    if (Error)
      return false;
    auto [Line, Column] = position(N);
    E.File = Path;
    E.Line = Line;
    E.Column = Column;
    static const StringRef FunctionKeys[] = {
        "Id",     "Name",    "Params", "Effect",  "On",     "Source",
        "Generator", "When", "Unless", "May",     "Draws",  "Subject",
        "StdStreamArg", "Returns", "Visits", "Binds", "Rebinds"};
    static const StringRef RuleKeys[] = {
        "Id",         "Namespace", "Class",     "NamePrefix", "NameSuffix",
        "Names",      "HasParam",  "OverloadHasParam",        "Effect",
        "On",         "Source",    "Generator", "When",       "Unless",
        "May",        "Draws",     "Subject",   "StdStreamArg", "Returns",
        "Visits",     "Binds",     "Rebinds"};
    bool HasEffect = false;
    auto Str = [&](yaml::Node *V, std::string &Out, StringRef What) {
      auto S = scalar(V, What);
      return S && (Out = *S, true);
    };
    bool Ok = mapping(
        N, Rule ? "a rule" : "a function entry",
        Rule ? ArrayRef<StringRef>(RuleKeys) : ArrayRef<StringRef>(FunctionKeys),
        [&](StringRef K, yaml::Node *V) -> bool {
          if (K == "Id")
            return Str(V, E.Id, "an id");
          if (K == "Name")
            return Str(V, E.Name, "a qualified function name");
          if (K == "Params") {
            // Params: [] is the overload without parameters.
            return strings(V, E.Params.emplace(), "parameter types");
          }
          if (K == "Namespace")
            return strings(V, E.Namespaces, "namespaces");
          if (K == "Class")
            return strings(V, E.Classes, "qualified class names");
          if (K == "NamePrefix")
            return Str(V, E.NamePrefix, "a name prefix");
          if (K == "NameSuffix")
            return Str(V, E.NameSuffix, "a name suffix");
          if (K == "Names")
            return strings(V, E.Names, "names");
          if (K == "HasParam") {
            // One parameter, or a list that must all be there.
            if (isa_and_nonnull<yaml::SequenceNode>(V))
              return list(V, "parameters", E.HasParam,
                          [&](yaml::Node *I, ArgRef &A) {
                            return argOnly(I, I, A, "HasParam");
                          });
            return argOnly(V, V, E.HasParam.emplace_back(), "HasParam");
          }
          if (K == "OverloadHasParam")
            return argOnly(V, V, E.OverloadHasParam.emplace(),
                           "OverloadHasParam");
          if (K == "Effect") {
            HasEffect = true;
            return effect(V, E.Effect);
          }
          if (K == "On")
            return target(V, E.On);
          if (K == "Source")
            return Str(V, E.Source, "a source name");
          if (K == "Generator")
            return argOnly(V, V, E.Generator.emplace(), "Generator");
          if (K == "When")
            return conditions(V, E.When);
          if (K == "Unless")
            return conditions(V, E.Unless);
          if (K == "May")
            return Str(V, E.May, "when the effect happens");
          if (K == "Draws")
            return Str(V, E.Draws, "what is drawn");
          if (K == "Subject")
            return Str(V, E.Subject, "a subject");
          if (K == "StdStreamArg")
            return argOnly(V, V, E.StdStreamArg.emplace(), "StdStreamArg");
          if (K == "Returns")
            return returns(V, E.Returns.emplace());
          if (K == "Visits")
            return visits(V, E.Visits.emplace());
          if (K == "Binds")
            return binds(V, E.Binds.emplace());
          if (K == "Rebinds")
            return flag(V, E.Rebinds);
          return false;
        });
    if (!Ok)
      return false;
    if (!Rule && E.Name.empty())
      return fail(N, "a function entry needs 'Name'");
    if (Rule && E.Namespaces.empty() && E.Classes.empty() && E.Names.empty() &&
        E.NamePrefix.empty())
      return fail(N, "a rule needs at least one of Namespace, Class, Names "
                     "or NamePrefix");
    E.HasEffect = HasEffect;
    if (!HasEffect && !E.Returns && !E.Visits && !E.Binds)
      return fail(N, "an entry needs 'Effect', 'Returns', 'Visits' or 'Binds'");
    bool OnState = E.Effect == ModelEffect::StateWrite ||
                   E.Effect == ModelEffect::CounterUpdate ||
                   E.Effect == ModelEffect::CacheWrite;
    if (OnState && E.On.K == ModelTarget::World)
      return fail(N, "effect '" + effectName(E.Effect) +
                         "' needs 'On': this, an argument or process");
    if (E.On.K == ModelTarget::Process && E.Subject.empty())
      return fail(N, "'On: process' needs a 'Subject': what messages call "
                     "the state it writes");
    if (!OnState && E.On.K != ModelTarget::World)
      return fail(N, "'On' only goes with state-write, counter-update or "
                     "cache-write");
    if (E.Effect != ModelEffect::Rng &&
        (!E.Source.empty() || E.Generator || !E.Draws.empty()))
      return fail(N, "Source, Generator and Draws only go with effect 'rng'");
    if (E.StdStreamArg && E.Effect != ModelEffect::Io)
      return fail(N, "StdStreamArg only goes with effect 'io'");
    if (E.Id.empty())
      E.Id = E.Name;
    if (E.Id.empty())
      return fail(N, "a rule needs an 'Id', so that a user model can "
                     "switch it off");
    return true;
  }

  bool source(yaml::Node *N, ModelSource &S) {
    bool Ok = mapping(N, "a source", {"Name", "Description", "ReplayedBy"},
                      [&](StringRef K, yaml::Node *V) -> bool {
                        if (K == "ReplayedBy")
                          return strings(V, S.ReplayedBy, "entry points");
                        auto Str = scalar(V, K == "Name" ? "a source name"
                                                         : "a description");
                        if (!Str)
                          return false;
                        (K == "Name" ? S.Name : S.Description) = *Str;
                        return true;
                      });
    if (Ok && S.Name.empty())
      return fail(N, "a source needs 'Name'");
    if (Ok && S.Description.empty())
      S.Description = S.Name;
    return Ok;
  }

  bool entryPoint(yaml::Node *N, ModelEntryPoint &P) {
    if (isa_and_nonnull<yaml::ScalarNode>(N)) {
      auto S = scalar(N, "an entry point");
      return S && (P.Name = *S, true);
    }
    bool Ok = mapping(N, "an entry point",
                      {"Name", "Replays", "Callable", "ArgumentsFresh"},
                      [&](StringRef K, yaml::Node *V) -> bool {
                        if (K == "Replays")
                          return strings(V, P.Replays, "source names");
                        if (K == "ArgumentsFresh")
                          return flag(V, P.ArgumentsFresh);
                        if (K == "Callable") {
                          auto S = scalar(V, "an argument position");
                          unsigned Arg;
                          if (!S)
                            return false;
                          if (StringRef(*S).getAsInteger(10, Arg) || Arg > 64)
                            return fail(V, "expected an argument position "
                                           "(0 to 64)");
                          P.Callable = Arg;
                          return true;
                        }
                        auto S = scalar(V, "a qualified function name");
                        return S && (P.Name = *S, true);
                      });
    if (Ok && P.Name.empty())
      return fail(N, "an entry point needs 'Name'");
    return Ok;
  }

  bool callableObject(yaml::Node *N, ModelCallableObject &O) {
    bool Ok = mapping(N, "a callable object", {"Class", "Method", "Holders"},
                      [&](StringRef K, yaml::Node *V) -> bool {
                        if (K == "Holders")
                          return strings(V, O.Holders, "class templates");
                        auto S = scalar(V, K == "Class"
                                               ? "a qualified class name"
                                               : "a member function name");
                        if (!S)
                          return false;
                        (K == "Class" ? O.Class : O.Method) = *S;
                        return true;
                      });
    if (Ok && (O.Class.empty() || O.Method.empty()))
      return fail(N, "a callable object needs 'Class' and 'Method'");
    return Ok;
  }

  bool callableHolder(yaml::Node *N, ModelCallableHolder &H) {
    bool Ok = mapping(N, "a callable holder", {"Class", "Runs", "Adds"},
                      [&](StringRef K, yaml::Node *V) -> bool {
                        if (K == "Adds")
                          return strings(V, H.Adds, "member names");
                        auto S = scalar(V, K == "Class"
                                               ? "a qualified class name"
                                               : "a member function name");
                        if (!S)
                          return false;
                        (K == "Class" ? H.Class : H.Runs) = *S;
                        return true;
                      });
    if (Ok && H.Class.empty())
      return fail(N, "a callable holder needs 'Class'");
    if (Ok && H.Runs.empty() && H.Adds.empty())
      return fail(N, "a callable holder needs 'Runs' or 'Adds'");
    return Ok;
  }

  static constexpr std::pair<StringRef, TypeKind> Kinds[] = {
      {"container", TypeKind::Container},
      {"map", TypeKind::Map},
      {"random-engine", TypeKind::RandomEngine},
      {"random-device", TypeKind::RandomDevice},
      {"replayed-generator", TypeKind::ReplayedGenerator},
      {"file-stream", TypeKind::FileStream},
      {"atomic", TypeKind::Atomic},
      {"handle", TypeKind::Handle},
      {"view", TypeKind::View},
      {"value", TypeKind::Value}};

  bool types(yaml::Node *N, ModelFile &M) {
    SmallVector<StringRef, 10> Keys;
    for (const auto &K : Kinds)
      Keys.push_back(K.first);
    return mapping(N, "Types", Keys, [&](StringRef K, yaml::Node *V) {
      ModelTypes T;
      for (const auto &Kind : Kinds)
        if (Kind.first == K)
          T.Kind = Kind.second;
      if (!strings(V, T.Names, "qualified class names"))
        return false;
      M.Types.push_back(std::move(T));
      return true;
    });
  }

  // {Kind: <type kind>, Names: [...], Effect: <effect> | read,
  //  On: this | world}; Kind, Names and Effect required.
  bool member(yaml::Node *N, ModelMember &M) {
    M.File = Path;
    M.Line = position(N).first;
    bool HasKind = false, HasNames = false, HasEffect = false;
    bool Ok = mapping(
        N, "a member entry", {"Kind", "Names", "Effect", "On"},
        [&](StringRef K, yaml::Node *V) -> bool {
          if (K == "Names")
            return (HasNames = true, strings(V, M.Names, "member names"));
          auto S = scalar(V, K == "Kind" ? "a type kind" : K == "On"
                                                  ? "'this' or 'world'"
                                                  : "an effect");
          if (!S)
            return false;
          if (K == "Kind") {
            HasKind = true;
            for (const auto &Kind : Kinds)
              if (Kind.first == *S)
                return (M.Kind = Kind.second, true);
            return fail(V, "unknown type kind '" + *S + "'");
          }
          if (K == "On") {
            if (*S != "this" && *S != "world")
              return fail(V, "expected 'this' or 'world'");
            return (M.World = *S == "world", true);
          }
          HasEffect = true;
          if (*S == "read")
            return (M.Reads = true, true);
          return effect(V, M.Effect);
        });
    if (Ok && (!HasKind || !HasNames || !HasEffect))
      return fail(N, "a member entry needs 'Kind', 'Names' and 'Effect'");
    return Ok;
  }

  void file(yaml::Node *Root, ModelFile &M) {
    mapping(Root, "a model file",
            {"Model", "Sources", "EntryPoints", "Types", "CallableObjects",
             "CallableHolders", "ContainerMutators", "Members", "LogStreams",
             "StdHandles", "Functions",
             "Rules", "Disable", "Analyse"},
            [&](StringRef K, yaml::Node *V) -> bool {
              if (K == "Model") {
                auto S = scalar(V, "the model's name");
                return S && (M.Name = *S, true);
              }
              if (K == "Sources")
                return list(V, "sources", M.Sources,
                            [&](yaml::Node *I, ModelSource &S) {
                              return source(I, S);
                            });
              if (K == "EntryPoints")
                return list(V, "entry points", M.EntryPoints,
                            [&](yaml::Node *I, ModelEntryPoint &P) {
                              return entryPoint(I, P);
                            });
              if (K == "Types")
                return types(V, M);
              if (K == "CallableObjects")
                return list(V, "callable objects", M.CallableObjects,
                            [&](yaml::Node *I, ModelCallableObject &O) {
                              return callableObject(I, O);
                            });
              if (K == "CallableHolders")
                return list(V, "callable holders", M.CallableHolders,
                            [&](yaml::Node *I, ModelCallableHolder &H) {
                              return callableHolder(I, H);
                            });
              if (K == "ContainerMutators")
                return strings(V, M.ContainerMutators, "member names");
              if (K == "Members")
                return list(V, "member entries", M.Members,
                            [&](yaml::Node *I, ModelMember &X) {
                              return member(I, X);
                            });
              if (K == "LogStreams")
                return strings(V, M.LogStreams, "qualified variable names");
              if (K == "StdHandles")
                return strings(V, M.StdHandles, "variable names");
              if (K == "Disable")
                return strings(V, M.Disable, "entry ids");
              if (K == "Analyse")
                return strings(V, M.Analyse, "classes or namespaces");
              bool Rule = K == "Rules";
              return list(V, Rule ? "rules" : "function entries",
                          Rule ? M.Rules : M.Functions,
                          [&](yaml::Node *I, ModelEntry &E) {
                            return entry(I, E, Rule);
                          });
            });
  }

  std::string Path;
  StringRef Text;
  SourceMgr SM;
  std::optional<std::string> Error;
};

} // namespace

Expected<ModelFile> parseModel(StringRef Text, StringRef Path) {
  return Parser(Path).parse(Text);
}

Expected<ModelFile> loadModelFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             "%s: error: cannot read model file: %s",
                             Path.str().c_str(),
                             Buffer.getError().message().c_str());
  return parseModel((*Buffer)->getBuffer(), Path);
}

} // namespace clang::tidy::rematch
