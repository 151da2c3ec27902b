// models/mlx.yaml on MLX's real headers: keyless samplers draw the next key
// of MLX's global key sequence, explicit keys are pure, ops are pure (their
// internals are not analysed), and mlx::core::checkpoint replays nothing.
// ARGS: -std=c++20 -I{shared}/thirdparty/mlx
// REQUIRES: {shared}/thirdparty/mlx/mlx/mlx.h
// OPTIONS: CheckpointFunctions=mlxu::keyed_checkpoint[mlx.default]
#include "mlx/mlx.h"

namespace mx = mlx::core;
using Arrays = std::vector<mx::array>;

namespace mlxu {
// A project's checkpoint that saves and restores the key sequence.
template <class Fn> Arrays keyed_checkpoint(Fn f, const Arrays &in) {
  return f(in);
}
} // namespace mlxu

int g_calls = 0;

Arrays keyless(const Arrays &in) {
  auto f = mx::checkpoint([](const Arrays &xs) { // expect-note: callable is checkpointed by this call to 'mlx::core::checkpoint' expect-note: if it saves and restores MLX's global key sequence, declare what
    const mx::array &x = xs[0];
    // expect-next-line: rematch-unreplayed-rng {{checkpointed lambda draws from MLX's global key sequence through 'mx::random::bernoulli', which 'mlx::core::checkpoint' does not replay}}
    auto mask = mx::random::bernoulli(mx::array(0.5f), x.shape());
    auto u = mx::random::uniform(x.shape()); // expect: rematch-unreplayed-rng {{'mx::random::uniform'}}
    auto n = mx::random::normal(x.shape()); // expect: rematch-unreplayed-rng {{draws from MLX's global key sequence through 'mx::random::normal', which 'mlx::core::checkpoint' does not replay}}
    auto i = mx::random::randint(0, 10, x.shape()); // expect: rematch-unreplayed-rng {{draws from MLX's global key sequence through 'mx::random::randint', which 'mlx::core::checkpoint' does not replay}}
    auto g = mx::random::gumbel(x.shape()); // expect: rematch-unreplayed-rng {{draws from MLX's global key sequence through 'mx::random::gumbel', which 'mlx::core::checkpoint' does not replay}}
    auto k = mx::random::KeySequence::default_().next(); // expect: rematch-unreplayed-rng {{draws from MLX's global key sequence through 'mlx::core::random::KeySequence::next', which 'mlx::core::checkpoint' does not replay}}
    return Arrays{mx::multiply(x, mask) + u + n + i + g + k};
  });
  return f(in);
}

// Explicit keys: a pure function of the key. Ops: pure.
Arrays keyed(const Arrays &in, const mx::array &key) {
  auto f = mx::checkpoint([key](const Arrays &xs) {
    const mx::array &x = xs[0];
    auto [k1, k2] = mx::random::split(key);
    auto mask = mx::random::bernoulli(mx::array(0.5f), x.shape(), k1);
    auto u = mx::random::uniform(x.shape(), mx::float32, k2);
    auto n = mx::random::normal(x.shape(), mx::float32, 0.0f, 1.0f,
                                mx::random::key(3));
    auto y = mx::matmul(x, mx::transpose(x)) + mx::exp(x) * mx::sum(x);
    return Arrays{mx::add(y, mask) + u + n};
  });
  return f(in);
}

// Side effects of the callable itself are still found.
Arrays counting(const Arrays &in) {
  auto f = mx::checkpoint([](const Arrays &xs) { // expect-note: callable is checkpointed
    ++g_calls; // expect: rematch-counter-update {{increments 'g_calls'}}
    return Arrays{mx::abs(xs[0])};
  });
  return f(in);
}

// A checkpoint declared to replay the key sequence.
Arrays replayed(const Arrays &in) {
  return mlxu::keyed_checkpoint([](const Arrays &xs) {
    return Arrays{mx::random::uniform(xs[0].shape()) + xs[0]};
  }, in);
}

// Outside any checkpoint.
mx::array plain(const mx::array &x) {
  return mx::random::normal(x.shape()) + x;
}
