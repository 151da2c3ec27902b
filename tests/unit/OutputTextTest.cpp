//===--- OutputTextTest.cpp - clang-style text output ---------------------===//

#include "Output.h"
#include "gtest/gtest.h"

using namespace rematch::tool;

namespace {

std::string text(const Results &R) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeText(OS, R);
  return Out;
}

TEST(OutputTextTest, FindingWithNotesAndCaret) {
  Results R;
  R.Files.push_back({"a.cpp", FileStatus::State::Analysed, {}});
  Finding F;
  F.Check = "rematch-logging";
  F.Message = "checkpointed code logs";
  F.Loc = {"a.cpp", 7, 9};
  F.SourceLine = "\tif (x) log(1);";
  F.Notes.push_back({{"a.cpp", 12, 3}, "checkpointed here"});
  F.Notes.push_back({{"b.h", 2, 1}, "declared here"});
  R.Findings.push_back(F);

  EXPECT_EQ(text(R), "a.cpp:7:9: warning: checkpointed code logs "
                     "[rematch-logging]\n"
                     "\tif (x) log(1);\n"
                     "\t       ^\n"
                     "a.cpp:12:3: note: checkpointed here\n"
                     "b.h:2:1: note: declared here\n"
                     "1 warning generated.\n");
}

TEST(OutputTextTest, ErrorsFailedFilesAndPlural) {
  Results R;
  R.Files.push_back({"bad.cpp",
                     FileStatus::State::Failed,
                     {"bad.cpp:1:1: error: expected expression"}});
  R.Files.push_back({"ok.cpp", FileStatus::State::Analysed, {}});
  Finding F;
  F.Check = "rematch-io";
  F.Level = "error";
  F.Message = "writes a file";
  F.Loc = {"ok.cpp", 1, 1};
  F.SourceLine = "fwrite(p, 1, n, f);";
  R.Findings.push_back(F);
  F.Level = "warning";
  F.Loc = {"ok.cpp", 2, 3};
  F.SourceLine = ""; // no source text: no source line, no caret
  R.Findings.push_back(F);

  EXPECT_EQ(text(R), "bad.cpp:1:1: error: expected expression\n"
                     "bad.cpp: error: file could not be analysed\n"
                     "ok.cpp:1:1: error: writes a file [rematch-io]\n"
                     "fwrite(p, 1, n, f);\n"
                     "^\n"
                     "ok.cpp:2:3: warning: writes a file [rematch-io]\n"
                     "2 warnings generated.\n");
}

TEST(OutputTextTest, NoFindingsNoSummary) {
  Results R;
  R.Files.push_back({"a.cpp", FileStatus::State::Analysed, {}});
  EXPECT_EQ(text(R), "");
}

TEST(OutputTextTest, CaretCountsUtf8CharactersOnce) {
  Results R;
  Finding F;
  F.Check = "rematch-io";
  F.Message = "m";
  F.Loc = {"u.cpp", 1, 11}; // the byte column of 'p'; 'ü' is two bytes
  F.SourceLine = "s = \"\xC3\xBC\"; p();";
  R.Findings.push_back(F);
  std::string Out = text(R);
  EXPECT_NE(Out.find("\n         ^\n"), std::string::npos) << Out;
}

} // namespace
