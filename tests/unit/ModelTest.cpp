// Model files: the format, its errors (file:line:col), a project's model
// over the built-in ones, and the shipped models themselves.

#include "Config.h"
#include "Model.h"
#include "KnownFunctions.h"
#include "ModelSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace clang::tidy::rematch;
using ::testing::HasSubstr;
using ::testing::StartsWith;

namespace {

ModelFile parseOk(llvm::StringRef Text) {
  llvm::Expected<ModelFile> M = parseModel(Text, "m.yaml");
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return {};
  }
  return std::move(*M);
}

std::string parseError(llvm::StringRef Text) {
  llvm::Expected<ModelFile> M = parseModel(Text, "m.yaml");
  if (M)
    return "(parsed)";
  return llvm::toString(M.takeError());
}

TEST(Model, FunctionEntryWithConditionsAndGenerator) {
  ModelFile M = parseOk(R"(
Model: t
Sources:
  - {Name: t.default, Description: "t's generator", ReplayedBy: [t::ckpt]}
Functions:
  - Name: t::sample
    Effect: rng
    Source: t.default
    Generator: {Type: "t::Gen"}
    Draws: mask
    Unless: [{Param: train, Is: false}, {Param: opts, Field: training, Is: false, Default: true}]
    May: in training mode
)");
  ASSERT_EQ(M.Functions.size(), 1u);
  const ModelEntry &E = M.Functions[0];
  EXPECT_EQ(E.Name, "t::sample");
  EXPECT_EQ(E.Id, "t::sample"); // a function's id is its name
  EXPECT_EQ(E.Effect, ModelEffect::Rng);
  EXPECT_EQ(E.Source, "t.default");
  ASSERT_TRUE(E.Generator.has_value());
  EXPECT_EQ(E.Generator->Type, "t::Gen");
  EXPECT_EQ(E.Draws, "mask");
  EXPECT_EQ(E.May, "in training mode");
  ASSERT_EQ(E.Unless.size(), 2u);
  EXPECT_EQ(E.Unless[0].Arg.Param, "train");
  EXPECT_EQ(E.Unless[0].Is, Condition::False);
  EXPECT_EQ(E.Unless[1].Field, "training");
  EXPECT_EQ(E.Unless[1].Default, std::optional<bool>(true));
  EXPECT_EQ(E.Line, 6u);
  EXPECT_EQ(E.Column, 5u);
  ASSERT_EQ(M.Sources.size(), 1u);
  EXPECT_EQ(M.Sources[0].Description, "t's generator");
  EXPECT_EQ(M.Sources[0].ReplayedBy, std::vector<std::string>{"t::ckpt"});
}

TEST(Model, RulesTypesEntryPointsAndDisable) {
  ModelFile M = parseOk(R"(
Model: t
Types:
  handle: [t::Tensor]
  container: t::Bag, t::Set
EntryPoints:
  - t::plain
  - {Name: t::replaying, Replays: [t.default]}
Rules:
  - {Id: in-place, Class: t::Tensor, NameSuffix: _, Effect: state-write, On: this}
  - {Id: out, Namespace: [t, u], HasParam: {Param: out}, Effect: state-write, On: {Param: out}}
  - {Id: gen, Namespace: t, OverloadHasParam: {Arg: 2}, Effect: pure}
Disable: [rand, in-place]
)");
  ASSERT_EQ(M.Types.size(), 2u);
  EXPECT_EQ(M.Types[0].Kind, TypeKind::Handle);
  EXPECT_EQ(M.Types[1].Names, (std::vector<std::string>{"t::Bag", "t::Set"}));
  ASSERT_EQ(M.EntryPoints.size(), 2u);
  EXPECT_TRUE(M.EntryPoints[0].Replays.empty());
  EXPECT_EQ(M.EntryPoints[1].Replays, std::vector<std::string>{"t.default"});
  ASSERT_EQ(M.Rules.size(), 3u);
  EXPECT_EQ(M.Rules[0].On.K, ModelTarget::This);
  EXPECT_EQ(M.Rules[1].Namespaces, (std::vector<std::string>{"t", "u"}));
  EXPECT_EQ(M.Rules[1].On.K, ModelTarget::Argument);
  EXPECT_EQ(M.Rules[1].On.Arg.Param, "out");
  EXPECT_EQ(M.Rules[2].OverloadHasParam->Index, 2);
  EXPECT_EQ(M.Disable, (std::vector<std::string>{"rand", "in-place"}));
}

