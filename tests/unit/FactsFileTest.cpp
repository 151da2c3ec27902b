//===--- FactsFileTest.cpp - the .rsum and .rlink formats -----------------===//

#include "ClangFlags.h"
#include "FactsFile.h"
#include "StepsShared.h"
#include "gtest/gtest.h"

using namespace rematch::tool;

namespace {

FileFacts sample(const std::string &File) {
  FileFacts F;
  F.File = File;
  F.Settings.Tool = "rematch test";
  F.Settings.Checks = "rematch-*";
  F.Settings.Chain = "notes";
  F.Directory = ".";
  F.Arguments = {"clang-tool", "-std=c++17", "-I@ROOT@/include"};
  F.Summary = "{\"head\": 1}\n{\"body\": 2}";
  F.Outcome = std::string("binary\0outcome\n", 15);
  return F;
}

std::string message(llvm::Error E) { return llvm::toString(std::move(E)); }

TEST(FactsFile, ReadsBackWhatItWrites) {
  FileFacts F = sample("src/a.cpp");
  std::string Text = writeFileFacts(F);
  llvm::Expected<FileFacts> Back = readFileFacts(Text, "a.rsum");
  ASSERT_TRUE(bool(Back)) << message(Back.takeError());
  EXPECT_EQ(Back->File, "src/a.cpp");
  EXPECT_EQ(Back->Arguments, F.Arguments);
  EXPECT_EQ(Back->Summary, F.Summary);
  EXPECT_EQ(Back->Outcome, F.Outcome);
  EXPECT_EQ(Back->Settings.tie(), F.Settings.tie());
  EXPECT_EQ(writeFileFacts(*Back), Text);
}

TEST(FactsFile, EveryDamageIsAnErrorNamingTheFile) {
  std::string Text = writeFileFacts(sample("a.cpp"));
  std::vector<std::string> Damaged = {
      "",
      Text.substr(0, Text.size() / 2),
      Text.substr(0, Text.size() - 1),
      Text + "x",
      "rematch-rsum 2" + Text.substr(Text.find('\n')),
      "rematch-rlink 1" + Text.substr(Text.find('\n')),
  };
  std::string Flipped = Text;
  Flipped[Flipped.size() - 5] ^= 1;
  Damaged.push_back(Flipped);
  for (const std::string &D : Damaged) {
    llvm::Expected<FileFacts> F = readFileFacts(D, "dir/a.rsum");
    ASSERT_FALSE(bool(F)) << D;
    EXPECT_EQ(message(F.takeError()).rfind("dir/a.rsum: error: ", 0), 0u);
  }
}

TEST(FactsFile, ALinkIsOrderedByPath) {
  std::string Ab = writeLinkFacts({sample("b.cpp"), sample("a.cpp")});
  std::string Ba = writeLinkFacts({sample("a.cpp"), sample("b.cpp")});
  EXPECT_EQ(Ab, Ba);
  llvm::Expected<std::vector<FileFacts>> Back = readLinkFacts(Ab, "x.rlink");
  ASSERT_TRUE(bool(Back)) << message(Back.takeError());
  ASSERT_EQ(Back->size(), 2u);
  EXPECT_EQ((*Back)[0].File, "a.cpp");
  EXPECT_EQ((*Back)[1].File, "b.cpp");
  llvm::Expected<std::vector<FileFacts>> Cut =
      readLinkFacts(Ab.substr(0, Ab.size() - 20), "x.rlink");
  EXPECT_FALSE(bool(Cut));
  llvm::consumeError(Cut.takeError());
}

TEST(FactsFile, PathsRelativeToTheRootAndBack) {
  EXPECT_EQ(relativeTo("/w/src/a.cpp", "/w"), "src/a.cpp");
  EXPECT_EQ(relativeTo("/w", "/w"), ".");
  EXPECT_EQ(relativeTo("/wx/a.cpp", "/w"), "/wx/a.cpp");
  EXPECT_EQ(relativeTo("/usr/include/c++/12/vector", "/w"),
            "/usr/include/c++/12/vector");
  EXPECT_EQ(underRoot("src/a.cpp", "/r"), "/r/src/a.cpp");
  EXPECT_EQ(underRoot(".", "/r"), "/r");
  EXPECT_EQ(underRoot("/usr/include/x.h", "/r"), "/usr/include/x.h");
}

TEST(FactsFile, TheRootInArgumentsIsHidden) {
  EXPECT_EQ(hideRoot("-I/w/include", "/w"), "-I@ROOT@/include");
  EXPECT_EQ(hideRoot("/w", "/w"), "@ROOT@");
  EXPECT_EQ(hideRoot("-I/wx/include", "/w"), "-I/wx/include");
  EXPECT_EQ(showRoot("-I@ROOT@/include", "/r"), "-I/r/include");
}

TEST(ClangFlags, DropsWhatOnlyGccKnows) {
  std::vector<std::string> Gcc = {"/usr/bin/gcc", "-Wall",
                                  "-fno-canonical-system-headers", "-iquote",
                                  ".", "-std=c++17", "-c", "a.cpp"};
  std::vector<std::string> Clean = {"/usr/bin/gcc", "-Wall", "-iquote", ".",
                                    "-std=c++17", "-c", "a.cpp"};
  EXPECT_EQ(withoutUnknownFlags(Gcc), Clean);
  EXPECT_EQ(withoutUnknownFlags(Clean), Clean);
}

} // namespace
