#include "src/world/world.h"
#include "src/world/world_impl.h"

#include <atomic>
#include <filesystem>

#include "sim/assert.h"
#include "src/broker/heartbeat.h"
#include "src/catalog/fault_sites.h"
#include "src/consumer/consumer.h"
#include "src/orders/fault_site.h"
#include "src/orders/order_key.h"
#include "src/producer/producer.h"
#include "src/store/db.h"
#include "src/world/broker_node.h"
#include "src/world/schema.h"

namespace lab {

DbStorage auto_storage(const Scenario& scenario) {
  return scenario.workload.orders >= kTempFilesFromOrders ? DbStorage::kTempFiles
                                                          : DbStorage::kMemory;
}

std::vector<std::string> database_files(const Scenario& scenario) {
  std::vector<std::string> names = {"orders.db", "ledger.db"};
  if (consumer::find_preset(scenario.consumer.strategy) == nullptr) return names;
  if (scenario.consumer.choices().dedup == consumer::Dedup::kSeparateStore) {
    names.push_back("dedup.db");
  }
  if (scenario.consumer.side_effect != consumer::SideEffect::kNone) {
    names.push_back("effects.db");
  }
  return names;
}

namespace {

// In-memory databases are named per world; the counter only keeps concurrent worlds of
// a sweep apart and never influences what a run does.
std::atomic<std::uint64_t> g_world_counter{0};

// The mail server's log of a world on warm databases: never warm itself (it is opened
// only by designs with an email), so a new one for each run.
std::string effects_uri() {
  return "file:/eosim-" + std::to_string(++g_world_counter) + "-effects?vfs=memdb";
}

// Files for --keep-db; else files in the world's private folder (`temp_dir`, when it has
// one); else the thread's warm databases when it has them free (a sweep worker's); else
// fresh in-memory databases of this world's own.
DbUris make_uris(const std::string& keep_dir, const std::string& temp_dir, WarmClaim& warm) {
  if (!keep_dir.empty()) {
    return {keep_dir + "/orders.db", keep_dir + "/ledger.db", keep_dir + "/dedup.db",
            keep_dir + "/effects.db"};
  }
  if (!temp_dir.empty()) {
    const auto uri = [&](const char* name) {
      return store::private_file_uri(temp_dir + "/" + name);
    };
    return {uri("orders.db"), uri("ledger.db"), uri("dedup.db"), uri("effects.db")};
  }
  if (warm.claim()) {
    const store::WarmScope& w = *warm.scope();
    const int slot = warm.slot();
    return {w.database_uri("orders", slot), w.database_uri("ledger", slot),
            w.database_uri("dedup", slot), effects_uri()};
  }
  const std::string base = "file:/eosim-" + std::to_string(++g_world_counter) + "-";
  return {base + "orders?vfs=memdb", base + "ledger?vfs=memdb", base + "dedup?vfs=memdb",
          base + "effects?vfs=memdb"};
}

// Creates the folder; refuses a database file that holds anything, because opening it
// would copy the run's schema over the user's data (the CLI removes them on --force).
eosim::Status keep_dir_ready(const std::string& dir, const Scenario& s) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (const auto& name : database_files(s)) {
    const fs::path path = fs::path(dir) / name;
    const bool exists = fs::exists(path, ec);
    if (exists && (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) != 0)) {
      return eosim::Status::error(path.string() + " already exists; eosim does not replace it");
    }
  }
  return eosim::Status::success();
}

// The machine's trouble (store/failure.h: its message names the file and the reason) is
// the user's to fix; anything else is reported with SQLite's code.
eosim::Status database_error(const char* doing, const store::Status& st) {
  if (st.kind == store::ErrorKind::kEnvironment) {
    return eosim::Status::machine_error(doing + st.message);
  }
  return eosim::Status::error(doing + st.to_string());
}

