// eosim's command line: parsing and dispatch only. This is the one file that includes
// CLI11; each subcommand is registered by one add_*_command function below and carried out
// by one function of src/cli/commands.h, so the logic never depends on the parser.
//
// Exit codes: 0 expectations met, 1 an expectation failed, 2 bad input (including a bad
// command line), 3 internal error (any exception that reaches main).
//
// Extension points: `sweep`, `shrink`, `explore` and `generals` (DESIGN.md) each get an
// options struct and a `<name>_command` function in commands.h, and an
// `add_<name>_command` here, registered in main_with_args beside the others.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <limits>
#include <string>

#include "src/cli/commands.h"
#include "src/lab/parallel.h"
#include "src/lab/report_format.h"

#ifndef EOSIM_VERSION
#define EOSIM_VERSION "0.1.0"  // keep in step with project(eosim VERSION ...) in CMakeLists.txt
#endif

namespace {

constexpr const char* kDescription =
    "eosim is a deterministic lab for exactly-once processing over an at-least-once message "
    "broker. It runs a model AMQP 0-9-1 broker, a lossy network, a producer with a "
    "transactional outbox and SQLite-backed consumers under one seeded scheduler, injects "
    "faults at named points (drop an ack, crash the consumer between commit and ack, "
    "restart the broker, ...) and proves from the real SQLite tables whether every "
    "committed order was debited exactly once. A run is fixed by (scenario, seed): the "
    "same pair always gives the same trace and trace hash.";

constexpr const char* kMainFooter =
    "Examples:\n"
    "  eosim list strategies\n"
    "  eosim run scenarios/\n"
    "  eosim run scenarios/02-crash-between-commit-and-ack.toml --seed 7 --strategy no-dedup\n"
    "\n"
    "Exit codes: 0 expectations met, 1 an expectation failed, 2 bad input, 3 internal "
    "error.\n"
    "Run `eosim COMMAND --help` for the options of a command. The words (ack, nack,\n"
    "confirm, redelivered, prefetch, dead-letter queue, outbox, dedup, ...) are explained\n"
    "in docs/glossary.md.";

// A decimal unsigned integer from `min` to `max`. CLI11 alone would wrap "-1" to the
// largest value and saturate a number that is too large, silently running something else.
CLI::Validator unsigned_integer(std::uint64_t min,
                                std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, ec] = std::from_chars(text.data(), end, value);
        const bool ok = !text.empty() && ec == std::errc() && stop == end && value >= min &&
                        value <= max;
        return ok ? "" : "must be an integer from " + std::to_string(min) + " to " +
                             std::to_string(max) + ", got " + text;
      },
      "");
}

// --jobs: 0 (every core) up to lab::kMaxJobs threads.
CLI::Validator job_count() { return unsigned_integer(0, lab::kMaxJobs); }

// --ack, --dedup, --errors, --poison: the consumer's four choices, each replacing the
// preset's (the file's, or --strategy's). Values are checked by the command, which lists
// the valid ones (eosim list strategies shows them all).
void add_choice_options(CLI::App* app, lab::ChoiceFlags& flags) {
  app->add_option("--ack", flags.ack, "Consumer choice: after-commit, before-commit, auto")
      ->type_name("A");
  app->add_option("--dedup", flags.dedup,
                  "Consumer choice: same-transaction, separate-store, check-then-act, none")
      ->type_name("D");
  app->add_option("--errors", flags.errors, "Consumer choice: classify, all-duplicate")
      ->type_name("E");
  app->add_option("--poison", flags.poison, "Consumer choice: dead-letter, record, requeue")
      ->type_name("P");
}

