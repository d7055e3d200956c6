// `eosim sweep --shard I/N` and `eosim merge` as a batch system uses them: N processes each
// write one JSON result, merge prints what one sweep over the whole range prints.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/support/cli_runner.h"
#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using cli_runner::contains;
using cli_runner::Output;

const std::string kSweep = "sweep " + cli_runner::scenario_arg("01-happy-path.toml") +
                           " --seeds 1..45 --strategy no-dedup --show 4";

// Everything but the timing: the JSON's last four keys, the text's last line.
std::string without_timing(const std::string& text) {
  const auto at = text.find("\"jobs\":");
  if (at != std::string::npos) return text.substr(0, at);
  const auto line = text.rfind("time: ");
  REQUIRE(line != std::string::npos);
  return text.substr(0, line);
}

// Runs shard I/N into DIR/shard-I.json; returns the path.
std::string run_shard(const fs::path& dir, int index, int count) {
  const fs::path path = dir / ("shard-" + std::to_string(index) + ".json");
  const Output out = cli_runner::run(kSweep + " --jobs 1 --format json --shard " +
                                         std::to_string(index) + "/" + std::to_string(count) +
                                         " > " + cli_runner::quoted(path.string()),
                                     "");
  REQUIRE(out.exit_code == 0);
  return cli_runner::quoted(path.string());
}

}  // namespace

TEST_CASE("cli merge: the shards of a sweep merge into the single sweep's report",
          "[cli][sweep][merge]") {
  const test_support::TempDir tmp("cli-merge");
  const fs::path& dir = tmp.path;
  std::string shards;
  for (int i = 3; i >= 0; --i) shards += " " + run_shard(dir, i, 4);  // any order

  for (const std::string format : {"json", "text"}) {
    const Output whole = cli_runner::run(kSweep + " --expect exactly-once --format " + format, "");
    const Output merged =
        cli_runner::run("merge" + shards + " --show 4 --expect exactly-once --format " + format, "");
    CHECK(whole.exit_code == 1);  // no-dedup double-debits
    CHECK(merged.exit_code == whole.exit_code);
    CHECK(contains(merged.text, "duplicated"));
    CHECK(without_timing(merged.text) == without_timing(whole.text));
  }
  // A shard's own report says which slice it is.
  const Output one = cli_runner::run(kSweep + " --shard 1/4", "");
  CHECK(contains(one.text, "seeds 13..23"));
  CHECK(contains(one.text, "shard 1/4 of seeds 1..45"));
}

TEST_CASE("cli merge: a missing, repeated or foreign shard is bad input", "[cli][merge]") {
  const test_support::TempDir tmp("cli-merge-bad");
  const fs::path& dir = tmp.path;
  const std::string s0 = run_shard(dir, 0, 3);
  const std::string s1 = run_shard(dir, 1, 3);
  const Output missing = cli_runner::run("merge " + s0 + " " + s1, "2>&1");
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.text, "shard 2/3 is missing"));
  const Output twice = cli_runner::run("merge " + s0 + " " + s1 + " " + s1, "2>&1");
  CHECK(twice.exit_code == 2);
  CHECK(contains(twice.text, "again"));
  const fs::path other = dir / "other.json";
  REQUIRE(cli_runner::run("sweep " + cli_runner::scenario_arg("01-happy-path.toml") +
                              " --seeds 1..45 --shard 2/3 --format json > " +
                              cli_runner::quoted(other.string()),
                          "")
              .exit_code == 0);
  const Output foreign =
      cli_runner::run("merge " + s0 + " " + s1 + " " + cli_runner::quoted(other.string()), "2>&1");
  CHECK(foreign.exit_code == 2);
  CHECK(contains(foreign.text, "another sweep"));
  std::ofstream(dir / "junk.json") << "{\"runs\": 3}";
  const Output junk =
      cli_runner::run("merge " + cli_runner::quoted((dir / "junk.json").string()), "2>&1");
  CHECK(junk.exit_code == 2);
  CHECK(contains(junk.text, "junk.json"));
  CHECK(cli_runner::run(kSweep + " --shard 3/3", "2>&1").exit_code == 2);
  CHECK(cli_runner::run(kSweep + " --shard x", "2>&1").exit_code == 2);
  fs::remove_all(dir);
}

