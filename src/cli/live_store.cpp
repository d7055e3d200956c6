#ifdef EOSIM_HAVE_LIVE

#include "src/cli/live_store.h"

#include <cstdlib>
#include <filesystem>

#include "src/live/endpoint.h"  // redacted_url
#include "src/live/postgres_store.h"

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

}  // namespace

std::string store_option_error(const std::string& store) {
  if (store == "sqlite" || store == "postgres" || is_postgres_url(store)) return "";
  return "--store " + live::redacted_url(store) +
         ": expected sqlite, postgres or postgres://user:pass@host:port/db";
}

int open_store(const LiveCommandOptions& o, LiveStore& store, std::ostream& err) {
  live::install_postgres_store();
  if (o.store == "sqlite") {
    store.label = "SQLite";
    return kExitOk;
  }
  if (o.store == "postgres") return start_private(o, store, err);
  if (const std::string why = store_option_error(o.store); !why.empty()) {
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

void close_store(LiveStore& store, std::ostream& out) {
  if (!store.own) return;
  store.own->stop();
  if (!store.own->kept()) return;
  out << "live: the PostgreSQL cluster is kept, stopped, in " << store.own->dir()
      << "; start it and look (each run's tables are in its schema, `\\dn` lists them):\n"
      << store.own->how_to_start() << '\n';
}

}  // namespace cli

#endif
