// Tests of rematch::torch: gradients with and without checkpointing, the RNG
// duties, the audit, the buffer audit, the gradient comparison and the memory
// measurement. Compiled in audit mode (REMATCH_AUDIT=1).
#include "rematch/torch.h"

#include "rematch/rematch.h"
#include "torch_test_util.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstring>
#include <tuple>

namespace {

namespace rt = rematch::torch;

struct BlockImpl : torch::nn::Module {
  BlockImpl(std::int64_t in, std::int64_t out, double p)
      : fc(register_module("fc", torch::nn::Linear(in, out))),
        drop(register_module("drop", torch::nn::Dropout(p))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    return torch::tanh(drop(fc(x)));
  }
  torch::nn::Linear fc;
  torch::nn::Dropout drop;
};
TORCH_MODULE(Block);

struct NetImpl : torch::nn::Module {
  NetImpl(std::int64_t in, std::int64_t hidden, int depth, double p) {
    for (int i = 0; i < depth; ++i)
      blocks.push_back(register_module("block" + std::to_string(i),
                                       Block(i ? hidden : in, hidden, p)));
    head = register_module("head", torch::nn::Linear(hidden, 3));
  }
  torch::Tensor forward(torch::Tensor x, bool ckpt, const rt::Options &o = {}) {
    for (Block &b : blocks)
      x = ckpt ? rt::checkpoint(b, {x}, o)[0] : b(x);
    return head(x);
  }
  std::vector<Block> blocks;
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(Net);

using rematch_test::copy_state;
using rematch_test::cpu_rng_state;

class TorchTest : public rematch_test::CleanSlate {};

// --- Gradients with checkpoint equal those without, dropout on ------------

struct Shape {
  std::int64_t batch, in, hidden;
  int depth;
  bool input_requires_grad;
};

class GradientsMatch : public TorchTest,
                       public ::testing::WithParamInterface<Shape> {};

/// Returns the input gradient (undefined when the input needs none).
torch::Tensor step(Net &net, const torch::Tensor &x, bool ckpt,
                   const rt::Options &o = {}) {
  torch::manual_seed(1234);
  torch::Tensor in = x.detach().clone().requires_grad_(x.requires_grad());
  net->zero_grad();
  net->forward(in, ckpt, o).pow(2).sum().backward();
  return in.grad();
}

TEST_P(GradientsMatch, PerParameter) {
  const Shape s = GetParam();
  torch::manual_seed(7);
  Net plain(s.in, s.hidden, s.depth, 0.5), ckpt(s.in, s.hidden, s.depth, 0.5);
  copy_state(*plain, *ckpt);
  torch::Tensor x =
      torch::randn({s.batch, s.in}).requires_grad_(s.input_requires_grad);

  torch::Tensor gx_plain = step(plain, x, false);
  torch::Tensor gx_ckpt = step(ckpt, x, true);

  rt::GradientComparison c = rt::compare_gradients(*plain, *ckpt, {1e-6, 1e-7});
  EXPECT_TRUE(c.passes()) << c.table();
  EXPECT_EQ(c.parameters.size(), 2u * s.depth + 2) << c.table();
  EXPECT_TRUE(c.missing.empty());
  if (s.input_requires_grad) {
    ASSERT_TRUE(gx_ckpt.defined());
    EXPECT_TRUE(torch::allclose(gx_plain, gx_ckpt, 1e-6, 1e-7));
  }
  // Audit mode: every recompute reproduced the forward's outputs.
  std::vector<rematch::Report> reports = rt::take_reports();
  EXPECT_EQ(reports.size(), static_cast<std::size_t>(s.depth));
  for (const rematch::Report &r : reports)
    EXPECT_TRUE(r.clean()) << r.to_string();
}

TEST_P(GradientsMatch, PlainModeToo) {
  const Shape s = GetParam();
  torch::manual_seed(7);
  Net plain(s.in, s.hidden, s.depth, 0.5), ckpt(s.in, s.hidden, s.depth, 0.5);
  copy_state(*plain, *ckpt);
  torch::Tensor x =
      torch::randn({s.batch, s.in}).requires_grad_(s.input_requires_grad);
  rt::Options o;
  o.audit = false;
  step(plain, x, false);
  step(ckpt, x, true, o);
  rt::GradientComparison c = rt::compare_gradients(*plain, *ckpt, {1e-6, 1e-7});
  EXPECT_TRUE(c.passes()) << c.table();
  EXPECT_TRUE(rt::take_reports().empty()); // nothing recorded
}

TEST_P(GradientsMatch, WithoutReplayTheComparisonFails) {
  const Shape s = GetParam();
  torch::manual_seed(7);
  Net plain(s.in, s.hidden, s.depth, 0.5), ckpt(s.in, s.hidden, s.depth, 0.5);
  copy_state(*plain, *ckpt);
  torch::Tensor x =
      torch::randn({s.batch, s.in}).requires_grad_(s.input_requires_grad);
  rt::Options o;
  o.replay_rng = false;
  step(plain, x, false);
  step(ckpt, x, true, o);
  rt::GradientComparison c = rt::compare_gradients(*plain, *ckpt, {1e-6, 1e-7});
  EXPECT_FALSE(c.passes()) << c.table();
  // The audit sees new masks: the recomputed outputs differ.
  std::vector<rematch::Report> reports = rt::take_reports();
  ASSERT_FALSE(reports.empty());
  EXPECT_GT(reports.front().count(rematch::AuditFinding::Kind::divergence), 0u)
      << reports.front().to_string();
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, GradientsMatch,
    ::testing::Values(Shape{4, 8, 16, 2, false}, Shape{16, 32, 32, 3, true},
                      Shape{1, 5, 7, 1, true}, Shape{33, 64, 17, 4, false}),
    [](const ::testing::TestParamInfo<Shape> &i) {
      const Shape &s = i.param;
      return "b" + std::to_string(s.batch) + "_in" + std::to_string(s.in) +
             "_h" + std::to_string(s.hidden) + "_d" + std::to_string(s.depth) +
             (s.input_requires_grad ? "_xgrad" : "");
    });

TEST_F(TorchTest, FunctionOverloadReachesCapturedParameters) {
  torch::manual_seed(3);
  torch::nn::Linear a(6, 4), b(6, 4);
  copy_state(*a, *b);
  torch::Tensor x = torch::randn({5, 6}); // needs no gradient itself
  torch::manual_seed(9);
  torch::dropout(a(x), 0.3, true).sum().backward();
  torch::manual_seed(9);
  rt::Function fn = [&](const rt::variable_list &in) -> rt::variable_list {
    return {torch::dropout(b(in[0]), 0.3, true)};
  };
  rt::checkpoint(fn, {x})[0].sum().backward();
  rt::GradientComparison c = rt::compare_gradients(*a, *b);
  EXPECT_TRUE(c.passes()) << c.table();
}

// --- The RNG outside state --------------------------------------------------

TEST_F(TorchTest, OutsideStateAfterBackwardEqualsPlain) {
  torch::manual_seed(5);
  Net plain(8, 8, 3, 0.5), ckpt(8, 8, 3, 0.5);
  copy_state(*plain, *ckpt);
  torch::Tensor x = torch::randn({4, 8});

  auto run = [&](Net &net, bool use) {
    torch::manual_seed(42);
    torch::Tensor loss = net->forward(x, use).sum();
    torch::Tensor between = torch::rand({3}); // an outside draw
    loss.backward();
    return std::make_tuple(between, cpu_rng_state(), torch::rand({4}));
  };
  auto [between_p, state_p, next_p] = run(plain, false);
  auto [between_c, state_c, next_c] = run(ckpt, true);
  EXPECT_TRUE(torch::equal(between_p, between_c));
  EXPECT_EQ(state_p, state_c);
  EXPECT_TRUE(torch::equal(next_p, next_c));
}

TEST_F(TorchTest, ExceptionInRecomputeRestoresOutsideState) {
  torch::manual_seed(11);
  torch::nn::Linear lin(4, 4);
  torch::Tensor x = torch::randn({2, 4}, torch::requires_grad());
  rt::Function fn = [&](const rt::variable_list &in) -> rt::variable_list {
    torch::Tensor y = torch::dropout(lin(in[0]), 0.5, true);
    if (rematch::recomputing())
      throw std::runtime_error("boom in the recompute");
    return {y};
  };
  torch::Tensor loss = rt::checkpoint(fn, {x})[0].sum();
  (void)torch::rand({7});
  const auto before = cpu_rng_state();
  EXPECT_THROW(loss.backward(), std::exception);
  EXPECT_EQ(cpu_rng_state(), before);
  EXPECT_FALSE(rematch::recomputing());
}

TEST_F(TorchTest, SegmentsReplayTorchsGenerator) {
  (void)rt::default_cpu_generator();
  EXPECT_NE(std::find(rematch::registered_generators().begin(),
                      rematch::registered_generators().end(), "torch.cpu"),
            rematch::registered_generators().end());
  rematch::Segment seg("plain segment");
  torch::manual_seed(1);
  torch::Tensor a = seg.forward([] { return torch::rand({5}); });
  const auto after_forward = cpu_rng_state();
  torch::Tensor b = seg.recompute([] { return torch::rand({5}); });
  EXPECT_TRUE(torch::equal(a, b));
  EXPECT_EQ(cpu_rng_state(), after_forward);
}

// --- Audit: divergence from outside state ---------------------------------

TEST_F(TorchTest, AuditFindsAChangedMultiplier) {
  double scale = 2.0;
  torch::Tensor x = torch::randn({3, 3}, torch::requires_grad());
  // sin saves its input, x * scale, which backward recomputes.
  rt::Function fn = [&](const rt::variable_list &in) -> rt::variable_list {
    return {(in[0] * scale).sin()};
  };
  torch::Tensor loss = rt::checkpoint(fn, {x})[0].sum();
  scale = 5.0; // changed between forward and backward
  loss.backward();
  auto reports = rt::take_reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].count(rematch::AuditFinding::Kind::divergence), 1u)
      << reports[0].to_string();
}

