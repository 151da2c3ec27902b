// A project's own model file (Inputs/models/project.yaml), given with
// `Models:` in .rematch.yaml: it adds functions, a rule, a random source,
// switches a built-in entry off, and says which objects run a member function
// when checkpointed. Bodies the model describes are not analysed even when
// visible.
// OPTIONS: Models={root}/tests/checks/Inputs/models/project.yaml
// OPTIONS: CheckpointFunctions=proj::checkpoint,proj::seeded_checkpoint[proj.noise],proj::run_layer
#include "rematch-mock.h"

namespace proj {
float noise();
struct Cache {
  void put(int k, float v);
};
struct Meter {
  void tick();
};
void fill(float *dst, int n, bool dry_run = false);
// Visible, but the model says pure: its body is not analysed.
inline int g_scaled = 0;
inline float scale(float x) {
  ++g_scaled;
  return 2 * x;
}
namespace log {
void line(const char *msg);
}
template <class Fn> float checkpoint(Fn f) { return f(); }
template <class Fn> float seeded_checkpoint(Fn f) { return f(); }
} // namespace proj

float user_model(proj::Cache &cache, proj::Meter &meter, float *buf) {
  return proj::checkpoint([&] { // expect-note: callable is checkpointed by this call to 'proj::checkpoint' expect-note: if it saves and restores the project's noise stream, declare what
    // expect-next-line: rematch-unreplayed-rng {{draws from the project's noise stream through 'proj::noise', which 'proj::checkpoint' does not replay; the recomputation in backward draws a different sample}}
    float n = proj::noise();
    cache.put(1, n); // expect: rematch-cache-write {{mutates container 'cache' with 'put'}}
    meter.tick(); // expect: rematch-counter-update {{'meter'}}
    proj::fill(buf, 4); // expect: rematch-state-write {{'buf'}}
    proj::log::line("step"); // expect: rematch-logging {{'proj::log::line'}}
    return n;
  });
}

float user_model_negatives(float *buf) {
  return proj::checkpoint([&] {
    proj::Cache local;
    local.put(1, 2.0f);
    proj::fill(buf, 4, /*dry_run=*/true);
    const char *home = getenv("HOME"); // switched off by the model
    return proj::scale(home ? 1.0f : 0.0f);
  });
}

// The project's entry point declared to replay its noise stream.
float replayed() {
  return proj::seeded_checkpoint([] { return proj::noise(); });
}

// Callable objects: a layer (or a proj::Ref to one) runs its run(); a class
// with a run() that is not a layer is data, and a quiet layer has no effect.
namespace proj {
struct Layer {};
template <class T> struct Ref { T *p; };
template <class M> float run_layer(M &m, float x);
} // namespace proj

struct Ticking : proj::Layer {
  proj::Meter meter;
  float run(float x) {
    meter.tick(); // expect: rematch-counter-update {{checkpointed module 'Ticking'}}
    return x;
  }
};
struct RefTicking : proj::Layer {
  proj::Meter meter;
  float run(float x) {
    meter.tick(); // expect: rematch-counter-update {{checkpointed module 'RefTicking'}}
    return x;
  }
};
struct QuietLayer : proj::Layer {
  float run(float x) { return 2 * x; }
};
struct NotALayer {
  proj::Meter meter;
  float run(float x) {
    meter.tick();
    return x;
  }
};

float layers(Ticking &t, proj::Ref<RefTicking> r, QuietLayer &q,
             NotALayer &n) {
  float a = proj::run_layer(t, 1.0f); // expect-note: callable is checkpointed by this call to 'proj::run_layer'
  float b = proj::run_layer(r, a); // expect-note: callable is checkpointed by this call to 'proj::run_layer'
  return proj::run_layer(q, b) + proj::run_layer(n, b);
}
