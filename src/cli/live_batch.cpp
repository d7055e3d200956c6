// `eosim live FILES --jobs N`: see live_batch.h.

#ifdef EOSIM_HAVE_LIVE

#include "src/cli/live_batch.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>

#include "src/live/process.h"  // interrupted
#include "src/live/run_rules.h"

namespace cli {

namespace {

void add(CompareTally& into, const CompareTally& t) {
  into.agree += t.agree;
  into.disagree += t.disagree;
  into.refused += t.refused;
  into.not_compared += t.not_compared;
  into.failed += t.failed;
}

// Runs runs[i] for each i of `which`, `jobs` at a time (each worker takes the next one);
// each run's output printed whole, under one lock, as it ends.
int run_some(const std::vector<Loaded>& runs, const std::vector<std::size_t>& which, int jobs,
             const RunOne& run_one, CompareTally& tally, std::ostream& out, std::ostream& err) {
  std::mutex done;  // guards tally, exit_code, out and err
  int exit_code = kExitOk;
  std::atomic<std::size_t> taken{0};
  auto worker = [&] {
    for (;;) {
      const std::size_t k = taken.fetch_add(1);
      if (k >= which.size() || live::interrupted() != 0) return;
      std::ostringstream run_out, run_err;
      CompareTally run_tally;
      const int code = run_one(runs[which[k]], run_tally, run_out, run_err);
      const std::lock_guard<std::mutex> lock(done);
      err << run_err.str() << std::flush;
      out << run_out.str() << std::flush;
      add(tally, run_tally);
      exit_code = worse(exit_code, code);
    }
  };
  std::vector<std::thread> workers;
  for (int j = 1; j < jobs && static_cast<std::size_t>(j) < which.size(); ++j) {
    workers.emplace_back(worker);
  }
  worker();
  for (std::thread& t : workers) t.join();
  return exit_code;
}

}  // namespace

int run_batch(const LiveCommandOptions& o, const std::vector<Loaded>& runs, const RunOne& run_one,
              CompareTally& tally, std::ostream& out, std::ostream& err) {
  std::vector<std::size_t> together, alone;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    (live::runs_alongside(runs[i].scenario) ? together : alone).push_back(i);
  }
  // The runs together first: each of them leaves consumer_timeout at its default, which the
  // private broker has from its start, so none of them changes the broker under another.
  int exit_code = run_some(runs, together, o.jobs, run_one, tally, out, err);
  return worse(exit_code, run_some(runs, alone, 1, run_one, tally, out, err));
}

}  // namespace cli

#endif  // EOSIM_HAVE_LIVE
