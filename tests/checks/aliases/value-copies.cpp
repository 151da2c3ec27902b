// Value and handle copies (checks/analysis/CopySemantics.h) on the host's
// real libstdc++: a by-value parameter, a by-value capture, a local copy,
// a structured binding of a copy and a copy returned by value are the
// callable's own when their type is a value type (a vector, an array, a
// string, an optional, a struct of those), so writing them is silent. A
// copy of a handle (a pointer member, a vector of pointers, a span, a
// std::function whose lambda captures by reference) still reaches the
// caller's object: writing through it is reported. Each negative sits
// beside a positive of the same shape.
// ARGS: -std=c++20
// REQUIRES: /usr/include/c++/12/span
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

template <class F, class... A>
void checkpoint([[clang::annotate("rematch::recomputed")]] F &&f, A &&...a) {
  f(a...);
}

std::vector<float> g_vec(8);
float g_buf[8];

struct Params { float *w; int n; };           // a handle: w points outside
struct Weights { std::vector<float> w; int n; }; // a value

std::vector<float> make() { return std::vector<float>(4); }
std::vector<float> copy_of_global() { return g_vec; } // expect-note: 'copy_of_global' reads mutable global 'g_vec' here
void normalise(std::vector<float> x) { for (auto &e : x) e /= 2; }
void zero_through(Params p) { p.w[0] = 0; } // expect-note: 'zero_through' writes 'p.w[0]' here

// ---- by-value parameters of the checkpointed callable ---------------------

void parameters() {
  // A vector by value: sorted, scaled, written by index. Silent.
  checkpoint([](std::vector<float> v) {
    std::sort(v.begin(), v.end());
    for (auto &e : v) e *= 2;
    v[0] = 1;
    std::iota(v.begin(), v.end(), 0.0f);
    return v[0];
  }, g_vec);
  // The same writes through a reference parameter: the caller's vector.
  checkpoint([](std::vector<float> &v) { // expect-note: callable is checkpointed by this call to 'checkpoint'
    std::sort(v.begin(), v.end()); // expect: rematch-state-write {{checkpointed lambda writes 'v' with 'sort'}}
    v[0] = 1; // expect: rematch-state-write {{checkpointed lambda writes 'v[0]'}}
  }, g_vec);
  // std::array, std::string, std::optional by value: silent.
  checkpoint([](std::array<float, 3> a, std::string s,
                std::optional<std::vector<float>> o) {
    a[0] = 1;
    s[0] = 'x';
    s += "y";
    if (o) (*o)[0] = 2;
    o->push_back(1);
    return a[1];
  }, std::array<float, 3>{}, std::string("ab"), std::optional<std::vector<float>>());
  // A generic parameter deduced as a vector: silent.
  checkpoint([](auto v) { v[0] = 1; std::sort(v.begin(), v.end()); return v[0]; }, g_vec);
  // A struct of values by value: silent; a struct holding a pointer: the
  // pointer still points at the caller's buffer.
  checkpoint([](Weights p) { p.w[0] = 1; p.n = 2; }, Weights{g_vec, 1});
  checkpoint([](Params p) { p.w[0] = 1; p.n = 2; }, Params{g_buf, 8}); // expect: rematch-state-write {{checkpointed lambda writes 'p.w[0]'}} expect-note: callable is checkpointed
  // A span by value is a view of the caller's elements.
  checkpoint([](std::span<float> s) { s[0] = 1; }, std::span<float>(g_buf)); // expect: rematch-state-write {{writes 's[0]'}} expect-note: callable is checkpointed
}

// ---- elements of a copied container of handles ----------------------------

// A vector of shared_ptr by value holds the caller's objects, in slots of
// its own: giving a slot another pointer (by index, through front(), in a
// range-for by reference) changes the copy only; writing what a slot
// points to writes the caller's object.
void handle_elements(std::vector<std::shared_ptr<float>> ptrs) {
  checkpoint([](std::vector<std::shared_ptr<float>> v) {
    v[0] = std::make_shared<float>(1.f);
    v.front() = v.back();
    for (auto &p : v) p = nullptr;
    std::vector<std::shared_ptr<float>> w = v;
    w[1] = v[0];
    auto it = w.begin();
    *it = nullptr;
    (*it).reset();
  }, ptrs);
  checkpoint([](std::vector<std::shared_ptr<float>> v) { // expect-note: callable is checkpointed
    auto it = v.begin(); // expect-note: 'it' is an alias of 'v' taken here
    **it = 1.f; // expect: rematch-state-write {{writes 'v' through 'it'}}
  }, ptrs);
  checkpoint([](std::vector<std::shared_ptr<float>> v) { // expect-note: callable is checkpointed
    *v[0] = 1.f; // expect: rematch-state-write {{checkpointed lambda writes '*v[0]'}}
  }, ptrs);
  checkpoint([](std::vector<std::shared_ptr<float>> v) { // expect-note: callable is checkpointed
    for (auto &p : v) *p = 2.f; // expect: rematch-state-write {{writes 'v' through 'p'}} expect-note: 'p' is an alias of 'v' taken here
  }, ptrs);
  // The caller's own vector, by reference: its slots are the caller's.
  checkpoint([](std::vector<std::shared_ptr<float>> &v) { // expect-note: callable is checkpointed
    v[0] = nullptr; // expect: rematch-state-write {{checkpointed lambda writes 'v[0]'}}
  }, ptrs);
}

