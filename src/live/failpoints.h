#pragma once
// Failpoints for the user's consumer (docs/your-consumer.md): a Unix socket per consumer
// instance, served on a thread of the `eosim live` process, where the consumer asks
// whether to die at a named point of its own code.
//
// The protocol, one line each way:
//   consumer -> eosim   NAME ORDER\n     e.g. "after_commit 2\n" (ORDER may be left out: 0)
//   eosim -> consumer   go\n             carry on
//                       (nothing)        the consumer's process group was sent SIGKILL
// NAME is a consumer crash site without its "consumer." prefix (on_deliver,
// after_dedup_insert, before_commit, after_side_effect, after_commit, after_ack); an
// unknown name is answered "go". The scenario's scripted rules on those sites (for
// example `at = "consumer.after_commit"`, `order = 2`, `attempt = 1`) match as they do in
// eosim's own consumer: the order is the consumer's, the instance the socket's, and the
// attempt the broker's count of deliveries of that order when the question comes (the
// fault proxy numbers every basic.deliver: net_faults.h). A rule that fires is written to
// faults.log and trace-failpoints.jsonl before the kill, so the report lists it.
// On a run whose supervisor restarts the private PostgreSQL (--store postgres), before_commit
// also asks the scenario's db.restart rules: one that fires is logged, the supervisor
// restarts the server, and only then is the answer "go" (the consumer's transaction is gone).
//
// Invariants:
//  (1) A kill goes to the process group set for the asking instance (set_group), never to
//      a pid read from the socket; with no group set the answer is "go".
//  (2) `times` is counted over the whole run (one plan serves every instance and restart).
//  (3) stop() (and the destructor) joins the thread and removes the socket files.

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "src/live/status.h"
#include "src/scenario/scenario.h"

namespace live {

struct FailpointOptions {
  std::vector<std::string> sockets;  // instance i+1 listens on sockets[i]
  std::string run_dir;               // faults.log, deliveries.db, trace-failpoints.jsonl
  std::int64_t origin_ms = 0;        // the run's tick 0 and tick length: a fault's time
  std::int64_t tick_ms = 10;
};

class FailpointServer {
 public:
  // Listens on every socket (an error naming the path when one cannot be made, e.g. a path
  // longer than a Unix socket allows) and starts serving.
  static Status start(const lab::Scenario& s, FailpointOptions options,
                      std::unique_ptr<FailpointServer>& out);
  ~FailpointServer();
  FailpointServer(const FailpointServer&) = delete;
  FailpointServer& operator=(const FailpointServer&) = delete;

  // The process group of consumer `instance` (1-based) from now on; 0 while none runs.
  void set_group(int instance, pid_t pgid);
  // Questions asked so far, of any name.
  int questions() const { return questions_; }
  void stop();

  struct Impl;

 private:
  FailpointServer() = default;
  std::unique_ptr<Impl> impl_;
  std::thread thread_;
  std::atomic<int> questions_{0};
};

}  // namespace live
