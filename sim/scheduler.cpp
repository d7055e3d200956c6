#include "sim/scheduler.h"

#include <algorithm>
#include <utility>

#include "sim/assert.h"

namespace sim {

Scheduler::Scheduler(Chooser& chooser, TieBreak tie_break)
    : chooser_(chooser), tie_break_(tie_break) {}

EventId Scheduler::at(Tick time, const char* label, std::function<void()> fn, int priority,
                      std::uint64_t tag) {
  EOSIM_ASSERT(time >= now_);
  EOSIM_ASSERT(fn != nullptr);
  const EventId id = next_seq_++;
  std::uint32_t slot = 0;
  if (free_slots_.empty()) {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  slots_[slot] = Slot{label, std::move(fn), tag};
  push(Key{time, priority, id, slot});
  return id;
}

EventId Scheduler::after(Tick delay, const char* label, std::function<void()> fn,
                         int priority, std::uint64_t tag) {
  return at(now_ + delay, label, std::move(fn), priority, tag);
}

void Scheduler::add_state(StateHash& hash) const {
  // Times are counted from now and sequence numbers left out: the events are fed in the
  // order they would run, and a new event always gets a higher number than every pending
  // one, so only that order decides ties. Absolute time is history here; what reads it
  // elsewhere (partitions, an actor's clock) is fed relative to now too.
  std::vector<Key> pending(heap_);
  const Later later;
  std::sort(pending.begin(), pending.end(),
            [&later](const Key& a, const Key& b) { return later(b, a); });
  hash.add(static_cast<std::uint64_t>(pending.size()));
  for (const Key& e : pending) {
    const Slot& slot = slots_[e.slot];
    hash.add(static_cast<std::uint64_t>(e.time - now_));
    hash.add(static_cast<std::int64_t>(e.priority));
    hash.add(std::string_view(slot.label));
    hash.add(slot.tag);
  }
}

void Scheduler::push(const Key& key) {
  heap_.push_back(key);
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

Scheduler::Key Scheduler::pop() {
  std::pop_heap(heap_.begin(), heap_.end(), Later{});
  const Key key = heap_.back();
  heap_.pop_back();
  return key;
}

Scheduler::Key Scheduler::pop_next() {
  EOSIM_ASSERT(!heap_.empty());
  const Key first = pop();
  if (tie_break_ == TieBreak::kFifo || heap_.empty() || heap_.front().time != first.time ||
      heap_.front().priority != first.priority) {
    return first;
  }
  // Several events are enabled at this instant: gather them (in sequence order) and let
  // the chooser pick one. The others go back untouched.
  ties_.clear();
  ties_.push_back(first);
  while (!heap_.empty() && heap_.front().time == first.time &&
         heap_.front().priority == first.priority) {
    ties_.push_back(pop());
  }
  // Keyed: the tied events as add_state sees them (label and tag, in order).
  const std::size_t pick = static_cast<std::size_t>(chooser_.below(ties_.size(), [this] {
    StateHash identity;
    for (const Key& e : ties_) {
      const Slot& slot = slots_[e.slot];
      identity.add(std::string_view(slot.label));
      identity.add(slot.tag);
    }
    return identity.value();
  }));
  for (std::size_t i = 0; i < ties_.size(); ++i) {
    if (i != pick) push(ties_[i]);
  }
  return ties_[pick];
}

bool Scheduler::step() {
  if (heap_.empty()) return false;
  const Key key = pop_next();
  EOSIM_ASSERT(key.time >= now_);
  // Out of its slot before it runs: what it schedules may reuse the slot or grow slots_.
  Slot& slot = slots_[key.slot];
  std::function<void()> fn = std::move(slot.fn);
  current_label_ = slot.label;
  slot.fn = nullptr;
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