CLI::App* add_run_command(CLI::App& app, cli::RunOptions& o, CLI::Option*& seed_option,
                          std::uint64_t& seed) {
  CLI::App* run =
      app.add_subcommand("run", "Run scenarios; report each order and the verdict");
  run->add_option("files", o.inputs, "Scenario files, or directories of *.toml files")
      ->required()
      ->type_name("FILE|DIR");
  seed_option = run->add_option("--seed", seed, "Replace each file's seed (replays a run)")
                    ->type_name("N")
                    ->check(unsigned_integer(0));
  run->add_option("--strategy", o.strategy,
                  "Replace the consumer strategy (eosim list strategies)")
      ->type_name("S");
  run->add_option("--producer", o.producer,
                  "Replace the producer pattern (eosim list producers)")
      ->type_name("P");
  add_choice_options(run, o.choices);
  run->add_option("--format", o.format,
                  "Output format (see below)")
      ->check(CLI::IsMember({"text", "json", "jsonl", "mermaid", "svg", "html"}))
      ->type_name("F")
      ->capture_default_str();
  run->add_option("--fault", o.fault_rules,
                  "Replace the file's scripted faults with RULE (repeatable; none = no "
                  "rule), e.g. consumer.after_commit:order=2,attempt=1")
      ->type_name("RULE");
  run->add_option("--faults", o.faults,
                  "Replace the file's random fault ratios (none = no random fault)")
      ->type_name("SPEC");
  run->add_option("--keep-db", o.keep_db, "Keep the run's SQLite databases in DIR")
      ->type_name("DIR");
  run->add_flag("--force", o.force, "--keep-db may replace databases already in DIR");
  run->add_flag("-q,--quiet", o.quiet, "Text: only the verdict (one line per scenario)");
  run->add_flag("--fixed", o.fixed,
                "Also run each file's fixed twin (its `fixed` key) on the same seed and show "
                "both side by side");
  run->add_flag("-t,--trace", o.trace,
                "Text: print the whole exchange, one event per line, before the report");
  run->footer(
      "Runs each scenario file (a directory: every *.toml in it, sorted by name) with its\n"
      "seed, checks what happened to every order in the SQLite tables, prints the verdict\n"
      "and checks the file's [expect] block. Several files end with a suite table.\n"
      "\n"
      "Formats: text (for people), json (one summary object per line and run), jsonl (the\n"
      "trace events, one per line, then {\"summary\": ...}), mermaid (sequence diagram),\n"
      "svg (the GUI's sequence diagram as a picture) and html (one page: diagram, verdict,\n"
      "orders, faults and the tables' final rows; no script, opens from disk). svg and\n"
      "html draw one run, so they take exactly one FILE.\n"
      "--keep-db DIR keeps orders.db, ledger.db (and dedup.db when the strategy uses one)\n"
      "in DIR; with several files each run gets its own DIR/<file stem>/ (stem-2, ... when\n"
      "names repeat). Databases already there are never replaced without --force.\n"
      "--fixed runs a broken scenario's corrected design (the file's `fixed` key) on the\n"
      "same seed after it and prints both verdicts side by side; the twin must be\n"
      "exactly-once (exit 1 otherwise).\n"
      "--ack/--dedup/--errors/--poison replace one of the four choices of the consumer's\n"
      "preset (the file's, or --strategy's); `eosim list strategies` shows every value.\n"
      "--fault SITE[:KEY=VALUE,...] is one [[faults.script]] rule (keys: do, order,\n"
      "attempt, frame, nth, instance, tick, times; `do` may be left out where the site\n"
      "allows one action); --faults takes sweep's SPEC (drop=1/20,crash=1/30).\n"
      "\n"
      "Examples:\n"
      "  eosim run scenarios/02-crash-between-commit-and-ack.toml\n"
      "  eosim run scenarios/02-crash-between-commit-and-ack.toml --seed 7 --strategy no-dedup\n"
      "  eosim run scenarios/ --quiet\n"
      "  eosim run scenarios/04-ack-lost-on-the-wire.toml --trace\n"
      "  eosim run scenarios/31-side-effect-before-commit.toml --fixed\n"
      "  eosim run scenarios/02-crash-between-commit-and-ack.toml --dedup separate-store\n"
      "  eosim run scenarios/ --format json | jq .verdict\n"
      "  eosim run FILE --format mermaid > run.mmd\n"
      "  eosim run FILE --format html > run.html\n"
      "  eosim run scenarios/01-happy-path.toml --strategy no-dedup --fault "
      "consumer.after_commit:order=1,attempt=1\n"
      "  eosim run FILE --keep-db /tmp/run && sqlite3 /tmp/run/ledger.db 'select * from "
      "debits'\n"
      "\n"
      "Every text report prints SEED=<n> and the exact command that replays the run.\n"
      "Exit codes: 0 every expectation met, 1 an expectation failed, 2 bad input (file,\n"
      "key, value, option), 3 internal error.");
  return run;
}

