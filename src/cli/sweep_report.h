#pragma once
// How a sweep's result is shown, shared by `eosim sweep` and `eosim merge`: a merged set
// of shard results prints exactly what one sweep over the whole range prints (timing
// aside), because both go through these writers. The JSON form is also what `merge`
// reads back, so everything the text needs is in it.

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>

#include "src/search/sweep.h"
#include "src/status/status.h"

namespace cli {

// Which slice of a seed range a sweep ran (`sweep --shard I/N`).
struct SweepShard {
  std::uint64_t index = 0;  // 0-based, < count
  std::uint64_t count = 1;
  std::uint64_t first_seed = 0;  // the whole range the N shards cover
  std::uint64_t last_seed = 0;
  // What ran: the scenario file's content hash (FNV-1a 64 of its bytes, hex) and eosim's
  // version. Shards of an edited file, or of another eosim, must not merge.
  std::string scenario_hash;
  std::string eosim_version;
  friend bool operator==(const SweepShard&, const SweepShard&) = default;
};

struct SweepReport {
  lab::SweepSummary summary;
  std::string file;      // as given on the command line
  std::string strategy;  // what the runs used (after --strategy)
  std::string producer;
  std::int64_t max_steps = 0;
  std::string expect;  // "" = none
  std::map<std::uint64_t, std::string> shrink_lines;  // failing seed -> `eosim shrink ...`
  std::optional<SweepShard> shard;
};

// Whether the report's --expect holds (true without one), with the line that says so
// ("" without one).
bool sweep_expectation(const SweepReport& report, std::string& line);

void write_sweep_text(const SweepReport& report, std::ostream& out);
void write_sweep_json(const SweepReport& report, std::ostream& out);

// Reads what write_sweep_json wrote. An error when `text` is not such a result.
eosim::Status read_sweep_json(const std::string& text, SweepReport& report);

}  // namespace cli
