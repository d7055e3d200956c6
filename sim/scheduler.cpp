#include "sim/scheduler.h"

#include <algorithm>
#include <utility>

#include "sim/assert.h"

namespace sim {

// A world makes a scheduler per run, and a run has a few dozen events pending at most:
// room for them from the start spares the queue's and the slots' growth (six
// reallocations per run, each moving every pending closure).
constexpr std::size_t kFirstCapacity = 64;

Scheduler::Scheduler(Chooser& chooser, TieBreak tie_break)
    : chooser_(chooser), tie_break_(tie_break) {
  queue_.reserve(kFirstCapacity);
  slots_.reserve(kFirstCapacity);
  free_slots_.reserve(kFirstCapacity);
}

// Inlined into schedule, its only caller.
[[gnu::always_inline]] inline void Scheduler::insert(const Key& key) {
  if (queue_.size() == queue_.capacity()) [[unlikely]] {
    make_room();
  }
  // From the back: its sequence number is the highest, so it goes behind every event of its
  // time and priority, and it is due after most pending ones (in the ten-order sweep a
  // third of the new events go last, and the others a few places before the end). The
  // entries it goes before move one place back as they are passed: a step or two, where
  // vector::insert called memmove.
  queue_.push_back(key);
  Key* const first = queue_.data() + head_;
  Key* at = queue_.data() + queue_.size() - 1;
  while (at > first && earlier(key, at[-1])) {
    *at = at[-1];
    --at;
  }
  *at = key;
}

Scheduler::Slot& Scheduler::schedule(Tick time, const char* label, int priority, EventId id,
                                     std::uint64_t tag) {
  EOSIM_ASSERT(time >= now_);
  std::uint32_t slot = 0;
  if (free_slots_.empty()) {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  // Field by field, and the closure built in place by the caller: nothing is moved.
  Slot& entry = slots_[slot];
  entry.label = label;
  entry.tag = tag;
  insert(Key{time, priority, id, slot});
  return entry;
}

void Scheduler::add_state(StateHash& hash) const {
  // Times are counted from now and sequence numbers left out: the events are fed in the
  // order they would run, and a new event always gets a higher number than every pending
  // one, so only that order decides ties. Absolute time is history here; what reads it
  // elsewhere (partitions, an actor's clock) is fed relative to now too.
  hash.add(static_cast<std::uint64_t>(pending()));
  for (std::size_t i = head_; i < queue_.size(); ++i) {
    const Key& e = queue_[i];
    const Slot& slot = slots_[e.slot];
    hash.add(static_cast<std::uint64_t>(e.time - now_));
    hash.add(static_cast<std::int64_t>(e.priority));
    hash.add(std::string_view(slot.label));
    hash.add(slot.tag);
  }
}

// The entries before head_ ran: dropped when the vector is full and they are at least half
// of it (all of them when nothing is pending), so that it grows only with the events
// pending at once, and an insert checks one size.
[[gnu::noinline]] void Scheduler::make_room() {
  if (head_ * 2 >= queue_.size()) {
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

Scheduler::Key Scheduler::take(std::size_t index) {
  const Key key = queue_[head_ + index];
  // The entries ahead of it move one place back, into its place: their order is kept.
  const auto first = queue_.begin() + static_cast<std::ptrdiff_t>(head_);
  std::move_backward(first, first + static_cast<std::ptrdiff_t>(index),
                     first + static_cast<std::ptrdiff_t>(index) + 1);
  ++head_;
  return key;
}

// Inlined into step, its only caller: most events are alone at their instant.
[[gnu::always_inline]] inline Scheduler::Key Scheduler::pop_next() {
  EOSIM_ASSERT(!idle());
  const std::size_t next = head_ + 1;
  if (tie_break_ == TieBreak::kChoice && next < queue_.size() &&
      queue_[next].time == queue_[head_].time && queue_[next].priority == queue_[head_].priority)
      [[unlikely]] {
    return take(choose_tied());
  }
  return queue_[head_++];
}

// Several events are enabled at this instant (in sequence order): the chooser picks one.
// The others stay where they are.
[[gnu::noinline]] std::size_t Scheduler::choose_tied() {
  const Key& first = queue_[head_];
  std::size_t tied = 1;
  while (head_ + tied < queue_.size() && queue_[head_ + tied].time == first.time &&
         queue_[head_ + tied].priority == first.priority) {
    ++tied;
  }
  // Keyed: the tied events as add_state sees them (label and tag, in order).
  return static_cast<std::size_t>(chooser_.below(tied, [this, tied] {
    StateHash identity;
    for (std::size_t i = head_; i < head_ + tied; ++i) {
      const Slot& slot = slots_[queue_[i].slot];
      identity.add(std::string_view(slot.label));
      identity.add(slot.tag);
    }
    return identity.value();
  }));
}

bool Scheduler::step() {
  if (idle()) return false;
  const Key key = pop_next();
  EOSIM_ASSERT(key.time >= now_);
  // Out of its slot before it runs: what it schedules may reuse the slot or grow slots_.
  Slot& slot = slots_[key.slot];
  Task fn = std::move(slot.fn);  // leaves the slot's empty
  current_label_ = slot.label;
  free_slots_.push_back(key.slot);
  now_ = key.time;
  ++steps_;
  fn();
  current_label_ = "";
  return true;
}

RunResult Scheduler::run(std::uint64_t max_steps) {
  RunResult result;
  while (result.steps < max_steps && step()) ++result.steps;
  result.quiescent = idle();
  return result;
}

}  // namespace sim