TEST(Model, EmptyFileIsAnEmptyModel) {
  ModelFile M = parseOk("# nothing yet\n");
  EXPECT_TRUE(M.Functions.empty());
  EXPECT_TRUE(M.Rules.empty());
}

// An entry's position is that of its first key.
TEST(Model, ErrorsNameFileLineAndColumn) {
  EXPECT_EQ(parseError("Functions:\n  - {Name: f, Effect: teleport}\n"),
            "m.yaml:2:23: error: unknown effect 'teleport'; expected one of: "
            "rng, state-write, counter-update, cache-write, logging, io, "
            "nondeterminism, pure");
  EXPECT_THAT(parseError("Funtions: []\n"),
              StartsWith("m.yaml:1:1: error: unknown key 'Funtions' in a "
                         "model file; expected one of: Model, Sources"));
  EXPECT_THAT(parseError("Functions:\n  - {Effect: io}\n"),
              StartsWith("m.yaml:2:6: error: a function entry needs 'Name'"));
  EXPECT_THAT(parseError("Functions:\n  - {Name: f, Effect: state-write}\n"),
              StartsWith("m.yaml:2:6: error: effect 'state-write' needs 'On'"));
  EXPECT_THAT(parseError("Functions:\n  - {Name: f, Effect: io, On: this}\n"),
              HasSubstr("'On' only goes with state-write"));
  // State of the process needs a name for the messages, and stays a state.
  EXPECT_THAT(
      parseError("Functions:\n  - {Name: f, Effect: state-write, On: process}\n"),
      HasSubstr("'On: process' needs a 'Subject'"));
  EXPECT_THAT(parseError("Functions:\n  - {Name: f, Effect: io, On: process, "
                         "Subject: s}\n"),
              HasSubstr("'On' only goes with state-write"));
  EXPECT_THAT(parseError("Functions:\n  - {Name: f, Effect: state-write, "
                         "On: proces}\n"),
              HasSubstr("expected 'this', 'process' or an argument"));
  EXPECT_THAT(parseError("Functions:\n  - {Name: f, Effect: io, Source: x}\n"),
              HasSubstr("Source, Generator and Draws only go with effect 'rng'"));
  EXPECT_THAT(
      parseError("Functions:\n  - {Name: f, Effect: rng, Unless: {Arg: 1}}\n"),
      StartsWith("m.yaml:2:37: error: a condition needs 'Is'"));
  EXPECT_THAT(parseError("Functions:\n  - {Name: f, Effect: rng, Unless: "
                         "{Arg: 1, Param: p, Is: false}}\n"),
              HasSubstr("exactly one of Arg, Param or Type"));
  EXPECT_THAT(parseError("Functions:\n  - {Name: f, Effect: rng, Unless: "
                         "{Arg: x, Is: false}}\n"),
              StartsWith("m.yaml:2:42: error: expected an argument index"));
  EXPECT_THAT(parseError("Rules:\n  - {Effect: pure}\n"),
              HasSubstr("a rule needs at least one of Namespace"));
  EXPECT_THAT(parseError("Rules:\n  - {Namespace: x, Effect: pure}\n"),
              HasSubstr("a rule needs an 'Id'"));
  EXPECT_THAT(parseError("Types:\n  tensor: [x]\n"),
              StartsWith("m.yaml:2:3: error: unknown key 'tensor' in Types"));
  EXPECT_THAT(parseError("Functions:\n  - {Name: f, Name: g, Effect: io}\n"),
              HasSubstr("key 'Name' given twice"));
  // A YAML syntax error, as the YAML reader reports it.
  EXPECT_EQ(parseError("Functions: [\n"),
            "m.yaml:1:13: error: Could not find closing ]!");
  // Nesting that would take the reader's recursion deep.
  EXPECT_THAT(parseError("Functions: " + std::string(100, '[')),
              HasSubstr("nested more than 32 levels deep"));
  // Found by the fuzzer: an entry the YAML reader gave up on has no
  // position in the text; the error is still the first one, not a crash.
  EXPECT_THAT(parseError("Functions:\n  - {orch.md).\n  - {Nam" +
                         std::string(80, '\xff') + "e: x}\n"),
              StartsWith("m.yaml:"));
  EXPECT_THAT(parseError("Model: a\n---\nModel: b\n"),
              HasSubstr("one YAML document"));
}

