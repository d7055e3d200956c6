#include "sim/scheduler.h"

#include <utility>

#include "sim/assert.h"

namespace sim {

Scheduler::Scheduler(Chooser& chooser, TieBreak tie_break)
    : chooser_(chooser), tie_break_(tie_break) {}

EventId Scheduler::at(Tick time, const char* label, std::function<void()> fn, int priority) {
  EOSIM_ASSERT(time >= now_);
  EOSIM_ASSERT(fn != nullptr);
  const EventId id = next_seq_++;
  queue_.push(Event{time, priority, id, label, std::move(fn)});
  return id;
}

EventId Scheduler::after(Tick delay, const char* label, std::function<void()> fn,
                         int priority) {
  return at(now_ + delay, label, std::move(fn), priority);
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
  const std::size_t pick = static_cast<std::size_t>(chooser_.below(ties_.size()));
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
