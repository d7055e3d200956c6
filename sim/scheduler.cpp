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
  queue_.push(Event{time, priority, id, label, std::move(fn), tag});
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
  // elsewhere (partitions, the broker's clock) is fed relative to now too.
  std::vector<const Event*> pending;
  pending.reserve(queue_.size());
  for (const Event& e : queue_.events()) pending.push_back(&e);
  const Later later;
  std::sort(pending.begin(), pending.end(),
            [&later](const Event* a, const Event* b) { return later(*b, *a); });
  hash.add(static_cast<std::uint64_t>(pending.size()));
  for (const Event* e : pending) {
    hash.add(static_cast<std::uint64_t>(e->time - now_));
    hash.add(static_cast<std::int64_t>(e->priority));
    hash.add(std::string_view(e->label));
    hash.add(e->tag);
  }
}

Scheduler::Event Scheduler::pop_next() {
  EOSIM_ASSERT(!queue_.empty());
  // priority_queue::top is const; the event is moved out right before pop, never reused.
  Event first = std::move(const_cast<Event&>(queue_.top()));
  queue_.pop();
  if (tie_break_ == TieBreak::kFifo || queue_.empty() || queue_.top().time != first.time ||
      queue_.top().priority != first.priority) {
    return first;
  }
  // Several events are enabled at this instant: gather them (in sequence order) and let
  // the chooser pick one. The others go back untouched.
  ties_.clear();
  ties_.push_back(std::move(first));
  while (!queue_.empty() && queue_.top().time == ties_.front().time &&
         queue_.top().priority == ties_.front().priority) {
    ties_.push_back(std::move(const_cast<Event&>(queue_.top())));
    queue_.pop();
  }
  // Keyed: the tied events as add_state sees them (label and tag, in order).
  const std::size_t pick = static_cast<std::size_t>(chooser_.below(ties_.size(), [this] {
    StateHash identity;
    for (const Event& e : ties_) {
      identity.add(std::string_view(e.label));
      identity.add(e.tag);
    }
    return identity.value();
  }));
  Event chosen = std::move(ties_[pick]);
  for (std::size_t i = 0; i < ties_.size(); ++i) {
    if (i != pick) queue_.push(std::move(ties_[i]));
  }
  ties_.clear();
  return chosen;
}

bool Scheduler::step() {
  if (queue_.empty()) return false;
  Event event = pop_next();
  EOSIM_ASSERT(event.time >= now_);
  now_ = event.time;
  ++steps_;
  current_label_ = event.label;
  event.fn();
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