CLI::App* add_list_command(CLI::App& app, cli::ListOptions& o) {
  CLI::App* list =
      app.add_subcommand("list", "List strategies, producers, faults, scenarios...");
  list->add_option("topic", o.topic, "What to list")
      ->required()
      ->check(CLI::IsMember(cli::list_topics()))
      ->type_name("TOPIC");
  list->add_option("--dir", o.dir, "Where `list scenarios` looks")
      ->type_name("DIR")
      ->capture_default_str();
  list->footer(
      "Prints every name a scenario file may use, with one line of meaning each (from the\n"
      "same catalog the loader checks against), or the scenario files in --dir.\n"
      "\n"
      "Examples:\n"
      "  eosim list strategies\n"
      "  eosim list faults\n"
      "  eosim list scenarios --dir scenarios");
  return list;
}

CLI::App* add_bench_command(CLI::App& app, cli::BenchKernelOptions& o) {
  CLI::App* bench = app.add_subcommand("bench", "Measure how fast parts of eosim run");
  bench->require_subcommand(1);
  CLI::App* kernel =
      bench->add_subcommand("kernel", "Time the kernel on a synthetic ring workload");
  kernel->add_option("--events", o.events, "Scheduler events to run")
      ->type_name("N")
      ->check(unsigned_integer(1))
      ->capture_default_str();
  kernel->add_option("--seed", o.seed, "Seed of the synthetic run")
      ->type_name("N")
      ->check(unsigned_integer(0))
      ->capture_default_str();
  kernel->footer(
      "Runs the kernel's synthetic ring (network frames, random drops, reconnects) for N\n"
      "events and prints events, frames, seconds, events/s and the trace hash. Only the\n"
      "timing varies between machines; the trace hash does not.\n"
      "\n"
      "Examples:\n"
      "  eosim bench kernel\n"
      "  eosim bench kernel --events 10000000");
  bench->footer("Examples:\n  eosim bench kernel --events 1000000");
  return kernel;
}

CLI::App* add_generals_command(CLI::App& app, cli::GeneralsCommandOptions& o) {
  CLI::App* generals =
      app.add_subcommand("generals", "The Two Generals exchange, and why acks never end");
  generals->add_option("--couriers", o.couriers, "Most couriers sent (1-64)")
      ->type_name("N")
      ->capture_default_str();
  generals->add_option("--loss", o.loss, "Chance that a courier is captured (1/4, 0, 1)")
      ->type_name("R")
      ->capture_default_str();
  generals->add_option("--seed", o.seed, "Seed of the run (latencies and captures)")
      ->type_name("N")
      ->check(unsigned_integer(0))
      ->capture_default_str();
  generals->add_option("--attack-level", o.attack_level,
                       "Rule: attack once your knowledge level reaches D")
      ->type_name("D")
      ->capture_default_str();
  generals->add_option("--capture", o.capture, "Capture courier N by script (repeatable)")
      ->type_name("N");
  generals->add_option("--format", o.format, "Output format: text, json or mermaid")
      ->check(CLI::IsMember({"text", "json", "mermaid"}))
      ->type_name("F")
      ->capture_default_str();
  generals->footer(
      "General A proposes \"attack at dawn\" by courier; each courier that arrives is answered\n"
      "by the next (ack, ack of the ack, ...) up to N. Prints the exchange, who knows what,\n"
      "each general's decision, the last courier that nobody can confirm (whatever N), and\n"
      "the same exchange read as broker -> consumer -> ack.\n"
      "\n"
      "Examples:\n"
      "  eosim generals\n"
      "  eosim generals --couriers 6 --loss 1/3 --seed 7\n"
      "  eosim generals --couriers 4 --loss 0 --capture 3\n"
      "  eosim generals --format mermaid > generals.mmd");
  return generals;
}