// Returns: what a call's result is an alias of; an entry may say only that.
TEST(Model, ReturnsAliasRules) {
  ModelFile M = parseOk(R"(
Rules:
  - {Id: views, Class: [t::T], Names: [view], Returns: {AliasOf: this}}
  - Id: maybe
    Namespace: t
    Names: [reshape]
    HasParam: [{Param: self}, {Param: shape}]
    Returns: {AliasOf: {Param: self}, May: "if it returns a view"}
Functions:
  - {Name: t::tie, Returns: {AliasOf: args}}
  - {Name: t::fill, Effect: state-write, On: {Arg: 0}, Returns: {AliasOf: {Arg: 0}}}
)");
  ASSERT_EQ(M.Rules.size(), 2u);
  ASSERT_TRUE(M.Rules[0].Returns.has_value());
  EXPECT_EQ(M.Rules[0].Returns->K, AliasRule::This);
  EXPECT_FALSE(M.Rules[0].HasEffect);
  EXPECT_EQ(M.Rules[1].Returns->K, AliasRule::Argument);
  EXPECT_EQ(M.Rules[1].Returns->Arg.Param, "self");
  EXPECT_EQ(M.Rules[1].Returns->May, "if it returns a view");
  ASSERT_EQ(M.Rules[1].HasParam.size(), 2u);
  EXPECT_EQ(M.Rules[1].HasParam[1].Param, "shape");
  ASSERT_EQ(M.Functions.size(), 2u);
  EXPECT_EQ(M.Functions[0].Returns->K, AliasRule::Arguments);
  EXPECT_TRUE(M.Functions[1].HasEffect);
  EXPECT_EQ(M.Functions[1].Returns->Arg.Index, 0);

  EXPECT_THAT(parseError("Functions:\n  - {Name: f}\n"),
              HasSubstr("an entry needs 'Effect', 'Returns', 'Visits' or 'Binds'"));
  EXPECT_THAT(parseError("Functions:\n  - {Name: f, Returns: {May: x}}\n"),
              HasSubstr("Returns needs 'AliasOf'"));
  EXPECT_THAT(
      parseError("Functions:\n  - {Name: f, Returns: {AliasOf: that}}\n"),
      StartsWith("m.yaml:2:34: error: expected 'this', 'args' or an argument"));
  EXPECT_THAT(parseError("Types:\n  view: [x::V]\n"), StartsWith("(parsed)"));
}

TEST(Model, MissingFileIsAnError) {
  llvm::Expected<ModelFile> M = loadModelFile("/nonexistent/m.yaml");
  ASSERT_FALSE(M);
  EXPECT_THAT(llvm::toString(M.takeError()),
              StartsWith("/nonexistent/m.yaml: error: cannot read model file"));
}

std::shared_ptr<const ModelFile> file(llvm::StringRef Text) {
  return std::make_shared<const ModelFile>(parseOk(Text));
}