// Which lane of the diagram a fault belongs to: its site's actor, with the instance for
// a consumer (there can be several). Only a consumer's name is built, in `consumer`; the
// others are views of the site table's constant text.
std::string_view actor_of(const sim::FiredFault& f, std::string& consumer) {
  const std::optional<Site> site = orders::site_named(f.site);
  EOSIM_ASSERT(site.has_value());  // the world's actors name only the lab's sites
  const std::string_view role = orders::site_row(*site).actor;
  if (role != "consumer") return role;
  const std::int64_t instance = f.key[orders::kInstance];
  consumer.assign(role);
  consumer += instance > 0 ? std::to_string(instance) : "1";
  return consumer;
}

// The simulated network's links from the scenario's [network] table.
sim::LinkOptions link_options(const NetworkConfig& n) {
  sim::LinkOptions link;
  link.latency_min = static_cast<sim::Tick>(n.latency_min);
  link.latency_max = static_cast<sim::Tick>(n.latency_max);
  link.heartbeat_timeout = static_cast<sim::Tick>(n.heartbeat_timeout);
  link.reset_notice = 1;
  if (n.heartbeat) {
    // Each side's own detection, 0 = never (conformance row 18).
    const auto heartbeat = static_cast<std::uint64_t>(*n.heartbeat);
    link.server_detect = static_cast<sim::Tick>(broker::silent_peer_timeout(heartbeat).value_or(0));
    link.client_detect =
        n.client_timeout
            ? static_cast<sim::Tick>(*n.client_timeout)
            : static_cast<sim::Tick>(broker::client_silence_timeout(heartbeat).value_or(0));
  }
  return link;
}

}  // namespace

// The run's databases, each with its schema: orders and ledger always, the separate
// dedup store and the mail server's log when the design has them.
eosim::Status WorldImpl::create_databases(const consumer::Strategy& strategy) {
  const Scenario& s = scenario_;
  store::Status st = store::Status::success();
  if (options_.keep_db_dir.empty() && options_.storage == DbStorage::kTempFiles) {
    st = store::TempDir::create(temp_dir_);
  }
  if (!st.ok()) {
    return database_error("cannot create the run's databases: ", st);
  }
  // A reset world (clear_for) kept its orders and ledger connections and their names.
  const bool kept = orders_anchor_.is_open();
  if (kept) {
    uris_.effects = effects_uri();
  } else {
    uris_ = make_uris(options_.keep_db_dir, temp_dir_.path(), warm_);
    st = store::Db::open(uris_.orders, orders_anchor_);
    if (st.ok()) st = store::Db::open(uris_.ledger, ledger_anchor_);
  }
  if (st.ok()) st = ready_orders_db(orders_anchor_, kept);
  if (st.ok()) {
    st = ready_ledger_db(ledger_anchor_, s.workload.account, s.workload.initial_balance, kept);
  }
  if (st.ok() && strategy.choices.dedup == consumer::Dedup::kSeparateStore) {
    st = store::Db::open(uris_.dedup, dedup_anchor_);
    if (st.ok()) st = ready_dedup_db(dedup_anchor_);
  }
  if (st.ok() && strategy.side_effect != consumer::SideEffect::kNone) {
    st = store::Db::open(uris_.effects, effects_anchor_);
    if (st.ok()) st = effects_anchor_.exec(kEffectsSchema);
  }
  if (!st.ok()) {
    return database_error("cannot create the run's databases: ", st);
  }
  if (!options_.keep_db_dir.empty()) {
    // Files are for a person to read afterwards; durability against power loss is not
    // what is being simulated.
    for (store::Db* db : {&orders_anchor_, &ledger_anchor_}) {
      st = db->exec("PRAGMA synchronous=OFF");
      if (!st.ok()) {
        return database_error("cannot set up the run's database files: ", st);
      }
    }
  }
  return eosim::Status::success();
}

// In order: the databases, the kernel (network, fault plan), then the actors, which take
// their place on the network and their databases as they are made.
eosim::Status WorldImpl::build() {
  const Scenario& s = scenario_;
  if (!options_.keep_db_dir.empty()) {
    if (eosim::Status ready = keep_dir_ready(options_.keep_db_dir, s); !ready.ok()) return ready;
  }
  if (consumer::find_preset(s.consumer.strategy) == nullptr) {
    return eosim::Status::error("unknown strategy " + s.consumer.strategy);
  }
  const consumer::Strategy strategy = s.consumer.design();
  if (eosim::Status created = create_databases(strategy); !created.ok()) return created;
  set_up_kernel();
  return add_actors(strategy);
}

