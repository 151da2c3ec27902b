// MLX's arrays on MLX's real headers (models/mlx.yaml): an array is a
// handle to shared data, but MLX has no in-place ops, so the writes through
// one are assigning the handle where it lives and the raw pointer data<T>()
// returns into its buffer; a copy rebound is local. Containers of arrays
// are containers.
// ARGS: -std=c++20 -I{shared}/thirdparty/mlx
// REQUIRES: {shared}/thirdparty/mlx/mlx/mlx.h
#include "mlx/mlx.h"

namespace mx = mlx::core;
using Arrays = std::vector<mx::array>;

mx::array g_state = mx::zeros({4});
Arrays g_outputs;

// ---- positives ---------------------------------------------------------

Arrays handles(const Arrays &in) {
  mx::array acc = mx::zeros({4});
  auto fn = [&acc](const Arrays &x) {
    mx::array &s = g_state; // expect-note: 's' is an alias of 'g_state' taken here
    s = x[0] * 2; // expect: rematch-state-write {{checkpointed lambda writes 'g_state' through 's'}}
    acc = acc + x[0]; // expect: rematch-state-write {{writes 'acc'}}
    float *raw = g_state.data<float>(); // expect-note: 'raw' is an alias of 'g_state' taken here
    raw[0] = 1.0f; // expect: rematch-state-write {{writes 'g_state' through 'raw'}}
    Arrays &outs = g_outputs; // expect-note: 'outs' is an alias of 'g_outputs' taken here
    outs.push_back(x[0]); // expect: rematch-cache-write {{mutates container 'g_outputs' with 'push_back' through 'outs'}}
    return Arrays{x[0] + acc};
  };
  return mx::checkpoint(fn)(in); // expect-note: callable is checkpointed by this call to 'mlx::core::checkpoint'
}

// ---- negatives -------------------------------------------------------------

Arrays copies(const Arrays &in) {
  auto fn = [](const Arrays &x) {
    mx::array copy = g_state; // expect: rematch-global-read {{'g_state'}}
    copy = copy * x[0]; // rebinds a local handle: the state is only read
    mx::array y = mx::exp(x[0]);
    y = y + 1; // a local
    Arrays mine;
    mine.push_back(y);
    return mine;
  };
  return mx::checkpoint(fn)(in); // expect-note: callable is checkpointed
}
