#pragma once
// What the live end-to-end tests share: running the eosim binary to the end, reading its
// JSON report and the kept databases, and finding actor processes left behind.

#include <catch2/catch.hpp>
#include <sqlite3.h>
#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/live/process.h"

namespace live_test {

inline const std::string kSource = EOSIM_SOURCE_DIR;

// A temporary folder, removed when the test ends (passed or not).
struct TempDir {
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string path;
  TempDir() {
    namespace fs = std::filesystem;
    std::string pattern = (fs::temp_directory_path() / "eosim-live-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

struct Outcome {
  int exit_code = -1;
  std::string out;
};

// Runs `eosim ARGS...` to the end (bounded), its stdout and stderr in one file; `env`
// ("KEY=VALUE") is added to its environment.
inline Outcome eosim(const std::vector<std::string>& args, const TempDir& dir,
                     const std::vector<std::string>& env = {}, int timeout_ms = 240000) {
  live::ChildSpec spec;
  spec.argv = {EOSIM_BINARY};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.env = env;
  spec.output_path = dir.path + "/eosim.out";
  std::error_code ec;
  std::filesystem::remove(spec.output_path, ec);  // the output file is appended to
  Outcome o;
  const live::Status st = live::run_to_end(spec, timeout_ms, o.exit_code);
  INFO(st.message);
  REQUIRE(st.ok());
  std::ifstream in(spec.output_path);
  std::stringstream text;
  text << in.rdbuf();
  o.out = text.str();
  return o;
}

inline nlohmann::json last_json_line(const std::string& text) {
  std::istringstream lines(text);
  std::string line, last;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.front() == '{') last = line;
  }
  INFO(text);
  REQUIRE(!last.empty());
  return nlohmann::json::parse(last);
}

// Every line of `text` that is a JSON object, in order.
inline std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.front() == '{') out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

// The JSON report of every run of a command over several files, by scenario name.
inline std::map<std::string, nlohmann::json> reports_by_scenario(const std::string& out) {
  std::map<std::string, nlohmann::json> by_name;
  for (const nlohmann::json& j : json_lines(out)) by_name[j["scenario"].get<std::string>()] = j;
  return by_name;
}

// order -> debits, as a run's report gives them (its "orders").
inline std::map<int, int> reported_debits_of(const nlohmann::json& summary) {
  std::map<int, int> out;
  for (const auto& o : summary["orders"]) out[o["order"].get<int>()] = o["debits"].get<int>();
  return out;
}

// One number a query about `order` gives in the database at `path`.
inline std::int64_t number_of(const std::string& path, const char* sql, std::int64_t order) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK);
  sqlite3_bind_int64(st, 1, order);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  const std::int64_t n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

inline std::int64_t debits_of(const std::string& ledger, std::int64_t order) {
  return number_of(ledger, "SELECT COUNT(*) FROM debits WHERE order_id = ?1", order);
}

// Calls `fn` with the contents of /proc/PID/<file> of every process.
template <typename Fn>
void each_process(const char* file, Fn fn) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / file);
    fn(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
  }
}

// Processes whose command line mentions `text` (an actor of a run keeps its run folder in
// its arguments).
inline int processes_mentioning(const std::string& text) {
  int found = 0;
  each_process("cmdline", [&](const std::string& cmdline) {
    if (cmdline.find("live-actor") != std::string::npos &&
        cmdline.find(text) != std::string::npos) {
      ++found;
    }
  });
  return found;
}

// Processes of any kind (actor, RabbitMQ node, epmd, rabbitmqctl) whose environment holds
// `entry` ("KEY=VALUE"): what an eosim run started with that entry left behind.
inline int processes_with_env(const std::string& entry) {
  int found = 0;
  each_process("environ", [&](const std::string& env) {
    std::istringstream vars(env);
    for (std::string var; std::getline(vars, var, '\0');) {
      if (var == entry) ++found;
    }
  });
  return found;
}

}  // namespace live_test
