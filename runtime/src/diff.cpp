// Trace alignment (Myers) and what the alignment means.
#include "diff.h"

#include "rematch/detail/registry.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

namespace rematch::detail {
namespace {

bool is_effect(const Event &e) noexcept {
  return e.event_kind() == EventKind::effect ||
         e.event_kind() == EventKind::write;
}

bool same_file(const char *x, const char *y) noexcept {
  return x == y || (x && y && std::strcmp(x, y) == 0);
}

std::string format_value(const Event &e) {
  char buf[40];
  switch (e.value_repr()) {
  case Repr::sint:
    std::snprintf(buf, sizeof buf, "%" PRId64, static_cast<std::int64_t>(e.value));
    break;
  case Repr::uint:
    std::snprintf(buf, sizeof buf, "%" PRIu64, e.value);
    break;
  case Repr::real: {
    double d;
    std::memcpy(&d, &e.value, sizeof d);
    std::snprintf(buf, sizeof buf, "%.17g", d);
    break;
  }
  case Repr::boolean:
    return e.value ? "true" : "false";
  case Repr::hash:
    std::snprintf(buf, sizeof buf, "#%016" PRIx64, e.value);
    break;
  }
  return buf;
}

std::string describe(const Trace &t, const Event &e) {
  const std::string *text = t.text_of(e);
  switch (e.event_kind()) {
  case EventKind::read:
    return "read " + object_name(e.key) + " = " + format_value(e);
  case EventKind::write:
    return "write " + object_name(e.key) + " = " + format_value(e);
  case EventKind::observe:
    return "observe " + (text ? *text : std::string("?")) + " = " +
           format_value(e);
  case EventKind::effect:
    return text ? *text : std::string("effect");
  case EventKind::draw:
    return "draw " + generator_name(e.key) + " -> " + format_value(e);
  case EventKind::result:
    return "return value " + format_value(e);
  }
  return "?";
}

EventLocation where(const Event &e) { return {e.file, e.line}; }

std::string short_where(const Event &e) {
  if (!e.file)
    return "";
  const char *base = std::strrchr(e.file, '/');
  std::string s = base ? base + 1 : e.file;
  if (e.line)
    s += ":" + std::to_string(e.line);
  return s;
}

std::string cell(const Trace &t, const Event *e, std::size_t index) {
  if (!e)
    return "";
  std::string s = "#" + std::to_string(index) + " " + describe(t, *e);
  const std::string w = short_where(*e);
  if (!w.empty())
    s += " @" + w;
  return s;
}

std::string row(char mark, const std::string &left, const std::string &right) {
  constexpr std::size_t kWidth = 52;
  std::string l = left.size() > kWidth ? left.substr(0, kWidth - 3) + "..." : left;
  l.resize(kWidth, ' ');
  return std::string("    ") + mark + " " + l + " | " + right + "\n";
}

// A hunk: the events between two equal runs.
struct Hunk {
  std::vector<std::size_t> dels; // forward indices
  std::vector<std::size_t> ins;  // recompute indices
  std::size_t run_begin;         // index of its first run
  std::size_t run_end;           // one past its last run
};

std::string side_by_side(const Trace &fwd, const Trace &rec,
                         const std::vector<DiffRun> &runs, const Hunk &h) {
  constexpr std::size_t kBefore = 3, kAfter = 2, kHunkRows = 8;
  std::string out = row(' ', "forward", "recompute");
  if (h.run_begin > 0) {
    const DiffRun &r = runs[h.run_begin - 1];
    const std::size_t n = std::min(kBefore, r.len);
    for (std::size_t k = r.len - n; k < r.len; ++k)
      out += row(' ', cell(fwd, &fwd.events[r.a + k], r.a + k),
                 cell(rec, &rec.events[r.b + k], r.b + k));
  }
  const std::size_t rows = std::max(h.dels.size(), h.ins.size());
  for (std::size_t i = 0; i < rows && i < kHunkRows; ++i) {
    const Event *l = i < h.dels.size() ? &fwd.events[h.dels[i]] : nullptr;
    const Event *r = i < h.ins.size() ? &rec.events[h.ins[i]] : nullptr;
    out += row('!', cell(fwd, l, l ? h.dels[i] : 0),
               cell(rec, r, r ? h.ins[i] : 0));
  }
  if (rows > kHunkRows)
    out += row('!', "... " + std::to_string(h.dels.size()) + " event(s)",
               "... " + std::to_string(h.ins.size()) + " event(s)");
  if (h.run_end < runs.size()) {
    const DiffRun &r = runs[h.run_end];
    for (std::size_t k = 0; k < std::min(kAfter, r.len); ++k)
      out += row(' ', cell(fwd, &fwd.events[r.a + k], r.a + k),
                 cell(rec, &rec.events[r.b + k], r.b + k));
  }
  return out;
}

AuditFinding divergence_for(const Trace &fwd, const Trace &rec, const Hunk &h) {
  const Event *d = nullptr, *i = nullptr;
  for (std::size_t x : h.dels)
    if (!is_effect(fwd.events[x])) {
      d = &fwd.events[x];
      break;
    }
  for (std::size_t x : h.ins)
    if (!is_effect(rec.events[x])) {
      i = &rec.events[x];
      break;
    }
  AuditFinding f;
  f.kind = AuditFinding::Kind::divergence;
  if (d)
    f.forward = where(*d);
  if (i)
    f.recompute = where(*i);
  if (d && i && d->kind == i->kind && d->key == i->key &&
      same_file(d->file, i->file) && d->line == i->line) {
    switch (d->event_kind()) {
    case EventKind::draw:
      f.message = "different draw from " + generator_name(d->key) + ": " +
                  format_value(*d) + " in the forward, " + format_value(*i) +
                  " in the recompute";
      break;
    case EventKind::result:
      f.message = "the return value differs: " + format_value(*d) +
                  " in the forward, " + format_value(*i) + " in the recompute";
      break;
    default: {
      const std::string what = d->event_kind() == EventKind::observe
                                   ? "observed value " + *fwd.text_of(*d)
                                   : object_name(d->key);
      f.message = "value drift: " + what + " was " + format_value(*d) +
                  " in the forward, " + format_value(*i) + " in the recompute";
    }
    }
  } else if (d && i) {
    f.message = "the passes took different paths: the forward did '" +
                describe(fwd, *d) + "' where the recompute did '" +
                describe(rec, *i) + "'";
  } else if (d) {
    f.message = "the recompute skipped '" + describe(fwd, *d) +
                "' (and " + std::to_string(h.dels.size() - 1) +
                " more forward event(s))";
  } else {
    f.message = "the recompute did '" + describe(rec, *i) +
                "', which the forward did not (and " +
                std::to_string(h.ins.size() - 1) + " more event(s))";
  }
  return f;
}

AuditFinding repeated(const Trace &fwd, const Event *f, const Trace &rec,
                 const Event &r) {
  AuditFinding out;
  out.kind = AuditFinding::Kind::repeated_effect;
  out.recompute = where(r);
  if (f)
    out.forward = where(*f);
  const std::string what = describe(rec, r);
  if (f)
    out.message = "'" + what + "' ran again in the recompute (forward: '" +
                  describe(fwd, *f) + "')";
  else
    out.message = "'" + what + "' ran in the recompute (the forward had no "
                  "such effect here)";
  return out;
}

void add_run(std::vector<DiffRun> &runs, DiffRun::Type t, std::size_t a,
             std::size_t b, std::size_t len) {
  if (len == 0)
    return;
  if (!runs.empty() && runs.back().type == t) {
    DiffRun &last = runs.back();
    // Runs are built in order, so a same-type neighbour is contiguous.
    last.len += len;
    return;
  }
  runs.push_back({t, a, b, len});
}

} // namespace

bool same_event(const Event &x, const Event &y) noexcept {
  if (x.kind != y.kind || x.key != y.key || x.line != y.line ||
      !same_file(x.file, y.file))
    return false;
  if (is_effect(x))
    return true;
  return x.value == y.value && x.repr == y.repr;
}

std::vector<DiffRun> diff_traces(const Trace &ta, const Trace &tb,
                                 std::size_t max_d) {
  const std::vector<Event> &a = ta.events, &b = tb.events;
  std::size_t pre = 0;
  while (pre < a.size() && pre < b.size() && same_event(a[pre], b[pre]))
    ++pre;
  std::size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre &&
         same_event(a[a.size() - 1 - suf], b[b.size() - 1 - suf]))
    ++suf;
  const long n = static_cast<long>(a.size() - pre - suf);
  const long m = static_cast<long>(b.size() - pre - suf);

