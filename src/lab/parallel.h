#pragma once
// Runs fn(0) .. fn(count - 1) on `workers` threads, each taking the next index. Which
// thread runs which index varies; callers write each result to its own slot and reduce
// in index order, so what they report never depends on the thread count.
// REQUIRES: fn(i) touches only state owned by index i (and shared read-only data).

#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace lab {

template <class Fn>
void parallel_for(std::size_t count, unsigned workers, Fn fn) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) fn(i);
  };
  if (workers <= 1) {
    work();
    return;
  }
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < workers; ++t) threads.emplace_back(work);
  for (auto& t : threads) t.join();
}

}  // namespace lab