TEST(ModelSet, ProjectModelAddsAndSwitchesOff) {
  auto Builtin = file(R"(
Functions:
  - {Name: rand, Effect: rng}
  - {Name: getenv, Effect: nondeterminism}
Rules:
  - {Id: lib-pure, Namespace: lib, Effect: pure}
EntryPoints:
  - {Name: lib::checkpoint, Replays: [lib.default]}
)");
  auto Project = file(R"(
Functions:
  - {Name: lib::sample, Effect: rng, Source: proj.noise}
Disable: [getenv, lib-pure]
)");
  Config C;
  C.LoggingFunctions = {"::mylog::write"};
  C.CheckpointFunctions = {"nn::checkpoint"};
  C.CheckpointReplays["nn::checkpoint"] = {"lib.default"};
  ModelSet S({Builtin, Project}, C);
  ASSERT_EQ(S.named("rand").size(), 1u);
  EXPECT_TRUE(S.named("getenv").empty()); // switched off by the project
  ASSERT_EQ(S.named("lib::sample").size(), 1u);
  EXPECT_EQ(S.named("lib::sample")[0]->Source, "proj.noise");
  // The configuration's lists are entries too.
  ASSERT_EQ(S.named("mylog::write").size(), 1u);
  EXPECT_EQ(S.named("mylog::write")[0]->Effect, ModelEffect::Logging);
  EXPECT_TRUE(S.rules().empty()); // lib-pure switched off
  ASSERT_EQ(S.entryPoints().count("nn::checkpoint"), 1u);
  EXPECT_EQ(S.entryPoints().lookup("nn::checkpoint"),
            std::vector<std::string>{"lib.default"});
  EXPECT_EQ(S.entryPoints().lookup("lib::checkpoint"),
            std::vector<std::string>{"lib.default"});
}

// The scopes a model can speak of: what lets most of a project's functions
// skip the lookup by qualified name.
TEST(ModelSet, OuterScopesOfEntriesRulesAndAnalyse) {
  auto Models = file(R"(
Functions:
  - {Name: rand, Effect: rng}
  - {Name: proj::log::line, Effect: logging}
Rules:
  - {Id: lib-pure, Namespace: lib::ops, Effect: pure}
  - {Id: mat-set, Class: Eigen::Matrix, NamePrefix: set, Effect: state-write, On: this}
Analyse: [torch::nn::Module]
)");
  Config C;
  C.LoggingFunctions = {"Logger::write"};
  ModelSet S({Models}, C);
  for (const char *Outer : {"proj", "lib", "Eigen", "torch", "Logger", "std"})
    EXPECT_TRUE(S.mayMatchWithin(Outer)) << Outer;
  // Inner scopes and names no model starts with are never asked about.
  for (const char *Other : {"Layer7", "ops", "log", "Matrix", "nn", "rand"})
    EXPECT_FALSE(S.mayMatchWithin(Other)) << Other;

  // A rule that names no namespace or class may match any function.
  auto Anywhere = file(R"(
Rules:
  - {Id: setters, NamePrefix: set, Effect: state-write, On: this}
)");
  EXPECT_TRUE(ModelSet({Anywhere}, Config()).mayMatchWithin("Layer7"));
}

TEST(Config, CheckpointFunctionsWithReplays) {
  llvm::Expected<Config> C = parseConfig(R"(
CheckpointFunctions:
  - nn::checkpoint
  - {Name: my::checkpoint, Replays: [torch.default]}
Models: [m/project.yaml]
)",
                                         "/proj/.rematch.yaml");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->CheckpointFunctions,
            (std::vector<std::string>{"nn::checkpoint", "my::checkpoint"}));
  EXPECT_EQ(C->CheckpointReplays.at("my::checkpoint"),
            std::vector<std::string>{"torch.default"});
  EXPECT_EQ(C->CheckpointReplays.count("nn::checkpoint"), 0u);
  // Relative to the configuration file.
  EXPECT_EQ(C->Models, std::vector<std::string>{"/proj/m/project.yaml"});

  llvm::Expected<Config> Bad = parseConfig(
      "CheckpointFunctions:\n  - {Replays: [x]}\n", "/p/.rematch.yaml");
  ASSERT_FALSE(Bad);
  EXPECT_THAT(llvm::toString(Bad.takeError()),
              StartsWith("/p/.rematch.yaml:2:6: error: missing required key "
                         "'Name'"));
}