  std::vector<DiffRun> runs;
  add_run(runs, DiffRun::equal, 0, 0, pre);

  // Middle part, in reverse order while backtracking.
  std::vector<DiffRun> mid;
  auto eq = [&](long x, long y) {
    return same_event(a[pre + static_cast<std::size_t>(x)],
                      b[pre + static_cast<std::size_t>(y)]);
  };
  const long limit = std::min<long>(n + m, static_cast<long>(max_d));
  bool found = n == 0 && m == 0;
  if (!found) {
    const long off = limit + 1;
    std::vector<long> v(static_cast<std::size_t>(2 * limit + 3), 0);
    std::vector<std::vector<long>> hist; // v[-d..d] after step d
    long dfound = -1;
    for (long d = 0; d <= limit && dfound < 0; ++d) {
      for (long k = -d; k <= d; k += 2) {
        long x;
        if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
          x = v[off + k + 1];
        else
          x = v[off + k - 1] + 1;
        long y = x - k;
        while (x < n && y < m && eq(x, y))
          ++x, ++y;
        v[off + k] = x;
        if (x >= n && y >= m) {
          dfound = d;
          break;
        }
      }
      hist.emplace_back(v.begin() + (off - d), v.begin() + (off + d + 1));
    }
    if (dfound >= 0) {
      found = true;
      long x = n, y = m;
      for (long d = dfound; d > 0; --d) {
        const std::vector<long> &pv = hist[static_cast<std::size_t>(d - 1)];
        auto at = [&](long k) { return pv[static_cast<std::size_t>(k + d - 1)]; };
        const long k = x - y;
        const long pk = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1
                                                                        : k - 1;
        const long px = at(pk), py = px - pk;
        const long snake = std::min(x - (pk == k + 1 ? px : px + 1),
                                    y - (pk == k + 1 ? py + 1 : py));
        if (snake > 0)
          mid.push_back({DiffRun::equal, static_cast<std::size_t>(x - snake),
                         static_cast<std::size_t>(y - snake),
                         static_cast<std::size_t>(snake)});
        if (pk == k + 1) // down: an insertion of b[py]
          mid.push_back({DiffRun::ins, static_cast<std::size_t>(px),
                         static_cast<std::size_t>(py), 1});
        else // right: a deletion of a[px]
          mid.push_back({DiffRun::del, static_cast<std::size_t>(px),
                         static_cast<std::size_t>(py), 1});
        x = px;
        y = py;
      }
      if (x > 0) // the d = 0 snake
        mid.push_back({DiffRun::equal, 0, 0, static_cast<std::size_t>(x)});
    }
  }
  if (found) {
    for (auto it = mid.rbegin(); it != mid.rend(); ++it)
      add_run(runs, it->type, pre + it->a, pre + it->b, it->len);
  } else {
    // Too different to align cheaply: one replaced block.
    add_run(runs, DiffRun::del, pre, pre, static_cast<std::size_t>(n));
    add_run(runs, DiffRun::ins, pre + static_cast<std::size_t>(n), pre,
            static_cast<std::size_t>(m));
  }
  add_run(runs, DiffRun::equal, a.size() - suf, b.size() - suf, suf);
  return runs;
}

