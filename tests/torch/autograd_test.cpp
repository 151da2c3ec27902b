// rematch::torch::checkpoint under the autograd behaviours PyTorch's own
// checkpoint tests hold: torch::autograd::grad and backward with `inputs`
// (true gradients, no side effect on .grad), partial backward, pass-through
// outputs, mixed requires_grad, nested checkpoints, a second backward over a
// retained graph, the outside RNG stream, and an exception in the recompute.
#include "rematch/torch.h"

#include "rematch/rematch.h"
#include "torch_test_util.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>

namespace {

namespace rt = rematch::torch;
using rematch_test::copy_state;
using rematch_test::cpu_rng_state;
using rematch_test::message_of;
using rt::variable_list;

class Autograd : public rematch_test::CleanSlate {};

/// linear -> dropout(0.5) -> tanh: the recompute must replay the mask.
struct BlockImpl : torch::nn::Module {
  BlockImpl(std::int64_t in, std::int64_t out)
      : fc(register_module("fc", torch::nn::Linear(in, out))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    return torch::tanh(torch::dropout(fc(x), 0.5, is_training()));
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(Block);

void expect_close(const torch::Tensor &a, const torch::Tensor &b,
                  const std::string &what) {
  ASSERT_TRUE(a.defined()) << what << ": reference undefined";
  ASSERT_TRUE(b.defined()) << what << ": undefined";
  EXPECT_TRUE(torch::allclose(a, b, 1e-6, 1e-7))
      << what << ": max |diff| " << (a - b).abs().max().item<double>();
}

// --- torch::autograd::grad and backward(inputs) -------------------------

/// Plain reference: grad of sum(block(x)^2) by x and the weight.
struct Reference {
  torch::Tensor gx, gw, gb;
};
Reference plain_grads(Block &block, const torch::Tensor &x0, int seed) {
  torch::manual_seed(seed);
  torch::Tensor x = x0.clone().requires_grad_(true);
  torch::Tensor loss = block(x).pow(2).sum();
  auto g =
      torch::autograd::grad({loss}, {x, block->fc->weight, block->fc->bias});
  return {g[0], g[1], g[2]};
}

TEST_F(Autograd, GradThroughModuleCheckpointGivesTrueGradients) {
  torch::manual_seed(1);
  Block plain(6, 4), ckpt(6, 4);
  copy_state(*plain, *ckpt);
  torch::Tensor x0 = torch::randn({5, 6});
  Reference ref = plain_grads(plain, x0, 77);

  torch::manual_seed(77);
  torch::Tensor x = x0.clone().requires_grad_(true);
  torch::Tensor loss = rt::checkpoint(ckpt, {x})[0].pow(2).sum();
  auto g = torch::autograd::grad({loss}, {x, ckpt->fc->weight, ckpt->fc->bias});
  expect_close(ref.gx, g[0], "d/dx");
  expect_close(ref.gw, g[1], "d/dweight");
  expect_close(ref.gb, g[2], "d/dbias");
  // grad() returns gradients; it accumulates nothing.
  EXPECT_FALSE(ckpt->fc->weight.grad().defined());
  EXPECT_FALSE(ckpt->fc->bias.grad().defined());
  EXPECT_FALSE(x.grad().defined());
}

TEST_F(Autograd, GradWithOnlyTheParameterRequested) {
  torch::manual_seed(1);
  Block plain(6, 4), ckpt(6, 4);
  copy_state(*plain, *ckpt);
  torch::Tensor x0 = torch::randn({5, 6}); // no input needs a gradient
  Reference ref = plain_grads(plain, x0, 5);
  torch::manual_seed(5);
  torch::Tensor loss = rt::checkpoint(ckpt, {x0})[0].pow(2).sum();
  auto g = torch::autograd::grad({loss}, {ckpt->fc->weight});
  expect_close(ref.gw, g[0], "d/dweight");
  EXPECT_FALSE(ckpt->fc->weight.grad().defined());
  EXPECT_FALSE(ckpt->fc->bias.grad().defined());
}

TEST_F(Autograd, GradThroughCapturingLambdaGivesTrueGradients) {
  torch::manual_seed(2);
  Block plain(6, 4), ckpt(6, 4);
  copy_state(*plain, *ckpt);
  torch::Tensor x0 = torch::randn({5, 6});
  Reference ref = plain_grads(plain, x0, 9);

  torch::manual_seed(9);
  torch::Tensor x = x0.clone().requires_grad_(true);
  torch::Tensor loss = rt::checkpoint(
                           [&](const variable_list &in) -> variable_list {
                             return {ckpt(in[0])};
                           },
                           {x})[0]
                           .pow(2)
                           .sum();
  auto g = torch::autograd::grad({loss}, {x, ckpt->fc->weight, ckpt->fc->bias});
  expect_close(ref.gx, g[0], "d/dx");
  expect_close(ref.gw, g[1], "d/dweight");
  expect_close(ref.gb, g[2], "d/dbias");
  EXPECT_FALSE(ckpt->fc->weight.grad().defined());
}

TEST_F(Autograd, GradByInputLeavesCapturedParametersAlone) {
  torch::manual_seed(3);
  Block plain(6, 4), ckpt(6, 4);
  copy_state(*plain, *ckpt);
  torch::Tensor x0 = torch::randn({5, 6});
  Reference ref = plain_grads(plain, x0, 4);

  torch::manual_seed(4);
  torch::Tensor x = x0.clone().requires_grad_(true);
  torch::Tensor loss = rt::checkpoint(
                           [&](const variable_list &in) -> variable_list {
                             return {ckpt(in[0])};
                           },
                           {x})[0]
                           .pow(2)
                           .sum();
  auto g = torch::autograd::grad({loss}, {x});
  expect_close(ref.gx, g[0], "d/dx");
  // The captured parameters are arguments of the checkpoint's node, but
  // grad() did not ask for them: nothing lands in .grad.
  EXPECT_FALSE(ckpt->fc->weight.grad().defined());
  EXPECT_FALSE(ckpt->fc->bias.grad().defined());
}

TEST_F(Autograd, GradByCapturedParameterOnly) {
  // The case: no input needs a gradient, the weight is captured.
  torch::manual_seed(3);
  torch::nn::Linear lin(4, 3);
  torch::Tensor x = torch::randn({2, 4});
  auto fn = [&](const variable_list &in) -> variable_list {
    return {torch::dropout(lin(in[0]), 0.5, true)};
  };
  torch::manual_seed(13);
  auto ref = torch::autograd::grad({fn({x})[0].pow(2).sum()}, {lin->weight});
  torch::manual_seed(13);
  torch::Tensor loss = rt::checkpoint(fn, {x})[0].pow(2).sum();
  auto g = torch::autograd::grad({loss}, {lin->weight}, {}, c10::nullopt, false,
                                 /*allow_unused=*/true);
  expect_close(ref[0], g[0], "d/dweight");
  EXPECT_FALSE(lin->weight.grad().defined());
  EXPECT_FALSE(lin->bias.grad().defined());
}

TEST_F(Autograd, GradThroughACapturedOuterTensor) {
  // fn captures h, a tensor of the outer graph: the gradient flows through
  // the checkpoint into h's history.
  torch::manual_seed(14);
  torch::nn::Linear lin(4, 4);
  torch::Tensor x = torch::randn({2, 4}, torch::requires_grad());
  torch::Tensor z = torch::randn({2, 4}, torch::requires_grad());
  auto run = [&](bool use) {
    torch::Tensor h = lin(x);
    auto fn = [&h](const variable_list &in) -> variable_list {
      return {in[0] * h.sin()};
    };
    torch::Tensor y = use ? rt::checkpoint(fn, {z})[0] : fn({z})[0];
    return torch::autograd::grad({(y + h).sum()}, {x, z, lin->weight});
  };
  auto ref = run(false), got = run(true);
  expect_close(ref[0], got[0], "d/dx");
  expect_close(ref[1], got[1], "d/dz");
  expect_close(ref[2], got[2], "d/dweight");
  EXPECT_FALSE(lin->weight.grad().defined());

  // The same through a plain backward, h reached both through the checkpoint
  // and directly.
  auto accumulate = [&](bool use) {
    lin->zero_grad(/*set_to_none=*/true);
    x.mutable_grad() = torch::Tensor();
    torch::Tensor h = lin(x);
    auto fn = [&h](const variable_list &in) -> variable_list {
      return {in[0] * h.sin()};
    };
    torch::Tensor y = use ? rt::checkpoint(fn, {z})[0] : fn({z})[0];
    (y + h).sum().backward();
    return std::make_pair(x.grad().clone(), lin->weight.grad().clone());
  };
  auto [gx_plain, gw_plain] = accumulate(false);
  auto [gx_ckpt, gw_ckpt] = accumulate(true);
  expect_close(gx_plain, gx_ckpt, "x.grad");
  expect_close(gw_plain, gw_ckpt, "weight.grad");
}

TEST_F(Autograd, ATensorOnlyTheRecomputeUsesGetsNoGradient) {
  // The gradient comes from the forward's graph; the recompute only gives
  // back the tensors that graph saved. With early stop it ends once it has
  // them, before the extra layer; run whole (audit), it saves more tensors
  // than the forward, which is a mismatch.
  torch::manual_seed(3);
  torch::nn::Linear lin(4, 3), other(4, 3);
  torch::Tensor x = torch::randn({2, 4}, torch::requires_grad());
  auto fn = [&](const variable_list &in) -> variable_list {
    return {rematch::recomputing() ? lin(in[0]) + other(in[0]) : lin(in[0])};
  };
  auto ref = torch::autograd::grad({lin(x).sum()}, {x, lin->weight});
  rt::Options o;
  o.name = "switches-layers";
  o.audit = false;
  auto g = torch::autograd::grad({rt::checkpoint(fn, {x}, o)[0].sum()},
                                 {x, lin->weight, other->weight}, {},
                                 c10::nullopt, false, /*allow_unused=*/true);
  expect_close(ref[0], g[0], "d/dx");
  expect_close(ref[1], g[1], "d/dweight");
  EXPECT_FALSE(g[2].defined());
  EXPECT_FALSE(other->weight.grad().defined());

  o.audit = true;
  torch::Tensor loss = rt::checkpoint(fn, {x}, o)[0].sum();
  try {
    loss.backward();
    ADD_FAILURE() << "no error";
  } catch (const rt::RecomputeMismatch &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'switches-layers': the recompute saved more tensors "
                        "for backward than the forward"),
              std::string::npos)
        << what;
  }
  EXPECT_FALSE(other->weight.grad().defined());
}

TEST_F(Autograd, BackwardWithInputsArgument) {
  torch::manual_seed(6);
  Block plain(6, 4), ckpt(6, 4);
  copy_state(*plain, *ckpt);
  torch::Tensor x0 = torch::randn({5, 6});
  Reference ref = plain_grads(plain, x0, 8);

  torch::manual_seed(8);
  torch::Tensor x = x0.clone().requires_grad_(true);
  torch::Tensor loss = rt::checkpoint(ckpt, {x})[0].pow(2).sum();
  loss.backward({}, c10::nullopt, false, {ckpt->fc->weight});
  expect_close(ref.gw, ckpt->fc->weight.grad(), "weight.grad");
  // Only what `inputs` names is accumulated.
  EXPECT_FALSE(ckpt->fc->bias.grad().defined());
  EXPECT_FALSE(x.grad().defined());
}

TEST_F(Autograd, BackwardWithInputsNamingACapturedParameter) {
  // The case: the weight is captured by the lambda.
  torch::manual_seed(15);
  torch::nn::Linear lin(4, 3);
  torch::Tensor x = torch::randn({2, 4}, torch::requires_grad());
  auto fn = [&](const variable_list &in) -> variable_list {
    return {lin(in[0]).tanh()};
  };
  fn({x})[0].sum().backward();
  const torch::Tensor ref = lin->weight.grad().clone();
  lin->zero_grad(/*set_to_none=*/true);
  x.mutable_grad() = torch::Tensor();
  torch::Tensor loss = rt::checkpoint(fn, {x})[0].sum();
  loss.backward({}, c10::nullopt, false, {lin->weight});
  expect_close(ref, lin->weight.grad(), "weight.grad");
  EXPECT_FALSE(lin->bias.grad().defined());
  EXPECT_FALSE(x.grad().defined());
}

TEST_F(Autograd, BackwardWithInputsNamingOnlyTheInput) {
  torch::nn::Linear lin(4, 3);
  torch::Tensor x = torch::randn({2, 4}, torch::requires_grad());
  torch::Tensor loss = rt::checkpoint(
                           [&](const variable_list &in) -> variable_list {
                             return {lin(in[0])};
                           },
                           {x})[0]
                           .sum();
  loss.backward({}, c10::nullopt, false, {x});
  // d sum(x W^T + b) / dx = column sums of W, for every row.
  expect_close(lin->weight.sum(0).expand({2, 4}), x.grad(), "x.grad");
  EXPECT_FALSE(lin->weight.grad().defined());
}

TEST_F(Autograd, GradThroughNestedModuleCheckpoints) {
  torch::manual_seed(10);
  torch::nn::Sequential plain(Block(6, 6), Block(6, 4));
  torch::nn::Sequential ckpt(Block(6, 6), Block(6, 4));
  copy_state(*plain, *ckpt);
  torch::Tensor x0 = torch::randn({3, 6});
  auto w_plain = plain[1]->as<BlockImpl>()->fc->weight;
  auto w0_plain = plain[0]->as<BlockImpl>()->fc->weight;
  torch::manual_seed(12);
  auto ref =
      torch::autograd::grad({plain->forward(x0).sum()}, {w0_plain, w_plain});

  auto inner0 = std::dynamic_pointer_cast<BlockImpl>(ckpt->ptr(0));
  auto inner1 = std::dynamic_pointer_cast<BlockImpl>(ckpt->ptr(1));
  torch::manual_seed(12);
  // The outer checkpoint covers both blocks; the inner one, the second.
  torch::Tensor y =
      rt::checkpoint(ckpt,
                     [&](const variable_list &in) -> variable_list {
                       torch::Tensor h = inner0->forward(in[0]);
                       return rt::checkpoint(inner1, {h});
                     },
                     {x0})[0];
  auto g = torch::autograd::grad({y.sum()},
                                 {inner0->fc->weight, inner1->fc->weight});
  expect_close(ref[0], g[0], "outer block weight");
  expect_close(ref[1], g[1], "inner block weight");
  for (const auto &p : ckpt->parameters())
    EXPECT_FALSE(p.grad().defined());
}

// --- PyTorch's checkpoint suite -----------------------------------------

TEST_F(Autograd, PartialBackwardOfSeveralOutputs) {
  torch::nn::Linear lin(4, 4);
  torch::Tensor x0 = torch::randn({2, 4});
  auto fn = [&](const variable_list &in) -> variable_list {
    torch::Tensor h = lin(in[0]);
    return {h.sin(), h.cos(), h.exp()};
  };
  for (int used = 0; used < 3; ++used) {
    lin->zero_grad();
    torch::Tensor xp = x0.clone().requires_grad_(true);
    fn({xp})[used].sum().backward();
    const torch::Tensor gx = xp.grad(), gw = lin->weight.grad().clone();
    lin->zero_grad();
    torch::Tensor xc = x0.clone().requires_grad_(true);
    variable_list out = rt::checkpoint(fn, {xc});
    ASSERT_EQ(out.size(), 3u);
    out[used].sum().backward();
    expect_close(gx, xc.grad(), "x.grad, output " + std::to_string(used));
    expect_close(gw, lin->weight.grad(),
                 "weight, output " + std::to_string(used));
  }
}

TEST_F(Autograd, OutputPassingAnInputThrough) {
  torch::Tensor x = torch::full({3}, 1.5, torch::requires_grad());
  variable_list out = rt::checkpoint(
      [](const variable_list &in) -> variable_list {
        return {in[0], in[0] * 2};
      },
      {x});
  EXPECT_TRUE(torch::equal(out[0].detach(), x.detach()));
  (out[0] * 4 + out[1]).sum().backward();
  EXPECT_TRUE(torch::equal(x.grad(), torch::full({3}, 6.0f)));
  // Only the pass-through output reaches the loss.
  torch::Tensor y = torch::full({3}, 1.5, torch::requires_grad());
  out = rt::checkpoint(
      [](const variable_list &in) -> variable_list {
        return {in[0], in[0] * 2};
      },
      {y});
  (out[0] * 3).sum().backward();
  EXPECT_TRUE(torch::equal(y.grad(), torch::full({3}, 3.0f)));
}

TEST_F(Autograd, InputsWithAndWithoutGrad) {
  torch::Tensor a = torch::full({2}, 3.0, torch::requires_grad());
  torch::Tensor b = torch::full({2}, 5.0); // needs no gradient
  torch::Tensor c = torch::full({2}, 7.0, torch::requires_grad());
  variable_list out = rt::checkpoint(
      [](const variable_list &in) -> variable_list {
        return {in[0] * in[1] * in[2]};
      },
      {a, b, c});
  out[0].sum().backward();
  EXPECT_TRUE(torch::equal(a.grad(), torch::full({2}, 35.0f)));
  EXPECT_FALSE(b.grad().defined());
  EXPECT_TRUE(torch::equal(c.grad(), torch::full({2}, 15.0f)));
}

TEST_F(Autograd, NestedCheckpointsWithDropoutMatchPlain) {
  torch::manual_seed(20);
  Block a_plain(5, 5), b_plain(5, 5), a_ckpt(5, 5), b_ckpt(5, 5);
  copy_state(*a_plain, *a_ckpt);
  copy_state(*b_plain, *b_ckpt);
  torch::Tensor x0 = torch::randn({4, 5});

  torch::manual_seed(21);
  torch::Tensor xp = x0.clone().requires_grad_(true);
  b_plain(a_plain(xp)).sum().backward();

  torch::manual_seed(21);
  torch::Tensor xc = x0.clone().requires_grad_(true);
  // A lambda capturing both blocks, with a checkpoint inside: a plain
  // backward accumulates the captured parameters as the plain run does.
  rt::checkpoint(
      [&](const variable_list &in) -> variable_list {
        return rt::checkpoint(b_ckpt, {a_ckpt(in[0])});
      },
      {xc})[0]
      .sum()
      .backward();

  expect_close(xp.grad(), xc.grad(), "x.grad");
  expect_close(a_plain->fc->weight.grad(), a_ckpt->fc->weight.grad(),
               "a.weight");
  expect_close(b_plain->fc->weight.grad(), b_ckpt->fc->weight.grad(),
               "b.weight");
  // Each checkpoint's recompute replays its own forward's masks.
  for (const rematch::Report &r : rt::take_reports())
    EXPECT_TRUE(r.clean()) << r.to_string();
}

TEST_F(Autograd, SecondBackwardOverRetainedGraph) {
  torch::manual_seed(30);
  Block plain(4, 4), ckpt(4, 4);
  copy_state(*plain, *ckpt);
  torch::Tensor x0 = torch::randn({3, 4});

  torch::manual_seed(31);
  torch::Tensor xp = x0.clone().requires_grad_(true);
  torch::Tensor lp = plain(xp).sum();
  lp.backward({}, /*retain_graph=*/true);
  lp.backward();

  torch::manual_seed(31);
  torch::Tensor xc = x0.clone().requires_grad_(true);
  torch::Tensor lc = rt::checkpoint(ckpt, {xc})[0].sum();
  lc.backward({}, /*retain_graph=*/true);
  const auto after_first = cpu_rng_state();
  lc.backward();
  EXPECT_EQ(cpu_rng_state(), after_first); // both recomputes restored it

  expect_close(xp.grad(), xc.grad(), "x.grad after two backwards");
  expect_close(plain->fc->weight.grad(), ckpt->fc->weight.grad(), "weight");
  auto reports = rt::take_reports();
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[1].recompute_index(), 2u);
  for (const rematch::Report &r : reports)
    EXPECT_TRUE(r.clean()) << r.to_string();
}

