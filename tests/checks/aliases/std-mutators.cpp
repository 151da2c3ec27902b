// The standard library's value classes that are not containers, on the
// host's real libstdc++ (models/std.yaml): their mutators (array::fill,
// bitset::set, optional::emplace and reset, unique_ptr::reset,
// variant::emplace, vector<bool>::flip) write the object they are called
// on, and a container's swap mutates it. On a member that is the
// callable's outside state; on a local, or a local copy of a member, it
// is the callable's own.
// ARGS: -std=c++17
#include <array>
#include <bitset>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

template <class F> void checkpoint([[clang::annotate("rematch::recomputed")]] F &&f) { f(); }

struct State { float h = 0; };
struct Cell {
  std::array<float, 4> gates_{};
  std::bitset<8> touched_;
  std::vector<bool> alive_ = std::vector<bool>(8, true);
  std::optional<State> last_;
  std::unique_ptr<State> ws_;
  std::variant<int, float> mode_ = 0;
  std::vector<float> hist_;

  void members(float x) {
    checkpoint([&] { // expect-note: callable is checkpointed by this call to 'checkpoint'
      gates_.fill(x); // expect: rematch-state-write {{writes 'gates_' with 'fill'}}
      touched_.set(1); // expect: rematch-state-write {{writes 'touched_' with 'set'}}
      alive_.flip(); // expect: rematch-state-write {{writes 'alive_' with 'flip'}}
      last_.emplace(State{x}); // expect: rematch-state-write {{writes 'last_' with 'emplace'}}
      ws_.reset(new State()); // expect: rematch-state-write {{writes 'ws_' with 'reset'}}
      mode_.emplace<float>(x); // expect: rematch-state-write {{writes 'mode_' with 'emplace'}}
      std::vector<float> tmp;
      hist_.swap(tmp); // expect: rematch-cache-write {{mutates container 'hist_' with 'swap'}}
    });
  }

  void locals(float x) {
    checkpoint([&] {
      std::array<float, 4> g{};
      g.fill(x);
      std::bitset<8> b;
      b.set(1);
      std::optional<State> o;
      o.emplace(State{x});
      o.reset();
      std::unique_ptr<State> u;
      u.reset(new State());
      auto copy = last_;
      copy.reset();
      std::vector<float> a, b2;
      a.swap(b2);
    });
  }
};