TEST_F(TorchTest, ThrowPolicyReachesTheCallerOfBackward) {
  rematch::set_policy(rematch::Policy::throw_error);
  double scale = 2.0;
  torch::Tensor x = torch::randn({3, 3}, torch::requires_grad());
  rt::Function fn = [&](const rt::variable_list &in) -> rt::variable_list {
    return {torch::dropout(in[0] * scale, 0.5, true)};
  };
  torch::Tensor loss = rt::checkpoint(fn, {x})[0].sum();
  scale = 3.0;
  const auto before = cpu_rng_state();
  try {
    loss.backward();
    ADD_FAILURE() << "no DivergenceError";
  } catch (const rematch::DivergenceError &e) {
    EXPECT_EQ(e.report().count(rematch::AuditFinding::Kind::divergence), 1u)
        << e.report().to_string();
  }
  EXPECT_EQ(cpu_rng_state(), before); // restored before the policy threw
  EXPECT_EQ(rt::take_reports().size(), 1u);
  rematch::set_policy(rematch::Policy::off);
}

// --- The buffer audit -----------------------------------------------------

TEST_F(TorchTest, BufferAuditFiresForBatchNormInTraining) {
  torch::manual_seed(2);
  torch::nn::Sequential seq(torch::nn::Linear(6, 6), torch::nn::BatchNorm1d(6),
                            torch::nn::ReLU());
  seq->train();
  torch::Tensor x = torch::randn({8, 6}, torch::requires_grad());
  rt::checkpoint(seq, {x})[0].sum().backward();
  auto reports = rt::take_reports();
  ASSERT_EQ(reports.size(), 1u);
  const rematch::Report &r = reports[0];
  EXPECT_EQ(r.count(rematch::AuditFinding::Kind::repeated_effect), 3u)
      << r.to_string();
  EXPECT_EQ(r.count(rematch::AuditFinding::Kind::divergence), 0u)
      << r.to_string();
  const std::string text = r.to_string();
  for (const char *name :
       {"1.running_mean", "1.running_var", "1.num_batches_tracked 1 -> 2"})
    EXPECT_NE(text.find(name), std::string::npos) << name << "\n" << text;
  // The hazard itself: one step, two updates.
  auto bn = seq[1]->as<torch::nn::BatchNorm1d>();
  EXPECT_EQ(bn->num_batches_tracked.item<std::int64_t>(), 2);
}