// Which argument is the checkpointed callable: in a model's EntryPoints and
// in .rematch.yaml, counted from 0; the configuration's wins.
TEST(Model, EntryPointCallable) {
  ModelFile M = parseOk(R"(
EntryPoints:
  - {Name: lib::run_with, Callable: 1}
  - lib::checkpoint
)");
  ASSERT_EQ(M.EntryPoints.size(), 2u);
  EXPECT_EQ(M.EntryPoints[0].Callable, std::optional<unsigned>(1));
  EXPECT_EQ(M.EntryPoints[1].Callable, std::nullopt);
  EXPECT_THAT(parseError("EntryPoints:\n  - {Name: a::b, Callable: first}\n"),
              StartsWith("m.yaml:2:28: error: expected an argument position"));
  EXPECT_THAT(parseError("EntryPoints:\n  - {Name: a::b, Callable: -1}\n"),
              StartsWith("m.yaml:2:28: error: expected an argument position"));

  auto File = std::make_shared<const ModelFile>(std::move(M));
  llvm::Expected<Config> C = parseConfig(R"(
CheckpointFunctions:
  - {Name: lib::checkpoint, Callable: 2}
  - {Name: my::ckpt, Replays: [t.default], Callable: 0}
  - my::plain
)",
                                         "/p/.rematch.yaml");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->CheckpointCallable.at("my::ckpt"), 0u);
  EXPECT_EQ(C->CheckpointCallable.count("my::plain"), 0u);
  ModelSet S({File}, *C);
  EXPECT_EQ(S.callableArg("lib::run_with"), std::optional<unsigned>(1));
  EXPECT_EQ(S.callableArg("lib::checkpoint"), std::optional<unsigned>(2));
  EXPECT_EQ(S.callableArg("my::ckpt"), std::optional<unsigned>(0));
  EXPECT_EQ(S.callableArg("my::plain"), std::nullopt);

  llvm::Expected<Config> Bad = parseConfig(
      "CheckpointFunctions:\n  - {Name: a, Callable: x}\n", "/p/.rematch.yaml");
  ASSERT_FALSE(Bad);
  EXPECT_THAT(llvm::toString(Bad.takeError()),
              StartsWith("/p/.rematch.yaml:2:25: error: invalid number"));
}

TEST(Model, CallableObjects) {
  ModelFile M = parseOk(R"(
CallableObjects:
  - {Class: "::lib::Layer", Method: forward, Holders: [lib::Holder, std::shared_ptr]}
  - {Class: lib::Step, Method: run}
Disable: [lib::Step]
)");
  ASSERT_EQ(M.CallableObjects.size(), 2u);
  EXPECT_EQ(M.CallableObjects[0].Method, "forward");
  EXPECT_EQ(M.CallableObjects[0].Holders,
            (std::vector<std::string>{"lib::Holder", "std::shared_ptr"}));
  EXPECT_TRUE(M.CallableObjects[1].Holders.empty());
  // The set trims the leading "::" and leaves out what is switched off.
  ModelSet S({std::make_shared<const ModelFile>(std::move(M))}, Config());
  ASSERT_EQ(S.callableObjects().size(), 1u);
  EXPECT_EQ(S.callableObjects()[0].Class, "lib::Layer");

  EXPECT_THAT(parseError("CallableObjects:\n  - {Class: a::B}\n"),
              StartsWith("m.yaml:2:6: error: a callable object needs 'Class' "
                         "and 'Method'"));
  EXPECT_THAT(parseError("CallableObjects:\n  - {Class: a::B, Metod: f}\n"),
              StartsWith("m.yaml:2:19: error: unknown key 'Metod' in a "
                         "callable object; expected one of: Class, Method, "
                         "Holders"));
}