void WorldImpl::set_up_kernel() {
  const Scenario& s = scenario_;
  sim::Kernel& k = *kernel_;
  k.trace.keep(options_.keep_trace);
  k.faults.log_opportunities(options_.log_opportunities);
  k.network.set_options(link_options(s.network));
  k.network.set_instance_part(orders::kInstance);  // `instance` rules on net.* sites
  // A crash rule on a consumer's link (basic.deliver, basic.ack) kills that consumer.
  k.network.set_on_kill([this](const sim::NodeId& node, const std::string& why) {
    for (auto& c : consumers_) {
      if (c->name() == node) c->crash(why);
    }
  });
  transport::name_lab_ids(k);  // before the rules name sites
  k.faults.set_rules(s.script);
  sim::RandomFaultOptions random;
  random.ratios = s.random.ratios;
  random.budget = s.random.budget;
  random.horizon = static_cast<sim::Tick>(s.random.horizon);
  k.faults.set_random(std::move(random));
  // "SITE -> ACTION[ FRAME #NTH][ attempt N]", in parts: no string is built unless the
  // trace keeps its events.
  k.faults.set_on_fire([this](const sim::FiredFault& f) {
    using Part = sim::DetailPart;
    const bool framed = !f.frame.empty();
    const std::int64_t attempt = f.key[orders::kAttempt];
    std::string consumer;
    kernel_->trace.record(actor_of(f, consumer), sim::EventKind::kFault, "", f.key[orders::kOrder],
                          {f.site, " -> ", sim::fault_action_name(f.action), framed ? " " : "",
                           f.frame, framed ? " #" : "", framed ? Part(f.nth) : Part(""),
                           attempt > 0 ? " attempt " : "", attempt > 0 ? Part(attempt) : Part("")});
  });
}

eosim::Status WorldImpl::add_actors(const consumer::Strategy& strategy) {
  const Scenario& s = scenario_;
  broker_ = std::make_unique<BrokerNode>(*kernel_, broker_options(s));
  producer::ProducerOptions p;
  if (eosim::Status made = producer_options(s, uris_, p); !made.ok()) return made;
  producer_ = std::make_unique<producer::OrderService>(node_env("producer"), node_env("relay"),
                                                       std::move(p));
  for (std::int64_t i = 1; i <= s.consumer.instances; ++i) {
    const int instance = static_cast<int>(i);
    consumers_.push_back(std::make_unique<consumer::Consumer>(
        node_env("consumer" + std::to_string(i)), consumer_options(s, strategy, instance, uris_)));
  }
  return eosim::Status::success();
}

transport::Env WorldImpl::node_env(const std::string& node) {
  transports_.push_back(std::make_unique<transport::SimTransport>(kernel_->network, node));
  return transport::sim_env(*kernel_, *transports_.back());
}

