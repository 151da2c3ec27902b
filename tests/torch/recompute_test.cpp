// The recompute of rematch::torch::checkpoint is the forward's computation or
// an error, never a silently wrong gradient: the ambient state (autocast) is
// carried into it, every tensor it saves for backward is compared with the
// forward's, inputs changed in place are found, odd outputs pass through,
// outputs require grad as in the plain run, double backward works, and the
// recompute stops once it has what backward needs.
#include "rematch/torch.h"

#include "rematch/rematch.h"
#include "torch_test_util.h"

#include <ATen/autocast_mode.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/torch.h>

#include <functional>
#include <string>

namespace {

namespace rt = rematch::torch;
using rematch_test::message_of;
using rt::variable_list;

class Recompute : public rematch_test::CleanSlate {};

/// Not audited: an audited recompute runs whole, to compare its result.
rt::Options plain_options() {
  rt::Options o;
  o.audit = false;
  return o;
}

/// CPU autocast to `dtype` for the scope, as a mixed-precision step's
/// forward runs; the previous state comes back afterwards.
class CpuAutocast {
public:
  explicit CpuAutocast(at::ScalarType dtype)
      : enabled_(at::autocast::is_cpu_enabled()),
        dtype_(at::autocast::get_autocast_cpu_dtype()) {
    at::autocast::set_cpu_enabled(true);
    at::autocast::set_autocast_cpu_dtype(dtype);
  }
  ~CpuAutocast() {
    at::autocast::set_cpu_enabled(enabled_);
    at::autocast::set_autocast_cpu_dtype(dtype_);
    at::autocast::clear_cache();
  }
  CpuAutocast(const CpuAutocast &) = delete;
  CpuAutocast &operator=(const CpuAutocast &) = delete;

private:
  bool enabled_;
  at::ScalarType dtype_;
};

// --- 1. the ambient state of the forward ------------------------------------

struct Grads {
  torch::Tensor x, w, out;
};

/// One mixed-precision step: the forward of `block` under CPU autocast to
/// bfloat16 (checkpointed or not), the loss and backward outside it.
Grads autocast_step(torch::nn::Linear &lin, const torch::Tensor &x0,
                    bool checkpointed, bool cast_back) {
  lin->zero_grad();
  torch::Tensor x = x0.clone().requires_grad_(true);
  auto block = [&lin, cast_back](const variable_list &in) -> variable_list {
    torch::Tensor h = torch::relu(lin(in[0])); // linear runs in bfloat16
    return {cast_back ? h.to(torch::kFloat) : h};
  };
  torch::Tensor y;
  {
    CpuAutocast autocast(torch::kBFloat16);
    y = checkpointed ? rt::checkpoint(block, {x})[0] : block({x})[0];
  }
  y.to(torch::kFloat).pow(2).sum().backward();
  return {x.grad(), lin->weight.grad().clone(), y.detach()};
}

TEST_F(Recompute, AutocastForwardFloatBackward) {
  torch::manual_seed(1);
  torch::nn::Linear lin(8, 8);
  const torch::Tensor x0 = torch::randn({4, 8});
  const Grads plain = autocast_step(lin, x0, false, false);
  ASSERT_EQ(plain.out.scalar_type(), torch::kBFloat16);
  Grads ckpt;
  EXPECT_NO_THROW(ckpt = autocast_step(lin, x0, true, false));
  ASSERT_TRUE(ckpt.x.defined());
  EXPECT_EQ(ckpt.out.scalar_type(), torch::kBFloat16);
  EXPECT_TRUE(torch::equal(plain.x, ckpt.x));
  EXPECT_TRUE(torch::equal(plain.w, ckpt.w));
  // The recompute left no autocast behind.
  EXPECT_FALSE(at::autocast::is_cpu_enabled());
  EXPECT_EQ(at::autocast::get_autocast_cpu_dtype(), torch::kBFloat16);
  EXPECT_TRUE(at::autocast::is_autocast_cache_enabled());
}

TEST_F(Recompute, AutocastBlockCastingBackToFloat) {
  // The block's output is float in both precisions: without the forward's
  // autocast state the recompute passes every output check and differentiates
  // a float32 computation instead of the bfloat16 one.
  torch::manual_seed(2);
  torch::nn::Linear lin(8, 8);
  const torch::Tensor x0 = torch::randn({4, 8});
  const Grads plain = autocast_step(lin, x0, false, true);
  const Grads ckpt = autocast_step(lin, x0, true, true);
  EXPECT_TRUE(torch::equal(plain.out, ckpt.out));
  EXPECT_TRUE(torch::equal(plain.x, ckpt.x))
      << "max |diff| " << (plain.x - ckpt.x).abs().max().item<double>();
  EXPECT_TRUE(torch::equal(plain.w, ckpt.w))
      << "max |diff| " << (plain.w - ckpt.w).abs().max().item<double>();
}

TEST_F(Recompute, BackwardUnderAutocastRecomputesTheFloatForward) {
  // The forward ran without autocast; backward is called inside an autocast
  // region: the recompute runs as the forward did, in float32.
  torch::manual_seed(3);
  torch::nn::Linear lin(8, 8);
  const torch::Tensor x0 = torch::randn({4, 8});
  auto block = [&lin](const variable_list &in) -> variable_list {
    return {torch::relu(lin(in[0]))};
  };
  auto step = [&](bool checkpointed) {
    lin->zero_grad();
    torch::Tensor x = x0.clone().requires_grad_(true);
    torch::Tensor y =
        checkpointed ? rt::checkpoint(block, {x})[0] : block({x})[0];
    CpuAutocast autocast(torch::kBFloat16);
    y.pow(2).sum().backward();
    return std::make_pair(x.grad(), lin->weight.grad().clone());
  };
  const auto plain = step(false);
  std::pair<torch::Tensor, torch::Tensor> ckpt;
  EXPECT_NO_THROW(ckpt = step(true));
  ASSERT_TRUE(ckpt.first.defined());
  EXPECT_TRUE(torch::equal(plain.first, ckpt.first));
  EXPECT_TRUE(torch::equal(plain.second, ckpt.second));
}

// The checkpoint sees saved tensors through the default autograd engine; in
// a process where another engine is the default (PyTorch's Python one) it
// refuses to run rather than keep everything or recompute nothing.
struct OtherEngine : torch::autograd::Engine {};
torch::autograd::Engine *g_checkpoint_engine = nullptr;

TEST_F(Recompute, AnotherAutogradEngineIsRefused) {
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  auto fn = [](const variable_list &in) -> variable_list {
    return {in[0].sin()};
  };
  rt::checkpoint(fn, {x})[0].sum().backward(); // installs the adapter's
  g_checkpoint_engine = &torch::autograd::Engine::get_default_engine();
  static OtherEngine other;
  torch::autograd::set_default_engine_stub(
      []() -> torch::autograd::Engine & { return other; });
  const std::string what = message_of([&] { rt::checkpoint(fn, {x}); });
  torch::autograd::set_default_engine_stub(
      []() -> torch::autograd::Engine & { return *g_checkpoint_engine; });
  EXPECT_NE(what.find("another autograd engine than libtorch's own is "
                      "installed"),
            std::string::npos)
      << what;
}

// --- 2. what the recompute saves for backward -------------------------------

TEST_F(Recompute, AnotherFunctionWithOutputsOfTheSameShapeIsAnError) {
  // The forward computes sin().exp().sin(), the recompute sin().exp(): the
  // outputs have the same shape, the tensors saved for backward do not.
  torch::Tensor x = torch::randn({5}, torch::requires_grad());
  rt::Options o;
  o.name = "drifting";
  torch::Tensor loss = rt::checkpoint(
                           [](const variable_list &in) -> variable_list {
                             torch::Tensor h = in[0].sin().exp();
                             return {rematch::recomputing() ? h : h.sin()};
                           },
                           {x}, o)[0]
                           .sum();
  const std::string what = message_of([&] { loss.backward(); });
  EXPECT_NE(what.find("rematch::torch::checkpoint 'drifting'"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("the forward saved 3 tensors for backward, the "
                      "recompute 2"),
            std::string::npos)
      << what;
}

TEST_F(Recompute, ASavedTensorOfAnotherShapeIsAnError) {
  torch::Tensor x = torch::randn({4, 8}, torch::requires_grad());
  rt::Options o;
  o.name = "narrowing";
  // Output [4] in both passes; sin saves its input, [4, 4] then [4, 5].
  torch::Tensor loss = rt::checkpoint(
                           [](const variable_list &in) -> variable_list {
                             const std::int64_t n =
                                 rematch::recomputing() ? 5 : 4;
                             return {in[0].narrow(1, 0, n).sin().sum(1)};
                           },
                           {x}, o)[0]
                           .sum();
  try {
    loss.backward();
    FAIL() << "no error";
  } catch (const rt::RecomputeMismatch &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'narrowing'"), std::string::npos) << what;
    EXPECT_NE(what.find("saved tensor 1 of 1 differs from the forward's: "
                        "shape [4, 4] in the forward, [4, 5] in the "
                        "recompute"),
              std::string::npos)
        << what;
  }
}

TEST_F(Recompute, ASavedTensorOfAnotherDtypeIsAnErrorUnlessTheCheckIsNone) {
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  // sin saves its input: float in the forward, double in the recompute.
  auto fn = [](const variable_list &in) -> variable_list {
    torch::Tensor h = rematch::recomputing() ? in[0].to(torch::kDouble) : in[0];
    return {h.sin().to(torch::kFloat)};
  };
  rt::Options o;
  const std::string what =
      message_of([&] { rt::checkpoint(fn, {x}, o)[0].sum().backward(); });
  EXPECT_NE(what.find("saved tensor 1 of 1 differs from the forward's: dtype "
                      "Float in the forward, Double in the recompute"),
            std::string::npos)
      << what;
  // "none" compares the number of saved tensors only, as PyTorch's does.
  o.determinism_check = "none";
  EXPECT_EQ(message_of([&] { rt::checkpoint(fn, {x}, o)[0].sum().backward(); }),
            "(no exception)");
  EXPECT_TRUE(torch::allclose(x.grad(), x.detach().cos()));
  const std::string fewer = message_of([&] {
    rt::checkpoint(
        [](const variable_list &in) -> variable_list {
          torch::Tensor h = in[0].sin();
          return {rematch::recomputing() ? h : h.sin()};
        },
        {x}, o)[0]
        .sum()
        .backward();
  });
  EXPECT_NE(fewer.find("the forward saved 2 tensors for backward, the "
                       "recompute 1"),
            std::string::npos)
      << fewer;
}

TEST_F(Recompute, DeterminismCheckTakesDefaultOrNone) {
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  rt::Options o;
  o.determinism_check = "strict";
  const std::string what = message_of([&] {
    rt::checkpoint(
        [](const variable_list &in) -> variable_list { return {in[0]}; }, {x},
        o);
  });
  EXPECT_NE(what.find("determinism_check must be \"default\" or \"none\"; "
                      "got \"strict\""),
            std::string::npos)
      << what;
}

TEST_F(Recompute, AuditComparesTheValuesOfSavedTensors) {
  // The sign, captured by reference, flips before backward: abs gives the
  // same output, but the tensor it saves, and so the gradient, differ. The
  // default check sees the same shapes; the audit sees the values.
  torch::Tensor x = torch::randn({4}, torch::requires_grad());
  double sign = 1;
  rt::Options o;
  o.audit = true;
  torch::Tensor loss = rt::checkpoint(
                           [&sign](const variable_list &in) -> variable_list {
                             return {(in[0] * sign).abs()};
                           },
                           {x}, o)[0]
                           .sum();
  sign = -1;
  loss.backward();
  const auto reports = rt::take_reports();
  ASSERT_EQ(reports.size(), 1u);
  const std::string text = reports[0].to_string();
  EXPECT_EQ(reports[0].count(rematch::AuditFinding::Kind::divergence), 1u)
      << text;
  EXPECT_NE(text.find("observed value saved tensor 1 was"), std::string::npos)
      << text;
}

// --- 3. inputs changed in place ---------------------------------------------

TEST_F(Recompute, NoGradInputChangedInPlaceByTheFunction) {
  // y.add_(1) inside the function: the plain run changes y once and its
  // gradient by x is y + 1. The recompute cannot start from y's value before
  // the forward, which is gone: PyTorch's version error, and y is not changed
  // a second time.
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  const torch::Tensor y0 = torch::full({3}, 2.0);
  torch::Tensor y = y0.clone();
  rt::Options o;
  o.name = "bumps";
  torch::Tensor loss = rt::checkpoint(
                           [](const variable_list &in) -> variable_list {
                             in[1].add_(1);
                             return {in[0] * in[1]};
                           },
                           {x, y}, o)[0]
                           .sum();
  EXPECT_TRUE(torch::equal(y, y0 + 1));
  const std::string what = message_of([&] { loss.backward(); });
  EXPECT_NE(what.find("modified by an inplace operation"), std::string::npos)
      << what;
  EXPECT_NE(what.find("'bumps': input 1 was modified in place by the "
                      "checkpointed function"),
            std::string::npos)
      << what;
  EXPECT_TRUE(torch::equal(y, y0 + 1)) << "changed by the recompute too";
  EXPECT_FALSE(x.grad().defined());
}

TEST_F(Recompute, NonLeafInputChangedInPlaceByTheFunction) {
  // The plain run allows it: h is not a leaf. The checkpoint's forward does
  // too; its backward names what happened.
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  torch::Tensor h = x * 1;
  rt::Options o;
  o.name = "doubles";
  torch::Tensor out;
  const std::string forward = message_of([&] {
    out = rt::checkpoint(
        [](const variable_list &in) -> variable_list {
          in[0].mul_(2);
          return {in[0].sin()};
        },
        {h}, o)[0];
  });
  ASSERT_EQ(forward, "(no exception)");
  EXPECT_TRUE(torch::allclose(h, x * 2));
  const std::string what = message_of([&] { out.sum().backward(); });
  EXPECT_NE(what.find("'doubles': input 0 was modified in place by the "
                      "checkpointed function"),
            std::string::npos)
      << what;
}

TEST_F(Recompute, CapturedParameterChangedBeforeBackwardIsAnError) {
  // An optimizer step between the forward and the backward: the plain run
  // raises PyTorch's version error; the recompute would silently use the new
  // weight.
  torch::manual_seed(4);
  torch::nn::Linear lin(4, 4);
  torch::Tensor x = torch::randn({2, 4}, torch::requires_grad());
  auto fn = [&lin](const variable_list &in) -> variable_list {
    return {lin(in[0]).tanh()};
  };
  auto run = [&](bool checkpointed) {
    torch::Tensor loss =
        (checkpointed ? rt::checkpoint(fn, {x})[0] : fn({x})[0]).sum();
    {
      torch::NoGradGuard no_grad;
      lin->weight.add_(0.5);
    }
    return message_of([&] { loss.backward(); });
  };
  const std::string plain = run(false);
  EXPECT_NE(plain.find("modified by an inplace operation"), std::string::npos)
      << plain;
  const std::string ckpt = run(true);
  EXPECT_NE(ckpt.find("modified in place"), std::string::npos) << ckpt;
}

TEST_F(Recompute, SavedTensorChangedInPlaceByTheFunctionIsTheVersionError) {
  // sigmoid saves its result, which the function then changes: the plain
  // run refuses it in backward, and so does the checkpoint.
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  auto fn = [](const variable_list &in) -> variable_list {
    torch::Tensor y = in[0].sigmoid();
    y.mul_(2);
    return {y * in[0]};
  };
  const std::string plain = message_of([&] { fn({x})[0].sum().backward(); });
  EXPECT_NE(plain.find("modified by an inplace operation"), std::string::npos)
      << plain;
  rt::Options o;
  o.audit = false;
  const std::string ckpt =
      message_of([&] { rt::checkpoint(fn, {x}, o)[0].sum().backward(); });
  EXPECT_NE(ckpt.find("modified by an inplace operation"), std::string::npos)
      << ckpt;
}

// --- 4. undefined outputs, and no shape ends the process --------------------

TEST_F(Recompute, UndefinedOutputPassesThrough) {
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  variable_list out = rt::checkpoint(
      [](const variable_list &in) -> variable_list {
        return {in[0] * 2, torch::Tensor(), in[0].sin()};
      },
      {x});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FALSE(out[1].defined());
  (out[0].sum() + out[2].sum()).backward();
  EXPECT_TRUE(torch::allclose(x.grad(), 2 + x.detach().cos()));
}

/// A plain and a checkpointed run of one function: the same outputs
/// (definedness, requires_grad, values) and the same gradients.
struct OddCase {
  const char *name;
  std::function<variable_list(const variable_list &)> fn;
  std::function<variable_list()> inputs;
};

TEST_F(Recompute, NoInputOrOutputShapeEndsTheProcess) {
  torch::manual_seed(7);
  torch::nn::Linear lin(3, 3);
  const torch::Tensor x0 = torch::randn({2, 3});
  auto grad_x = [&] { return variable_list{x0.clone().requires_grad_(true)}; };
  const std::vector<OddCase> cases = {
      {"no inputs",
       [&](const variable_list &) -> variable_list {
         return {lin->weight.sin()};
       },
       [] { return variable_list{}; }},
      {"an undefined input",
       [](const variable_list &in) -> variable_list {
         return {in[0].sin(), in[1]};
       },
       [&] {
         return variable_list{grad_x()[0], torch::Tensor()};
       }},
      {"only undefined outputs",
       [](const variable_list &) -> variable_list {
         return {torch::Tensor(), torch::Tensor()};
       },
       grad_x},
      {"no outputs",
       [](const variable_list &in) -> variable_list {
         (void)in[0].sin();
         return {};
       },
       grad_x},
      {"inputs passed through, as views and twice",
       [](const variable_list &in) -> variable_list {
         torch::Tensor y = in[0].sin();
         return {in[0], in[0].view({-1}), y, y, in[0].t()};
       },
       grad_x},
      {"an integer output",
       [](const variable_list &in) -> variable_list {
         return {in[0].argmax(), in[0].exp()};
       },
       grad_x},
      {"an output made without the inputs",
       [](const variable_list &) -> variable_list {
         return {torch::ones({2})};
       },
       grad_x},
      {"an inference tensor input",
       [](const variable_list &in) -> variable_list {
         return {in[0].sin() + in[1]};
       },
       [&] {
         torch::Tensor t;
         {
           c10::InferenceMode guard;
           t = torch::ones({2, 3});
         }
         return variable_list{grad_x()[0], t};
       }},
  };
  for (const OddCase &c : cases) {
    SCOPED_TRACE(c.name);
    const variable_list pin = c.inputs(), cin = c.inputs();
    const variable_list plain = c.fn(pin);
    variable_list ckpt;
    ASSERT_EQ(message_of([&] { ckpt = rt::checkpoint(c.fn, cin); }),
              "(no exception)");
    ASSERT_EQ(ckpt.size(), plain.size());
    torch::Tensor lp = torch::zeros({}), lc = torch::zeros({});
    for (std::size_t i = 0; i < plain.size(); ++i) {
      ASSERT_EQ(ckpt[i].defined(), plain[i].defined()) << "output " << i;
      if (!plain[i].defined())
        continue;
      EXPECT_EQ(ckpt[i].requires_grad(), plain[i].requires_grad())
          << "output " << i;
      EXPECT_TRUE(torch::equal(ckpt[i], plain[i])) << "output " << i;
      if (plain[i].requires_grad()) {
        lp = lp + plain[i].sum();
        lc = lc + ckpt[i].sum();
      }
    }
    if (!lp.requires_grad())
      continue;
    lin->zero_grad();
    lp.backward();
    const torch::Tensor wp = lin->weight.grad().defined()
                                 ? lin->weight.grad().clone()
                                 : torch::Tensor();
    lin->zero_grad();
    ASSERT_EQ(message_of([&] { lc.backward(); }), "(no exception)");
    if (wp.defined())
      EXPECT_TRUE(torch::equal(wp, lin->weight.grad()));
    if (!pin.empty() && pin[0].requires_grad())
      EXPECT_TRUE(torch::equal(pin[0].grad(), cin[0].grad()));
  }
  // A function that throws in the forward leaves nothing behind.
  EXPECT_THROW(rt::checkpoint(
                   [](const variable_list &in) -> variable_list {
                     (void)in[0].sin();
                     throw std::runtime_error("boom in the forward");
                   },
                   grad_x()),
               std::runtime_error);
  torch::Tensor x = grad_x()[0];
  rt::checkpoint(
      [](const variable_list &in) -> variable_list { return {in[0].exp()}; },
      {x})[0]
      .sum()
      .backward();
  EXPECT_TRUE(torch::allclose(x.grad(), x.detach().exp()));
}

// --- 5. outputs' requires_grad
// ------------------------------------------------

TEST_F(Recompute, OutputsRequireGradAsInThePlainRun) {
  torch::Tensor a = torch::randn({3}, torch::requires_grad());
  torch::Tensor b = torch::randn({3});
  auto fn = [](const variable_list &in) -> variable_list {
    return {in[0] * in[1], in[1] * 3, in[0].detach() * 2};
  };
  const variable_list plain = fn({a, b});
  const variable_list ckpt = rt::checkpoint(fn, {a, b});
  ASSERT_EQ(ckpt.size(), plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i)
    EXPECT_EQ(ckpt[i].requires_grad(), plain[i].requires_grad())
        << "output " << i;
  const std::string what = message_of([&] { ckpt[1].sum().backward(); });
  EXPECT_NE(what.find("does not require grad"), std::string::npos) << what;
}

// --- 6. double backward -----------------------------------------------------

TEST_F(Recompute, GradientPenaltyThroughACheckpoint) {
  torch::manual_seed(5);
  torch::nn::Linear lin(4, 4);
  const torch::Tensor x0 = torch::randn({3, 4});
  auto fn = [&lin](const variable_list &in) -> variable_list {
    return {torch::tanh(torch::dropout(lin(in[0]), 0.3, true))};
  };
  auto step = [&](bool checkpointed) {
    lin->zero_grad();
    torch::manual_seed(6);
    torch::Tensor x = x0.clone().requires_grad_(true);
    torch::Tensor y = checkpointed ? rt::checkpoint(fn, {x})[0] : fn({x})[0];
    torch::Tensor g =
        torch::autograd::grad({y.pow(2).sum()}, {x}, {}, c10::nullopt,
                              /*create_graph=*/true)[0];
    (y.sum() + g.pow(2).sum()).backward();
    return std::make_tuple(g.detach(), x.grad(), lin->weight.grad().clone());
  };
  const auto [g_plain, x_plain, w_plain] = step(false);
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> ckpt;
  ASSERT_EQ(message_of([&] { ckpt = step(true); }), "(no exception)");
  EXPECT_TRUE(torch::allclose(g_plain, std::get<0>(ckpt), 1e-6, 1e-7));
  EXPECT_TRUE(torch::allclose(x_plain, std::get<1>(ckpt), 1e-6, 1e-7));
  EXPECT_TRUE(torch::allclose(w_plain, std::get<2>(ckpt), 1e-6, 1e-7));
}

TEST_F(Recompute, GradientPenaltyThroughNestedCheckpoints) {
  torch::manual_seed(8);
  torch::nn::Linear a(4, 4), b(4, 4);
  const torch::Tensor x0 = torch::randn({3, 4});
  auto inner = [&b](const variable_list &in) -> variable_list {
    return {torch::tanh(b(in[0]))};
  };
  auto step = [&](bool checkpointed) {
    a->zero_grad();
    b->zero_grad();
    torch::Tensor x = x0.clone().requires_grad_(true);
    auto outer = [&](const variable_list &in) -> variable_list {
      torch::Tensor h = torch::sigmoid(a(in[0]));
      return checkpointed ? rt::checkpoint(inner, {h}) : inner({h});
    };
    torch::Tensor y =
        checkpointed ? rt::checkpoint(outer, {x})[0] : outer({x})[0];
    torch::Tensor g =
        torch::autograd::grad({y.pow(2).sum()}, {x}, {}, c10::nullopt,
                              /*create_graph=*/true)[0];
    g.pow(2).sum().backward();
    return std::make_pair(a->weight.grad().clone(), b->weight.grad().clone());
  };
  const auto plain = step(false);
  std::pair<torch::Tensor, torch::Tensor> ckpt;
  ASSERT_EQ(message_of([&] { ckpt = step(true); }), "(no exception)");
  EXPECT_TRUE(torch::allclose(plain.first, ckpt.first, 1e-6, 1e-7));
  EXPECT_TRUE(torch::allclose(plain.second, ckpt.second, 1e-6, 1e-7));
}

TEST_F(Recompute, AParameterAsTheInputOfANestedCheckpoint) {
  // The inner checkpoint's inputs are saved for the outer one to recompute;
  // a leaf among them is held instead (saved, it would lose its gradient
  // accumulator, which nothing holds before the inner function runs).
  torch::manual_seed(11);
  torch::nn::Linear lin(3, 3);
  const torch::Tensor x0 = torch::randn({2, 3});
  auto inner = [](const variable_list &in) -> variable_list {
    return {in[0].mm(in[1].t())};
  };
  auto step = [&](bool checkpointed) {
    lin->zero_grad();
    torch::Tensor x = x0.clone().requires_grad_(true);
    auto outer = [&](const variable_list &in) -> variable_list {
      const variable_list args = {in[0].sin(), lin->weight};
      return {
          (checkpointed ? rt::checkpoint(inner, args) : inner(args))[0].tanh()};
    };
    (checkpointed ? rt::checkpoint(outer, {x}) : outer({x}))[0]
        .sum()
        .backward();
    return std::make_pair(x.grad(), lin->weight.grad().clone());
  };
  const auto plain = step(false);
  std::pair<torch::Tensor, torch::Tensor> ckpt;
  ASSERT_EQ(message_of([&] { ckpt = step(true); }), "(no exception)");
  EXPECT_TRUE(torch::equal(plain.first, ckpt.first));
  EXPECT_TRUE(torch::equal(plain.second, ckpt.second));
}

TEST_F(Recompute, EachBackwardOverARetainedGraphRecomputes) {
  // Two outputs of one checkpoint, back-propagated one after the other.
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  rt::Options o;
  o.audit = true;
  variable_list out = rt::checkpoint(
      [](const variable_list &in) -> variable_list {
        return {in[0].sin(), in[0].exp()};
      },
      {x}, o);
  out[0].sum().backward({}, /*retain_graph=*/true);
  EXPECT_TRUE(torch::allclose(x.grad(), x.detach().cos()));
  out[1].sum().backward();
  EXPECT_TRUE(torch::allclose(x.grad(), x.detach().cos() + x.detach().exp()));
  const auto reports = rt::take_reports();
  ASSERT_EQ(reports.size(), 2u);
  for (const rematch::Report &r : reports)
    EXPECT_TRUE(r.clean()) << r.to_string();
}

TEST_F(Recompute, BackwardInsideTheFunctionThroughItsOwnGraphIsAClearError) {
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  rt::Options o;
  o.name = "inner-grad";
  const std::string what = message_of([&] {
    rt::checkpoint(
        [](const variable_list &in) -> variable_list {
          torch::Tensor y = in[0].sin();
          return {torch::autograd::grad({y.sum()}, {in[0]})[0]};
        },
        {x}, o);
  });
  EXPECT_NE(what.find("'inner-grad': a backward inside the checkpointed "
                      "function reached a tensor the function saved"),
            std::string::npos)
      << what;
}

// --- 7. early stop ----------------------------------------------------------

TEST_F(Recompute, TheTailOfTheBlockDoesNotRunAgain) {
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  int tail = 0;
  auto fn = [&tail](const variable_list &in) -> variable_list {
    torch::Tensor h = in[0].sin(); // the last tensor saved for backward
    ++tail;
    return {h * 2};
  };
  rt::Options o = plain_options();
  rt::checkpoint(fn, {x}, o)[0].sum().backward();
  EXPECT_EQ(tail, 1);
  EXPECT_TRUE(torch::allclose(x.grad(), 2 * x.detach().cos()));

  // Without early stop the recompute runs whole, as audit mode does.
  o.early_stop = false;
  x.mutable_grad() = torch::Tensor();
  rt::checkpoint(fn, {x}, o)[0].sum().backward();
  EXPECT_EQ(tail, 3);
  EXPECT_TRUE(torch::allclose(x.grad(), 2 * x.detach().cos()));
}

TEST_F(Recompute, NestedCheckpointsStopEarlyToo) {
  // The outer recompute stops once it has recomputed the inner checkpoint's
  // input, its last saved tensor: the inner block runs in the forward and in
  // its own recompute only.
  torch::manual_seed(9);
  torch::nn::Linear a(4, 4), b(4, 4);
  int a_calls = 0, b_calls = 0;
  bool checkpointed = false;
  auto inner = [&](const variable_list &in) -> variable_list {
    ++b_calls;
    return {torch::tanh(torch::dropout(b(in[0]), 0.5, true))};
  };
  auto outer = [&](const variable_list &in) -> variable_list {
    ++a_calls;
    torch::Tensor h = torch::dropout(torch::sigmoid(a(in[0])), 0.5, true);
    return checkpointed ? rt::checkpoint(inner, {h}, plain_options())
                        : inner({h});
  };
  const torch::Tensor x0 = torch::randn({3, 4});
  torch::manual_seed(10);
  torch::Tensor xp = x0.clone().requires_grad_(true);
  outer({xp})[0].sum().backward();
  checkpointed = true;
  const torch::Tensor wa = a->weight.grad().clone(),
                      wb = b->weight.grad().clone();
  a->zero_grad();
  b->zero_grad();
  a_calls = b_calls = 0;
  torch::manual_seed(10);
  torch::Tensor xc = x0.clone().requires_grad_(true);
  rt::checkpoint(outer, {xc}, plain_options())[0].sum().backward();
  EXPECT_EQ(a_calls, 2);
  EXPECT_EQ(b_calls, 2);
  EXPECT_TRUE(torch::equal(xp.grad(), xc.grad()));
  EXPECT_TRUE(torch::equal(wa, a->weight.grad()));
  EXPECT_TRUE(torch::equal(wb, b->weight.grad()));
}

TEST_F(Recompute, TheFunctionIsKeptWithTheCheckpoint) {
  // PyTorch keeps non-tensor arguments with the checkpoint; here they are
  // the callable's state, copied with it. A functor passed by value keeps
  // its factor; one passed by std::ref is the caller's, changed before
  // backward, which audit mode reports.
  struct Scaled {
    double factor;
    variable_list operator()(const variable_list &in) const {
      return {(in[0] * factor).sin()};
    }
  };
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  Scaled f{2};
  rt::Options o;
  o.audit = true;
  torch::Tensor loss = rt::checkpoint(f, {x}, o)[0].sum();
  f.factor = 5;
  loss.backward();
  EXPECT_TRUE(torch::allclose(x.grad(), 2 * (2 * x.detach()).cos()));
  EXPECT_TRUE(rt::take_reports().at(0).clean());

  loss = rt::checkpoint(std::ref(f), {x}, o)[0].sum();
  f.factor = 3;
  loss.backward();
  EXPECT_EQ(
      rt::take_reports().at(0).count(rematch::AuditFinding::Kind::divergence),
      1u);
}

} // namespace