// A local copy of a member list of handles, or of a captured copy of a
// struct that holds a pointer: the copy's slots are the callable's, what
// they point to is the original's.
struct Holder {
  std::vector<std::shared_ptr<float>> ptrs_;
  std::vector<float> vals_;
  void step() {
    checkpoint([this] { // expect-note: callable is checkpointed
      auto copy = ptrs_; // expect-note: 'copy' is an alias of 'ptrs_' taken here
      copy[0] = nullptr;
      *copy[1] = 1.f; // expect: rematch-state-write {{writes 'ptrs_' through 'copy'}}
    });
  }
  // The same copy made from an iterator range, with or without braces,
  // through const iterators too.
  void ranges() {
    checkpoint([this] { // expect-note: callable is checkpointed
      std::vector<std::shared_ptr<float>> part(ptrs_.begin() + 1, ptrs_.end()); // expect-note: 'part' is an alias of 'ptrs_' taken here
      part[0] = nullptr;
      *part[0] = 1.f; // expect: rematch-state-write {{writes 'ptrs_' through 'part'}}
    });
    checkpoint([this] { // expect-note: callable is checkpointed
      std::vector<std::shared_ptr<float>> all{ptrs_.cbegin(), ptrs_.cend()}; // expect-note: 'all' is an alias of 'ptrs_' taken here
      all.back().reset();
      *all.back() += 1.f; // expect: rematch-counter-update {{updates 'ptrs_' with '+=' through 'all'}}
    });
    checkpoint([this] {
      std::vector<float> v(std::cbegin(vals_), std::cend(vals_));
      v[0] = 1.f;
      std::vector<float> w(vals_.begin(), vals_.end());
      std::fill(w.begin(), w.end(), 0.f);
      std::vector<std::shared_ptr<float>> some(ptrs_.begin(), ptrs_.end());
      some.pop_back();
      return v[0] + w[0];
    });
  }
  // A container built from a list of the handles, or given them by
  // assignment or insertion: its slots are the callable's, what they point
  // to is the original's.
  std::shared_ptr<float> w_, b_;
  void lists() {
    checkpoint([this] { // expect-note: callable is checkpointed
      std::vector<std::shared_ptr<float>> params{w_, b_}; // expect-note: 'params' is an alias of 'w_' taken here
      params[1] = nullptr;
      *params[0] = 0.f; // expect: rematch-state-write {{writes 'w_' through 'params'}}
    });
    checkpoint([this] { // expect-note: callable is checkpointed
      std::map<std::string, std::shared_ptr<float>> named{{"w", w_}, {"b", b_}}; // expect-note: 'named' is an alias of 'w_' taken here
      named["b"].reset();
      *named.at("w") *= 2.f; // expect: rematch-counter-update {{updates 'w_' with '*=' through 'named'}}
    });
    checkpoint([this] { // expect-note: callable is checkpointed
      std::vector<std::shared_ptr<float>> stored;
      stored.push_back(w_); // expect-note: 'stored' is an alias of 'w_' taken here
      stored[0] = nullptr;
      *stored.front() = 0.f; // expect: rematch-state-write {{writes 'w_' through 'stored'}}
    });
    checkpoint([this] { // expect-note: callable is checkpointed
      std::map<std::string, std::shared_ptr<float>> by_name;
      by_name["b"] = b_; // expect-note: 'by_name' is an alias of 'b_' taken here
      by_name.emplace("w", std::make_shared<float>(0.f));
      *by_name.at("b") -= 1.f; // expect: rematch-counter-update {{updates 'b_' with '-=' through 'by_name'}}
    });
    checkpoint([this] { // expect-note: callable is checkpointed
      std::vector<std::shared_ptr<float>> all;
      all.insert(all.end(), ptrs_.begin(), ptrs_.end()); // expect-note: 'all' is an alias of 'ptrs_' taken here
      *all[0] = 1.f; // expect: rematch-state-write {{writes 'ptrs_' through 'all'}}
    });
    checkpoint([this] {
      std::vector<std::shared_ptr<float>> made;
      made.push_back(std::make_shared<float>(*w_));
      made.emplace_back(new float(1.f));
      std::vector<std::shared_ptr<float>> slots(2);
      slots[1] = std::make_shared<float>(*b_);
      *made[0] = *slots[1] = 2.f;
    });
    checkpoint([this] {
      std::vector<std::shared_ptr<float>> fresh{std::make_shared<float>(*w_)};
      *fresh[0] = 1.f;
      std::vector<float> values{*w_, *b_};
      values[0] = 2.f;
      std::vector<std::string> names{"w", "b"};
      names[0] += "eight";
      return values[0];
    });
  }
};