// A rule with a `tick` fires at that time: a broker restart, a connection that breaks
// (the first end named in the site notices at once, the other after the heartbeat), or
// one that freezes (each end notices by its own heartbeats, or never).
void WorldImpl::fire_timed(const sim::FaultRule& rule, std::size_t index) {
  const std::int64_t instance = rule.key[orders::kInstance].value_or(0);
  const FaultSite* site = find_fault_site(rule.site);
  EOSIM_ASSERT(site != nullptr && site->timed);  // the scenario loader checked the rule
  kernel_->faults.record_rule(
      index, {orders::site_id(site->id), rule.action, orders::order_key(0, 0, instance)});
  const std::string when = " at tick " + std::to_string(*rule.tick);
  if (site->id == Site::kBrokerRestart) {
    broker_->restart("scripted restart" + when);
    return;
  }
  if (site->id == Site::kConsumerProcess) {
    for (auto& c : consumers_) {
      const bool chosen = instance == 0 || c->name() == "consumer" + std::to_string(instance);
      if (chosen) c->crash("crashed" + when);
    }
    return;
  }
  EOSIM_ASSERT(site->is_network());
  const std::string_view from_role = orders::site_row(site->id).actor;
  const std::string_view to_role = orders::site_row(site->id).peer;
  for (const sim::ConnId conn : kernel_->network.connections_of("broker")) {
    if (!kernel_->network.is_open(conn)) continue;
    const sim::NodeId other = kernel_->network.peer(conn, "broker");
    const std::string role = sim::node_role(other);
    if (role != (from_role == "broker" ? to_role : from_role)) continue;
    if (instance != 0 && sim::node_instance(other) != instance) continue;
    if (rule.action == Action::kFreeze) {
      kernel_->network.freeze(conn, "frozen" + when);
    } else {
      kernel_->network.break_connection(conn, from_role == "broker" ? "broker" : other,
                                        "connection broken" + when);
    }
  }
}

void WorldImpl::start() {
  for (auto& c : consumers_) c->start();
  producer_->start();
  if (auto* relay = producer_->relay()) relay->start();
  const std::vector<sim::FaultRule>& rules = kernel_->faults.rules();
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (!rules[i].tick) continue;
    kernel_->scheduler.at(
        static_cast<sim::Tick>(*rules[i].tick), "fault.timed",
        [this, rule = rules[i], i] { fire_timed(rule, i); }, 0, sim::event_tag(i));
  }
}

eosim::Result<std::unique_ptr<World>> World::create(const Scenario& scenario,
                                                    const WorldOptions& options) {
  return create(Scenario(scenario), options);
}

eosim::Result<std::unique_ptr<World>> World::create(Scenario&& scenario,
                                                    const WorldOptions& options) {
  auto world =
      std::unique_ptr<World>(new World(std::make_unique<WorldImpl>(std::move(scenario), options)));
  if (eosim::Status begun = world->begin(); !begun.ok()) return begun;
  return world;
}

eosim::Status World::begin() {
  store::FailureWatch::Active watching(impl_->failure_);
  if (eosim::Status built = impl_->build(); !built.ok()) return built;
  impl_->start();
  fire_step_rules();
  return failure();
}

bool World::reusable_for(const WorldOptions& next) const {
  return impl_->warm_.scope() != nullptr && !failed() && next.keep_db_dir.empty() &&
         next.storage == DbStorage::kMemory;
}

eosim::Status World::reset(const Scenario& base, std::uint64_t seed, const WorldOptions& options) {
  EOSIM_ASSERT(reusable_for(options));
  impl_->clear_for(base, seed, options);
  return begin();
}

void WorldImpl::begin_run() {
  if (options_.tape) {
    kernel_.emplace(scenario_.seed, *options_.tape, options_.tape_end);
  } else {
    kernel_.emplace(scenario_.seed);
  }
  kernel_->chooser.set_recording(options_.record_tape);
  kernel_->chooser.set_draws(scenario_.draws);
  step_bound_ = static_cast<std::uint64_t>(step_bound(scenario_));
  change_steps_.assign(options_.changes.size(), 0);
  state_hashes_.clear();
  change_states_.clear();
  decisions_before_.clear();
  changes_applied_ = 0;
}

void WorldImpl::clear_for(const Scenario& base, std::uint64_t seed, const WorldOptions& options) {
  consumers_.clear();
  producer_.reset();
  broker_.reset();
  transports_.clear();
  // Designs differ in these two (the checker reads dedup_anchor_ only when it is open);
  // build() opens them again when the scenario has them.
  dedup_anchor_.close();
  effects_anchor_.close();
  kernel_.reset();
  scenario_ = base;  // copy-assigned: the strings, maps and vectors reuse their storage
  scenario_.seed = seed;
  options_ = options;
  begin_run();
}

World::World(std::unique_ptr<WorldImpl> impl) : impl_(std::move(impl)) {}
World::~World() = default;

