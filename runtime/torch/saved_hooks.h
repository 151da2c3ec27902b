// Saved-tensor default hooks for C++ code: what PyTorch's
// torch.autograd.graph.saved_tensors_hooks gives Python. libtorch 1.13 keeps
// its default hooks as Python objects (at::SavedTensorDefaultHooks), but every
// SavedVariable asks the default autograd engine for its hooks
// (Engine::get_default_saved_variable_hooks, which PyTorch's Python engine
// overrides). The engine installed here differs from libtorch's only there:
// while a HooksScope is active on a thread, each tensor saved for backward on
// that thread gets the hooks the innermost scope's factory makes. Internal to
// the adapter.
#ifndef REMATCH_TORCH_SAVED_HOOKS_H
#define REMATCH_TORCH_SAVED_HOOKS_H

#include <torch/csrc/autograd/saved_variable_hooks.h>

#include <memory>

namespace rematch::torch::detail {

/// Makes the hooks of one tensor saved for backward.
class HookFactory {
public:
  virtual std::unique_ptr<::torch::autograd::SavedVariableHooks> make() = 0;

protected:
  ~HookFactory() = default;
};

/// Makes the process's default autograd engine the one that offers these
/// hooks, unless another engine than libtorch's own is the default (PyTorch's
/// Python engine, when libtorch_python is loaded): then throws
/// std::runtime_error naming `who`, as the hooks could not be seen.
void require_saved_tensor_hooks(const char *who);

/// While alive, every tensor saved for backward on this thread gets its hooks
/// from `factory`; scopes nest, the innermost wins.
class HooksScope {
public:
  explicit HooksScope(HookFactory &factory);
  ~HooksScope();
  HooksScope(const HooksScope &) = delete;
  HooksScope &operator=(const HooksScope &) = delete;
};

} // namespace rematch::torch::detail

#endif
