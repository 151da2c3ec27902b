// The thread-local state that changes what an op computes, taken in a
// checkpoint's forward and re-entered around its recompute, which runs inside
// backward under whatever state the caller of backward left. The list, and
// why each other piece of libtorch's thread-local state is left alone, is in
// docs/torch.md ("The recompute's ambient state"). Internal to the adapter.
#ifndef REMATCH_TORCH_AMBIENT_H
#define REMATCH_TORCH_AMBIENT_H

#include <c10/core/GradMode.h>
#include <c10/core/InferenceMode.h>
#include <c10/core/ScalarType.h>

#include <optional>

namespace rematch::torch::detail {

struct AmbientState {
  /// Autocast for one device type: on or off, and its lower-precision dtype.
  struct Autocast {
    bool enabled = false;
    c10::ScalarType dtype = c10::ScalarType::Float;
  };
  Autocast cpu, cuda, xpu;
  /// Whether autocast caches the casts of leaf tensors (weights).
  bool autocast_cache = true;
  /// Forward-mode AD.
  bool forward_ad = true;

  /// The calling thread's state now.
  static AmbientState capture();
};

/// Enters `state` for the recompute, as a region: autocast per device type
/// with its dtype and cache flag (one autocast nesting level, the cache
/// cleared when the outermost level ends, as PyTorch's autocast context does),
/// forward-mode AD as in the forward, grad mode on and inference mode off (the
/// recompute records a graph). Everything is restored on destruction.
class AmbientScope {
public:
  explicit AmbientScope(const AmbientState &state);
  ~AmbientScope();
  AmbientScope(const AmbientScope &) = delete;
  AmbientScope &operator=(const AmbientScope &) = delete;

private:
  // Emplaced in this order, destroyed in the reverse one.
  std::optional<c10::InferenceMode> no_inference_;
  std::optional<c10::AutoGradMode> grad_;
  std::optional<c10::AutoFwGradMode> forward_ad_;
  AmbientState outside_;
};

} // namespace rematch::torch::detail

#endif