TEST(Model, CallableHolders) {
  ModelFile M = parseOk(R"yaml(
CallableHolders:
  - {Class: "::lib::Fn", Runs: "operator()"}
  - {Class: lib::Seq, Runs: forward, Adds: [push_back, extend]}
  - {Class: lib::List, Adds: [push_back]}
  - {Class: lib::Off, Runs: run}
Disable: [lib::Off]
)yaml");
  ASSERT_EQ(M.CallableHolders.size(), 4u);
  EXPECT_EQ(M.CallableHolders[1].Runs, "forward");
  EXPECT_EQ(M.CallableHolders[1].Adds,
            (std::vector<std::string>{"push_back", "extend"}));
  EXPECT_TRUE(M.CallableHolders[2].Runs.empty());
  ModelSet S({std::make_shared<const ModelFile>(std::move(M))}, Config());
  ASSERT_EQ(S.callableHolders().size(), 3u);
  EXPECT_EQ(S.callableHolders()[0].Class, "lib::Fn");

  EXPECT_THAT(parseError("CallableHolders:\n  - {Runs: f}\n"),
              StartsWith("m.yaml:2:6: error: a callable holder needs 'Class'"));
  EXPECT_THAT(parseError("CallableHolders:\n  - {Class: a::B}\n"),
              StartsWith("m.yaml:2:6: error: a callable holder needs 'Runs' "
                         "or 'Adds'"));
  EXPECT_THAT(parseError("CallableHolders:\n  - {Class: a::B, Run: f}\n"),
              HasSubstr("unknown key 'Run' in a callable holder; expected "
                        "one of: Class, Runs, Adds"));
}

TEST(Config, CheckpointFunctionOption) {
  Config C;
  ASSERT_FALSE(bool(addCheckpointFunctions(
      "a::ckpt[torch.default;mlx.default], b::run, ::, c::x[]", C)));
  EXPECT_EQ(C.CheckpointFunctions,
            (std::vector<std::string>{"a::ckpt", "b::run", "c::x"}));
  EXPECT_EQ(C.CheckpointReplays.at("a::ckpt"),
            (std::vector<std::string>{"torch.default", "mlx.default"}));
  EXPECT_TRUE(C.CheckpointReplays.at("c::x").empty());
  llvm::Error E = addCheckpointFunctions("a::ckpt[x", C);
  ASSERT_TRUE(bool(E));
  EXPECT_THAT(llvm::toString(std::move(E)),
              HasSubstr("malformed entry point 'a::ckpt[x'"));
}

// Entry points whose callable gets fresh copies of its arguments on each
// run: in a model, in .rematch.yaml and in the option (`name+fresh`).
TEST(Model, EntryPointArgumentsFresh) {
  ModelFile M = parseOk(R"(
EntryPoints:
  - {Name: dtr::rematerialize, ArgumentsFresh: true}
  - {Name: torch::checkpoint, ArgumentsFresh: false}
)");
  ASSERT_EQ(M.EntryPoints.size(), 2u);
  EXPECT_TRUE(M.EntryPoints[0].ArgumentsFresh);
  EXPECT_FALSE(M.EntryPoints[1].ArgumentsFresh);
  EXPECT_THAT(parseError("EntryPoints:\n  - {Name: a::b, ArgumentsFresh: yes}\n"),
              StartsWith("m.yaml:2:34: error: expected true or false"));

  llvm::Expected<Config> C = parseConfig(R"(
CheckpointFunctions:
  - {Name: my::clone_run, ArgumentsFresh: true}
  - my::plain
)",
                                         "/p/.rematch.yaml");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  ASSERT_FALSE(bool(addCheckpointFunctions("opt::run+fresh, opt::other", *C)));
  ModelSet S({std::make_shared<const ModelFile>(std::move(M))}, *C);
  EXPECT_TRUE(S.argumentsFresh("dtr::rematerialize"));
  EXPECT_FALSE(S.argumentsFresh("torch::checkpoint"));
  EXPECT_TRUE(S.argumentsFresh("my::clone_run"));
  EXPECT_FALSE(S.argumentsFresh("my::plain"));
  EXPECT_TRUE(S.argumentsFresh("opt::run"));
  EXPECT_FALSE(S.argumentsFresh("opt::other"));
  EXPECT_TRUE(S.entryPoints().count("opt::run"));
}

