//===--- OutputHtmlTest.cpp - the HTML report -----------------------------===//
//
// The page's content and that it needs nothing but itself. That a browser
// renders it, and the filter works, is cli.html's job (headless Chromium).
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "SampleResults.h"
#include "TestPrinters.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include <map>

using namespace llvm;
using namespace rematch::tool;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// src/model.cpp: line N reads "line N" except the finding's and the notes'.
std::optional<std::string> sampleSource(StringRef File) {
  if (File != "src/model.cpp")
    return std::nullopt;
  std::string Text;
  for (int L = 1; L <= 30; ++L) {
    if (L == 12)
      Text += "    log(\"step\");\n";
    else if (L == 20)
      Text += "  seg.forward([&] { return body(x); });\n";
    else if (L == 8)
      Text += "void body(float x) {\n";
    else
      Text += "line " + std::to_string(L) + "\n";
  }
  return Text;
}

Results withSite() {
  Results R = test::sampleResults();
  // As the checks emit it: the checkpoint call is the last note.
  R.Findings[0].Notes = {
      {{"src/model.cpp", 8, 1}, "'body' logs here"},
      {{"src/model.cpp", 20, 3},
       "callable is checkpointed by this call to 'rematch::Segment::forward'; "
       "it runs again during backward"}};
  return R;
}

std::string html(const Results &R, const SourceReader &Read = sampleSource) {
  std::string Out;
  raw_string_ostream OS(Out);
  writeHtml(OS, R, test::sampleRules(), Read);
  return Out;
}

TEST(OutputHtmlTest, SelfContained) {
  std::string Page = html(withSite());
  EXPECT_TRUE(StringRef(Page).starts_with("<!DOCTYPE html>\n")) << Page;
  EXPECT_TRUE(StringRef(Page).ends_with("</html>\n"));
  EXPECT_THAT(Page, HasSubstr("<meta charset=\"utf-8\">"));
  // Nothing fetched: no external script, style sheet, font or image.
  for (const char *Fetch : {"<script src", "<link", "@import", "url(", "<img",
                            "@font-face", "<iframe"})
    EXPECT_THAT(Page, Not(HasSubstr(Fetch))) << Fetch;
  EXPECT_THAT(Page, HasSubstr("<script>"));
  EXPECT_THAT(Page, HasSubstr("<style>"));
}

TEST(OutputHtmlTest, CountsAndFilterPerCheck) {
  std::string Page = html(withSite());
  EXPECT_THAT(Page, HasSubstr("2 findings in 2 files; 2 input files, 1 not "
                              "analysed."));
  // One row per check, in name order, with its help link and its count.
  size_t Counter = Page.find("<tr data-check=\"rematch-counter-update\">");
  size_t Logging = Page.find("<tr data-check=\"rematch-logging\">");
  ASSERT_NE(Counter, std::string::npos);
  ASSERT_NE(Logging, std::string::npos);
  EXPECT_LT(Counter, Logging);
  EXPECT_THAT(Page, HasSubstr("<input type=\"checkbox\" class=\"check-filter\" "
                              "id=\"filter-rematch-logging\" "
                              "value=\"rematch-logging\" checked>"));
  EXPECT_THAT(Page, HasSubstr("<a href=\"https://example.org/docs/checks/"
                              "logging.md\">rematch-logging</a></label></td>"
                              "<td class=\"count\">1</td>"));
  EXPECT_THAT(Page, HasSubstr("<article class=\"finding\" id=\"finding-1\" "
                              "data-check=\"rematch-logging\">"));
  EXPECT_THAT(Page, HasSubstr("<article class=\"finding error\" "
                              "id=\"finding-2\" "
                              "data-check=\"rematch-counter-update\">"));
}

TEST(OutputHtmlTest, GroupedByFileThenSite) {
  std::string Page = html(withSite());
  size_t File =
      Page.find("<section class=\"file\" data-file=\"src/model.cpp\">");
  size_t Site = Page.find("Checkpointed at <code>src/model.cpp:20:3</code>");
  size_t Finding = Page.find("id=\"finding-1\"");
  size_t Other = Page.find("<section class=\"file\" data-file=\"/work/my "
                           "project/lib \xC3\xBC.cpp\">");
  ASSERT_NE(File, std::string::npos) << Page;
  ASSERT_NE(Site, std::string::npos);
  ASSERT_NE(Other, std::string::npos);
  EXPECT_LT(File, Site);
  EXPECT_LT(Site, Finding);
  EXPECT_LT(Finding, Other);
  // A finding without a checkpoint note still has a group.
  EXPECT_LT(Other, Page.find("No checkpoint call named"));
}

