#include "src/live/run_folder.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>

#include "src/live/postgres_store.h"
#include "src/live/redis_store.h"
#include "src/live/temp_folders.h"
#include "src/orders/event_kinds.h"
#include "src/store/db.h"
#include "src/store/remote.h"
#include "src/world/schema.h"
#include "src/world/world.h"

#include <nlohmann/json.hpp>

namespace live {

namespace fs = std::filesystem;

Status prepare_run_dir(const lab::Scenario& s, const std::string& keep_db, std::string& dir) {
  std::error_code ec;
  if (keep_db.empty()) {
    std::string pattern = (fs::temp_directory_path(ec) / "eosim-live-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return Status::error("cannot create a run folder");
    dir = pattern;
    // Removed by the next `eosim live` if this process is SIGKILLed (temp_folders.h).
    return claim_folder(dir);
  }
  if (Status st = check_keep_dir(s, keep_db); !st.ok()) return st;
  dir = keep_db;
  fs::create_directories(dir, ec);
  if (ec) return Status::error("cannot create " + dir + ": " + ec.message());
  return Status::success();
}

Status check_keep_dir(const lab::Scenario& s, const std::string& keep_db) {
  std::error_code ec;
  std::vector<std::string> names = lab::database_files(s);
  names.push_back("deliveries.db");
  names.push_back("faults.log");
  names.push_back("trace.jsonl");  // written by `eosim live` after the run
  for (const std::string& name : names) {
    if (fs::exists(fs::path(keep_db) / name, ec)) {
      return Status::error("--keep-db " + keep_db + ": " + name +
                           " is already there (a used folder); eosim does not replace it");
    }
  }
  return Status::success();
}

namespace {

// The first line of `path`, or "".
std::string url_in(const std::string& path) {
  std::ifstream in(path);
  std::string url;
  if (in && std::getline(in, url)) return url;
  return "";
}

}  // namespace

std::string store_uri(const std::string& dir, const std::string& name) {
  if (name == "dedup.db") {
    if (std::string url = url_in(dir + "/dedup.url"); !url.empty()) return url;
  }
  if (std::string url = url_in(dir + "/store.url"); !url.empty()) return url;
  return dir + "/" + name;
}

namespace {

// A URL file of the run folder (store.url, dedup.url), readable by this user only.
Status write_url_file(const std::string& path, const std::string& url) {
  std::ofstream out(path);
  ::chmod(path.c_str(), 0600);
  out << url << "\n";
  if (!out) return Status::error("cannot write " + path);
  return Status::success();
}

}  // namespace

std::string actor_store_url(const std::string& dir, const std::string& node) {
  return url_in(dir + "/store-" + node + ".url");
}

std::string user_ledger_url(const std::string& dir) { return url_in(dir + "/consumer-ledger.url"); }

Status set_user_ledger_url(const std::string& dir, const std::string& url) {
  return write_url_file(dir + "/consumer-ledger.url", url);
}

Status set_actor_store_url(const std::string& dir, const std::string& node,
                           const std::string& url) {
  return write_url_file(dir + "/store-" + node + ".url", url);
}

std::string actor_dedup_url(const std::string& dir, const std::string& node) {
  return url_in(dir + "/dedup-" + node + ".url");
}

Status set_actor_dedup_url(const std::string& dir, const std::string& node,
                           const std::string& url) {
  return write_url_file(dir + "/dedup-" + node + ".url", url);
}

std::string actor_store_uri(const std::string& dir, const std::string& name,
                            const std::string& node) {
  std::string uri = store_uri(dir, name);
  if (!store::is_remote_uri(uri)) return uri;
  const std::string own =
      is_redis_url(uri) ? actor_dedup_url(dir, node) : actor_store_url(dir, node);
  return own.empty() ? uri : own;
}

namespace {

// deliveries: per order, the deliveries consumers read; attempts: every delivery the
// broker sent, numbered per order by the fault proxy (net_faults.h). Always SQLite: the
// supervisor's own bookkeeping, not a store of the design.
store::Status create_deliveries(const std::string& dir) {
  store::Db db;
  store::Status st = store::Db::open(dir + "/deliveries.db", db);
  if (st.ok()) st = db.exec("PRAGMA journal_mode=WAL");
  if (st.ok()) {
    st = db.exec(
        "CREATE TABLE deliveries(order_id INTEGER PRIMARY KEY, n INTEGER NOT NULL, "
        "redelivered INTEGER NOT NULL);"
        "CREATE TABLE attempts(port INTEGER NOT NULL, tag INTEGER NOT NULL, "
        "order_id INTEGER NOT NULL, attempt INTEGER NOT NULL, PRIMARY KEY(port, tag))");
  }
  return st;
}

}  // namespace

Status create_databases(const lab::Scenario& s, const std::string& dir,
                        const std::string& store_url, std::string& schema) {
  if (!store_url.empty()) {
    if (Status st = create_run_schema(store_url, schema); !st.ok()) return st;
    if (Status st = write_url_file(dir + "/store.url", schema_url(store_url, schema)); !st.ok()) {
      return st;
    }
  }
  const bool server = !store_url.empty();
  const consumer::Strategy strategy = s.consumer.design();
  store::Db db;
  auto made = [&](const char* name, auto&& fill) -> store::Status {
    store::Status st = store::Db::open(store_uri(dir, name), db);
    if (st.ok()) st = db.exec("PRAGMA journal_mode=WAL");  // readers never block the actors
    if (st.ok()) st = fill();
    db.close();
    return st;
  };
  // A server's schema is new and empty: the tables are made from the schema's SQL (the
  // simulator's quick copy of a template database is SQLite's own).
  store::Status st = made("orders.db", [&] {
    return server ? lab::create_orders_schema(db) : lab::ready_orders_db(db);
  });
  if (st.ok()) {
    st = made("ledger.db", [&] {
      return server ? lab::create_ledger_schema(db, s.workload.account, s.workload.initial_balance)
                    : lab::ready_ledger_db(db, s.workload.account, s.workload.initial_balance);
    });
  }
  // A dedup store on Redis has no table to make: its keys are made as they are marked.
  if (st.ok() && strategy.choices.dedup == consumer::Dedup::kSeparateStore &&
      !is_redis_url(store_uri(dir, "dedup.db"))) {
    st = made("dedup.db", [&] { return lab::ready_dedup_db(db); });
  }
  if (st.ok() && strategy.side_effect != consumer::SideEffect::kNone) {
    st = made("effects.db", [&] { return db.exec(lab::kEffectsSchema); });
  }
  if (st.ok()) st = create_deliveries(dir);
  if (!st.ok()) return Status::error("cannot create the run's databases: " + st.to_string());
  return Status::success();
}

Status use_dedup_server(const lab::Scenario& s, const std::string& dir, const std::string& base,
                        std::int64_t tick_ms, std::string& url) {
  url.clear();
  const consumer::Strategy strategy = s.consumer.design();
  if (base.empty() || strategy.choices.dedup != consumer::Dedup::kSeparateStore) {
    return Status::success();
  }
  if (strategy.dedup_retention > std::numeric_limits<std::int64_t>::max() / tick_ms) {
    return Status::error("[consumer] dedup_retention is too long for a Redis TTL in milliseconds");
  }
  url = run_dedup_url(base, new_run_prefix(), strategy.dedup_retention * tick_ms);
  return write_url_file(dir + "/dedup.url", url);
}

std::int64_t read_number(const std::string& path, const char* sql) {
  store::Db db;
  if (!store::Db::open(path, db).ok()) return -1;
  return read_number(db, sql);
}

std::int64_t read_number(store::Db& db, const char* sql) {
  if (!db.is_open()) return -1;
  store::Stmt& st = db.statement(sql);
  bool row = false;
  const std::int64_t n = st.step(row).ok() && row ? st.column_int64(0) : -1;
  st.reset();
  return n;
}

namespace {

// The actors' trace files in the run folder (trace-<node>.jsonl), sorted by name.
std::vector<fs::path> trace_files(const std::string& dir) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("trace-", 0) == 0 && entry.path().extension() == ".jsonl") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Appends the events of one trace file; a line a SIGKILL cut short is skipped.
void read_trace_file(const fs::path& file, std::vector<sim::TraceEvent>& all) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;  // a line cut by a SIGKILL
    const auto kind = orders::parse_event_kind(j.value("kind", std::string()));
    if (!kind) continue;  // cut inside its kind by a SIGKILL
    sim::TraceEvent e;
    e.step = j.value("step", std::uint64_t{0});
    e.time = j.value("time", sim::Tick{0});
    e.actor = j.value("actor", std::string());
    e.kind = *kind;
    e.target = j.value("target", std::string());
    e.subject = j.value("order", std::int64_t{0});
    e.detail = j.value("detail", std::string());
    all.push_back(std::move(e));
  }
}

}  // namespace