// Visits: a function that calls one argument on each element of another.
TEST(Model, Visits) {
  ModelFile M = parseOk(R"(
Functions:
  - {Name: lib::each, Visits: {Callable: {Param: fn}, Elements: {Arg: 0}}}
)");
  ASSERT_EQ(M.Functions.size(), 1u);
  ASSERT_TRUE(M.Functions[0].Visits.has_value());
  EXPECT_EQ(M.Functions[0].Visits->Callable.Param, "fn");
  EXPECT_EQ(M.Functions[0].Visits->Elements.Index, 0);
  EXPECT_FALSE(M.Functions[0].HasEffect); // Visits alone is an entry
  EXPECT_THAT(parseError("Functions:\n  - {Name: a::b, Visits: {Callable: "
                         "{Arg: 1}}}\n"),
              HasSubstr("Visits needs 'Callable' and 'Elements'"));
  EXPECT_THAT(parseError("Functions:\n  - {Name: a::b}\n"),
              HasSubstr("an entry needs 'Effect', 'Returns', 'Visits' or 'Binds'"));
}

// Binds: a function whose result calls one argument with the others.
TEST(Model, Binds) {
  ModelFile M = parseOk(R"(
Functions:
  - {Name: lib::bind, Binds: {Callable: {Arg: 0}, Placeholders: lib::ph}}
  - {Name: lib::bind_front, Binds: {Callable: {Param: f}}}
)");
  ASSERT_EQ(M.Functions.size(), 2u);
  ASSERT_TRUE(M.Functions[0].Binds.has_value());
  EXPECT_EQ(M.Functions[0].Binds->Callable.Index, 0);
  EXPECT_EQ(M.Functions[0].Binds->Placeholders, "lib::ph");
  EXPECT_EQ(M.Functions[1].Binds->Callable.Param, "f");
  EXPECT_TRUE(M.Functions[1].Binds->Placeholders.empty());
  EXPECT_THAT(parseError("Functions:\n  - {Name: a::b, Binds: "
                         "{Placeholders: x}}\n"),
              HasSubstr("Binds needs 'Callable'"));
}

