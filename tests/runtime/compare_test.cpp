// Gradient comparison: per-parameter errors, the table, and the warning that
// equal norms or sums prove nothing.
#include "rematch/compare.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

TEST(Compare, IdenticalGradientsPass) {
  std::vector<float> w{1, 2, 3};
  std::vector<double> b{0.5};
  auto c = rematch::compare_gradients({{"w", w}, {"b", b}}, {{"w", w}, {"b", b}});
  EXPECT_TRUE(c.passes());
  ASSERT_EQ(c.parameters.size(), 2u);
  EXPECT_EQ(c.parameters[0].count, 3u);
  EXPECT_EQ(c.parameters[0].dtype, "float32");
  EXPECT_EQ(c.parameters[1].dtype, "float64");
  EXPECT_EQ(c.parameters[0].max_abs_error, 0.0);
  EXPECT_FALSE(c.summary_hides_difference());
}

TEST(Compare, ErrorsWithinToleranceStillPass) {
  std::vector<double> a{1.0, 100.0}, b{1.0 + 1e-9, 100.0 * (1 + 1e-7)};
  auto c = rematch::compare_gradients({{"w", a}}, {{"w", b}}, {1e-6, 1e-8});
  EXPECT_TRUE(c.passes());
  EXPECT_NEAR(c.parameters[0].max_rel_error, 1e-7, 1e-9);
}

TEST(Compare, TheSeedsGradientFailsWithMaxError) {
  // dL/dw with the forward's mask (66) against the naive recompute's (0).
  std::vector<double> good{66.0}, bad{0.0};
  auto c = rematch::compare_gradients({{"w", good}}, {{"w", bad}});
  EXPECT_FALSE(c.passes());
  EXPECT_EQ(c.parameters[0].max_abs_error, 66.0);
  EXPECT_EQ(c.parameters[0].max_rel_error, 1.0);
  EXPECT_EQ(c.parameters[0].mismatches, 1u);
}

TEST(Compare, EqualNormsWithDifferentValuesAreFlagged) {
  std::vector<float> a{3, 4}, b{4, 3}; // same norm 5, same sum 7
  auto c = rematch::compare_gradients({{"w", a}}, {{"w", b}});
  EXPECT_FALSE(c.passes());
  EXPECT_TRUE(c.parameters[0].summary_hides_difference);
  EXPECT_TRUE(c.summary_hides_difference());
  EXPECT_NE(c.table().find("norm/sum agree, values do not"), std::string::npos)
      << c.table();
}

TEST(Compare, CancellingErrorsInTheSumAreFlagged) {
  std::vector<double> a{1, 1, 1}, b{2, 0, 1}; // sum equal, norm not
  auto c = rematch::compare_gradients({{"w", a}}, {{"w", b}});
  EXPECT_FALSE(c.passes());
  EXPECT_TRUE(c.parameters[0].summary_hides_difference);
}

TEST(Compare, GenuinelyDifferentValuesAreNotFlaggedAsDeceptive) {
  std::vector<double> a{1, 2}, b{10, 20};
  auto c = rematch::compare_gradients({{"w", a}}, {{"w", b}});
  EXPECT_FALSE(c.passes());
  EXPECT_FALSE(c.summary_hides_difference());
}

TEST(Compare, MissingAndMisSizedParametersFail) {
  std::vector<float> a{1, 2}, b{1};
  auto c = rematch::compare_gradients({{"w", a}, {"only_ref", a}}, {{"w", b}});
  EXPECT_FALSE(c.passes());
  EXPECT_TRUE(c.parameters[0].size_mismatch);
  ASSERT_EQ(c.missing.size(), 1u);
  EXPECT_EQ(c.missing[0], "only_ref");
}

TEST(Compare, TableShowsEveryParameter) {
  std::vector<float> a{1, 2}, b{1, 2.5f};
  float raw[2] = {0.25f, 0.5f};
  auto c = rematch::compare_gradients(
      {{"layer.weight", a}, {"layer.bias", raw, 2, "bfloat16"}},
      {{"layer.weight", b}, {"layer.bias", raw, 2, "bfloat16"}});
  const std::string t = c.table();
  EXPECT_NE(t.find("rtol=1e-05 atol=1e-08"), std::string::npos) << t;
  EXPECT_NE(t.find("layer.weight"), std::string::npos) << t;
  EXPECT_NE(t.find("bfloat16"), std::string::npos) << t;
  EXPECT_NE(t.find("max_abs"), std::string::npos) << t;
  EXPECT_NE(t.find("FAIL"), std::string::npos) << t;
  EXPECT_NE(t.find(" ok"), std::string::npos) << t;
}

TEST(Compare, TableHasAShapeColumnOnlyWhenShapesAreKnown) {
  std::vector<float> a{1, 2};
  auto c = rematch::compare_gradients({{"w", a}}, {{"w", a}});
  EXPECT_EQ(c.table().find("shape"), std::string::npos) << c.table();
  // What rematch::torch::compare_gradients fills in.
  c.parameters[0].shape = "[1x2]/[2x1]";
  c.parameters[0].size_mismatch = true;
  c.parameters[0].passes = false;
  c.no_gradient.push_back("frozen");
  const std::string t = c.table();
  EXPECT_NE(t.find("shape"), std::string::npos) << t;
  EXPECT_NE(t.find("[1x2]/[2x1]"), std::string::npos) << t;
  EXPECT_NE(t.find("FAIL (shape differs)"), std::string::npos) << t;
  EXPECT_NE(t.find("frozen: no gradient in either"), std::string::npos) << t;
  // A frozen parameter is listed, not a failure; the shape is.
  EXPECT_FALSE(c.passes());
  c.parameters[0].passes = true;
  EXPECT_TRUE(c.passes());
}

} // namespace
