// rematch::torch::checkpoint accepts every kind of callable: compile tests
// (static_asserts on which calls are well-formed, and that the wrong ones are
// rejected by overload resolution rather than by a hard error inside the
// header) and run tests (each kind gives the plain run's gradients).
#include "rematch/torch.h"

#include "rematch/rematch.h"
#include "torch_test_util.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <functional>
#include <memory>
#include <type_traits>

namespace {

namespace rt = rematch::torch;
using rt::variable_list;

// --- Compile tests ----------------------------------------------------------

template <class F, class = void> struct checkpointable : std::false_type {};
template <class F>
struct checkpointable<
    F, std::void_t<decltype(rt::checkpoint(
           std::declval<F>(), std::declval<const variable_list &>()))>>
    : std::true_type {};

template <class M, class F, class = void>
struct checkpointable_with_module : std::false_type {};
template <class M, class F>
struct checkpointable_with_module<M, F,
                                  std::void_t<decltype(rt::checkpoint(
                                      std::declval<M &>(), std::declval<F>(),
                                      std::declval<const variable_list &>()))>>
    : std::true_type {};

template <class T, class = void> struct sequenceable : std::false_type {};
template <class T>
struct sequenceable<T, std::void_t<decltype(rt::checkpoint_sequential(
                           std::declval<const std::vector<T> &>(), 1,
                           std::declval<const at::Tensor &>()))>>
    : std::true_type {};

variable_list twice(const variable_list &in) { return {in[0] * 2}; }

struct Twice {
  variable_list operator()(const variable_list &in) const {
    return {in[0] * 2};
  }
};
struct MutableTwice { // a functor whose call operator is not const
  int calls = 0;
  variable_list operator()(const variable_list &in) {
    ++calls;
    // By a tensor of twos, which the product saves for backward: backward
    // recomputes it (in[0] * 2 saves nothing, and nothing is recomputed).
    return {in[0] * torch::full_like(in[0], 2)};
  }
};

auto captureless = [](const variable_list &in) -> variable_list {
  return {in[0] * 2};
};
using Captureless = decltype(captureless);

// Lambdas are local to a function so that the static_asserts can name their
// types (a lambda cannot appear in decltype in C++17).
[[maybe_unused]] void compile_tests() {
  double factor = 2;
  auto capturing = [factor](const variable_list &in) -> variable_list {
    return {in[0] * factor};
  };
  using Capturing = decltype(capturing);
  auto wrong_arguments = [](int) -> variable_list { return {}; };
  auto wrong_result = [](const variable_list &) { return 1; };

  // The failing case: a captureless lambda converts to a function
  // pointer, so `*fn` is well-formed; it must not be taken for a module
  // holder.
  static_assert(checkpointable<Captureless>::value);
  static_assert(checkpointable<Captureless &>::value);
  static_assert(checkpointable<const Captureless &>::value);
  static_assert(checkpointable<Capturing>::value);
  static_assert(checkpointable<Capturing &>::value);
  static_assert(
      checkpointable<variable_list (*)(const variable_list &)>::value);
  static_assert(
      checkpointable<variable_list (&)(const variable_list &)>::value);
  static_assert(checkpointable<Twice>::value);
  static_assert(checkpointable<const Twice &>::value);
  static_assert(checkpointable<MutableTwice &>::value);
  static_assert(checkpointable<rt::Function>::value);
  static_assert(checkpointable<const rt::Function &>::value);
  static_assert(
      checkpointable<std::function<variable_list(variable_list)>>::value);
  // Modules, module holders and shared_ptrs, as lvalues.
  static_assert(checkpointable<torch::nn::Linear &>::value);
  static_assert(checkpointable<torch::nn::LinearImpl &>::value);
  static_assert(
      checkpointable<std::shared_ptr<torch::nn::LinearImpl> &>::value);
  static_assert(checkpointable<torch::nn::Sequential &>::value);
  // Rejected by overload resolution, not by an error inside the header.
  static_assert(!checkpointable<int>::value);
  static_assert(!checkpointable<decltype(wrong_arguments)>::value);
  static_assert(!checkpointable<decltype(wrong_result)>::value);
  static_assert(!checkpointable<int (*)(int)>::value);
  // The module-and-function overload takes holders and every callable too.
  static_assert(
      checkpointable_with_module<torch::nn::Linear, Captureless>::value);
  static_assert(
      checkpointable_with_module<torch::nn::LinearImpl, Capturing>::value);
  static_assert(checkpointable_with_module<
                std::shared_ptr<torch::nn::LinearImpl>,
                variable_list (*)(const variable_list &)>::value);
  static_assert(checkpointable_with_module<torch::nn::Module, Twice>::value);
  static_assert(!checkpointable_with_module<int, Twice>::value);
  static_assert(!checkpointable_with_module<torch::nn::Linear, int>::value);
  // checkpoint_sequential over a vector.
  static_assert(sequenceable<torch::nn::Linear>::value);
  static_assert(sequenceable<std::shared_ptr<torch::nn::LinearImpl>>::value);
  static_assert(
      sequenceable<std::function<at::Tensor(const at::Tensor &)>>::value);
  static_assert(sequenceable<at::Tensor (*)(const at::Tensor &)>::value);
}

// --- Run tests
// ----------------------------------------------------------------

class Callables : public rematch_test::CleanSlate {
protected:
  /// Checkpoints `fn` (x -> 2x, or what it computes) on a fresh input that
  /// requires grad and returns the input's gradient of sum(out).
  template <class F> torch::Tensor input_grad(F &&fn) {
    torch::Tensor x = torch::arange(6, torch::kFloat).requires_grad_(true);
    variable_list out = rt::checkpoint(std::forward<F>(fn), {x});
    EXPECT_EQ(out.size(), 1u);
    EXPECT_TRUE(out[0].requires_grad());
    EXPECT_TRUE(torch::equal(out[0].detach(), x.detach() * 2));
    out[0].sum().backward();
    return x.grad();
  }

