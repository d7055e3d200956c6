// `eosim merge RESULT.json...`: adds up the JSON results of `eosim sweep --shard I/N`
// (one per shard, in any order) into the report one sweep over the whole seed range
// prints — the same text or JSON, byte for byte, apart from the timing, which becomes the
// shards' machine time added up. It refuses a set of results that is not exactly the N
// shards of one sweep: a missing shard must never pass for a clean sweep.

#include <iostream>
#include <map>

#include "src/cli/commands.h"
#include "src/cli/sweep_report.h"
#include "src/files/input_file.h"

namespace cli {

namespace {

// A result lists at most --show failures (a few hundred bytes each): 64 MiB is far more.
constexpr files::InputLimit kSweepResult{"sweep result", 64 << 20,
                                       "a sweep result is a few kB of JSON"};

eosim::Status read_result(const std::string& path, SweepReport& report) {
  std::string text;
  if (const eosim::Status read = files::read_input_file(path, kSweepResult, text); !read.ok()) {
    return eosim::Status::error(path + ": " + read.message);
  }
  if (const eosim::Status read = read_sweep_json(text, report); !read.ok()) {
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

// Shards of one sweep ran the same scenario file, byte for byte, with the same eosim: an
// edited file between shards would merge into a digest that matches neither version.
eosim::Status same_content(const SweepReport& a, const std::string& first_path,
                           const SweepReport& b, const std::string& path) {
  if (a.shard->scenario_hash == b.shard->scenario_hash &&
      a.shard->eosim_version == b.shard->eosim_version) {
    return eosim::Status::success();
  }
  const auto what = [](const SweepReport& r) {
    return "scenario content " + (r.shard->scenario_hash.empty() ? "unknown" : r.shard->scenario_hash) +
           " with eosim " + (r.shard->eosim_version.empty() ? "unknown" : r.shard->eosim_version);
  };
  return eosim::Status::error(path + " ran " + what(b) + ", but " + first_path + " ran " +
                              what(a) +
                              ": the scenario file or eosim changed between the shards; run "
                              "every shard again with the same ones");
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
  // By shard index: a result may claim any count, so nothing is made that large.
  std::map<std::uint64_t, std::string> seen;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    eosim::Status loaded = read_result(paths[i], shards[i]);
    if (loaded.ok()) loaded = same_sweep(shards.front(), shards[i], paths[i]);
    if (loaded.ok()) loaded = same_content(shards.front(), paths.front(), shards[i], paths[i]);
    if (loaded.ok()) loaded = check_slice(shards[i], paths[i]);
    if (!loaded.ok()) return loaded;
    const std::uint64_t index = shards[i].shard->index;
    if (const auto it = seen.find(index); it != seen.end()) {
      return eosim::Status::error(paths[i] + ": shard " + std::to_string(index) +
                                  " again (also in " + it->second + ")");
    }
    seen[index] = paths[i];
  }
  // Ends at the first gap, which is at most paths.size() + 1 indexes in.
  const std::uint64_t count = shards.front().shard->count;
  for (std::uint64_t index = 0; index < count; ++index) {
    if (seen.count(index) == 0) {
      return eosim::Status::error("shard " + std::to_string(index) + "/" + std::to_string(count) +
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
  for (const auto& shard : shards) {  // on the terminal, as sweep prints them: as invoked
    for (const auto& [seed, line] : shard.shrink_lines) {
      merged.shrink_lines[seed] = options.format == "json" ? line : as_invoked(line);
    }
  }
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
