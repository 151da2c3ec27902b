//===--- ConfigTest.cpp - .rematch.yaml parsing ---------------------------===//

#include "Config.h"
#include "TestPrinters.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using clang::tidy::rematch::Config;
using clang::tidy::rematch::findConfigFile;
using clang::tidy::rematch::loadConfigFile;
using clang::tidy::rematch::parseConfig;
using ::testing::ElementsAre;

namespace {

// Asserts that an Expected holds a value, printing the error if not.
#define ASSERT_SUCCEEDED(E) ASSERT_TRUE(bool(E)) << toString((E).takeError())

// The message of the error parseConfig returns, or "" when it succeeds.
std::string parseError(StringRef Text, StringRef Path = "cfg.yaml") {
  Expected<Config> C = parseConfig(Text, Path);
  if (C)
    return "";
  return toString(C.takeError());
}

TEST(ConfigTest, ReadsEveryKey) {
  Expected<Config> C = parseConfig(R"(
CheckpointFunctions: [nn::checkpoint, Runner::run]
LoggingFunctions:
  - log::info
RngFunctions: [my::rand]
ClockFunctions: [my::now]
IoFunctions: [my::write]
ContainerTypes: [my::Cache]
AllowedGlobals: [config::Scale]
Checks: "-*,rematch-logging"
)",
                                   "proj/.rematch.yaml");
  ASSERT_SUCCEEDED(C);
  EXPECT_THAT(C->CheckpointFunctions,
              ElementsAre("nn::checkpoint", "Runner::run"));
  EXPECT_THAT(C->LoggingFunctions, ElementsAre("log::info"));
  EXPECT_THAT(C->RngFunctions, ElementsAre("my::rand"));
  EXPECT_THAT(C->ClockFunctions, ElementsAre("my::now"));
  EXPECT_THAT(C->IoFunctions, ElementsAre("my::write"));
  EXPECT_THAT(C->ContainerTypes, ElementsAre("my::Cache"));
  EXPECT_THAT(C->AllowedGlobals, ElementsAre("config::Scale"));
  EXPECT_EQ(C->Checks, "-*,rematch-logging");
  EXPECT_EQ(C->Path, "proj/.rematch.yaml");
}

TEST(ConfigTest, SplitsSingleStringLists) {
  Expected<Config> C =
      parseConfig("LoggingFunctions: log::info, log::warn ,,log::error\n"
                  "AllowedGlobals: g_scale\n",
                  "cfg.yaml");
  ASSERT_SUCCEEDED(C);
  EXPECT_THAT(C->LoggingFunctions,
              ElementsAre("log::info", "log::warn", "log::error"));
  EXPECT_THAT(C->AllowedGlobals, ElementsAre("g_scale"));
}

TEST(ConfigTest, EmptyFileIsEmptyConfig) {
  for (StringRef Text : {"", "\n", "# only a comment\n", "---\n"}) {
    Expected<Config> C = parseConfig(Text, "cfg.yaml");
    ASSERT_SUCCEEDED(C) << "text: '" << Text.str() << "'";
    EXPECT_TRUE(C->CheckpointFunctions.empty());
    EXPECT_FALSE(C->Checks.has_value());
  }
}

TEST(ConfigTest, NullValuesMeanNothing) {
  Expected<Config> C = parseConfig(
      "IoFunctions:\nRngFunctions: ~\nClockFunctions: null\nChecks:\n",
      "cfg.yaml");
  ASSERT_SUCCEEDED(C);
  EXPECT_TRUE(C->IoFunctions.empty());
  EXPECT_TRUE(C->RngFunctions.empty());
  EXPECT_TRUE(C->ClockFunctions.empty());
  EXPECT_FALSE(C->Checks.has_value());
}

TEST(ConfigTest, BlockScalarChecksAreTrimmed) {
  Expected<Config> C = parseConfig("Checks: |\n  -*,rematch-io\n", "cfg.yaml");
  ASSERT_SUCCEEDED(C);
  EXPECT_EQ(C->Checks, "-*,rematch-io");
}

TEST(ConfigTest, UnknownKeyIsErrorAtTheKey) {
  EXPECT_EQ(parseError("CheckpointFunctions: [a]\n"
                       "  \n"
                       "CheckpointFunction: [b]\n",
                       "dir/.rematch.yaml"),
            "dir/.rematch.yaml:3:1: error: unknown key 'CheckpointFunction'");
}

TEST(ConfigTest, WrongTypesAreErrors) {
  EXPECT_EQ(parseError("LoggingFunctions:\n  a: b\n"),
            "cfg.yaml:2:3: error: expected a string or a sequence of strings");
  // YAML I/O places a flow collection just inside its opening bracket.
  EXPECT_EQ(parseError("LoggingFunctions: [a, [b]]\n"),
            "cfg.yaml:1:24: error: expected a string");
  EXPECT_EQ(parseError("Checks: [a, b]\n"),
            "cfg.yaml:1:10: error: expected a string");
  EXPECT_EQ(parseError("Checks:\n  - a\n"),
            "cfg.yaml:2:3: error: expected a string");
  EXPECT_EQ(parseError("IoFunctions:\n  - a\n  - x: 1\n"),
            "cfg.yaml:3:5: error: expected a string");
  EXPECT_EQ(parseError("- a\n- b\n"), "cfg.yaml:1:1: error: not a mapping");
}

