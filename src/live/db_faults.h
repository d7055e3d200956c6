#pragma once
// The database link's faults on the wire: the judge the fault proxy asks when the reply to
// a COMMIT passes on a connection of the run's actors to PostgreSQL (pg_wire.h). It holds
// the scenario's db.commit_reply and db.producer_commit_reply rules. A debit's COMMIT (on
// a consumer's connection) is asked with the FaultPoint the model's consumer builds at
// db.commit_reply (src/consumer): the order the transaction debited, the attempt (the
// broker's count of that order's deliveries, from the AMQP proxy's judge, net_faults.h),
// the consumer's instance by the listener. An order row's COMMIT (on the order service's
// connection) is asked at db.producer_commit_reply with the order and attempt 1, as the
// order service asks it (src/producer). A rule that fires drops the reply: the COMMIT has
// taken effect on the server, the client's connection is reset and the client cannot tell
// whether it committed. The rule is then out of the actor's own plan (actor_process.cpp):
// it fires here or nowhere.
//
// The same judge serves the separate dedup store's proxy (resp_wire.h): the +OK answering
// a consumer's mark (SET NX) is asked at dedup.mark_reply, with the order and attempt as
// for a debit; dropped, the key is set and the consumer's Redis connection reset.
//
// A fired rule is appended to faults.log (the report lists it, a restarted actor counts
// it) and to the proxy's trace file (trace-dbproxy.jsonl, trace-dedupproxy.jsonl).
//
// Not thread-safe: the proxy calls judge() on its one thread.

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "sim/faults.h"
#include "sim/rng.h"
#include "sim/scheduler.h"
#include "src/live/run_rules.h"
#include "src/live/store_reply.h"
#include "src/scenario/scenario.h"

namespace live {

struct DbFaultsOptions {
  std::vector<std::string> nodes;  // listener index -> actor node ("consumer1", "producer")
  std::string run_dir;             // faults.log and the trace file go here
  std::string trace_file = "trace-dbproxy.jsonl";  // its name in run_dir
  std::int64_t origin_ms = 0;  // the run's tick 0 (CLOCK_MONOTONIC ms) and tick length
  std::int64_t tick_ms = 10;
  // The broker's count of deliveries of an order so far (thread-safe).
  std::function<std::int64_t(std::int64_t order)> attempt_of;
};

class DbFaults {
 public:
  DbFaults(const lab::Scenario& scenario, DbFaultsOptions options);
  DbFaults(const DbFaults&) = delete;
  DbFaults& operator=(const DbFaults&) = delete;

  ProxyAction judge(const CommitReply& reply);
  int replies_dropped() const { return dropped_; }

 private:
  void on_fired(sim::FiredFault fault, const CommitReply& reply, const std::string& node);

  DbFaultsOptions options_;
  sim::Chooser chooser_{0};
  sim::Scheduler scheduler_{chooser_};
  sim::FaultPlan plan_{chooser_, scheduler_};
  std::ofstream trace_;
  int dropped_ = 0;
};

}  // namespace live
