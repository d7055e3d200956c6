#pragma once
// `eosim live FILE --seeds A..B --faults kill=1/3,drop=1/4`: live runs of one scenario, each
// with the fault schedule its seed draws (src/live/live_schedule.h) on top of the file's
// own rules, on one broker. Progress on stderr, one line per run; then a summary like
// `eosim sweep`'s: verdicts counted, faults fired, and per failing seed the command that
// replays its schedule (same faults, timing may differ) and its run folder, kept.
//
// With --jobs N, N runs go at once on the one broker (each has its own queues, fault proxy
// and run folder): the progress lines come in the order the runs end.
// Run folders: DIR/seed-N with --keep-db DIR (all kept); else each in a new folder
// eosim-live-sweep-XXXXXX of the temporary directory, where a failing run's stays and a
// passing run's is removed (the folder too when nothing failed).
// Exit codes: 0 every run met the file's expectations, 1 one did not (or timed out),
// 2 bad input, 3 a run failed for eosim's or the broker's trouble (no verdict).
// Only with EOSIM_HAVE_LIVE.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "src/cli/commands.h"
#include "src/cli/live_store.h"
#include "src/live/endpoint.h"
#include "src/live/launcher.h"
#include "src/live/live_run.h"
#include "src/scenario/scenario.h"

namespace cli {

// One scenario of the command, as loaded (the command line applied), and with --seeds the
// schedule a seed drew: its rules in scenario.script, its text for the run folder.
struct Loaded {
  std::string file;
  lab::Scenario scenario;
  std::string schedule;
  std::string schedule_scenario;             // replay.toml (live_schedule.h)
  std::size_t left_out = 0;                  // drawn faults replay.toml cannot hold
  std::vector<std::int64_t> kill_delays_ms;  // per rule of scenario.script (LiveOptions)
  std::string keep_dir;                      // where --keep-db keeps its run ("": not kept)
};

// The ratios --faults gives, or the default one when it is empty.
std::string live_faults_spec(const LiveCommandOptions& o);

// `l` with the schedule seed `seed` draws from --faults (live_faults_spec): the seed set,
// the rules added, the schedule's text and scenario file. REQUIRES: the spec parses.
Loaded with_schedule(const LiveCommandOptions& o, const Loaded& l, std::uint64_t seed);

// The live run's options for `l` (live_command.cpp), its run folder `keep` ("" = temporary).
live::LiveOptions make_live_options(const LiveCommandOptions& o, const Loaded& l,
                                    const std::string& keep, live::PrivateBroker* own,
                                    const LiveStore& store, std::ostream& err);
// The command that runs `file` again as the command line did (live_command.cpp).
std::string replay_of(const LiveCommandOptions& o, const std::string& file);

// Why --jobs N (N > 1) cannot run as asked, or "": it needs a sweep or several scenario
// files (`files`), and a sweep's runs that restart the broker or the database, or set the
// broker's consumer_timeout, would do it to every run at once (runs_alongside).
std::string jobs_refusal(const LiveCommandOptions& o, const lab::Scenario& s, std::size_t files);

// The sweep over o.seeds (several seeds), o.jobs runs at a time, each on its own queues,
// fault proxy and run folder; the exit code. The summary lists the seeds in order, however
// the runs ended.
int live_sweep(const LiveCommandOptions& o, const Loaded& l, const live::Endpoint& endpoint,
               live::PrivateBroker* own, const LiveStore& store, std::ostream& out,
               std::ostream& err);

}  // namespace cli