TEST(OutputHtmlTest, CodeAroundTheFindingAndChainSteps) {
  std::string Page = html(withSite());
  // Two lines either side, the finding's marked, HTML escaped.
  EXPECT_THAT(Page, HasSubstr("<pre class=\"code\"><span class=\"line\"><span "
                              "class=\"ln\">10</span><span class=\"src\">line "
                              "10</span></span>\n<span class=\"line\"><span "
                              "class=\"ln\">11</span><span class=\"src\">line "
                              "11</span></span>\n<span class=\"at\"><span "
                              "class=\"ln\">12</span><span class=\"src\">    "
                              "log(&quot;step&quot;);</span></span><span "
                              "class=\"line\"><span class=\"ln\">13</span>"));
  // The chain: checkpoint call, the finding, then the note, each with its
  // code.
  size_t Chain = Page.find("<ol class=\"chain\">");
  ASSERT_NE(Chain, std::string::npos);
  size_t Step1 =
      Page.find("<code>src/model.cpp:20:3</code></div><div "
                "class=\"step-message\">callable is checkpointed "
                "by this call to &#39;rematch::Segment::forward&#39;",
                Chain);
  size_t Step1Code =
      Page.find("seg.forward([&amp;] { return body(x); });", Step1);
  size_t Step2 = Page.find("<code>src/model.cpp:12:5</code></div><div "
                           "class=\"step-message\">checkpointed code logs; "
                           "the recomputation logs again</div>",
                           Chain);
  size_t Step3 = Page.find("<code>src/model.cpp:8:1</code></div><div "
                           "class=\"step-message\">&#39;body&#39; logs "
                           "here</div><pre class=\"code\"><span "
                           "class=\"at\"><span class=\"ln\">8</span><span "
                           "class=\"src\">void body(float x) {</span>",
                           Chain);
  ASSERT_NE(Step1, std::string::npos) << Page.substr(Chain, 3000);
  ASSERT_NE(Step2, std::string::npos);
  ASSERT_NE(Step3, std::string::npos);
  EXPECT_LT(Step1, Step1Code);
  EXPECT_LT(Step1Code, Step2);
  EXPECT_LT(Step2, Step3);
  EXPECT_THAT(Page, HasSubstr("call chain, 3 steps"));
}

TEST(OutputHtmlTest, UnreadableSourceFallsBackToTheFindingsLine) {
  std::string Page = html(withSite(), [](StringRef) { return std::nullopt; });
  EXPECT_THAT(Page, HasSubstr("<span class=\"at\"><span class=\"ln\">4</span>"
                              "<span class=\"src\">  ++Steps;</span>"));
  EXPECT_THAT(Page, Not(HasSubstr("line 11")));
}

TEST(OutputHtmlTest, FailedFilesAndEscaping) {
  Results R = withSite();
  R.Findings[0].Message = "writes <b>&amp;\"x\"</b>";
  std::string Page = html(R);
  EXPECT_THAT(Page, HasSubstr("<section id=\"failures\">"));
  EXPECT_THAT(Page, HasSubstr("<code>/work/my project/broken.cpp</code>: file "
                              "could not be analysed</p><pre>/work/my "
                              "project/broken.cpp:3:1: error: unknown type "
                              "name &#39;foo&#39;\n</pre>"));
  EXPECT_THAT(Page,
              HasSubstr("writes &lt;b&gt;&amp;amp;&quot;x&quot;&lt;/b&gt;"));
  EXPECT_THAT(Page, Not(HasSubstr("<b>")));
}

TEST(OutputHtmlTest, NoFindings) {
  Results R;
  R.Files.push_back({"a.cpp", FileStatus::State::Analysed, {}});
  std::string Page = html(R);
  EXPECT_THAT(Page, HasSubstr("0 findings in 0 files; 1 input file."));
  EXPECT_THAT(Page, HasSubstr("No findings."));
  EXPECT_THAT(Page, Not(HasSubstr("<article")));
  // The script's elements exist, so it runs without errors.
  EXPECT_THAT(Page, HasSubstr("id=\"shown-count\""));
  EXPECT_THAT(Page, HasSubstr("id=\"show-all\""));
}

} // namespace
