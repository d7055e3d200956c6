#pragma once
// Virtual time and the event scheduler.
//
// Time is an integer tick count that jumps straight to the next event. Events are ordered
// by (time, priority, sequence number). When several events share the earliest time and
// priority they are all enabled at once, and which runs first is a *choice point*: the
// run's Chooser decides (random by default, replayable from a tape). With TieBreak::kFifo
// the lowest sequence number wins and no choice is recorded.
//
// Invariants:
//  (1) now() never decreases; an event never runs before its time.
//  (2) step() runs exactly one event. There is no cancel: an actor that may change its
//      mind (a timeout) keeps a generation counter and its stale events do nothing.
//  (3) The same Chooser tape gives the same execution order.

#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/assert.h"
#include "sim/rng.h"
#include "sim/state_hash.h"
#include "sim/task.h"

namespace sim {

using Tick = std::uint64_t;
using EventId = std::uint64_t;

enum class TieBreak { kChoice, kFifo };

struct RunResult {
  std::uint64_t steps = 0;  // events executed by this call
  bool quiescent = false;   // true when the queue emptied; false when the bound stopped it
};

// A callable that can be empty: a std::function or a function pointer (not a lambda).
template <class F>
inline constexpr bool kMayBeEmpty = std::is_pointer_v<F>;
template <class R, class... Args>
inline constexpr bool kMayBeEmpty<std::function<R(Args...)>> = true;

class Scheduler {
 public:
  explicit Scheduler(Chooser& chooser, TieBreak tie_break = TieBreak::kChoice);

  Tick now() const { return now_; }
  // Number of events executed so far; during an event, the number of that event (from 1).
  std::uint64_t steps() const { return steps_; }

  // Schedules fn at absolute time `time` (>= now()). Lower priority runs first at equal
  // times. `label` must outlive the scheduler (a string literal). `tag` stands for what fn
  // captured besides its owner (a generation, a key, a connection: see event_tag), so
  // that add_state can tell two pending events apart without looking into the closures.
  // `fn` is any callable of no arguments (a lambda, a std::function): it is kept in place
  // in the event's slot (sim/task.h), not wrapped in a std::function.
  template <class F>
  EventId at(Tick time, const char* label, F&& fn, int priority = 0, std::uint64_t tag = 0) {
    if constexpr (kMayBeEmpty<std::decay_t<F>>) EOSIM_ASSERT(fn != nullptr);
    const EventId id = next_seq_++;
    Slot& entry = schedule(time, label, priority, id, tag);
    entry.fn.emplace(std::forward<F>(fn));
    return id;
  }
  template <class F>
  EventId after(Tick delay, const char* label, F&& fn, int priority = 0, std::uint64_t tag = 0) {
    return at(now_ + delay, label, std::forward<F>(fn), priority, tag);
  }

  // Executes exactly one event. Returns false when there is nothing left to run.
  bool step();
  // Steps until the queue is empty or `max_steps` events ran in this call.
  RunResult run(std::uint64_t max_steps);

  bool idle() const { return head_ == queue_.size(); }
  // The time of the next event. REQUIRES: !idle().
  Tick next_time() const { return queue_[head_].time; }
  std::size_t pending() const { return queue_.size() - head_; }
  // Label of the event now running ("" between events).
  const char* current_label() const { return current_label_; }

  // For explore's state merging: now, the next sequence number and every pending event's
  // (time, priority, sequence number, label, tag), in the order they would run. The step
  // count is left out (explore checks the step bound on its own, src/search/explore.h).
  void add_state(StateHash& hash) const;

 private:
  // What an event runs, kept in one place from scheduling to running: the queue orders
  // small keys that name their slot, so reordering it never moves a closure.
  struct Slot {
    const char* label = "";
    Task fn;
    std::uint64_t tag = 0;
  };
  struct Key {
    Tick time;
    int priority;
    EventId seq;
    std::uint32_t slot;  // index into slots_
  };
  static bool earlier(const Key& a, const Key& b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.priority != b.priority) return a.priority < b.priority;
    return a.seq < b.seq;
  }
  // Takes a slot for event `id` due at `time` and queues it; the caller puts its closure in.
  Slot& schedule(Tick time, const char* label, int priority, EventId id, std::uint64_t tag);
  void insert(const Key& key);
  void make_room();  // insert's rare part: drops the entries that ran (see queue_)
  Key pop_next();
  // Among the events tied at the head (two or more), the index of the one to run next.
  std::size_t choose_tied();
  // Removes queue_[head_ + index] and keeps the rest in order.
  Key take(std::size_t index);

  Chooser& chooser_;
  TieBreak tie_break_;
  // The pending events in the order they would run, from queue_[head_] (the earliest) to
  // the end: a new event goes in from the back (it is most often the latest), the next one
  // is taken at the head, and tied events stand side by side in sequence order. Entries
  // before head_ ran; they are dropped when the vector is full and they are at least half.
  std::vector<Key> queue_;
  std::size_t head_ = 0;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;  // slots of events that ran, for reuse
  Tick now_ = 0;
  std::uint64_t steps_ = 0;
  EventId next_seq_ = 1;
  const char* current_label_ = "";
};

// A scheduler tag from the values a closure captured (any number of integers).
template <class... Values>
std::uint64_t event_tag(Values... values) {
  StateHash hash;
  (hash.add(static_cast<std::uint64_t>(values)), ...);
  return hash.value();
}

}  // namespace sim
