#ifdef EOSIM_HAVE_LIVE

#include "src/cli/live_store.h"

#include <cstdlib>
#include <filesystem>

#include "src/live/endpoint.h"  // redacted_url
#include "src/live/postgres_store.h"
#include "src/live/redis_store.h"

namespace cli {

namespace {

bool is_postgres_url(const std::string& s) {
  return s.rfind("postgres://", 0) == 0 || s.rfind("postgresql://", 0) == 0;
}

int start_private(const LiveCommandOptions& o, LiveStore& store, std::ostream& err) {
  if (o.progress) err << "live: starting a private PostgreSQL on loopback...\n";
  live::PostgresOptions options;
  if (const char* dir = std::getenv("EOSIM_POSTGRES_BIN"); dir != nullptr && *dir != '\0') {
    options.bin_dir = dir;
  }
  if (!o.keep_db.empty()) {
    options.dir = (std::filesystem::path(o.keep_db) / "postgres").string();
  }
  if (live::Status st = live::PrivatePostgres::start(options, store.own); !st.ok()) {
    err << "eosim: live: --store postgres: " << st.message << '\n';
    return kExitBadInput;
  }
  if (!o.keep_db.empty()) store.own->keep();
  store.url = store.own->url();
  store.label = "a private PostgreSQL";
  return kExitOk;
}

// --dedup-store redis: a private redis-server for the command.
int start_redis(const LiveCommandOptions& o, LiveStore& store, std::ostream& err) {
  if (o.progress) err << "live: starting a private Redis on loopback...\n";
  live::RedisOptions options;
  if (const char* path = std::getenv("EOSIM_REDIS_SERVER"); path != nullptr && *path != '\0') {
    options.server = path;
  }
  if (live::Status st = live::PrivateRedis::start(options, store.redis); !st.ok()) {
    err << "eosim: live: --dedup-store redis: " << st.message << '\n';
    return kExitBadInput;
  }
  store.dedup_url = store.redis->url();
  return kExitOk;
}

int open_main_store(const LiveCommandOptions& o, LiveStore& store, std::ostream& err) {
  if (o.store == "sqlite") {
    store.label = "SQLite";
    return kExitOk;
  }
  if (o.store == "postgres") return start_private(o, store, err);
  if (const std::string why = store_option_error(o); !why.empty()) {
    err << "eosim: live: " << why << '\n';
    return kExitBadInput;
  }
  if (const std::string why = live::probe_postgres(o.store); !why.empty()) {
    err << "eosim: live: --store " << live::redacted_url(o.store) << ": " << why << '\n';
    return kExitBadInput;
  }
  store.url = o.store;
  store.drop_schema = o.keep_db.empty();
  store.label = "your PostgreSQL";
  return kExitOk;
}

}  // namespace

std::string store_option_error(const LiveCommandOptions& o) {
  if (!o.dedup_store.empty() && o.dedup_store != "redis") {
    return "--dedup-store " + live::redacted_url(o.dedup_store) +
           ": expected redis (a private redis-server on loopback)";
  }
  if (o.store == "sqlite" || o.store == "postgres" || is_postgres_url(o.store)) return "";
  return "--store " + live::redacted_url(o.store) +
         ": expected sqlite, postgres or postgres://user:pass@host:port/db";
}

int open_store(const LiveCommandOptions& o, LiveStore& store, std::ostream& err) {
  live::install_server_stores();
  if (const int code = open_main_store(o, store, err); code != kExitOk) return code;
  if (o.dedup_store != "redis") return kExitOk;
  const int code = start_redis(o, store, err);
  if (code != kExitOk && store.own) store.own->stop();  // nothing left running
  return code;
}

void close_store(LiveStore& store, std::ostream& out) {
  if (store.redis) store.redis->stop();
  if (!store.own) return;
  store.own->stop();
  if (!store.own->kept()) return;
  out << "live: the PostgreSQL cluster is kept, stopped, in " << store.own->dir()
      << "; start it and look (each run's tables are in its schema, `\\dn` lists them):\n"
      << store.own->how_to_start() << '\n';
}

}  // namespace cli

#endif