  static bool all_twos(const torch::Tensor &g) {
    return g.defined() && torch::equal(g, torch::full({6}, 2.0f));
  }
};

TEST_F(Callables, CaptureLessLambda) {
  EXPECT_TRUE(all_twos(input_grad(
      [](const variable_list &in) -> variable_list { return {in[0] * 2}; })));
}

TEST_F(Callables, CaptureLessLambdaLvalue) {
  EXPECT_TRUE(all_twos(input_grad(captureless)));
}

TEST_F(Callables, CapturingLambda) {
  double factor = 2;
  EXPECT_TRUE(
      all_twos(input_grad([&factor](const variable_list &in) -> variable_list {
        return {in[0] * factor};
      })));
}

TEST_F(Callables, FunctionAndFunctionPointer) {
  EXPECT_TRUE(all_twos(input_grad(twice)));
  variable_list (*fp)(const variable_list &) = &twice;
  EXPECT_TRUE(all_twos(input_grad(fp)));
}

TEST_F(Callables, Functors) {
  EXPECT_TRUE(all_twos(input_grad(Twice{})));
  MutableTwice counting;
  // Passed by reference: the recompute calls the caller's object.
  EXPECT_TRUE(all_twos(input_grad(std::ref(counting))));
  EXPECT_EQ(counting.calls, 2); // forward and recompute
}

TEST_F(Callables, StdFunction) {
  rt::Function f = twice;
  EXPECT_TRUE(all_twos(input_grad(f)));
  std::function<variable_list(variable_list)> by_value =
      [](variable_list in) -> variable_list { return {in[0] * 2}; };
  EXPECT_TRUE(all_twos(input_grad(by_value)));
}

TEST_F(Callables, EmptyStdFunctionIsAnError) {
  rt::Function empty;
  torch::Tensor x = torch::ones({2}, torch::requires_grad());
  EXPECT_THROW(rt::checkpoint(empty, {x}), std::invalid_argument);
}

/// Module kinds: the gradients of the parameters and the input equal the
/// plain run's.
template <class Make>
void expect_module_kind_matches_plain(Make make_and_checkpoint) {
  torch::manual_seed(4);
  torch::nn::Linear plain(5, 3);
  torch::Tensor x = torch::randn({4, 5});
  torch::Tensor xp = x.clone().requires_grad_(true);
  plain(xp).tanh().sum().backward();

  torch::nn::Linear ckpt(5, 3);
  rematch_test::copy_state(*plain, *ckpt);
  torch::Tensor xc = x.clone().requires_grad_(true);
  variable_list out = make_and_checkpoint(ckpt, xc);
  ASSERT_EQ(out.size(), 1u);
  out[0].tanh().sum().backward();

  EXPECT_TRUE(torch::allclose(xp.grad(), xc.grad()));
  ASSERT_TRUE(ckpt->weight.grad().defined());
  EXPECT_TRUE(torch::allclose(plain->weight.grad(), ckpt->weight.grad()));
  EXPECT_TRUE(torch::allclose(plain->bias.grad(), ckpt->bias.grad()));
}

TEST_F(Callables, ModuleHolder) {
  expect_module_kind_matches_plain(
      [](torch::nn::Linear &m, const torch::Tensor &x) {
        return rt::checkpoint(m, {x});
      });
}

TEST_F(Callables, ModuleObject) {
  expect_module_kind_matches_plain(
      [](torch::nn::Linear &m, const torch::Tensor &x) {
        return rt::checkpoint(*m, {x});
      });
}

TEST_F(Callables, SharedPtrToModule) {
  expect_module_kind_matches_plain(
      [](torch::nn::Linear &m, const torch::Tensor &x) {
        std::shared_ptr<torch::nn::LinearImpl> p = m.ptr();
        return rt::checkpoint(p, {x});
      });
}

TEST_F(Callables, HolderWithCaptureLessLambda) {
  expect_module_kind_matches_plain(
      [](torch::nn::Linear &m, const torch::Tensor &x) {
        // A captureless lambda reaches the parameters through its inputs.
        return rt::checkpoint(m,
                              [](const variable_list &in) -> variable_list {
                                return {torch::linear(in[0], in[1], in[2])};
                              },
                              {x, m->weight, m->bias});
      });
}

TEST_F(Callables, HolderKeptAliveByTheGraph) {
  torch::manual_seed(4);
  torch::Tensor x = torch::randn({2, 5}, torch::requires_grad());
  torch::Tensor loss;
  std::weak_ptr<torch::nn::LinearImpl> weak;
  {
    torch::nn::Linear temp(5, 3);
    weak = temp.ptr();
    loss = rt::checkpoint(temp, {x})[0].sum();
  }
  EXPECT_FALSE(weak.expired()); // the graph holds it for the recompute
  loss.backward();
  EXPECT_TRUE(x.grad().defined());
  loss = torch::Tensor();
  EXPECT_TRUE(weak.expired()); // and lets it go with the graph
}

TEST_F(Callables, ModuleWithTwoInputs) {
  struct PairImpl : torch::nn::Module {
    torch::Tensor forward(const torch::Tensor &a, const torch::Tensor &b) {
      return a * b;
    }
  };
  auto m = std::make_shared<PairImpl>();
  torch::Tensor a = torch::full({3}, 2.0, torch::requires_grad());
  torch::Tensor b = torch::full({3}, 5.0, torch::requires_grad());
  rt::checkpoint(m, {a, b})[0].sum().backward();
  EXPECT_TRUE(torch::equal(a.grad(), torch::full({3}, 5.0f)));
  EXPECT_TRUE(torch::equal(b.grad(), torch::full({3}, 2.0f)));
  // One input too many for its forward: a clear error, not a crash.
  EXPECT_THROW(rt::checkpoint(m, {a, b, a}), std::invalid_argument);
}

} // namespace
