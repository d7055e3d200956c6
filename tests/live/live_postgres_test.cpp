// `eosim live --store postgres`: scenario 02 with its stores on a private PostgreSQL. The
// atomic consumer is exactly-once after a real redelivery, stopped by the server's
// unique_violation (SQLSTATE 23505) read as a duplicate; the debit is in the kept
// cluster's tables (started again here as the command says, and read with libpq); and
// `--strategy no-dedup` debits order 2 twice there. No SQLite store is made, and nothing
// the runs started (RabbitMQ, epmd, postgres, actors) is left running. Outcomes only: the
// test never looks at how long anything took.
#include <libpq-fe.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "src/live/process.h"
#include "tests/live/live_cli.h"

namespace {

using live_test::kSource;
using live_test::last_json_line;
using live_test::processes_with_env;
using live_test::TempDir;

namespace fs = std::filesystem;

const std::string kScenario = kSource + "/scenarios/02-crash-between-commit-and-ack.toml";
const std::string kBin = "/usr/lib/postgresql/15/bin";

// order -> debits, as the checker reported them from the run's tables.
std::map<int, int> reported_debits(const nlohmann::json& summary) {
  std::map<int, int> out;
  for (const auto& o : summary["orders"]) out[o["order"].get<int>()] = o["debits"].get<int>();
  return out;
}

// The kept cluster's port, from its pgpass line (127.0.0.1:PORT:*:eosim:password).
std::string kept_port(const std::string& cluster) {
  std::ifstream in(cluster + "/pgpass");
  std::string line;
  std::getline(in, line);
  const auto first = line.find(':');
  return line.substr(first + 1, line.find(':', first + 1) - first - 1);
}

int pg_ctl(const std::vector<std::string>& args, const std::string& log) {
  live::ChildSpec spec;
  spec.argv = {kBin + "/pg_ctl"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.user = "postgres";
  spec.output_path = log;
  int code = -1;
  REQUIRE(live::run_to_end(spec, 60000, code).ok());
  return code;
}

// The kept cluster started again as the command says, one query, stopped again: the rows
// of debits per order in `schema`.
std::map<int, int> debits_in_kept_cluster(const std::string& cluster, const std::string& schema) {
  const std::string port = kept_port(cluster);
  REQUIRE(!port.empty());
  REQUIRE(
      pg_ctl({"-D", cluster + "/data", "-l", cluster + "/server.log", "-w", "-o",
              "-c listen_addresses=127.0.0.1 -p " + port + " -k " + cluster + "/socket", "start"},
             cluster + "/pg_ctl.out") == 0);
  const std::string url = "postgresql://eosim@127.0.0.1:" + port + "/eosim?passfile=" + cluster +
                          "/pgpass&sslmode=disable";
  PGconn* conn = PQconnectdb(url.c_str());
  std::map<int, int> out;
  if (PQstatus(conn) == CONNECTION_OK) {
    const std::string sql =
        "SELECT order_id, COUNT(*) FROM " + schema + ".debits GROUP BY order_id";
    PGresult* r = PQexec(conn, sql.c_str());
    for (int i = 0; PQresultStatus(r) == PGRES_TUPLES_OK && i < PQntuples(r); ++i) {
      out[std::stoi(PQgetvalue(r, i, 0))] = std::stoi(PQgetvalue(r, i, 1));
    }
    PQclear(r);
  }
  INFO(PQerrorMessage(conn));
  PQfinish(conn);
  CHECK(pg_ctl({"-D", cluster + "/data", "-w", "stop"}, cluster + "/pg_ctl.out") == 0);
  return out;
}

}  // namespace

TEST_CASE("live --store postgres: scenario 02 exactly-once, no-dedup debits twice",
          "[live-postgres-run]") {
  TempDir dir;
  // The private server runs as user postgres, which must pass through to its kept folder.
  ::chmod(dir.path.c_str(), 0711);
  const std::string tmp = dir.path + "/tmp";
  fs::create_directories(tmp);
  const std::vector<std::string> env = {"TMPDIR=" + tmp};

  const std::string atomic = dir.path + "/atomic";
  const auto a = live_test::eosim(
      {"live", "--store", "postgres", kScenario, "--format", "json", "--keep-db", atomic}, dir,
      env);
  INFO(a.out);
  REQUIRE(a.exit_code == 0);
  const nlohmann::json j = last_json_line(a.out);
  CHECK(j["verdict"] == "exactly-once");
  CHECK(j["store"] == "postgres");
  CHECK(j["redeliveries"].get<int>() >= 1);  // order 2 came back after the crash
  CHECK(reported_debits(j) == std::map<int, int>{{1, 1}, {2, 1}, {3, 1}});
  CHECK_FALSE(fs::exists(atomic + "/ledger.db"));  // the ledger was PostgreSQL's, not a file
  // The redelivery met the key: PostgreSQL's 23505, read as a duplicate by "classify".
  std::ifstream trace(atomic + "/trace.jsonl");
  const std::string events((std::istreambuf_iterator<char>(trace)),
                           std::istreambuf_iterator<char>());
  CHECK(events.find("order-2 already processed (unique key): ack without effect") !=
        std::string::npos);
  CHECK(fs::exists(atomic + "/postgres/data/PG_VERSION"));
  CHECK_FALSE(fs::exists(atomic + "/postgres/data/postmaster.pid"));  // left stopped
  CHECK(debits_in_kept_cluster(atomic + "/postgres", j["schema"].get<std::string>()) ==
        std::map<int, int>{{1, 1}, {2, 1}, {3, 1}});

  const auto n = live_test::eosim(
      {"live", "--store", "postgres", kScenario, "--strategy", "no-dedup", "--format", "json"}, dir,
      env);
  INFO(n.out);
  const nlohmann::json k = last_json_line(n.out);
  CHECK(n.exit_code == 1);  // the file expects exactly-once
  CHECK(k["verdict"] == "duplicated");
  CHECK(reported_debits(k).at(2) == 2);

  CHECK(processes_with_env("TMPDIR=" + tmp) == 0);
  std::error_code ec;
  CHECK(fs::is_empty(tmp, ec));  // the private servers' folders are gone too
}
