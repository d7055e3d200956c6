#pragma once
// A first-in first-out queue kept in one vector: what std::deque does for the network's
// frames in flight and an actor's inbox, without std::deque's allocations (libstdc++
// allocates a map and a 512-byte block for every deque constructed, and a block per
// 512 bytes pushed - for an inbox of 350-byte messages, one block per message).
//
// Taken items stay in the vector, moved from, until the queue empties (then it is cleared
// and its capacity reused) or until they outnumber the items waiting (then they are
// erased), so memory stays proportional to the longest queue and each operation costs
// O(1) amortised.
//
// Invariants: (1) items leave in the order they came; (2) begin()..end() are the items
// waiting, front first.

#include <cstddef>
#include <utility>
#include <vector>

#include "sim/assert.h"

namespace sim {

template <class T>
class Fifo {
 public:
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }

  void push_back(T item) { emplace_back() = std::move(item); }
  // A new last item, default-constructed, to be filled in place.
  T& emplace_back() {
    // Room for a few at once: a queue that holds one item usually soon holds more, and
    // growing one by one (1, 2, 4) allocated three times per connection direction.
    if (items_.capacity() == 0) items_.reserve(kFirstCapacity);
    return items_.emplace_back();
  }
  // REQUIRES: !empty().
  T& front() {
    EOSIM_ASSERT(!empty());
    return items_[head_];
  }
  // Moves the first item out. REQUIRES: !empty().
  T take_front() {
    T item = std::move(front());
    ++head_;
    if (empty()) {
      clear();
    } else if (head_ >= 16 && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    return item;
  }
  void clear() {
    items_.clear();
    head_ = 0;
  }

  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;
  iterator begin() { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  const_iterator end() const { return items_.end(); }

 private:
  static constexpr std::size_t kFirstCapacity = 4;
  std::vector<T> items_;
  std::size_t head_ = 0;  // items_[0, head_) were taken
};

}  // namespace sim