TEST_F(TorchTest, BufferAuditQuietInEval) {
  torch::manual_seed(2);
  torch::nn::Sequential seq(torch::nn::Linear(6, 6), torch::nn::BatchNorm1d(6),
                            torch::nn::ReLU());
  seq->eval();
  torch::Tensor x = torch::randn({8, 6}, torch::requires_grad());
  rt::checkpoint(seq, {x})[0].sum().backward();
  auto reports = rt::take_reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].clean()) << reports[0].to_string();
}

// --- compare_gradients ------------------------------------------------------

TEST_F(TorchTest, CompareCatchesEqualNormDifferentValues) {
  torch::nn::Linear a(2, 1), b(2, 1);
  a->weight.mutable_grad() = torch::tensor({{3.0f, 4.0f}});
  b->weight.mutable_grad() = torch::tensor({{4.0f, 3.0f}});
  a->bias.mutable_grad() = torch::tensor({1.0f});
  b->bias.mutable_grad() = torch::tensor({1.0f});
  rt::GradientComparison c = rt::compare_gradients(*a, *b, {1e-5, 1e-8});
  EXPECT_FALSE(c.passes()) << c.table();
  ASSERT_EQ(c.parameters.size(), 2u);
  EXPECT_EQ(c.parameters[0].name, "weight");
  EXPECT_FALSE(c.parameters[0].passes);
  EXPECT_TRUE(c.parameters[0].summary_hides_difference);
  EXPECT_DOUBLE_EQ(c.parameters[0].max_abs_error, 1.0);
  EXPECT_DOUBLE_EQ(c.parameters[0].reference_norm,
                   c.parameters[0].candidate_norm);
  EXPECT_TRUE(c.parameters[1].passes);
  EXPECT_EQ(c.parameters[0].shape, "[1x2]");
  const std::string t = c.table();
  EXPECT_NE(t.find("float32"), std::string::npos) << t;
  EXPECT_NE(t.find("norm/sum agree, values do not"), std::string::npos) << t;
}

