// A callable and the value its call returns are not the same callable: a
// getter whose call hands over a std::function is not checkpointed itself
// (its own lazy write of the member is not the recomputation's), what it
// returns is. Containers of callables hold what is added to them, and a
// loop over one runs each. On the host's real libstdc++.
// ARGS: -std=c++20
// REQUIRES: /usr/include/c++/12/functional
#include <functional>
#include <map>
#include <string>
#include <vector>

template <class F> void checkpoint([[clang::annotate("rematch::recomputed")]] F &&f) { f(1.0f); }

int g_count = 0;

struct Net {
  std::function<float(float)> fn_;
  std::function<float(float)> counted_;
  // A lazy getter: fills the member on first use and returns it.
  std::function<float(float)> &get() {
    if (!fn_) fn_ = [](float x) { return x * 2; };
    return fn_;
  }
  std::function<float(float)> &counted() {
    if (!counted_) counted_ = [](float x) { return x + float(++g_count); }; // expect-note: 'counted_' holds the lambda stored here expect: rematch-counter-update {{checkpointed lambda held by 'counted_' increments 'g_count'}}
    return counted_;
  }
};
Net g_net;

std::function<float(float)> make_counter() {
  return [](float x) { return x + float(++g_count); }; // expect: rematch-counter-update {{checkpointed lambda held by 'f' increments 'g_count'}}
}

void getters() {
  // What the getter returns is pure; the getter itself is not checkpointed.
  auto lazy = [] {
    if (!g_net.fn_) g_net.fn_ = [](float x) { return x * 2; };
    return g_net.fn_;
  };
  checkpoint(lazy());
  checkpoint(g_net.get());
  // The same shapes handing over a callable that counts.
  checkpoint(g_net.counted()); // expect-note: callable is checkpointed by this call to 'checkpoint'
  auto made = [] { return std::function<float(float)>([](float x) { return x + float(++g_count); }); }; // expect: rematch-counter-update {{checkpointed lambda held by the result of a lambda increments 'g_count'}} expect-note: the result of a lambda holds the lambda stored here
  checkpoint(made()); // expect-note: callable is checkpointed
  auto f = make_counter(); // expect-note: 'f' holds the lambda stored here
  checkpoint(f); // expect-note: callable is checkpointed
}

// A forward pass as a list of layers, filled in one place, run in a loop.
std::vector<std::function<float(float)>> g_layers;
std::map<std::string, std::function<void()>> g_hooks;

void build() {
  g_layers.push_back([](float x) { return x * 2; });
  g_layers.emplace_back([](float x) { return x + float(g_count++); }); // expect-note: 'g_layers' holds a lambda, stored here expect-note: 'lambda' increments 'g_count' here
  g_hooks["log"] = [] { ++g_count; }; // expect-note: 'g_hooks' holds a lambda, stored here expect-note: 'lambda' increments 'g_count' here
}

template <class F> void run(F &&f) { checkpoint(f); }

void containers() {
  checkpoint([](float x) { // expect-note: callable is checkpointed
    for (auto &layer : g_layers) // expect: rematch-global-read {{reads mutable global 'g_layers'}}
      x = layer(x); // expect: rematch-counter-update {{calls 'g_layers', which may run a lambda it holds that increments 'g_count'}}
    return x;
  });
  checkpoint([](float) { g_hooks.at("log")(); }); // expect: rematch-counter-update {{calls 'g_hooks', which may run a lambda it holds that increments 'g_count'}}, rematch-global-read {{reads mutable global 'g_hooks'}} expect-note: callable is checkpointed
  // A list of its own, filled and run inside: nothing outside changes.
  checkpoint([](float x) {
    int local = 0;
    std::vector<std::function<void()>> steps;
    steps.push_back([&local] { ++local; });
    for (auto &s : steps) s();
    return x + float(local);
  });
}
