#pragma once
// The `eosim` subcommands, one function each, free of any command-line parsing: the
// options*.cpp files (the only ones besides main.cpp that see CLI11) fill an options struct
// and call the function, which returns the process exit code. Keeping them apart lets a
// new subcommand be added as one more struct + function here and one registration
// (src/cli/options.h), without touching the others.
//
// Exit codes (README.md): 0 every expectation met, 1 an expectation failed, 2 bad input
// (file, key, value, option), 3 internal error. When several problems occur in one
// invocation the highest code wins, so "bad input" is never hidden by a failed expectation.
//
// Output: reports go to `out` (stdout), diagnostics to `err` (stderr), so a pipeline that
// reads JSON from stdout never sees an error message in it.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "src/status/status.h"
#include "src/world/overrides.h"

namespace lab {
struct Scenario;
struct SweepOptions;
}  // namespace lab

namespace cli {

// The width prose is wrapped to on a terminal (lessons, `eosim list`).
inline constexpr int kWidth = 88;

enum ExitCode : int {
  kExitOk = 0,
  kExitExpectFailed = 1,
  kExitBadInput = 2,
  kExitInternal = 3,
};

// The worse of two exit codes.
inline int worse(int a, int b) { return a > b ? a : b; }

// Prints why work could not be done and returns its exit code: the machine's own trouble
// (status.machine: a full disk, ...) is the user's to fix, exit 2, "eosim: <message>";
// anything else is an internal error, exit 3.
int report_failure(std::ostream& err, const eosim::Status& status);

// --- eosim run -----------------------------------------------------------------
struct RunOptions {
  std::vector<std::string> inputs;    // files, or directories of *.toml files
  lab::ScenarioOverrides overrides;   // --seed, --strategy, ..., --fault, --faults
  std::string format = "text";        // text | json | mermaid | jsonl | svg | html
  std::string keep_db;                // "" = private databases, as `db` says
  std::string db = "auto";            // auto | memory | files (without --keep-db)
  bool force = false;                 // --keep-db may replace the databases already there
  bool quiet = false;                 // text: one verdict line per scenario
  bool trace = false;                 // text: print every trace event before the report
  bool colour = false;                // ANSI colours (main decides: stdout is a TTY)
  bool fixed = false;                 // also run each file's fixed twin, side by side
};
int run_command(const RunOptions& options, std::ostream& out, std::ostream& err);

// --- eosim live ----------------------------------------------------------------
struct LiveCommandOptions {
  std::vector<std::string> inputs;  // files, or directories of *.toml files
  std::string broker;               // amqp://user:pass@host:port/vhost; "" = a private one
  std::string store = "sqlite";     // sqlite | postgres (a private one) | postgres://... (yours)
  lab::ScenarioOverrides overrides;  // --strategy, --producer
  std::string dedup_store;          // "" = beside the other stores | redis (a private one)
  std::string keep_db;              // "" = a temporary run folder, removed afterwards
  std::string format = "text";      // text | json | jsonl
  int timeout_s = 60;               // each run gives up after this and reports what is stuck
  std::int64_t tick_ms = 10;        // wall milliseconds per scenario tick
  bool compare = false;             // also run the model; per order: model, live, agree?
  bool progress = false;            // a progress line on stderr (main: stderr is a TTY)
  bool colour = false;
  std::string consumer;       // the user's consumer command ("" keeps each file's, or eosim's)
  std::int64_t consumers = 0;  // instances of the consumer; 0 keeps each file's
  std::string effects_query;   // how the user's consumer's effects are read ("" = debits)
  std::string seeds;           // --seeds A..B: a live sweep (src/cli/live_sweep.h); "" = one run
  std::string faults;          // --faults: the sweep's ratios (src/live/live_schedule.h)
  int jobs = 1;                // --jobs: a sweep's runs at once, on the one broker
};
int live_command(const LiveCommandOptions& options, std::ostream& out, std::ostream& err);
// `eosim live-actor KEY=VALUE...`: one actor process of a live run (not for people).
int live_actor_main(int argc, char** argv);

// --- eosim list ----------------------------------------------------------------
// What `eosim list` can show, for its validator and help text (options_run.cpp).
const std::vector<std::string>& list_topics();
struct ListOptions {
  std::string topic;               // one of list_topics()
  std::string dir;    // where `list scenarios` looks; "" = eosim's own (src/files/data_dir.h)
};
int list_command(const ListOptions& options, std::ostream& out, std::ostream& err);

// --- eosim bench kernel ------------------------------------------------------------
struct BenchKernelOptions {
  std::uint64_t events = 1'000'000;  // scheduler steps of the synthetic ring
  std::uint64_t seed = 1;
};
int bench_kernel_command(const BenchKernelOptions& options, std::ostream& out);

// --- eosim generals ------------------------------------------------------------------
struct GeneralsCommandOptions {
  int couriers = 4;                // N: the most couriers sent (checked by the model)
  std::string loss = "1/4";        // a Ratio: "1/4", "0", "1"
  std::uint64_t seed = 1;
  int attack_level = 2;            // decision rule: attack once your knowledge level reaches it
  std::vector<int> capture;        // couriers captured by script
  std::string format = "text";     // text | json | mermaid
};
int generals_command(const GeneralsCommandOptions& options, std::ostream& out,
                     std::ostream& err);

// --- eosim sweep ----------------------------------------------------------------------
struct SweepCommandOptions {
  std::string file;
  std::string seeds = "1..1000";  // A..B (inclusive) or one seed N
  std::string faults;             // --faults SPEC; "" = the file's [faults.random] (or default)
  lab::ScenarioOverrides overrides;  // --strategy, --producer, the choice flags
  unsigned jobs = 0;              // 0 = every hardware thread
  std::string expect;             // "" = none; a verdict, or "violation"
  std::string format = "text";    // text | json
  std::size_t show_failures = 5;  // failing seeds described
  std::string shard;              // "I/N": only the I-th (0-based) of N slices of --seeds
  std::string progress = "auto";  // --progress: auto | lines | off (progress_line.h)
  bool terminal = false;          // stderr is a terminal (main decides)
  std::string plot;               // --plot FILE.svg: violation rate per strategy ("" = none)
  std::string plot_x = "ratio";   // ratio (the fault mix scaled) | seeds (cumulative)
  bool force = false;             // --plot may replace an existing file
};
int sweep_command(const SweepCommandOptions& options, std::ostream& out, std::ostream& err);
// sweep_plot.cpp: `--plot`: sweeps every strategy (or --strategy's) at several points and
// writes the violation rates as an SVG chart. `mix` is the fault mix the sweep used.
// Returns an exit code (0 = written).
int write_sweep_plot(const SweepCommandOptions& options, const lab::Scenario& scenario,
                     const lab::SweepOptions& sweep, std::ostream& err);

// --- eosim merge ----------------------------------------------------------------------
struct MergeCommandOptions {
  std::vector<std::string> inputs;  // the shards' `sweep --format json` results
  std::string expect;               // "" = the shards' own --expect
  std::string format = "text";      // text | json
  std::size_t show_failures = 5;    // as sweep --show
};
int merge_command(const MergeCommandOptions& options, std::ostream& out, std::ostream& err);

// "I/N" (0 <= I < N) for sweep --shard. An error on anything else.
eosim::Status parse_shard(const std::string& text, std::uint64_t& index, std::uint64_t& count);

// --- eosim shrink ---------------------------------------------------------------------
struct ShrinkCommandOptions {
  std::string file;
  std::uint64_t seed = 0;
  std::string output;    // -o; "" = the TOML to stdout, the report to stderr
  bool force = false;    // -o may replace an existing file (never the input)
  std::string faults;    // as for sweep: the same SPEC gives the same run
  bool as_run = false;   // shrink the run `eosim run FILE --seed N` makes (no default mix)
  lab::ScenarioOverrides overrides;  // the sweep's --strategy, --producer, choice flags
};
int shrink_command(const ShrinkCommandOptions& options, std::ostream& out, std::ostream& err);

// --- eosim explore --------------------------------------------------------------------
struct ExploreCommandOptions {
  std::string file;
  int max_faults = 2;           // K
  int max_deviations = 1;       // D: changed scheduler decisions
  std::string kinds;            // "drop,crash"; "" = every kind
  std::uint64_t max_runs = 200000;
  bool no_merge = false;        // run every child, even where its state was explored
  std::string draws = "keyed";  // sequence | keyed (sim::Draws), replacing the file's
  bool compare = false;         // also search without merging: reduction, same outcomes
  unsigned jobs = 0;
  lab::ScenarioOverrides overrides;  // --strategy, --producer, the choice flags
  std::string output;           // -o: the first counterexample as a scenario file
  bool force = false;           // -o may replace an existing file (never the input)
  std::string expect;           // "" | exactly-once | violation
  std::string format = "text";  // text | json
  std::string progress = "auto";  // --progress: auto | lines | off (progress_line.h)
  bool terminal = false;          // stderr is a terminal (main decides)
};
int explore_command(const ExploreCommandOptions& options, std::ostream& out,
                    std::ostream& err);

// --- eosim matrix ---------------------------------------------------------------------
struct MatrixCommandOptions {
  std::string file;
  std::string seeds = "1..20";  // the random row's seeds: A..B, N, or none
  std::string faults;           // the random row's ratios; "" = the file's (or the default)
  unsigned jobs = 0;            // 0 = every hardware thread
  std::string format = "text";  // text | markdown | json | html
};
int matrix_command(const MatrixCommandOptions& options, std::ostream& out, std::ostream& err);

// --- eosim lesson ---------------------------------------------------------------------
struct LessonCommandOptions {
  std::string lesson;                  // "" = list them; a number, or a lesson file
  std::string dir;                     // "" = eosim's own lessons (src/files/data_dir.h)
  std::optional<std::int64_t> answer;  // --answer K: no prompt
  bool colour = false;                 // ANSI colours (main decides: stdout is a TTY)
  bool course = false;                 // --course: every lesson as one Markdown page
  std::string pictures;                // --pictures DIR: the course's SVGs are there
};
// Exit codes: 0 the answer was right (or the list was printed), 1 it was not, 2 bad input
// (a lesson file, an answer out of range, no answer on stdin), 3 internal error.
int lesson_command(const LessonCommandOptions& options, std::istream& in, std::ostream& out,
                   std::ostream& err);
// `eosim lesson --course` over the lesson files `files` (course_command.cpp).
int course_command(const LessonCommandOptions& options, const std::vector<std::string>& files,
                   std::ostream& out, std::ostream& err);

// `eosim course --html DIR`: the course as a static site (course_site_command.cpp).
struct CourseSiteOptions {
  std::string html;                       // the site's folder
  std::string lessons;                    // "" = eosim's own (src/files/data_dir.h)
  std::string pictures;                   // --pictures DIR: each run's diagram as SVG
  bool force = false;                     // replace pages and pictures that differ
};
// Exit codes: 0 written, 2 bad input (a lesson file, a folder or file that cannot be
// written or would be replaced without --force), 3 internal error.
int course_site_command(const CourseSiteOptions& options, std::ostream& out, std::ostream& err);

// `eosim compare`: two runs side by side and where they part (compare_command.cpp).
struct CompareOptions {
  std::vector<std::string> files;     // one or two scenario files (left, right)
  std::optional<std::uint64_t> seed;  // replaces both files' seed
  std::string strategy;               // "" keeps each file's; replaces both runs' strategy
  std::string vs;                     // the right run's strategy ("" = as the left's rule)
  std::string format = "text";        // text | html
};
// Exit codes: 0 compared, 2 bad input (a file, a strategy, one file without --vs), 3
// internal error. The runs' verdicts do not change it: a comparison is not a test.
int compare_command(const CompareOptions& options, std::ostream& out, std::ostream& err);

// --- shared by the commands ---------------------------------------------------------
// Expands FILE...|DIR arguments: a directory stands for its *.toml files (not recursive),
// sorted by file name; anything else is kept as a file path (a missing one is reported by
// the scenario loader, which names it). An error when a
// directory cannot be read or holds no *.toml file.
eosim::Status expand_inputs(const std::vector<std::string>& inputs,
                            std::vector<std::string>& files);

// The program as the user invoked it (argv[0]: "eosim" found through $PATH, or a path
// such as ./build/eosim), set once by main; "eosim" until then.
void set_invoked_as(const std::string& program);
// A command line the report offers ("eosim run FILE --seed N") with its first word
// replaced by the program as invoked, so the line printed to the terminal runs when
// pasted back. Pages, JSON and the course keep "eosim": they are read elsewhere.
std::string as_invoked(const std::string& command);

// "A..B" or "N" into an inclusive range. An error on anything else or A > B.
eosim::Status parse_seed_range(const std::string& text, std::uint64_t& first, std::uint64_t& last);

// What sweep, shrink, explore and matrix share: load FILE, check and apply the overrides
// (--strategy, --producer, the choice flags) and parse --faults into `sweep.ratios`.
// False after printing the problem to `err`.
bool load_for_seeds(const std::string& file, const lab::ScenarioOverrides& overrides,
                    const std::string& faults, lab::Scenario& scenario, lab::SweepOptions& sweep,
                    std::ostream& err);

}  // namespace cli
