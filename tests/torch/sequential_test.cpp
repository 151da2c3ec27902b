// rematch::torch::checkpoint_sequential: PyTorch's segmenting rule, gradients
// equal to the plain run, buffers audited per segment, the list overloads.
#include "rematch/torch.h"

#include "rematch/rematch.h"
#include "torch_test_util.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

namespace {

namespace rt = rematch::torch;
using rematch_test::copy_state;
using rematch_test::cpu_rng_state;

class Sequential : public rematch_test::CleanSlate {};

/// Counts its forward calls: a checkpointed module runs twice per step (the
/// forward and the recompute), one outside the checkpoints once.
struct CountingImpl : torch::nn::Module {
  explicit CountingImpl(std::int64_t width)
      : fc(register_module("fc", torch::nn::Linear(width, width))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    ++calls;
    return torch::tanh(fc(x));
  }
  torch::nn::Linear fc;
  int calls = 0;
};
TORCH_MODULE(Counting);

struct RuleCase {
  int modules, segments;
  std::vector<int> calls; // expected forward calls per module
};

class SegmentingRule : public Sequential,
                       public ::testing::WithParamInterface<RuleCase> {};

// segment size = modules / segments; the first segments - 1 segments are
// checkpointed, the remaining modules run plainly (PyTorch's rule).
TEST_P(SegmentingRule, CheckpointsTheFirstSegmentsMinusOne) {
  const RuleCase c = GetParam();
  torch::manual_seed(1);
  torch::nn::Sequential seq;
  std::vector<Counting> mods;
  for (int i = 0; i < c.modules; ++i) {
    mods.push_back(Counting(3));
    seq->push_back(mods.back());
  }
  torch::Tensor x = torch::randn({2, 3}, torch::requires_grad());
  rt::checkpoint_sequential(seq, c.segments, x).sum().backward();
  std::vector<int> calls;
  for (const Counting &m : mods)
    calls.push_back(m->calls);
  EXPECT_EQ(calls, c.calls);
  for (const Counting &m : mods)
    EXPECT_TRUE(m->fc->weight.grad().defined());
}

INSTANTIATE_TEST_SUITE_P(
    Rule, SegmentingRule,
    ::testing::Values(RuleCase{5, 2, {2, 2, 1, 1, 1}},
                      RuleCase{6, 3, {2, 2, 2, 2, 1, 1}},
                      RuleCase{7, 3, {2, 2, 2, 2, 1, 1, 1}},
                      RuleCase{4, 4, {2, 2, 2, 1}},
                      RuleCase{4, 1, {1, 1, 1, 1}}, RuleCase{1, 1, {1}}),
    [](const ::testing::TestParamInfo<RuleCase> &i) {
      return "n" + std::to_string(i.param.modules) + "_s" +
             std::to_string(i.param.segments);
    });

TEST_F(Sequential, SegmentsOutOfRangeAreAnError) {
  torch::nn::Sequential seq(torch::nn::Linear(2, 2), torch::nn::Tanh(),
                            torch::nn::Linear(2, 2));
  torch::Tensor x = torch::randn({1, 2}, torch::requires_grad());
  for (int segments : {0, -1, 4}) {
    try {
      rt::checkpoint_sequential(seq, segments, x);
      ADD_FAILURE() << "no error for " << segments << " segments";
    } catch (const std::invalid_argument &e) {
      EXPECT_NE(std::string(e.what()).find(
                    "segments must be between 1 and the number of modules, 3; "
                    "got " +
                    std::to_string(segments)),
                std::string::npos)
          << e.what();
    }
  }
}

torch::nn::Sequential make_net() {
  return torch::nn::Sequential(
      torch::nn::Linear(8, 16), torch::nn::Dropout(0.3),
      torch::nn::BatchNorm1d(16), torch::nn::ReLU(), torch::nn::Linear(16, 16),
      torch::nn::Dropout(0.3), torch::nn::BatchNorm1d(16), torch::nn::ReLU(),
      torch::nn::Linear(16, 4));
}

class SequentialGradients : public Sequential,
                            public ::testing::WithParamInterface<int> {};

TEST_P(SequentialGradients, EqualThePlainRun) {
  const int segments = GetParam();
  torch::manual_seed(3);
  torch::nn::Sequential plain = make_net(), ckpt = make_net();
  copy_state(*plain, *ckpt);
  torch::Tensor x0 = torch::randn({10, 8});

  torch::manual_seed(4);
  torch::Tensor xp = x0.clone().requires_grad_(true);
  plain->forward(xp).pow(2).sum().backward();
  const auto state_plain = cpu_rng_state();

  torch::manual_seed(4);
  torch::Tensor xc = x0.clone().requires_grad_(true);
  rt::Options o;
  o.audit = false; // the buffer audit has its own test
  rt::checkpoint_sequential(ckpt, segments, xc, o).pow(2).sum().backward();
  EXPECT_EQ(cpu_rng_state(), state_plain); // the outside stream too

  auto a = plain->named_parameters(), b = ckpt->named_parameters();
  for (const auto &p : a) {
    ASSERT_TRUE(b[p.key()].grad().defined()) << p.key();
    EXPECT_TRUE(
        torch::allclose(p.value().grad(), b[p.key()].grad(), 1e-5, 1e-6))
        << p.key();
  }
  EXPECT_TRUE(torch::allclose(xp.grad(), xc.grad(), 1e-5, 1e-6));
}

INSTANTIATE_TEST_SUITE_P(Segments, SequentialGradients,
                         ::testing::Values(1, 2, 3, 4, 9));

TEST_F(Sequential, BuffersAuditedPerSegment) {
  torch::manual_seed(5);
  torch::nn::Sequential seq = make_net(); // 9 modules
  seq->train();
  torch::Tensor x = torch::randn({10, 8}, torch::requires_grad());
  rt::Options o;
  o.audit = true;
  // 3 segments of 3: modules 0-2 and 3-5 checkpointed, 6-8 plain.
  rt::checkpoint_sequential(seq, 3, x, o).sum().backward();
  std::vector<rematch::Report> reports = rt::take_reports();
  ASSERT_EQ(reports.size(), 2u);
  // Backward runs the later segment first.
  const rematch::Report &second = reports[0], &first = reports[1];
  EXPECT_EQ(first.segment(), "checkpoint_sequential modules 0-2");
  EXPECT_EQ(second.segment(), "checkpoint_sequential modules 3-5");
  // Modules 0-2 hold the first BatchNorm (index 2), 3-5 none.
  EXPECT_EQ(first.count(rematch::AuditFinding::Kind::repeated_effect), 3u)
      << first.to_string();
  const std::string text = first.to_string();
  for (const char *name :
       {"2.running_mean", "2.running_var", "2.num_batches_tracked 1 -> 2"})
    EXPECT_NE(text.find(name), std::string::npos) << name << "\n" << text;
  EXPECT_TRUE(second.clean()) << second.to_string();
  EXPECT_EQ(first.count(rematch::AuditFinding::Kind::divergence), 0u);
  // The second BatchNorm (index 6) runs in the plain tail: updated once.
  EXPECT_EQ(seq[6]
                ->as<torch::nn::BatchNorm1d>()
                ->num_batches_tracked.item<std::int64_t>(),
            1);
  EXPECT_EQ(seq[2]
                ->as<torch::nn::BatchNorm1d>()
                ->num_batches_tracked.item<std::int64_t>(),
            2);
}

TEST_F(Sequential, SegmentNamesFollowOptionsName) {
  torch::nn::Sequential seq(torch::nn::Linear(2, 2), torch::nn::Tanh(),
                            torch::nn::Linear(2, 2), torch::nn::Tanh());
  rt::Options o;
  o.audit = true;
  o.name = "encoder";
  torch::Tensor x = torch::randn({1, 2}, torch::requires_grad());
  rt::checkpoint_sequential(seq, 2, x, o).sum().backward();
  auto reports = rt::take_reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].segment(), "encoder modules 0-1");
}

