// `eosim merge RESULT.json...`: adds up the JSON results of `eosim sweep --shard I/N`
// (one per shard, in any order) into the report one sweep over the whole seed range
// prints — the same text or JSON, byte for byte, apart from the timing, which becomes the
// shards' machine time added up. It refuses a set of results that is not exactly the N
// shards of one sweep: a missing shard must never pass for a clean sweep.

#include <fstream>
#include <iostream>
#include <sstream>

#include "src/cli/commands.h"
#include "src/cli/sweep_report.h"

namespace cli {

namespace {

eosim::Status read_result(const std::string& path, SweepReport& report) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return eosim::Status::error(path + ": cannot be read");
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (const eosim::Status read = read_sweep_json(text.str(), report); !read.ok()) {
    return eosim::Status::error(path + ": " + read.message);
  }
  if (!report.shard) {
    return eosim::Status::error(
        path + ": not a shard (run each part with eosim sweep --shard I/N --format json)");
  }
  return eosim::Status::success();
}

// The shards must be of one sweep (same file, options and whole range) and each must hold
// exactly its own slice.
eosim::Status same_sweep(const SweepReport& a, const SweepReport& b, const std::string& path) {
  const bool same = a.file == b.file && a.strategy == b.strategy && a.producer == b.producer &&
                    a.max_steps == b.max_steps && a.expect == b.expect &&
                    a.shard->count == b.shard->count &&
                    a.shard->first_seed == b.shard->first_seed &&
                    a.shard->last_seed == b.shard->last_seed;
  if (!same) {
    return eosim::Status::error(
        path + ": a shard of another sweep (file, options, --seeds, N or --expect differ)");
  }
  return eosim::Status::success();
}

eosim::Status check_slice(const SweepReport& r, const std::string& path) {
  std::uint64_t first = 0, last = 0;
  const bool ok = lab::shard_range(r.shard->first_seed, r.shard->last_seed, r.shard->index,
                                   r.shard->count, first, last) &&
                  first == r.summary.first_seed && last == r.summary.last_seed;
  if (!ok) {
    return eosim::Status::error(path + ": its seeds are not shard " +
                                std::to_string(r.shard->index) + "'s");
  }
  return eosim::Status::success();
}

eosim::Status load_shards(const std::vector<std::string>& paths, std::vector<SweepReport>& shards) {
  shards.resize(paths.size());
  std::vector<std::string> seen;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    eosim::Status loaded = read_result(paths[i], shards[i]);
    if (loaded.ok()) loaded = same_sweep(shards.front(), shards[i], paths[i]);
    if (loaded.ok()) loaded = check_slice(shards[i], paths[i]);
    if (!loaded.ok()) return loaded;
    const std::uint64_t count = shards[i].shard->count;
    if (seen.empty()) seen.resize(static_cast<std::size_t>(count));
    std::string& first_path = seen[static_cast<std::size_t>(shards[i].shard->index)];
    if (!first_path.empty()) {
      return eosim::Status::error(paths[i] + ": shard " + std::to_string(shards[i].shard->index) +
                                  " again (also in " + first_path + ")");
    }
    first_path = paths[i];
  }
  for (std::size_t index = 0; index < seen.size(); ++index) {
    if (seen[index].empty()) {
      return eosim::Status::error("shard " + std::to_string(index) + "/" +
                                  std::to_string(seen.size()) +
                                  " is missing: a merge needs every shard");
    }
  }
  return eosim::Status::success();
}

}  // namespace

int merge_command(const MergeCommandOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.expect.empty() && !lab::valid_sweep_expectation(options.expect)) {
    err << "eosim: --expect must be a verdict (exactly-once, duplicated, lost, phantom, "
           "stuck) or `violation`, got '"
        << options.expect << "'\n";
    return kExitBadInput;
  }
  std::vector<SweepReport> shards;
  if (const eosim::Status loaded = load_shards(options.inputs, shards); !loaded.ok()) {
    err << "eosim: " << loaded.message << '\n';
    return kExitBadInput;
  }
  std::vector<lab::SweepSummary> parts;
  for (const auto& shard : shards) parts.push_back(shard.summary);
  SweepReport merged = shards.front();
  merged.shard.reset();
  for (const auto& shard : shards) merged.shrink_lines.insert(shard.shrink_lines.begin(), shard.shrink_lines.end());
  if (const eosim::Status merged_ok =
          lab::merge_sweeps(std::move(parts), options.show_failures, merged.summary);
      !merged_ok.ok()) {
    err << "eosim: " << merged_ok.message << " (did every shard run with at least --show "
        << options.show_failures << "?)\n";
    return kExitBadInput;
  }
  if (!options.expect.empty()) merged.expect = options.expect;
  std::string expect_line;
  const bool met = sweep_expectation(merged, expect_line);
  if (options.format == "json") {
    write_sweep_json(merged, out);
  } else {
    write_sweep_text(merged, out);
  }
  out.flush();
  return met && merged.summary.unfired_runs == 0 ? kExitOk : kExitExpectFailed;
}

}  // namespace cli