void copies_of_copies(Params p, Weights w) {
  checkpoint([w] { Weights v = w; v.w[0] = 1; v.n = 2; });
  checkpoint([p] { // expect-note: callable is checkpointed
    Params q = p;
    q.n = 2;
    q.w[0] = 1; // expect: rematch-state-write {{writes 'q.w[0]'}}
  });
}

// A list of handles returned by value (a micrograd-style parameters()) is
// a copy whose handles point where the member's do.
struct Neuron {
  std::vector<std::shared_ptr<float>> w_;
  std::vector<float> bias_;
  std::vector<std::shared_ptr<float>> parameters() const { return w_; }
  std::vector<float> biases() const { return bias_; }
  std::vector<std::shared_ptr<float>> all_parameters() {
    std::vector<std::shared_ptr<float>> out;
    out.insert(out.end(), w_.begin(), w_.end());
    return out;
  }
  void step() {
    checkpoint([this] { // expect-note: callable is checkpointed
      for (auto &p : parameters()) *p = 0.f; // expect: rematch-state-write {{writes 'parameters()' through 'p'}} expect-note: 'p' is an alias of 'parameters()' taken here
      for (auto &p : all_parameters()) *p += 1.f; // expect: rematch-counter-update {{updates 'all_parameters()' with '+=' through 'p'}} expect-note: 'p' is an alias of 'all_parameters()' taken here
      auto b = biases();
      b[0] = 1.f;
      auto ps = parameters();
      ps[0] = nullptr;
    });
  }
};

// Structured bindings of a copy, std::tie of them, a range-for over a local
// copy of a map, std::swap of a local copy's handles: the copy's slots are
// rebound, nothing outside. Writing what a slot's handle points to, or
// swapping the original's handles, is reported.
struct Bindings {
  std::pair<std::shared_ptr<float>, std::shared_ptr<float>> kv_;
  std::map<std::string, std::shared_ptr<float>> cache_;
  struct State { std::shared_ptr<float> h, c; } state_;
  void step() {
    checkpoint([this] {
      auto [k, v] = kv_;
      k = std::make_shared<float>(1.f);
      std::tie(k, v) = std::make_pair(v, k);
      auto snapshot = cache_;
      for (auto &[name, t] : snapshot) t = nullptr;
      State s = state_;
      std::swap(s.h, s.c);
      std::exchange(s.h, nullptr);
    });
    checkpoint([this] { // expect-note: callable is checkpointed
      auto [k, v] = kv_; // expect-note: '[k, v]' is an alias of 'kv_' taken here
      *v = 2.f; // expect: rematch-state-write {{writes 'kv_' through '[k, v]'}}
    });
    checkpoint([this] { // expect-note: callable is checkpointed
      std::swap(state_.h, state_.c); // expect: rematch-state-write {{writes 'state_.h' with 'swap'}}
    });
    // A range-for's copy of each element: its handles are the map's.
    checkpoint([this] { // expect-note: callable is checkpointed
      for (auto kv : cache_) kv.second = nullptr;
      for (auto [name, t] : cache_) t = nullptr;
      for (auto kv : cache_) *kv.second = 0.f; // expect: rematch-state-write {{writes 'cache_' through 'kv'}} expect-note: 'kv' is an alias of 'cache_' taken here
    });
    checkpoint([this] { // expect-note: callable is checkpointed
      for (auto [name, t] : cache_) *t += 1.f; // expect: rematch-counter-update {{updates 'cache_' with '+=' through '[name, t]'}} expect-note: '[name, t]' is an alias of 'cache_' taken here
    });
    checkpoint([this] { // expect-note: callable is checkpointed
      auto &[k, v] = kv_; // expect-note: '[k, v]' is an alias of 'kv_' taken here
      std::tie(k, v) = std::make_pair(v, k); // expect: rematch-state-write {{writes 'kv_' through '[k, v]'}}
    });
  }
};