void analyse_traces(const Trace &fwd, const Trace &rec, Report &out) {
  const std::vector<DiffRun> runs = diff_traces(fwd, rec);
  constexpr std::size_t kMaxDivergences = 100;
  std::size_t divergences = 0;
  for (std::size_t r = 0; r < runs.size();) {
    const DiffRun &run = runs[r];
    if (run.type == DiffRun::equal) {
      for (std::size_t k = 0; k < run.len; ++k) {
        const Event &f = fwd.events[run.a + k];
        if (is_effect(f))
          ReportWriter::add(out, repeated(fwd, &f, rec, rec.events[run.b + k]));
      }
      ++r;
      continue;
    }
    Hunk h{{}, {}, r, r};
    for (; h.run_end < runs.size() && runs[h.run_end].type != DiffRun::equal;
         ++h.run_end) {
      const DiffRun &x = runs[h.run_end];
      for (std::size_t k = 0; k < x.len; ++k)
        (x.type == DiffRun::del ? h.dels : h.ins)
            .push_back(x.type == DiffRun::del ? x.a + k : x.b + k);
    }
    r = h.run_end;

    bool computation_differs = false, forward_effects = false;
    for (std::size_t x : h.dels) {
      forward_effects |= is_effect(fwd.events[x]);
      computation_differs |= !is_effect(fwd.events[x]);
    }
    for (std::size_t x : h.ins) {
      computation_differs |= !is_effect(rec.events[x]);
      if (is_effect(rec.events[x]))
        ReportWriter::add(out, repeated(fwd, nullptr, rec, rec.events[x]));
    }
    // Only the forward did something, and that something includes an effect:
    // the shape a recomputing() guard leaves, reads in the guarded block
    // included.
    const bool guarded = h.ins.empty() && forward_effects;
    if (computation_differs && !guarded && divergences < kMaxDivergences) {
      AuditFinding f = divergence_for(fwd, rec, h);
      if (divergences == 0)
        f.context = side_by_side(fwd, rec, runs, h);
      ReportWriter::add(out, std::move(f));
      ++divergences;
    }
  }
}

} // namespace rematch::detail
