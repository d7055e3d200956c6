#pragma once
// The World's insides, shared by the files that implement World (world.cpp builds and
// runs it; other world_*.cpp files add views and commands). Nothing outside src/world
// includes this header: the GUI, CLI and tests see only world.h.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/kernel.h"
#include "src/consumer/consumer.h"
#include "src/producer/producer.h"
#include "src/scenario/scenario.h"
#include "src/store/db.h"
#include "src/store/failure.h"
#include "src/store/private_files.h"
#include "src/store/warm.h"
#include "src/transport/sim_transport.h"
#include "src/world/actor_options.h"
#include "src/world/broker_node.h"
#include "src/world/world.h"

namespace lab {

// The thread's warm databases (store/warm.h), held for one world: released when the
// world is destroyed, after every connection of it has been closed (parked).
class WarmClaim {
 public:
  WarmClaim() = default;
  ~WarmClaim() {
    if (scope_ != nullptr) scope_->release(slot_);
  }
  WarmClaim(const WarmClaim&) = delete;
  WarmClaim& operator=(const WarmClaim&) = delete;
  // Claims a slot of the calling thread's scope when there is one and a slot is free.
  bool claim() {
    store::WarmScope* scope = store::WarmScope::current();
    if (scope != nullptr && scope->claim(slot_)) scope_ = scope;
    return scope_ != nullptr;
  }
  store::WarmScope* scope() const { return scope_; }
  int slot() const { return slot_; }

 private:
  store::WarmScope* scope_ = nullptr;
  int slot_ = 0;
};

class WorldImpl {
 public:
  // Takes the scenario over; the members below read scenario_, declared before them.
  WorldImpl(Scenario&& scenario, const WorldOptions& options)
      : scenario_(std::move(scenario)), options_(options) {
    begin_run();
  }

  // Ready for build() again with `base` at `seed` (World::reset): the actors and the kernel
  // go, in the destructor's order; the warm claim, the orders and ledger connections (kept
  // open: create_databases empties their tables) and the containers' capacity stay.
  void clear_for(const Scenario& base, std::uint64_t seed, const WorldOptions& options);
  // The kernel for scenario_'s seed and options_, and the per-run bookkeeping from zero.
  void begin_run();

  eosim::Status build();
  eosim::Status create_databases(const consumer::Strategy& strategy);
  void set_up_kernel();  // trace, network links, the fault plan
  eosim::Status add_actors(const consumer::Strategy& strategy);
  void start();
  // `index`: the rule's place in the fault plan, so its firing is counted.
  void fire_timed(const sim::FaultRule& rule, std::size_t index);
  // A new actor's place on the simulated network: its own transport, kept by the world.
  transport::Env node_env(const std::string& node);

  WarmClaim warm_;               // first: destroyed last, after every connection below
  store::FailureWatch failure_;  // the machine's first error (a full disk): ends the run
  store::TempDir temp_dir_;      // DbStorage::kTempFiles: removed after every connection below
  Scenario scenario_;
  WorldOptions options_;
  std::optional<sim::Kernel> kernel_;  // engaged but inside clear_for()
  std::uint64_t step_bound_ = 0;       // step_bound(scenario_), read before every step
  DbUris uris_;
  store::Db orders_anchor_, ledger_anchor_, dedup_anchor_, effects_anchor_;
  std::vector<std::unique_ptr<transport::SimTransport>> transports_;  // before the actors
  std::unique_ptr<BrokerNode> broker_;
  std::unique_ptr<producer::OrderService> producer_;
  std::vector<std::unique_ptr<consumer::Consumer>> consumers_;
  std::vector<std::uint64_t> state_hashes_;  // WorldOptions::hash_states
  std::vector<std::uint64_t> change_states_;
  std::vector<std::uint64_t> decisions_before_;
  std::vector<std::uint64_t> change_steps_;  // by WorldOptions::changes: the step it
                                             // applied in (1-based), 0 = not yet
  std::size_t changes_applied_ = 0;
};

}  // namespace lab