// A move out of an object empties it: the recomputation finds it empty.
// Moving out of the callable's own values is silent; a trivial move (a
// struct of numbers) only copies.
struct Pending {
  std::vector<float> pending_;
  Params raw_;
  void flush() {
    checkpoint([this] { // expect-note: callable is checkpointed
      auto drained = std::move(pending_); // expect: rematch-state-write {{writes 'pending_' with 'std::move'}}
      Params p = std::move(raw_);
      return drained.size() + p.n;
    });
    checkpoint([this] { // expect-note: callable is checkpointed
      std::vector<float> into;
      into = std::move(pending_); // expect: rematch-state-write {{writes 'pending_' with 'std::move'}}
    });
  }
};

void moves_of_own_values(std::vector<float> arg) {
  checkpoint([](std::vector<float> v) {
    std::vector<float> local(4);
    std::vector<std::vector<float>> all;
    all.push_back(std::move(local));
    auto taken = std::move(v);
    return taken.size();
  }, arg);
  checkpoint([arg] { auto c = std::move(arg); return c.size(); }); // a const capture: copied
}

// ---- by-value captures ----------------------------------------------------

void captures(Params p, Weights w, std::span<float> s) {
  // Captured copies cannot be written unless the lambda is mutable; what a
  // copied pointer or span points to can.
  checkpoint([w] { return w.w[0]; });
  checkpoint([p] { p.w[0] = 1; }); // expect: rematch-state-write {{checkpointed lambda writes 'p.w[0]'}} expect-note: callable is checkpointed
  checkpoint([s] { auto t = s.subspan(1); t[0] = 2; }); // expect: rematch-state-write {{writes 's' through 't'}} expect-note: 't' is an alias of 's' taken here expect-note: callable is checkpointed
  checkpoint([s] { s[0] = 1; }); // expect: rematch-state-write {{writes 's[0]'}} expect-note: callable is checkpointed
  std::vector<float> local(4);
  std::vector<float *> ptrs{g_buf};
  checkpoint([local] { return local[0]; });
  checkpoint([ptrs] { *ptrs[0] = 1; }); // expect: rematch-state-write {{writes '*ptrs[0]'}} expect-note: callable is checkpointed
  // A mutable lambda's copy is kept in the closure: the recomputation sees
  // what the forward left there.
  checkpoint([local]() mutable { local[0] += 1; }); // expect: rematch-counter-update {{updates 'local[0]' with '+='}} expect-note: callable is checkpointed
}

// ---- local copies ---------------------------------------------------------

void locals() {
  checkpoint([] { // expect-note: callable is checkpointed
    auto v = make();                 // a copy returned by value
    v[0] = 3;
    for (auto &e : v) e += 1;
    auto c = copy_of_global(); // a copy, returned by value: its sort is silent; the read is not. expect: rematch-global-read {{calls 'copy_of_global', which reads mutable global 'g_vec'}}
    std::sort(c.begin(), c.end());
    std::pair<std::vector<float>, int> pr{make(), 1};
    auto [first, n] = pr;            // a binding of a copy
    first[0] = 1;
    std::vector<float> a = make(), b = make();
    std::swap(a, b);
    a[0] = 2;
    normalise(make());               // a helper's own by-value copy
    return v[0] + c[0] + first[0] + a[0];
  });
  checkpoint([] { // expect-note: callable is checkpointed
    std::vector<float> &r = g_vec; // expect-note: 'r' is an alias of 'g_vec' taken here
    r[0] = 1; // expect: rematch-state-write {{writes 'g_vec' through 'r'}}
  });
  checkpoint([] { zero_through(Params{g_buf, 8}); }); // expect: rematch-state-write {{calls 'zero_through', which writes 'p.w[0]'}} expect-note: callable is checkpointed
}

// ---- a std::function copy shares what its lambda captured by reference -----

void functions() {
  int counter = 0;
  std::function<void()> bump = [&counter] { ++counter; }; // expect-note: 'bump' holds a lambda, stored here expect-note: 'lambda' increments 'counter' here
  checkpoint([bump] { bump(); }); // expect: rematch-counter-update {{calls 'bump', which may run a lambda it holds that increments 'counter'}} expect-note: callable is checkpointed
  std::function<int(int)> twice = [](int x) { return 2 * x; };
  checkpoint([twice] { return twice(2); });
}
