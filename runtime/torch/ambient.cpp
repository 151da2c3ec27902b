// The recompute's ambient state (ambient.h).
#include "ambient.h"

#include <ATen/autocast_mode.h>
#include <c10/core/AutogradState.h>

namespace rematch::torch::detail {
namespace {

namespace ac = at::autocast;

void set_autocast(const AmbientState &s) {
  ac::set_cpu_enabled(s.cpu.enabled);
  ac::set_autocast_cpu_dtype(s.cpu.dtype);
  ac::set_enabled(s.cuda.enabled);
  ac::set_autocast_gpu_dtype(s.cuda.dtype);
  ac::set_xpu_enabled(s.xpu.enabled);
  ac::set_autocast_xpu_dtype(s.xpu.dtype);
  ac::set_autocast_cache_enabled(s.autocast_cache);
}

} // namespace

AmbientState AmbientState::capture() {
  AmbientState s;
  s.cpu = {ac::is_cpu_enabled(), ac::get_autocast_cpu_dtype()};
  s.cuda = {ac::is_enabled(), ac::get_autocast_gpu_dtype()};
  s.xpu = {ac::is_xpu_enabled(), ac::get_autocast_xpu_dtype()};
  s.autocast_cache = ac::is_autocast_cache_enabled();
  s.forward_ad = c10::AutogradState::get_tls_state().get_fw_grad_mode();
  return s;
}

AmbientScope::AmbientScope(const AmbientState &state)
    : outside_(AmbientState::capture()) {
  if (c10::InferenceMode::is_enabled())
    no_inference_.emplace(false);
  grad_.emplace(true);
  forward_ad_.emplace(state.forward_ad);
  set_autocast(state);
  ac::increment_nesting();
}

AmbientScope::~AmbientScope() {
  // As PyTorch's autocast context on exit: the outermost region drops the
  // cached casts, which belong to it.
  if (ac::decrement_nesting() == 0)
    ac::clear_cache();
  set_autocast(outside_);
}

} // namespace rematch::torch::detail