TEST_CASE("cli merge: its inputs are bounded and every field is checked", "[cli][merge]") {
  const test_support::TempDir tmp("cli-merge-bounds");
  const fs::path& dir = tmp.path;
  const std::string whole = run_shard(dir, 0, 1);  // seeds 1..45 as the one shard of 1
  std::ifstream in(dir / "shard-0.json");
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(contains(json, "\"runs\":45,"));
  REQUIRE(cli_runner::run("merge " + whole + " --show 4", "2>&1").exit_code == 0);
  // Each edit of the result must be refused with exit 2 naming the file and the key.
  const std::pair<std::string, std::string> edits[] = {
      {"\"runs\":45,", "\"runs\":-5,"},            // printed "45 runs" beside 100 verdicts
      {"\"runs\":45,", "\"runs\":44,"},            // not the seeds' count
      {"\"runs\":45,", "\"runs\":45.0,"},
      {"\"runs\":45,", "\"runs\":1e30,"},          // a float above 2^64: UB to convert
      {"\"runs\":45,", "\"runs\":\"45\","},
      {"\"steps\":", "\"steps\":1e300,\"x\":"},   // UB too (steps is read as uint64)
      {"\"jobs\":", "\"jobs\":-1,\"x\":"},
      {"\"count\":1,", "\"count\":1000000000000,"},  // a vector that large was made
  };
  int n = 0;
  for (const auto& [from, to] : edits) {
    std::string edited = json;
    const auto at = edited.find(from);
    REQUIRE(at != std::string::npos);
    edited.replace(at, from.size(), to);
    const fs::path path = dir / ("edited-" + std::to_string(++n) + ".json");
    std::ofstream(path) << edited;
    const Output out =
        cli_runner::run("merge " + cli_runner::quoted(path.string()) + " --show 4", "2>&1");
    INFO(to << " -> " << out.text);
    CHECK(out.exit_code == 2);
    CHECK(contains(out.text, path.string()));
  }
  // Not a regular file: refused at once (a FIFO hung the reader, /dev/zero was read until
  // memory ran out), and a file over the cap is never read.
  const fs::path fifo = dir / "fifo.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const std::string& path : {fifo.string(), std::string("/dev/zero")}) {
    const Output out = cli_runner::run("merge " + cli_runner::quoted(path), "2>&1");
    INFO(out.text);
    CHECK(out.exit_code == 2);
    CHECK(contains(out.text, "not a regular file"));
  }
  const fs::path big = dir / "big.json";
  std::ofstream(big).close();
  fs::resize_file(big, std::uintmax_t{65} << 20);
  const Output out = cli_runner::run("merge " + cli_runner::quoted(big.string()), "2>&1");
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "larger than 64 MiB"));
}

TEST_CASE("cli merge: every input of the merge fuzzer's corpus is read or refused cleanly",
          "[cli][merge][fuzz]") {
  const fs::path dir = fs::path(EOSIM_SOURCE_DIR) / "tests/data/fuzz/merge";
  int inputs = 0, merged = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const Output out =
        cli_runner::run("merge " + cli_runner::quoted(entry.path().string()) + " --show 2", "2>&1");
    INFO(entry.path().filename().string() << ": " << out.text);
    // 0 or 1: merged (expectation met or not); 2: refused with a message. Never a crash.
    CHECK((out.exit_code == 0 || out.exit_code == 1 || out.exit_code == 2));
    if (out.exit_code == 2) CHECK(out.text.rfind("eosim: ", 0) == 0);
    merged += out.exit_code != 2 ? 1 : 0;
    ++inputs;
  }
  CHECK(inputs >= 8);
  CHECK(merged >= 1);
  CHECK(merged < inputs);
}