CLI::App* add_sweep_command(CLI::App& app, cli::SweepCommandOptions& o) {
  CLI::App* sweep =
      app.add_subcommand("sweep", "Run a scenario over many seeds with random faults");
  sweep->add_option("file", o.file, "Scenario file")->required()->type_name("FILE");
  sweep->add_option("--seeds", o.seeds, "Seeds to run: A..B (inclusive) or N")
      ->type_name("A..B")
      ->capture_default_str();
  sweep->add_option("--faults", o.faults,
                    "Random fault ratios, replacing the file's [faults.random]")
      ->type_name("SPEC");
  sweep->add_option("--strategy", o.strategy, "Replace the consumer strategy")->type_name("S");
  sweep->add_option("--producer", o.producer, "Replace the producer pattern")->type_name("P");
  add_choice_options(sweep, o.choices);
  sweep->add_option("--jobs", o.jobs, "Worker threads (default: every core; at most 256)")
      ->type_name("N")
      ->check(job_count());
  sweep->add_option("--expect", o.expect,
                    "exactly-once (every run), violation (at least one), or a verdict "
                    "(at least one run has it)")
      ->type_name("V");
  sweep->add_option("--show", o.show_failures, "How many failing seeds to describe")
      ->type_name("N")
      ->check(unsigned_integer(0))
      ->capture_default_str();
  sweep->add_option("--format", o.format, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("F")
      ->capture_default_str();
  sweep->add_option("--shard", o.shard,
                    "Run only the I-th (0-based) of N equal slices of --seeds; combine the "
                    "shards' --format json results with eosim merge")
      ->type_name("I/N");
  sweep->add_option("--plot", o.plot,
                    "Also write an SVG chart: the violation rate of every strategy (or of "
                    "--strategy) against --plot-x")
      ->type_name("FILE.svg");
  sweep->add_option("--plot-x", o.plot_x,
                    "ratio: the fault mix scaled x1/8..x2; seeds: cumulative over --seeds")
      ->check(CLI::IsMember({"ratio", "seeds"}))
      ->type_name("X")
      ->capture_default_str();
  sweep->add_flag("--force", o.force, "--plot may replace an existing file");
  sweep->footer(
      "Runs FILE once per seed; each seed draws its own random faults (per opportunity, up\n"
      "to the file's [faults] budget, before its horizon). The ratios come from --faults,\n"
      "else the file's [faults.random], else a default mix of every kind. Prints the count\n"
      "per verdict, the first failing seeds with the command that shrinks each, runs/s and\n"
      "steps/s. Everything but the timing line is the same for any --jobs.\n"
      "\n"
      "Examples:\n"
      "  eosim sweep scenarios/01-happy-path.toml --seeds 1..1000 --expect exactly-once\n"
      "  eosim sweep scenarios/01-happy-path.toml --strategy no-dedup --expect violation\n"
      "  eosim sweep FILE --faults drop=1/20,crash=1/30,reorder=1/10,restart=1/200\n"
      "  eosim sweep FILE --format json | jq .verdicts\n"
      "  eosim sweep FILE --seeds 1..100000 --shard 3/8 --format json > shard-3.json\n"
      "  eosim sweep scenarios/01-happy-path.toml --ack before-commit --expect violation\n"
      "  eosim sweep FILE --seeds 1..200 --plot rates.svg   # 5 sweeps per strategy\n"
      "\n"
      "--plot runs 5 more sweeps of --seeds per strategy (ratio: the mix at x1/8, x1/4,\n"
      "x1/2, x1, x2; seeds: the range in 5 cumulative slices) and draws their violation\n"
      "rates; it never replaces a file without --force.\n"
      "\n"
      "Exit codes: 0 --expect met (or none given), 1 not met, 2 bad input, 3 internal error.");
  return sweep;
}

CLI::App* add_merge_command(CLI::App& app, cli::MergeCommandOptions& o) {
  CLI::App* merge = app.add_subcommand(
      "merge", "Combine the JSON results of sweep --shard I/N into one sweep's report");
  merge->add_option("results", o.inputs, "Every shard's `eosim sweep --format json` output")
      ->required()
      ->type_name("RESULT.json...");
  merge->add_option("--expect", o.expect,
                    "As for sweep; default: the --expect the shards were given")
      ->type_name("V");
  merge->add_option("--show", o.show_failures,
                    "How many failing seeds to describe (each shard must list as many)")
      ->type_name("N")
      ->check(unsigned_integer(0))
      ->capture_default_str();
  merge->add_option("--format", o.format, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("F")
      ->capture_default_str();
  merge->footer(
      "Reads the results of the N shards of one sweep (any order) and prints exactly the\n"
      "report that one `eosim sweep` over the whole --seeds range prints: counts, first\n"
      "failing seeds, digest, --expect. Only the timing line differs: it adds up the\n"
      "shards' seconds and jobs (machine time, not wall time). A missing, repeated or\n"
      "foreign shard is an error (exit 2). Run the shards without --expect (a shard with\n"
      "no violation would fail `--expect violation`) and give it here instead.\n"
      "\n"
      "Examples:\n"
      "  for i in 0 1 2 3; do eosim sweep FILE --seeds 1..40000 --shard $i/4 --format json \\\n"
      "      > shard-$i.json; done\n"
      "  eosim merge shard-*.json --expect exactly-once\n"
      "\n"
      "Exit codes: 0 --expect met (or none), 1 not met, 2 bad input, 3 internal error.");
  return merge;
}

CLI::App* add_shrink_command(CLI::App& app, cli::ShrinkCommandOptions& o) {
  CLI::App* shrink = app.add_subcommand(
      "shrink", "Shrink a failing seed to a minimal, editable scenario file");
  shrink->add_option("file", o.file, "Scenario file")->required()->type_name("FILE");
  shrink->add_option("--seed", o.seed, "The failing seed (from eosim sweep)")
      ->required()
      ->type_name("N")
      ->check(unsigned_integer(0));
  shrink->add_option("-o,--output", o.output,
                     "Write the minimal scenario here (a new file unless --force)")
      ->type_name("OUT.toml");
  shrink->add_flag("--force", o.force, "-o may replace an existing file (never FILE)");
  shrink->add_option("--faults", o.faults, "The --faults the sweep used")->type_name("SPEC");
  shrink->add_flag("--as-run", o.as_run,
                   "Shrink the run `eosim run FILE --seed N` makes (the file's own faults "
                   "only), not the sweep's");
  shrink->add_option("--strategy", o.strategy, "The --strategy the sweep used")
      ->type_name("S");
  shrink->add_option("--producer", o.producer, "The --producer the sweep used")
      ->type_name("P");
  add_choice_options(shrink, o.choices);
  shrink->footer(
      "Replays the seed exactly as eosim sweep ran it, turns every fault that fired into an\n"
      "explicit [[faults.script]] rule, and delta-debugs the rules down to a minimal set that\n"
      "still gives the same verdict. Writes a scenario with those rules, an [expect] block\n"
      "and an `about` story; `eosim run OUT.toml` reproduces it.\n"
      "\n"
      "Examples:\n"
      "  eosim shrink scenarios/01-happy-path.toml --strategy no-dedup --seed 1 -o min.toml\n"
      "  eosim run min.toml\n"
      "  eosim shrink scenarios/07-separate-dedup-store.toml --seed 8 --as-run\n"
      "\n"
      "Exit codes: 0 shrunk, 1 the seed does not fail (or cannot be reproduced by rules),\n"
      "2 bad input, 3 internal error.");
  return shrink;
}

CLI::App* add_explore_command(CLI::App& app, cli::ExploreCommandOptions& o) {
  CLI::App* explore = app.add_subcommand(
      "explore", "Try every placement of up to K faults on a small workload");
  explore->add_option("file", o.file, "Scenario file (keep it small: 1-3 orders)")
      ->required()
      ->type_name("FILE");
  explore->add_option("--max-faults", o.max_faults, "Faults placed per schedule (K)")
      ->type_name("K")
      ->capture_default_str();
  explore->add_option("--max-deviations", o.max_deviations,
                      "Scheduler decisions changed per schedule (D)")
      ->type_name("D")
      ->capture_default_str();
  explore->add_option("--kinds", o.kinds, "Fault kinds to place, e.g. drop,crash (default: all)")
      ->type_name("LIST");
  explore->add_option("--max-runs", o.max_runs, "Stop after this many runs")
      ->check(unsigned_integer(0))
      ->type_name("N")
      ->capture_default_str();
  explore->add_option("--jobs", o.jobs, "Worker threads (default: every core; at most 256)")
      ->type_name("N")
      ->check(job_count());
  explore->add_option("--strategy", o.strategy, "Replace the consumer strategy")->type_name("S");
  explore->add_option("--producer", o.producer, "Replace the producer pattern")->type_name("P");
  add_choice_options(explore, o.choices);
  explore->add_option("-o,--output", o.output,
                      "Write the first counterexample here (a new file unless --force)")
      ->type_name("OUT.toml");
  explore->add_flag("--force", o.force, "-o may replace an existing file (never FILE)");
  explore->add_option("--expect", o.expect, "exactly-once (no violation) or violation")
      ->type_name("V");
  explore->add_option("--format", o.format, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("F")
      ->capture_default_str();
  explore->footer(
      "Runs the scenario without random faults, logs every fault opportunity it passes\n"
      "(each crash site, each frame on each link, each commit, ...) and every scheduler\n"
      "choice point (ties, latencies), then runs every placement of up to K faults and up to\n"
      "D changed decisions, breadth first, so the first counterexample has the fewest.\n"
      "Executions that repeat an earlier one exactly are counted once and not expanded.\n"
      "Sizes: a 2-order outbox run has ~33 opportunities and ~26 other scheduler options;\n"
      "K=2, D=1 is ~18,000 runs. The tree grows as opportunities^K: keep workloads small.\n"
      "\n"
      "Examples:\n"
      "  eosim explore scenarios/01-happy-path.toml --max-faults 2 --expect exactly-once\n"
      "  eosim explore FILE --strategy no-dedup --kinds crash -o counterexample.toml\n"
      "\n"
      "Exit codes: 0 --expect met (or none given), 1 not met, 2 bad input, 3 internal error.");
  return explore;
}

CLI::App* add_matrix_command(CLI::App& app, cli::MatrixCommandOptions& o) {
  CLI::App* matrix = app.add_subcommand(
      "matrix", "Which design survives which fault: strategies x fault sites");
  matrix->add_option("file", o.file, "Scenario file (its workload, broker and seed)")
      ->required()
      ->type_name("FILE");
  matrix->add_option("--seeds", o.seeds, "Seeds of the random row: A..B, N, or none")
      ->type_name("A..B")
      ->capture_default_str();
  matrix->add_option("--faults", o.faults, "Random fault ratios of the random row")
      ->type_name("SPEC");
  matrix->add_option("--jobs", o.jobs, "Worker threads (default: every core)")->type_name("N");
  matrix->add_option("--format", o.format, "Output format: text, markdown, json or html")
      ->check(CLI::IsMember({"text", "markdown", "json", "html"}))
      ->type_name("F")
      ->capture_default_str();
  matrix->footer(
      "Runs FILE once per design and fault site. The designs are every consumer strategy\n"
      "(with the file's producer) and every other producer pattern (with the file's\n"
      "strategy); the fault sites are those the design's fault-free run passes, each with\n"
      "one scripted fault at its first opportunity (n/a where a design never passes the\n"
      "site). The file's own faults are left out. A last row runs the seeds with random\n"
      "faults (--faults, else the file's [faults.random], else sweep's default mix) and\n"
      "counts the runs that were not exactly-once. Each cell names the `eosim run`\n"
      "command that reproduces it (text: the failing cells; json and html: every cell).\n"
      "\n"
      "Examples:\n"
      "  eosim matrix scenarios/01-happy-path.toml\n"
      "  eosim matrix scenarios/01-happy-path.toml --format html > matrix.html\n"
      "  eosim matrix scenarios/01-happy-path.toml --seeds none --format markdown\n"
      "\n"
      "Exit codes: 0 the matrix was printed, 2 bad input, 3 internal error.");
  return matrix;
}

CLI::App* add_lesson_command(CLI::App& app, cli::LessonCommandOptions& o,
                             CLI::Option*& answer_option, std::int64_t& answer) {
  CLI::App* lesson = app.add_subcommand(
      "lesson", "The course: a question, your answer, then the run that settles it");
  lesson->add_option("lesson", o.lesson, "Lesson number (or file); none = list them")
      ->type_name("N");
  lesson->add_option("--dir", o.dir, "Where the lessons are")
      ->type_name("DIR")
      ->capture_default_str();
  answer_option = lesson->add_option("--answer", answer, "Answer K without a prompt")
                      ->type_name("K");
  lesson->add_flag("--course", o.course, "Print every lesson as one Markdown page");
  lesson->add_option("--pictures", o.pictures, "--course: write each run's SVG diagram to DIR")
      ->type_name("DIR");
  lesson->add_flag("--force", o.force, "--pictures may replace files that differ");
  lesson->footer(
      "Each lesson states a claim about exactly-once processing, tells what its run does\n"
      "(not how it ends) and asks a question. Answer by number; then eosim runs the\n"
      "scenario and shows the sequence diagram, the report with every order's outcome,\n"
      "and the explanation. Whether an answer is right is decided by the run itself.\n"
      "\n"
      "Examples:\n"
      "  eosim lesson\n"
      "  eosim lesson 2\n"
      "  eosim lesson 2 --answer 1\n"
      "  eosim lesson --course --pictures docs/course > docs/course.md   (scripts/course.sh)\n"
      "\n"
      "Exit codes: 0 right (or the list), 1 not what the run shows, 2 bad input, 3 internal "
      "error.");
  return lesson;
}

bool colour_wanted() {
  // ANSI colours only on a terminal; NO_COLOR (https://no-color.org) turns them off.
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && no_colour[0] != '\0') return false;
  return isatty(fileno(stdout)) != 0;
}

int main_with_args(int argc, char** argv) {
  // CLI11 2.1 does not wrap descriptions, so the paragraph is filled here (its final
  // newline leaves a blank line before the usage).
  CLI::App app(lab::wrap_text(kDescription, 88, ""), "eosim");
  app.set_version_flag("--version", std::string("eosim ") + EOSIM_VERSION);
  app.require_subcommand(1);
  app.footer(kMainFooter);
  app.get_formatter()->column_width(34);
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return std::string("eosim: ") + e.what() +
           "\nRun `eosim --help` or `eosim COMMAND --help` for usage.\n";
  });

  cli::RunOptions run_options;
  CLI::Option* seed_option = nullptr;
  std::uint64_t seed = 0;
  CLI::App* run = add_run_command(app, run_options, seed_option, seed);
  cli::ListOptions list_options;
  CLI::App* list = add_list_command(app, list_options);
  cli::BenchKernelOptions bench_options;
  CLI::App* bench_kernel = add_bench_command(app, bench_options);
  cli::GeneralsCommandOptions generals_options;
  CLI::App* generals = add_generals_command(app, generals_options);
  cli::SweepCommandOptions sweep_options;
  CLI::App* sweep = add_sweep_command(app, sweep_options);
  cli::MergeCommandOptions merge_options;
  CLI::App* merge = add_merge_command(app, merge_options);
  cli::ShrinkCommandOptions shrink_options;
  CLI::App* shrink = add_shrink_command(app, shrink_options);
  cli::ExploreCommandOptions explore_options;
  CLI::App* explore = add_explore_command(app, explore_options);
  cli::MatrixCommandOptions matrix_options;
  CLI::App* matrix = add_matrix_command(app, matrix_options);
  cli::LessonCommandOptions lesson_options;
  CLI::Option* answer_option = nullptr;
  std::int64_t answer = 0;
  CLI::App* lesson = add_lesson_command(app, lesson_options, answer_option, answer);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other parse error is bad input (exit 2), not
    // CLI11's own codes, so scripts see one meaning per exit code.
    return app.exit(e) == 0 ? cli::kExitOk : cli::kExitBadInput;
  }

  if (run->parsed()) {
    if (seed_option->count() > 0) run_options.seed = seed;
    run_options.colour = colour_wanted();
    return cli::run_command(run_options, std::cout, std::cerr);
  }
  if (list->parsed()) return cli::list_command(list_options, std::cout, std::cerr);
  if (bench_kernel->parsed()) return cli::bench_kernel_command(bench_options, std::cout);
  if (sweep->parsed()) {
    sweep_options.progress = isatty(fileno(stderr)) != 0;
    return cli::sweep_command(sweep_options, std::cout, std::cerr);
  }
  if (merge->parsed()) return cli::merge_command(merge_options, std::cout, std::cerr);
  if (shrink->parsed()) return cli::shrink_command(shrink_options, std::cout, std::cerr);
  if (explore->parsed()) {
    explore_options.progress = isatty(fileno(stderr)) != 0;
    return cli::explore_command(explore_options, std::cout, std::cerr);
  }
  if (matrix->parsed()) return cli::matrix_command(matrix_options, std::cout, std::cerr);
  if (lesson->parsed()) {
    if (answer_option->count() > 0) lesson_options.answer = answer;
    lesson_options.colour = colour_wanted();
    return cli::lesson_command(lesson_options, std::cin, std::cout, std::cerr);
  }
  if (generals->parsed()) {
    return cli::generals_command(generals_options, std::cout, std::cerr);
  }
  std::cerr << "eosim: no command given; run `eosim --help`\n";
  return cli::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return main_with_args(argc, argv);
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "eosim: internal error: " << e.what() << '\n';
    return cli::kExitInternal;
  }
}
