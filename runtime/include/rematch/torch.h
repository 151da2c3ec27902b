// rematch::torch: activation checkpointing for the PyTorch C++ API, built on
// the rematch runtime. See docs/torch.md.
//
// checkpoint() runs a function without keeping its activations and recomputes
// it in backward with the RNG replayed: the default CPU generator and every
// generator registered with the runtime restart from their state before the
// original forward, and the outside stream continues afterwards as if the
// recompute had not happened (also when the recompute throws). In audit mode
// (REMATCH_AUDIT=1, or Options::audit) both passes are recorded through a
// rematch::Segment and compared.
#ifndef REMATCH_TORCH_H
#define REMATCH_TORCH_H

#include "rematch/compare.h"
#include "rematch/config.h"
#include "rematch/registry.h"
#include "rematch/report.h"

#include <torch/csrc/autograd/variable.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace torch::nn {
class Module;
} // namespace torch::nn

namespace rematch::torch {

using ::torch::autograd::variable_list;
using Function = std::function<variable_list(const variable_list &)>;

struct Options {
  /// The segment's name in reports and error messages.
  std::string name = "checkpoint";
  /// Replay the RNG for the recompute. Off only to demonstrate what goes
  /// wrong without it: the recompute then draws new dropout masks.
  bool replay_rng = true;
  /// Audit this call (record both passes, snapshot module buffers) whatever
  /// the translation unit's REMATCH_AUDIT; unset follows REMATCH_AUDIT.
  std::optional<bool> audit;
};

/// Thrown from backward when the recomputed outputs differ from the forward's
/// in number, shape, dtype or device (PyTorch's determinism_check="default").
class RecomputeMismatch : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The runtime id of torch's default CPU generator, registered with the
/// runtime on first use (also by the first checkpoint), so that any
/// rematch::Segment replays it too.
GeneratorId default_cpu_generator();

/// Audit mode: the report of every recompute since the last call, oldest
/// first (at most the last 1024 are kept). Policies apply as for Segment.
std::vector<Report> take_reports();

namespace detail {
variable_list checkpoint(const Function &fn, const variable_list &inputs,
                         ::torch::nn::Module *module, const Options &options,
                         bool audit);

template <class M> auto &deref(M &m) {
  if constexpr (std::is_class_v<M> && std::is_base_of_v<::torch::nn::Module, M>)
    return m;
  else
    return *m; // a ModuleHolder or a shared_ptr
}

template <class M, class = void> struct module_of {};
template <class M>
struct module_of<M,
                 std::enable_if_t<std::is_class_v<M> &&
                                  std::is_base_of_v<::torch::nn::Module, M>>> {
  using type = M;
};
template <class M>
struct module_of<
    M, std::enable_if_t<!std::is_base_of_v<::torch::nn::Module, M>,
                        std::void_t<decltype(*std::declval<M &>())>>> {
  using type = std::remove_reference_t<decltype(*std::declval<M &>())>;
  static_assert(std::is_base_of_v<::torch::nn::Module, type>);
};

/// A module, a module holder (torch::nn::Linear) or a shared_ptr to a module.
template <class M, class = void> struct is_module_like : std::false_type {};
template <class M>
struct is_module_like<M, std::void_t<typename module_of<std::decay_t<M>>::type>>
    : std::true_type {};

inline variable_list to_list(variable_list v) { return v; }
inline variable_list to_list(const at::Tensor &t) { return {t}; }

template <class Impl, class Seq, class = void>
struct takes : std::false_type {};
template <class Impl, std::size_t... I>
struct takes<Impl, std::index_sequence<I...>,
             std::void_t<decltype(to_list(std::declval<Impl &>().forward(
                 ((void)I, std::declval<const at::Tensor &>())...)))>>
    : std::true_type {};

template <class Impl, std::size_t... I>
variable_list call_forward(Impl &m, const variable_list &in,
                           std::index_sequence<I...>) {
  return to_list(m.forward(in[I]...));
}

template <std::size_t N, class Impl>
bool try_forward(Impl &m, const variable_list &in, variable_list &out) {
  if constexpr (takes<Impl, std::make_index_sequence<N>>::value) {
    if (in.size() == N) {
      out = call_forward(m, in, std::make_index_sequence<N>());
      return true;
    }
  }
  return false;
}

[[noreturn]] void throw_bad_arity(std::size_t n);
} // namespace detail

// The mode-dependent entry points live in the runtime's inline namespace, as
// Segment does: audit and plain translation units call different symbols.
inline namespace REMATCH_MODE_NS {

/// Runs `fn(inputs)` without keeping its activations; backward recomputes it
/// with gradients enabled and back-propagates through the recomputation.
/// Gradients reach `inputs` that require grad and every leaf `fn` uses (a
/// module's parameters captured by the lambda).
///
/// `fn` is anything a Function is constructible from (a lambda, a function,
/// a Function). The overload is a constrained template rather than a plain
/// `Function` parameter because testing whether a torch::nn module holder
/// converts to std::function is a hard error inside libtorch, not a
/// substitution failure; module holders go to the overload below.
template <class F,
          std::enable_if_t<
              std::conjunction_v<std::negation<detail::is_module_like<F>>,
                                 std::is_constructible<Function, F>>,
              int> = 0>
variable_list checkpoint(F &&fn, const variable_list &inputs,
                         const Options &options = {}) {
  return detail::checkpoint(Function(std::forward<F>(fn)), inputs, nullptr,
                            options,
                            options.audit.value_or(::rematch::detail::kAudit));
}

/// As above for a module's forward computed by `fn`; in audit mode the
/// module's buffers (BatchNorm running statistics) are snapshotted around both
/// passes and every buffer the recompute changes is reported as a repeated
/// effect.
inline variable_list checkpoint(::torch::nn::Module &module, Function fn,
                                const variable_list &inputs,
                                const Options &options = {}) {
  return detail::checkpoint(fn, inputs, &module, options,
                            options.audit.value_or(::rematch::detail::kAudit));
}

/// A module (or holder: `torch::nn::Linear`, `std::shared_ptr<M>`) whose
/// forward takes `inputs.size()` tensors (1 to 4) and returns a tensor or a
/// variable_list.
template <class M, class Impl = typename detail::module_of<M>::type>
variable_list checkpoint(M &module, const variable_list &inputs,
                         const Options &options = {}) {
  Impl &impl = detail::deref(module);
  Function fn = [&impl](const variable_list &in) {
    variable_list out;
    if (detail::try_forward<1>(impl, in, out) ||
        detail::try_forward<2>(impl, in, out) ||
        detail::try_forward<3>(impl, in, out) ||
        detail::try_forward<4>(impl, in, out))
      return out;
    detail::throw_bad_arity(in.size());
  };
  return checkpoint(static_cast<::torch::nn::Module &>(impl), std::move(fn),
                    inputs, options);
}

} // namespace REMATCH_MODE_NS

/// Per named parameter: dtype, shape, element count, max absolute and
/// relative error of the gradients, norms and a verdict, as the runtime's
/// rematch::compare_gradients (`a` is the reference, `b` the candidate).
struct GradientComparison : ::rematch::GradientComparison {
  std::vector<std::string> shapes;      // parallel to `parameters`
  std::vector<std::string> no_gradient; // parameters without a gradient in both
  std::string table() const;
};

GradientComparison compare_gradients(const ::torch::nn::Module &a,
                                     const ::torch::nn::Module &b,
                                     double rtol = 1e-5, double atol = 1e-8);

/// Tensor memory and wall time of one call of `step`.
struct StepMeasurement {
  /// The most bytes of CPU tensor memory allocated during the step that were
  /// alive at the same time.
  std::size_t peak_bytes = 0;
  /// All bytes allocated during the step, and how many allocations.
  std::size_t allocated_bytes = 0;
  std::size_t allocations = 0;
  /// Bytes allocated during the step and still alive after it.
  std::size_t retained_bytes = 0;
  /// Wall time, and CPU time of the whole process (all threads): on a loaded
  /// machine the second still measures the step's own work.
  double seconds = 0;
  double cpu_seconds = 0;
};

/// Runs `step` once with a counting CPU allocator installed in front of the
/// current one. Tensors allocated before the step are not counted.
StepMeasurement measure_step(const std::function<void()> &step);

} // namespace rematch::torch

#endif