// Members: what a member call does to an object of a kind; the last entry
// naming a member wins, a '*' name is a prefix, and a kind with entries
// reads through its other members.
TEST(Model, Members) {
  auto Builtin = file(R"(
Members:
  - {Kind: atomic, Names: ["fetch_*"], Effect: counter-update}
  - {Kind: atomic, Names: [load], Effect: read}
  - {Kind: file-stream, Names: [open], Effect: io, On: world}
)");
  auto Project = file(R"(
Members:
  - {Kind: atomic, Names: [fetch_add], Effect: pure}
)");
  ModelSet S({Builtin, Project}, Config());
  ASSERT_NE(S.member(TypeKind::Atomic, "fetch_sub"), nullptr);
  EXPECT_EQ(S.member(TypeKind::Atomic, "fetch_sub")->Effect,
            ModelEffect::CounterUpdate);
  EXPECT_EQ(S.member(TypeKind::Atomic, "fetch_add")->Effect, ModelEffect::Pure);
  EXPECT_TRUE(S.member(TypeKind::Atomic, "load")->Reads);
  EXPECT_TRUE(S.member(TypeKind::FileStream, "open")->World);
  EXPECT_EQ(S.member(TypeKind::Atomic, "store"), nullptr);
  EXPECT_EQ(S.member(TypeKind::RandomEngine, "fetch_add"), nullptr);
  EXPECT_TRUE(S.hasMembers(TypeKind::Atomic));
  EXPECT_FALSE(S.hasMembers(TypeKind::RandomEngine));

  KindMember Read = KnownFunctions::memberAction(*S.member(TypeKind::Atomic, "load"));
  EXPECT_EQ(Read.What, KindMember::Reads);
  KindMember Open = KnownFunctions::memberAction(*S.member(TypeKind::FileStream, "open"));
  EXPECT_EQ(Open.What, KindMember::Unconditional);
  EXPECT_EQ(Open.Kind, EffectKind::Io);

  EXPECT_THAT(parseError("Members:\n  - {Kind: atomic, Names: [x]}\n"),
              HasSubstr("a member entry needs 'Kind', 'Names' and 'Effect'"));
  EXPECT_THAT(parseError("Members:\n  - {Kind: atom, Names: [x], Effect: io}\n"),
              HasSubstr("unknown type kind 'atom'"));
  EXPECT_THAT(parseError("Members:\n  - {Kind: atomic, Names: [x], Effect: io, "
                         "On: here}\n"),
              HasSubstr("expected 'this' or 'world'"));
}

// Every shipped model parses, and the set loads as the programs load it.
TEST(ShippedModels, AllLoad) {
  std::string Dir = builtinModelsDir();
  ASSERT_FALSE(Dir.empty());
  std::error_code EC;
  unsigned Files = 0;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (llvm::sys::path::extension(It->path()) != ".yaml")
      continue;
    ++Files;
    llvm::Expected<ModelFile> M = loadModelFile(It->path());
    EXPECT_TRUE(bool(M)) << (M ? "" : llvm::toString(M.takeError()));
  }
  EXPECT_GE(Files, 5u);
  llvm::Expected<std::shared_ptr<const ModelSet>> S = modelsFor(Config());
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_FALSE((*S)->named("printf").empty());
  EXPECT_FALSE((*S)->named("at::dropout").empty());
  EXPECT_NE((*S)->source("torch.default"), nullptr);
  // Third-party entry points are models; rematch's own are annotated in
  // its headers (rematch/detail/recomputed.h), not named here.
  EXPECT_EQ((*S)->entryPoints().count("mlx::core::checkpoint"), 1u);
  EXPECT_EQ((*S)->entryPoints().count("rematch::torch::checkpoint"), 0u);
  EXPECT_EQ((*S)->entryPoints().count("rematch::Segment::forward"), 0u);
  // Loaded once per process and configuration.
  llvm::Expected<std::shared_ptr<const ModelSet>> Again = modelsFor(Config());
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(S->get(), Again->get());
}

} // namespace

// A write that assigns the argument object itself (std::swap): a handle is
// rebound, what it shares untouched.
TEST(Model, RebindsIsAFlagOfWrites) {
  ModelFile M = parseOk(R"(
Functions:
  - {Name: std::swap, Effect: state-write, On: {Arg: 0}, Rebinds: true}
  - {Name: at::add_out, Effect: state-write, On: {Param: out}}
)");
  ASSERT_EQ(M.Functions.size(), 2u);
  EXPECT_TRUE(M.Functions[0].Rebinds);
  EXPECT_FALSE(M.Functions[1].Rebinds);
  EXPECT_THAT(parseError("Functions:\n  - {Name: std::swap, Effect: "
                         "state-write, On: {Arg: 0}, Rebinds: 1}\n"),
              StartsWith("m.yaml:2:67: error: expected true or false"));
}