TEST_F(TorchTest, CompareRejectsDifferentShapesOfEqualSize) {
  torch::nn::Linear a(2, 1), b(2, 1);
  a->weight.mutable_grad() = torch::ones({1, 2});
  b->weight.mutable_grad() = torch::ones({2, 1});
  rt::GradientComparison c = rt::compare_gradients(*a, *b, {1e-5, 1e-8});
  EXPECT_FALSE(c.passes());
  EXPECT_TRUE(c.parameters[0].size_mismatch);
  EXPECT_EQ(c.parameters[0].shape, "[1x2]/[2x1]");
  // bias has a gradient in neither
  EXPECT_EQ(c.no_gradient, std::vector<std::string>{"bias"});
}

// --- measure_step -----------------------------------------------------------

TEST_F(TorchTest, CheckpointedDeepModelPeaksLower) {
  torch::manual_seed(0);
  Net plain(256, 256, 12, 0.1), ckpt(256, 256, 12, 0.1);
  copy_state(*plain, *ckpt);
  torch::Tensor x = torch::randn({128, 256});
  rt::Options o;
  o.audit = false; // measure the release configuration
  auto train = [&](Net &net, bool use) {
    return [&net, &x, use, o] {
      net->zero_grad(/*set_to_none=*/false);
      net->forward(x, use, o).pow(2).mean().backward();
    };
  };
  // Warm up: gradients are allocated once, outside the measured step.
  train(plain, false)();
  train(ckpt, true)();
  rt::StepMeasurement p = rt::measure_step(train(plain, false));
  rt::StepMeasurement c = rt::measure_step(train(ckpt, true));
  EXPECT_GT(p.peak_bytes, 0u);
  EXPECT_GT(p.allocations, 0u);
  // Each block keeps one activation instead of four (linear, dropout
  // output and mask, tanh); the recompute of one block comes back on top.
  EXPECT_LT(c.peak_bytes, p.peak_bytes * 8 / 10)
      << "plain " << p.peak_bytes << " B, checkpointed " << c.peak_bytes
      << " B";
  EXPECT_GT(c.seconds, 0.0);
  EXPECT_GT(c.cpu_seconds, 0.0);
  std::printf("peak: plain %zu B, checkpointed %zu B; time: %.4f s, %.4f s\n",
              p.peak_bytes, c.peak_bytes, p.seconds, c.seconds);
}