std::vector<sim::TraceEvent> merged_trace(const std::string& dir,
                                          std::vector<sim::TraceEvent> supervisor) {
  std::vector<sim::TraceEvent> all = std::move(supervisor);
  for (const fs::path& file : trace_files(dir)) read_trace_file(file, all);
  std::stable_sort(all.begin(), all.end(), [](const sim::TraceEvent& a, const sim::TraceEvent& b) {
    return a.time < b.time;
  });
  std::uint64_t step = 0;
  for (sim::TraceEvent& e : all) e.step = ++step;
  return all;
}

Status judge(const lab::Scenario& s, const std::string& dir, const lab::BrokerLeftovers& left,
             lab::Report& report) {
  store::Db orders, ledger, effects, dedup_store;
  store::Status st = store::Db::open(store_uri(dir, "orders.db"), orders);
  if (st.ok()) st = store::Db::open(store_uri(dir, "ledger.db"), ledger);
  const bool has_effects = s.consumer.side_effect != consumer::SideEffect::kNone;
  if (st.ok() && has_effects) st = store::Db::open(store_uri(dir, "effects.db"), effects);
  // The separate store's keys count as dedup rows; a Redis store has no table to read
  // (the report then says its keys were not counted).
  const bool reads_store = s.consumer.choices().dedup == consumer::Dedup::kSeparateStore &&
                           !is_redis_url(store_uri(dir, "dedup.db"));
  if (st.ok() && reads_store) st = store::Db::open(store_uri(dir, "dedup.db"), dedup_store);
  if (st.ok()) {
    st = lab::check(orders, ledger, left, s.workload.account, s.workload.initial_balance, report,
                    has_effects ? &effects : nullptr, reads_store ? &dedup_store : nullptr);
  }
  if (!st.ok()) return Status::error("checker: " + st.to_string());
  return Status::success();
}

}  // namespace live
