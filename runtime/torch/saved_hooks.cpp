// The autograd engine that offers C++ saved-tensor hooks (saved_hooks.h).
#include "saved_hooks.h"

#include <torch/csrc/autograd/engine.h>

#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace rematch::torch::detail {
namespace {

namespace ag = ::torch::autograd;

thread_local std::vector<HookFactory *> t_factories;

class HookingEngine final : public ag::Engine {
public:
  std::unique_ptr<ag::SavedVariableHooks>
  get_default_saved_variable_hooks() override {
    if (t_factories.empty())
      return nullptr;
    return t_factories.back()->make();
  }
};

HookingEngine &hooking_engine() {
  // Never destroyed: graphs built with it may outlive any static's
  // destruction order, and like libtorch's own engine it is one per process.
  static HookingEngine *const engine = new HookingEngine();
  return *engine;
}

ag::Engine &hooking_engine_stub() { return hooking_engine(); }

} // namespace

void require_saved_tensor_hooks(const char *who) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    // Only in place of libtorch's own engine: another one (the Python
    // engine) has duties of its own that this one would drop.
    if (&ag::Engine::get_default_engine() == &ag::Engine::get_base_engine())
      ag::set_default_engine_stub(&hooking_engine_stub);
  });
  if (&ag::Engine::get_default_engine() != &hooking_engine())
    throw std::runtime_error(
        std::string(who) +
        ": another autograd engine than libtorch's own is installed (PyTorch's "
        "Python engine?), so the tensors the checkpointed function saves for "
        "backward cannot be seen; checkpoint needs a C++ program's engine");
}

HooksScope::HooksScope(HookFactory &factory) {
  t_factories.push_back(&factory);
}

HooksScope::~HooksScope() { t_factories.pop_back(); }

} // namespace rematch::torch::detail
