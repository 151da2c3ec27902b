// The mode-independent half of Segment: the two RNG duties (replay s0 in the
// recompute, give the outside stream back its state afterwards), the leases
// that make them safe against other threads, and the audit comparison.
#include "diff.h"
#include "trace.h"

#include "rematch/segment.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace rematch::detail {

using SlotPtr = std::shared_ptr<GeneratorSlot>;

struct SegmentCore::State {
  std::string name;
  std::vector<GeneratorId> only;
  bool restricted = false;

  std::vector<SlotPtr> slots;         // replayed, saved at forward entry
  std::vector<GeneratorState> s0;     // their state at forward entry
  std::vector<GeneratorState> outside; // their state at recompute entry
  GeneratorState scratch;

  // Audit only.
  Trace forward_trace;
  std::vector<SlotPtr> others; // registered, not replayed, foreign
  std::vector<GeneratorState> others_before;
  std::vector<AuditFinding> rng_findings;

  Report report;
};

namespace {

// Takes every lease or none, so two segments that need overlapping sets can
// never hold one each and wait for the other.
void lease_all(std::vector<SlotPtr> &slots) {
  for (unsigned attempt = 0;; ++attempt) {
    std::size_t got = 0;
    while (got < slots.size() && slots[got]->lease().try_acquire())
      ++got;
    if (got == slots.size())
      return;
    for (std::size_t i = 0; i < got; ++i)
      slots[i]->lease().release();
    if (attempt < 64)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

void release_all(std::vector<SlotPtr> &slots) noexcept {
  for (auto &s : slots)
    s->lease().release();
}

AuditFinding rng_finding(std::string message) {
  AuditFinding f;
  f.kind = AuditFinding::Kind::outside_rng_disturbed;
  f.message = std::move(message);
  return f;
}

} // namespace

SegmentCore::SegmentCore(std::string name, std::vector<GeneratorId> only,
                         bool restrict)
    : state_(std::make_unique<State>()) {
  state_->name = std::move(name);
  state_->only = std::move(only);
  state_->restricted = restrict;
}

SegmentCore::~SegmentCore() = default;

const Report &SegmentCore::report() const noexcept { return state_->report; }
const std::string &SegmentCore::name() const noexcept { return state_->name; }

void SegmentCore::record_result(Encoded value) noexcept {
  record_value(EventKind::result, 0, value, nullptr, 0);
}

void SegmentCore::forward_begin(bool audit) {
  State &s = *state_;
  phase_ = kNone;
  recomputes_ = 0;
  s.slots.clear();
  if (s.restricted || generator_count() != 0)
    snapshot_slots(s.slots, s.restricted ? &s.only : nullptr);
  if (!s.slots.empty()) {
    // Held for the whole forward: the draws between s0 and s1 must be this
    // pass's draws only, or replaying s0 would not reproduce them.
    lease_all(s.slots);
    try {
      s.s0.resize(s.slots.size());
      for (std::size_t i = 0; i < s.slots.size(); ++i)
        s.slots[i]->save(s.s0[i]);
    } catch (...) {
      release_all(s.slots);
      throw;
    }
  }
  if (audit) {
    try {
      begin_pass();
    } catch (...) {
      release_all(s.slots);
      throw;
    }
  }
}

void SegmentCore::forward_end(bool audit, bool completed) noexcept {
  State &s = *state_;
  if (audit) {
    Trace t = end_pass();
    if (completed)
      s.forward_trace = std::move(t);
  }
  release_all(s.slots);
  // A plain forward that saved nothing lets the next forwards take the inline
  // fast path (Segment::forward) while nothing is registered.
  if (!completed)
    phase_ = kNone;
  else if (!audit && s.slots.empty())
    phase_ = kTrivialFresh;
  else
    phase_ = kFull;
}

void SegmentCore::recompute_begin(bool audit) {
  State &s = *state_;
  if (phase_ == kNone)
    throw std::logic_error("rematch::Segment '" + s.name +
                           "': recompute() without a completed forward()");
  if (phase_ == kTrivialFresh) {
    // The forward saved nothing; what an earlier full forward left is stale.
    phase_ = kTrivialUsed;
    recomputes_ = 0;
    s.slots.clear();
    s.s0.clear();
  }
  ++recomputes_;
  s.report = Report(s.name, recomputes_);
  s.rng_findings.clear();
  lease_all(s.slots);
  std::size_t restored = 0;
  try {
    s.outside.resize(s.slots.size());
    for (std::size_t i = 0; i < s.slots.size(); ++i)
      s.slots[i]->save(s.outside[i]); // duty 2: remember the outside stream
    for (; restored < s.slots.size(); ++restored)
      s.slots[restored]->restore(s.s0[restored]); // duty 1: replay from s0
    if (audit) {
      // Foreign generators this segment does not replay: if their state moves
      // during the recompute, the segment used a stream it cannot replay.
      // (Generator<E> draws are recorded, which is exact; see below.)
      s.others.clear();
      s.others_before.clear();
      std::vector<SlotPtr> all;
      snapshot_slots(all, nullptr);
      for (auto &slot : all) {
        if (!slot->foreign() ||
            std::find(s.slots.begin(), s.slots.end(), slot) != s.slots.end())
          continue;
        if (!slot->lease().try_acquire())
          continue; // in use by another segment: its state tells us nothing
        s.others_before.emplace_back();
        slot->save(s.others_before.back());
        slot->lease().release();
        s.others.push_back(slot);
      }
      begin_pass();
    }
  } catch (...) {
    for (std::size_t i = 0; i < restored; ++i)
      s.slots[i]->restore(s.outside[i]);
    release_all(s.slots);
    throw;
  }
  enter_recompute();
}

void SegmentCore::recompute_end(bool audit, bool completed) noexcept {
  State &s = *state_;
  leave_recompute();
  Trace t;
  if (audit)
    t = end_pass();
  for (std::size_t i = 0; i < s.slots.size(); ++i) {
    try {
      s.slots[i]->restore(s.outside[i]);
    } catch (...) {
      // A foreign restore threw: reported below in audit mode; the other
      // generators must still be restored.
      if (audit)
        s.rng_findings.push_back(rng_finding(
            "restoring generator '" + s.slots[i]->name() + "' threw"));
    }
  }
  if (audit && completed) {
    for (std::size_t i = 0; i < s.slots.size(); ++i) {
      try {
        s.slots[i]->save(s.scratch);
        if (s.scratch != s.outside[i])
          s.rng_findings.push_back(rng_finding(
              "generator '" + s.slots[i]->name() +
              "': its state after the recompute is not its state at recompute "
              "entry (its save/restore pair does not round-trip)"));
      } catch (...) {
      }
    }
  }
  release_all(s.slots);
  if (!audit || !completed)
    return;

  try {
    for (std::size_t i = 0; i < s.others.size(); ++i) {
      auto &slot = s.others[i];
      if (!slot->lease().try_acquire())
        continue;
      slot->save(s.scratch);
      slot->lease().release();
      if (s.scratch != s.others_before[i])
        s.rng_findings.push_back(rng_finding(
            "generator '" + slot->name() +
            "' is not replayed by this segment but its state changed during "
            "the recompute: the segment draws from a stream it cannot replay, "
            "and the recompute moved that stream"));
    }
    s.others.clear();
    // Draws from Generators outside the replay set (not registered when the
    // forward began, or left out of the segment's list).
    std::vector<GeneratorId> reported;
    for (const Event &e : t.events) {
      if (e.event_kind() != EventKind::draw)
        continue;
      const bool replayed =
          std::any_of(s.slots.begin(), s.slots.end(),
                      [&](const SlotPtr &p) { return p->id() == e.key; });
      if (replayed || std::find(reported.begin(), reported.end(), e.key) !=
                          reported.end())
        continue;
      reported.push_back(e.key);
      s.rng_findings.push_back(rng_finding(
          "generator '" + generator_name(e.key) +
          "' is drawn from inside the segment but not replayed by it: the "
          "recompute drew different values and advanced its outside stream"));
    }
    analyse_traces(s.forward_trace, t, s.report);
    for (auto &f : s.rng_findings)
      ReportWriter::add(s.report, std::move(f));
    s.rng_findings.clear();
  } catch (...) {
    // Out of memory while comparing: the report stays incomplete rather than
    // the recompute failing.
  }
}

void SegmentCore::recompute_finish() { apply_policy(state_->report); }

} // namespace rematch::detail