TEST(ConfigTest, SyntaxErrorHasPosition) {
  std::string Error = parseError("Checks: [a, b\n");
  EXPECT_TRUE(StringRef(Error).starts_with("cfg.yaml:")) << Error;
  EXPECT_NE(Error.find(": error: "), std::string::npos) << Error;

  EXPECT_EQ(parseError("Checks: 'abc\n"),
            "cfg.yaml:1:13: error: Expected quote at end of scalar");
  EXPECT_EQ(parseError("Checks: a\nChecks: b\n"),
            "cfg.yaml:2:1: error: duplicated mapping key 'Checks'");
}

TEST(ConfigTest, MergeAppendsListsAndOverridesChecks) {
  Config Base;
  Base.LoggingFunctions = {"a", "b"};
  Base.Checks = "*";
  Config Project;
  Project.Path = "p/.rematch.yaml";
  Project.LoggingFunctions = {"b", "c"};
  Project.ContainerTypes = {"Cache"};

  Base.merge(Project);
  EXPECT_THAT(Base.LoggingFunctions, ElementsAre("a", "b", "c"));
  EXPECT_THAT(Base.ContainerTypes, ElementsAre("Cache"));
  EXPECT_EQ(Base.Checks, "*"); // Project's is unset
  EXPECT_EQ(Base.Path, "p/.rematch.yaml");

  Config Override;
  Override.Checks = "-*,rematch-io";
  Base.merge(Override);
  EXPECT_EQ(Base.Checks, "-*,rematch-io");
  EXPECT_EQ(Base.Path, "p/.rematch.yaml"); // Override names no file
}

// A scratch directory tree, removed at the end of the test.
class TempTree : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("rematch-config", Root));
    // The walk starts from an absolute, symlink-free directory; so do we,
    // or /tmp being a symlink would make paths differ.
    SmallString<256> Real;
    ASSERT_FALSE(sys::fs::real_path(Root, Real));
    Root = Real;
  }
  void TearDown() override { sys::fs::remove_directories(Root); }

  std::string path(StringRef Rel) {
    SmallString<256> P(Root);
    sys::path::append(P, sys::path::Style::native, Rel);
    return std::string(P);
  }
  void write(StringRef Rel, StringRef Text) {
    std::string P = path(Rel);
    ASSERT_FALSE(sys::fs::create_directories(sys::path::parent_path(P)));
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }

  SmallString<256> Root;
};

TEST_F(TempTree, FindConfigFileWalksUp) {
  write("a/.rematch.yaml", "Checks: '*'\n");
  write("a/b/c/x.cpp", "");
  ASSERT_FALSE(sys::fs::create_directories(path("a/b/c")));
  EXPECT_EQ(findConfigFile(path("a/b/c/x.cpp")), path("a/.rematch.yaml"));

  // The nearest one wins.
  write("a/b/.rematch.yaml", "");
  EXPECT_EQ(findConfigFile(path("a/b/c/x.cpp")), path("a/b/.rematch.yaml"));
  EXPECT_EQ(findConfigFile(path("a/y.cpp")), path("a/.rematch.yaml"));

  // A directory of that name is not a configuration.
  ASSERT_FALSE(sys::fs::create_directories(path("d/.rematch.yaml")));
  std::optional<std::string> Found = findConfigFile(path("d/z.cpp"));
  if (Found)
    EXPECT_FALSE(StringRef(*Found).starts_with(Root)) << *Found;
}

TEST_F(TempTree, LoadConfigFile) {
  write("cfg/.rematch.yaml", "RngFunctions: [r]\nOops: 1\n");
  std::string P = path("cfg/.rematch.yaml");
  Expected<Config> C = loadConfigFile(P);
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(toString(C.takeError()), P + ":2:1: error: unknown key 'Oops'");

  write("cfg/good.yaml", "RngFunctions: [r]\n");
  Expected<Config> Good = loadConfigFile(path("cfg/good.yaml"));
  ASSERT_SUCCEEDED(Good);
  EXPECT_THAT(Good->RngFunctions, ElementsAre("r"));
  EXPECT_EQ(Good->Path, path("cfg/good.yaml"));

  Expected<Config> Missing = loadConfigFile(path("cfg/missing.yaml"));
  ASSERT_FALSE(bool(Missing));
  EXPECT_TRUE(StringRef(toString(Missing.takeError()))
                  .starts_with(path("cfg/missing.yaml") + ": error: "));
}

} // namespace
