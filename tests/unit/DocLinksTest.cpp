//===--- DocLinksTest.cpp - where helpUri points --------------------------===//

#include "DocLinks.h"
#include "gtest/gtest.h"

using namespace rematch::tool;

namespace {

TEST(DocLinksTest, HostedDocsWinAndKeepTheirExtension) {
  DocLocations W;
  W.Url = "https://docs.example.org/rematch/0.1";
  W.UrlExtension = ".html";
  W.InstalledDir = "/usr/share/doc/rematch";
  W.SourceDir = "/src/rematch/docs";
  EXPECT_EQ(checkDocUri("cache-write", W),
            "https://docs.example.org/rematch/0.1/checks/cache-write.html");
  W.UrlExtension = ".md";
  EXPECT_EQ(checkDocUri("io", W),
            "https://docs.example.org/rematch/0.1/checks/io.md");
}

TEST(DocLinksTest, InstalledDocsBeforeTheSourceTree) {
  DocLocations W;
  W.InstalledDir = "/opt/my rematch/share/doc/rematch";
  W.SourceDir = "/src/rematch/docs";
  EXPECT_EQ(checkDocUri("logging", W),
            "file:///opt/my%20rematch/share/doc/rematch/checks/logging.md");
  W.InstalledDir.clear();
  EXPECT_EQ(checkDocUri("logging", W),
            "file:///src/rematch/docs/checks/logging.md");
  W.SourceDir.clear();
  EXPECT_EQ(checkDocUri("logging", W), "");
}

TEST(DocLinksTest, ThisProgramInItsBuildTreeLinksTheSourceTree) {
  // The unit tests run from the build tree: no installed docs beside them.
  const DocLocations &W = programDocLocations();
  EXPECT_TRUE(W.InstalledDir.empty()) << W.InstalledDir;
}

} // namespace