TEST_F(Autograd, SecondBackwardWithoutRetainIsTorchsError) {
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  torch::Tensor loss = rt::checkpoint(
                           [](const variable_list &in) -> variable_list {
                             return {in[0].exp()};
                           },
                           {x})[0]
                           .sum();
  loss.backward();
  const std::string what = message_of([&] { loss.backward(); });
  EXPECT_NE(what.find("second time"), std::string::npos) << what;
}

TEST_F(Autograd, OutsideStreamAfterForwardAndBackwardEqualsPlain) {
  torch::manual_seed(40);
  Block plain(6, 6), ckpt(6, 6);
  copy_state(*plain, *ckpt);
  torch::Tensor x = torch::randn({4, 6});
  auto run = [&](bool use) {
    torch::manual_seed(41);
    torch::Tensor loss = (use ? rt::checkpoint(ckpt, {x})[0] : plain(x)).sum();
    torch::Tensor between = torch::rand({2});
    loss.backward();
    return std::make_pair(between, torch::rand({5}));
  };
  auto [between_p, next_p] = run(false);
  auto [between_c, next_c] = run(true);
  EXPECT_TRUE(torch::equal(between_p, between_c));
  EXPECT_TRUE(torch::equal(next_p, next_c));
}

TEST_F(Autograd, ExceptionInRecomputeLeavesRngAndEngineUsable) {
  torch::manual_seed(50);
  torch::nn::Linear lin(4, 4);
  torch::Tensor x = torch::randn({2, 4}, torch::requires_grad());
  bool fail = true;
  auto fn = [&](const variable_list &in) -> variable_list {
    torch::Tensor y = torch::dropout(lin(in[0]), 0.5, true);
    if (rematch::recomputing() && fail)
      throw std::runtime_error("boom in the recompute");
    return {y};
  };
  torch::Tensor loss = rt::checkpoint(fn, {x})[0].sum();
  (void)torch::rand({3});
  const auto before = cpu_rng_state();
  const std::string what = message_of([&] { loss.backward(); });
  EXPECT_NE(what.find("boom in the recompute"), std::string::npos) << what;
  EXPECT_EQ(cpu_rng_state(), before);
  EXPECT_FALSE(rematch::recomputing());

  // The engine and the runtime still work: the same computation, checkpointed
  // again, gives the plain gradient.
  fail = false;
  lin->zero_grad();
  torch::manual_seed(51);
  torch::Tensor xp = x.detach().clone().requires_grad_(true);
  fn({xp})[0].sum().backward();
  const torch::Tensor gw = lin->weight.grad().clone();
  lin->zero_grad();
  torch::manual_seed(51);
  torch::Tensor xc = x.detach().clone().requires_grad_(true);
  rt::checkpoint(fn, {xc})[0].sum().backward();
  expect_close(xp.grad(), xc.grad(), "x.grad after the failure");
  expect_close(gw, lin->weight.grad(), "weight after the failure");
}