TEST_F(Sequential, GradOfParametersThroughSegments) {
  torch::manual_seed(6);
  torch::nn::Sequential plain = make_net(), ckpt = make_net();
  copy_state(*plain, *ckpt);
  torch::Tensor x = torch::randn({10, 8}); // needs no gradient
  torch::manual_seed(7);
  auto gp = torch::autograd::grad({plain->forward(x).sum()},
                                  {plain[0]->as<torch::nn::Linear>()->weight});
  torch::manual_seed(7);
  rt::Options o;
  o.audit = false;
  auto gc =
      torch::autograd::grad({rt::checkpoint_sequential(ckpt, 3, x, o).sum()},
                            {ckpt[0]->as<torch::nn::Linear>()->weight});
  EXPECT_TRUE(torch::allclose(gp[0], gc[0], 1e-5, 1e-6));
  for (const auto &p : ckpt->parameters())
    EXPECT_FALSE(p.grad().defined());
}

TEST_F(Sequential, VectorOfHolders) {
  torch::manual_seed(8);
  std::vector<torch::nn::Linear> plain, ckpt;
  for (int i = 0; i < 4; ++i) {
    plain.emplace_back(5, 5);
    ckpt.emplace_back(5, 5);
    copy_state(*plain.back(), *ckpt.back());
  }
  torch::Tensor x0 = torch::randn({3, 5});
  torch::Tensor xp = x0.clone().requires_grad_(true), h = xp;
  for (auto &m : plain)
    h = torch::sin(m(h));
  h.sum().backward();
  // The same with sin between the linears: a mixed list of functions.
  std::vector<std::function<at::Tensor(const at::Tensor &)>> steps;
  for (auto &m : ckpt) {
    steps.push_back([m](const at::Tensor &t) mutable { return m(t); });
    steps.push_back([](const at::Tensor &t) { return torch::sin(t); });
  }
  torch::Tensor xc = x0.clone().requires_grad_(true);
  rt::checkpoint_sequential(steps, 3, xc).sum().backward();
  EXPECT_TRUE(torch::allclose(xp.grad(), xc.grad(), 1e-5, 1e-6));
  for (std::size_t i = 0; i < plain.size(); ++i)
    EXPECT_TRUE(torch::allclose(plain[i]->weight.grad(), ckpt[i]->weight.grad(),
                                1e-5, 1e-6))
        << i;

  // And the holders themselves.
  for (auto &m : ckpt)
    m->zero_grad();
  torch::Tensor xh = x0.clone().requires_grad_(true);
  torch::Tensor yh = rt::checkpoint_sequential(ckpt, 2, xh);
  torch::Tensor yp = x0;
  for (auto &m : ckpt)
    yp = m(yp);
  EXPECT_TRUE(torch::allclose(yh, yp));
  yh.sum().backward();
  EXPECT_TRUE(xh.grad().defined());
  for (auto &m : ckpt)
    EXPECT_TRUE(m->weight.grad().defined());
}

at::Tensor double_it(const at::Tensor &t) { return t * 2; }

TEST_F(Sequential, VectorOfFunctionPointers) {
  std::vector<at::Tensor (*)(const at::Tensor &)> fns(5, &double_it);
  torch::Tensor x = torch::ones({2}, torch::requires_grad());
  torch::Tensor y = rt::checkpoint_sequential(fns, 2, x);
  EXPECT_TRUE(torch::equal(y.detach(), torch::full({2}, 32.0f)));
  y.sum().backward();
  EXPECT_TRUE(torch::equal(x.grad(), torch::full({2}, 32.0f)));
}

TEST_F(Sequential, NoGradModeRunsEverythingOnce) {
  torch::nn::Sequential seq;
  std::vector<Counting> mods;
  for (int i = 0; i < 4; ++i) {
    mods.push_back(Counting(3));
    seq->push_back(mods.back());
  }
  torch::NoGradGuard no_grad;
  torch::Tensor x = torch::randn({2, 3});
  torch::Tensor y = rt::checkpoint_sequential(seq, 2, x);
  EXPECT_TRUE(torch::allclose(y, seq->forward(x)));
  for (const Counting &m : mods)
    EXPECT_EQ(m->calls, 2); // once above, once for the comparison
}

} // namespace