TEST_F(TorchTest, MeasureStepCountsOnlyTheStep) {
  torch::Tensor before = torch::ones({1024});
  rt::StepMeasurement m = rt::measure_step([&] {
    torch::Tensor a = torch::empty({1000}, torch::kFloat); // 4000 B
    before = torch::Tensor(); // freed during the step, allocated before it
    torch::Tensor b = torch::empty({500}, torch::kDouble); // 4000 B
  });
  EXPECT_EQ(m.peak_bytes, 8000u);
  EXPECT_EQ(m.allocated_bytes, 8000u);
  EXPECT_EQ(m.allocations, 2u);
  EXPECT_EQ(m.retained_bytes, 0u);
}

// --- measure_plain_phases ---------------------------------------------------

TEST(PlainStepPhases, PeakFloorKeepsInputsAndOneBlock) {
  rt::PlainStepPhases p;
  p.activation_bytes = {10, 10, 10};
  p.output_bytes = {4, 4, 4};
  // 40 - 30 saved + (4 + 4 kept + 10 of the last block recomputed)
  EXPECT_EQ(p.peak_floor(40), 28u);
  // A large early block is the worst moment.
  p.activation_bytes = {30, 10, 10};
  EXPECT_EQ(p.peak_floor(60), 10u + 30u);
  // A plain peak below the activations (it cannot be): the worst moment.
  EXPECT_EQ(p.peak_floor(0), 30u);
  EXPECT_EQ(rt::PlainStepPhases{}.time_floor(), 1.0);
}

TEST(PlainStepPhases, SplitStepEqualsThePlainStep) {
  torch::manual_seed(3);
  const std::int64_t batch = 16, width = 24;
  std::vector<torch::nn::Linear> lins;
  for (int i = 0; i < 3; ++i)
    lins.emplace_back(width, width);
  torch::nn::Linear head(width, 2);
  const torch::Tensor x = torch::randn({batch, width});
  std::vector<rt::TensorFunction> blocks;
  for (torch::nn::Linear &l : lins)
    blocks.push_back(
        [l](const torch::Tensor &t) mutable { return torch::tanh(l(t)); });
  const rt::TensorFunction rest = [&](const torch::Tensor &h) {
    return head(h).pow(2).sum();
  };
  auto grads = [&] {
    std::vector<torch::Tensor> g;
    for (torch::nn::Linear &l : lins)
      g.push_back(l->weight.grad().clone());
    g.push_back(head->weight.grad().clone());
    return g;
  };
  auto zero = [&] {
    for (torch::nn::Linear &l : lins)
      l->zero_grad();
    head->zero_grad();
  };

  torch::Tensor h = x;
  for (const rt::TensorFunction &b : blocks)
    h = b(h);
  rest(h).backward();
  const std::vector<torch::Tensor> plain = grads();
  zero();
  const rt::PlainStepPhases p = rt::measure_plain_phases(blocks, x, rest);
  const std::vector<torch::Tensor> split = grads();
  for (std::size_t i = 0; i < plain.size(); ++i)
    EXPECT_TRUE(torch::equal(plain[i], split[i])) << "parameter " << i;

  // Each block keeps its tanh output (tanh's backward needs it, the next
  // linear's too); the linear's output is freed.
  const std::size_t out = batch * width * sizeof(float);
  ASSERT_EQ(p.activation_bytes.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(p.activation_bytes[k], out) << "block " << k;
    EXPECT_EQ(p.output_bytes[k], out) << "block " << k;
  }
  EXPECT_EQ(p.forward.retained_bytes, 3 * out);
  EXPECT_GE(p.forward.peak_bytes, 3 * out);
  EXPECT_GT(p.forward.allocations, 0u);
  EXPECT_GT(p.backward.allocations, 0u);
  EXPECT_GT(p.rest.allocations, 0u);
  EXPECT_GE(p.time_floor(), 1.0);
  EXPECT_LE(p.time_floor(), 2.0);
}

} // namespace
