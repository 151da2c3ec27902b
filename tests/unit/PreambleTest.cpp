//===--- PreambleTest.cpp - the precompiled preamble cache ----------------===//
//
// An entry is built on the second sighting of a file's leading #include
// block (by another run), used while every file it read is unchanged,
// dropped when one changed, and a build that failed is remembered and not
// tried again. The runs here are PreambleCache objects over one directory;
// the headers are tiny, so each build takes a fraction of a second.
//
//===----------------------------------------------------------------------===//

#include "Preamble.h"
#include "CacheDirectory.h"
#include "Model.h"
#include "ModelSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace rematch::tool;

namespace {

namespace fs = llvm::sys::fs;

class PreambleTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("preamble", Dir));
    write("h.h", "#pragma once\ninline int h() { return 1; }\n");
    write("a.cpp", "#include \"h.h\"\nint f() { return h(); }\n");
    ASSERT_FALSE(fs::create_directory(path("sys")));
  }
  void TearDown() override { fs::remove_directories(Dir); }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  void write(llvm::StringRef Name, llvm::StringRef Text) const {
    std::error_code EC;
    llvm::raw_fd_ostream OS(path(Name), EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  // As a compilation database gives it: the file relative to its directory.
  clang::tooling::CompileCommand command(llvm::StringRef File) const {
    return clang::tooling::CompileCommand(
        std::string(Dir), File.str(),
        {"clang++", "-std=c++17", "-isystem", path("sys"), "-c", File.str()},
        "");
  }
  // One run's look at File: a cache of its own over the shared directory.
  PreambleUse run(llvm::StringRef File = "a.cpp", uint64_t Cap = 1u << 30,
                  const clang::tidy::rematch::UnreadBodies *Unread = nullptr) {
    PreambleCache Cache(path("cache.preambles"), Cap);
    return Cache.prepare(command(File), {}, Unread);
  }
  // The entries' files, by extension (".pch", ".seen", ...; "tmp": the
  // temporaries of writes).
  std::vector<std::string> entries(llvm::StringRef Ext) const {
    std::vector<std::string> Out;
    std::error_code EC;
    for (fs::directory_iterator It(path("cache.preambles"), EC), End;
         It != End && !EC; It.increment(EC))
      if (Ext == "tmp" ? isTemporary(llvm::sys::path::filename(It->path()))
                       : llvm::sys::path::extension(It->path()) == Ext)
        Out.push_back(It->path());
    return Out;
  }

  llvm::SmallString<256> Dir;
};

TEST_F(PreambleTest, BuiltOnTheSecondSightingThenUsed) {
  PreambleUse First = run();
  EXPECT_TRUE(First.Args.empty());
  EXPECT_TRUE(First.Failure.empty());
  EXPECT_EQ(entries(".seen").size(), 1u);
  EXPECT_TRUE(entries(".pch").empty());

  PreambleUse Second = run();
  ASSERT_FALSE(Second.Args.empty()) << Second.Failure;
  EXPECT_TRUE(llvm::is_contained(Second.Args, "-include-pch"));
  ASSERT_EQ(entries(".pch").size(), 1u);
  EXPECT_TRUE(llvm::is_contained(Second.Args, entries(".pch").front()));
  // What it read, so that the parse's summary lists it: the header, not
  // the key-named copy of the file's leading block it was compiled from.
  ASSERT_EQ(Second.Inputs.size(), 1u);
  EXPECT_EQ(Second.Inputs.front(), std::make_pair(path("h.h"), false));
  EXPECT_TRUE(fs::exists(Second.Header));

  PreambleUse Third = run();
  EXPECT_EQ(Third.Args, Second.Args);
  EXPECT_EQ(Third.Inputs, Second.Inputs);
  EXPECT_EQ(Third.Key, Second.Key);
}

TEST_F(PreambleTest, OneRunSeeingAFileTwiceBuildsNone) {
  PreambleCache Cache(path("cache.preambles"), 1u << 30);
  EXPECT_TRUE(Cache.prepare(command("a.cpp"), {}, nullptr).Args.empty());
  EXPECT_TRUE(Cache.prepare(command("a.cpp"), {}, nullptr).Args.empty());
  EXPECT_TRUE(entries(".pch").empty());
}

TEST_F(PreambleTest, AChangedHeaderDropsTheEntry) {
  run();
  ASSERT_FALSE(run().Args.empty());
  write("h.h", "#pragma once\ninline int h() { return 2; }\n");
  PreambleUse Stale = run();
  EXPECT_TRUE(Stale.Args.empty());
  EXPECT_TRUE(entries(".pch").empty());
  EXPECT_TRUE(entries(".deps").empty());
  // Seen again from now: built by the run after.
  EXPECT_FALSE(run().Args.empty());
}

TEST_F(PreambleTest, AnotherLeadingBlockIsAnotherEntry) {
  run();
  PreambleUse Built = run();
  ASSERT_FALSE(Built.Args.empty());
  // The body changed: the same entry.
  write("a.cpp", "#include \"h.h\"\nint f() { return h() + 1; }\n");
  EXPECT_EQ(run().Key, Built.Key);
  // The includes changed: another key, first seen now.
  write("a.cpp", "#include \"h.h\"\n#include \"h.h\"\nint f();\n");
  PreambleUse Other = run();
  EXPECT_NE(Other.Key, Built.Key);
  EXPECT_TRUE(Other.Args.empty());
}

TEST_F(PreambleTest, AFailedBuildIsRememberedNotRetried) {
  write("bad.h", "int x = ;\n");
  write("b.cpp", "#include \"bad.h\"\nint f();\n");
  run("b.cpp");
  PreambleUse Failed = run("b.cpp");
  EXPECT_TRUE(Failed.Args.empty());
  EXPECT_NE(Failed.Failure.find("building the preamble failed"),
            std::string::npos)
      << Failed.Failure;
  EXPECT_NE(Failed.Failure.find("bad.h:1"), std::string::npos)
      << Failed.Failure;
  EXPECT_EQ(entries(".failed").size(), 1u);
  PreambleUse Again = run("b.cpp");
  EXPECT_TRUE(Again.Args.empty());
  EXPECT_NE(Again.Failure.find("an earlier run's"), std::string::npos)
      << Again.Failure;
  EXPECT_TRUE(entries(".pch").empty());
  // And nothing half-written is left.
  EXPECT_TRUE(entries("tmp").empty());
}

// The bodies the analysis never reads are not parsed into the preamble: an
// error only the body's parse sees does not fail the build. A user
// header's body, a system header's copy constructor and a body in a scope
// the models analyse are parsed: there the error fails it.
TEST_F(PreambleTest, SkipsTheBodiesTheAnalysisNeverReads) {
  using namespace clang::tidy::rematch;
  llvm::Expected<ModelFile> M = parseModel("Analyse: [lib::read]\n", "m.yaml");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  UnreadBodies Unread(std::make_shared<const ModelSet>(
      std::vector<std::shared_ptr<const ModelFile>>{
          std::make_shared<const ModelFile>(std::move(*M))},
      Config()));
  write("sys/lib.h", "namespace lib {\n"
                     "inline int skipped() { return undeclared; }\n"
                     "struct S { int f() { return undeclared; } };\n"
                     "}\n");
  write("sys/copy.h", "struct C {\n  int V;\n"
                      "  C(const C &O) : V(undeclared) {}\n};\n");
  write("sys/read.h",
        "namespace lib::read { inline int g() { return undeclared; } }\n");
  write("user.h", "inline int u() { return undeclared; }\n");
  struct Case {
    const char *Header;
    bool Builds;
  };
  for (Case C : {Case{"<lib.h>", true}, Case{"<copy.h>", false},
                 Case{"<read.h>", false}, Case{"\"user.h\"", false}}) {
    std::string File = "uses" + std::to_string(C.Header[1]) + ".cpp";
    write(File, "#include " + std::string(C.Header) + "\nint main();\n");
    run(File, 1u << 30, &Unread);
    PreambleUse Built = run(File, 1u << 30, &Unread);
    EXPECT_EQ(!Built.Args.empty(), C.Builds) << C.Header << Built.Failure;
    if (!C.Builds)
      EXPECT_NE(Built.Failure.find("undeclared"), std::string::npos)
          << Built.Failure;
  }
  // Without the policy every body is parsed.
  write("plain.cpp", "#include <lib.h>\nint main();\n");
  run("plain.cpp");
  EXPECT_TRUE(run("plain.cpp").Args.empty());
}

TEST_F(PreambleTest, NothingToPrecompile) {
  write("c.cpp", "int f() { return 1; }\n"); // no #include
  write("d.c", "#include \"h.h\"\n");        // C
  for (const char *File : {"c.cpp", "d.c"}) {
    run(File);
    EXPECT_TRUE(run(File).Args.empty()) << File;
  }
  run("a.cpp", 0); // a cap of zero: no cache
  EXPECT_TRUE(run("a.cpp", 0).Args.empty());
  EXPECT_TRUE(entries(".seen").empty());
}

TEST_F(PreambleTest, BeyondTheCapTheLeastRecentlyUsedGo) {
  write("b.cpp", "#include \"h.h\"\n#include \"h.h\"\nint g();\n");
  run("a.cpp");
  ASSERT_FALSE(run("a.cpp").Args.empty());
  ASSERT_EQ(entries(".pch").size(), 1u);
  std::string A = entries(".pch").front();
  run("b.cpp", 1); // one byte: only the entry just built stays
  PreambleUse B = run("b.cpp", 1);
  ASSERT_FALSE(B.Args.empty()) << B.Failure;
  EXPECT_EQ(entries(".pch").size(), 1u);
  EXPECT_FALSE(fs::exists(A));
}

} // namespace