TEST_F(Autograd, InputModifiedInPlaceBeforeBackwardIsTorchsError) {
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  torch::Tensor h = x * 1;
  torch::Tensor loss = rt::checkpoint(
                           [](const variable_list &in) -> variable_list {
                             return {in[0].exp()};
                           },
                           {h})[0]
                           .sum();
  {
    torch::NoGradGuard no_grad;
    h.add_(1); // the recompute would see another input
  }
  const std::string what = message_of([&] { loss.backward(); });
  EXPECT_NE(what.find("modified by an inplace operation"), std::string::npos)
      << what;
}

TEST_F(Autograd, NothingRequiresGradLikeThePlainRun) {
  int calls = 0;
  torch::Tensor x = torch::randn({3});
  variable_list out = rt::checkpoint(
      [&](const variable_list &in) -> variable_list {
        ++calls;
        return {in[0] * 2};
      },
      {x});
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(out[0].requires_grad());
  // torch's own error, as for the plain run's output.
  const std::string what = message_of([&] { out[0].sum().backward(); });
  EXPECT_NE(what.find("does not require grad"), std::string::npos) << what;
  EXPECT_EQ(calls, 1);
}

TEST_F(Autograd, NoGradModeJustCallsTheFunction) {
  torch::NoGradGuard no_grad;
  int calls = 0;
  torch::Tensor x = torch::ones({2}, torch::requires_grad());
  variable_list out = rt::checkpoint(
      [&](const variable_list &in) -> variable_list {
        ++calls;
        return {in[0] * 3};
      },
      {x});
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(out[0].requires_grad());
  EXPECT_TRUE(torch::equal(out[0], torch::full({2}, 3.0f)));
}

} // namespace