bool World::over() const {
  const auto& k = *impl_->kernel_;
  return impl_->failure_.failed() || k.scheduler.idle() ||
         k.scheduler.steps() >= impl_->step_bound_;
}

bool World::step() {
  if (over()) return false;
  store::FailureWatch::Active watching(impl_->failure_);
  return step_watched();
}

bool World::step_watched() {
  WorldImpl& w = *impl_;
  w.kernel_->chooser.begin_step();
  // Tested here, not in the callees: most runs hash nothing and have no step rules.
  if (w.options_.hash_states || w.changes_applied_ < w.options_.changes.size()) before_step();
  const bool ran = w.kernel_->scheduler.step();
  if (w.kernel_->faults.has_step_rules()) fire_step_rules();
  return ran;
}

const std::vector<std::uint64_t>& World::state_hashes() const { return impl_->state_hashes_; }
const std::vector<std::uint64_t>& World::change_states() const { return impl_->change_states_; }
const std::vector<std::uint64_t>& World::decisions_before() const {
  return impl_->decisions_before_;
}
bool World::change_applied(std::size_t i) const { return impl_->change_steps_.at(i) != 0; }
std::uint64_t World::change_step(std::size_t i) const { return impl_->change_steps_.at(i); }

void World::run() {
  store::FailureWatch::Active watching(impl_->failure_);
  while (!over() && step_watched()) {
  }
}

bool World::failed() const { return impl_->failure_.failed(); }

eosim::Status World::failure() const {
  if (!failed()) return eosim::Status::success();
  return eosim::Status::machine_error("the machine failed the run (no verdict): " +
                                      impl_->failure_.first().message);
}

RunSummary World::summary() {
  WorldImpl& w = *impl_;
  store::FailureWatch::Active watching(w.failure_);
  RunSummary r;
  r.scenario = w.scenario_.name;
  r.seed = w.scenario_.seed;
  r.strategy = w.scenario_.consumer.label();
  r.producer = w.scenario_.producer.label();
  store::Db* effects = w.effects_anchor_.is_open() ? &w.effects_anchor_ : nullptr;
  store::Db* dedup_store = w.dedup_anchor_.is_open() ? &w.dedup_anchor_ : nullptr;
  const store::Status st = check(w.orders_anchor_, w.ledger_anchor_, w.broker_->leftovers(),
                                 w.scenario_.workload.account, w.scenario_.workload.initial_balance,
                                 r.report, effects, dedup_store);
  // Between steps no transaction is open: reading cannot be busy (and the mail server's
  // log is written in autocommit only). Only the machine can fail it (failure()).
  static_cast<void>(store::machine_failed(st));
  r.faults = w.kernel_->faults.fired();
  const std::vector<sim::FaultRule>& rules = w.kernel_->faults.rules();
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (w.kernel_->faults.times_fired(i) == 0) {
      r.unfired.push_back({static_cast<std::int64_t>(i + 1), rules[i]});
    }
  }
  r.redeliveries = static_cast<std::int64_t>(w.broker_->model().counters().redelivered);
  r.republished = 0;
  if (auto* relay = w.producer_->relay()) r.republished = relay->republished();
  r.steps = w.kernel_->scheduler.steps();
  r.time = w.kernel_->scheduler.now();
  r.step_bound_hit = !w.kernel_->scheduler.idle();
  r.step_bound = w.step_bound_;
  r.orders_never_produced = w.scenario_.workload.orders - w.producer_->orders_created();
  // Orders the producer never reached say nothing about the design: the run is
  // incomplete, not stuck or lost (a poison loop over orders that exist stays stuck).
  if (r.step_bound_hit && r.orders_never_produced > 0) r.report.verdict = Verdict::kIncomplete;
  r.trace_hash = w.kernel_->trace.hash();
  r.trace_events = w.kernel_->trace.size();
  r.tape = w.kernel_->chooser.tape();
  return r;
}

const Scenario& World::scenario() const { return impl_->scenario_; }
const sim::Kernel& World::kernel() const { return *impl_->kernel_; }
const broker::Broker& World::broker() const { return impl_->broker_->model(); }

}  // namespace lab
