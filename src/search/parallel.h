#pragma once
// Runs fn(0) .. fn(count - 1) on `workers` threads, each taking the next index. Which
// thread runs which index varies; callers write each result to its own slot and reduce
// in index order, so what they report never depends on the thread count.
// With `warm`, each worker thread (the caller's, with one worker) holds a
// store::WarmScope while it works, unless it already has one: the worlds it builds one
// after another reuse their connections and prepared statements (store/warm.h) - results
// are the same either way.
// REQUIRES: fn(i) touches only state owned by index i (and shared read-only data).
//
// A thread the system refuses to start (a process or memory limit), or a worker that runs
// out of memory (std::bad_alloc under `ulimit -v`), is an error, not a crash: the other
// threads finish the index in hand and stop, and an error Status carries the first reason;
// some indices were then never run or never finished.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "src/status/status.h"
#include "src/store/warm.h"

namespace lab {

// The most worker threads a sweep or an explore starts (--jobs is refused above it).
inline constexpr unsigned kMaxJobs = 256;

// The threads to use for `tasks` independent runs: `jobs` (0 = every hardware thread),
// never more than there are tasks or kMaxJobs, never fewer than one.
inline unsigned worker_count(unsigned jobs, std::uint64_t tasks) {
  const unsigned n = jobs != 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t most = std::min<std::uint64_t>({n, tasks, kMaxJobs});
  return static_cast<unsigned>(std::max<std::uint64_t>(1, most));
}

// parallel_for with a `State` per worker thread: fn(state, i), where `state` is made
// when the worker starts (after its WarmScope) and destroyed when it stops (before it): a
// sweep worker's lab::ReusedWorld.
template <class State, class Fn>
eosim::Status parallel_for_each_worker(std::size_t count, unsigned workers, bool warm, Fn fn) {
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  bool failed = false;  // guarded by error_mutex
  std::string error;    // the first reason; guarded by error_mutex
  auto fail = [&](std::string why) {
    next = count;  // the running threads take no further index
    const std::lock_guard<std::mutex> lock(error_mutex);
    if (!failed) error = std::move(why);
    failed = true;
  };
  auto work = [&] {
    try {
      std::optional<store::WarmUnlessWarm> scope;
      if (warm) scope.emplace();
      State state;
      for (std::size_t i = next++; i < count; i = next++) fn(state, i);
    } catch (const std::bad_alloc&) {
      fail("out of memory in a worker thread (try a lower --jobs)");
    }
  };
  const auto status = [&] {
    return failed ? eosim::Status::error(error) : eosim::Status::success();
  };
  if (workers <= 1) {
    work();
    return status();
  }
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (unsigned t = 0; t < workers && next < count; ++t) {
    try {
      threads.emplace_back(work);
    } catch (const std::system_error& e) {
      fail("cannot start worker thread " + std::to_string(t + 1) + " of " +
           std::to_string(workers) + ": " + e.code().message() + " (try a lower --jobs)");
    } catch (const std::bad_alloc&) {
      fail("cannot start worker thread " + std::to_string(t + 1) + " of " +
           std::to_string(workers) + ": out of memory (try a lower --jobs)");
    }
  }
  for (auto& t : threads) t.join();
  return status();
}

template <class Fn>
eosim::Status parallel_for(std::size_t count, unsigned workers, bool warm, Fn fn) {
  struct NoState {};
  return parallel_for_each_worker<NoState>(count, workers, warm,
                                           [&fn](NoState&, std::size_t i) { fn(i); });
}

}  // namespace lab
