// The options of the commands that search many runs: sweep, merge (of sweep shards),
// shrink, explore and matrix.

#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/cli/progress_line.h"

namespace cli {

namespace {

constexpr const char* kSweepFooter =
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
    "Exit codes: 0 --expect met (or none given), 1 not met, 2 bad input, 3 internal error.";

constexpr const char* kMergeFooter =
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
    "Exit codes: 0 --expect met (or none), 1 not met, 2 bad input, 3 internal error.";

constexpr const char* kShrinkFooter =
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
    "2 bad input, 3 internal error.";

constexpr const char* kExploreFooter =
    "Runs the scenario without random faults, logs every fault opportunity it passes\n"
    "(each crash site, each frame on each link, each commit, ...) and every scheduler\n"
    "choice point (ties, latencies), then runs every placement of up to K faults and up to\n"
    "D changed decisions, breadth first, so the first counterexample has the fewest.\n"
    "Executions that repeat an earlier one exactly are counted once and not expanded.\n"
    "State merging: a fault placement that would go on from exactly the run state of an\n"
    "earlier one (every table row, the broker, the actors, frames in flight, pending\n"
    "events, the random draws still to come, the rules) with the same fault budget is not\n"
    "run; the verdicts found are the same as with --no-merge, and counts are of runs made.\n"
    "Draws are keyed by default: each latency and tie-break is hashed from what it\n"
    "decides, so a changed decision is the one drawn in a given run state; a fault placed\n"
    "before it meets it only if the run comes back to that state, so such placements add\n"
    "nothing the fault alone or the change alone does not and are pruned (counted). A\n"
    "counterexample written with -o says draws = \"keyed\", which `eosim run` honours.\n"
    "--draws sequence searches runs drawn as `eosim run` draws a file without that key\n"
    "(the default until December 2026; slower, and its counterexamples are other runs).\n"
    "Sizes: a 2-order outbox run has ~33 opportunities and ~26 other scheduler options;\n"
    "K=2, D=1 is ~18,000 runs. The tree grows as opportunities^K: keep workloads small.\n"
    "\n"
    "Examples:\n"
    "  eosim explore scenarios/01-happy-path.toml --max-faults 2 --expect exactly-once\n"
    "  eosim explore FILE --strategy no-dedup --kinds crash -o counterexample.toml\n"
    "\n"
    "Exit codes: 0 --expect met (or none given), 1 not met, 2 bad input, 3 internal error.";

constexpr const char* kMatrixFooter =
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
    "Exit codes: 0 the matrix was printed, 2 bad input, 3 internal error.";

CLI::App* sweep_options(CLI::App& app, SweepCommandOptions& o) {
  CLI::App* sweep =
      app.add_subcommand("sweep", "Run a scenario over many seeds with random faults");
  sweep->add_option("file", o.file, "Scenario file")->required()->type_name("FILE");
  sweep->add_option("--seeds", o.seeds, "Seeds to run: A..B (inclusive) or N")
      ->type_name("A..B")
      ->capture_default_str();
  sweep
      ->add_option("--faults", o.faults,
                   "Random fault ratios, replacing the file's [faults.random] (none = no "
                   "random fault)")
      ->type_name("SPEC");
  add_design_options(sweep, o.overrides);
  sweep->add_option("--jobs", o.jobs, "Worker threads (default: every core; at most 256)")
      ->type_name("N")
      ->check(job_count());
  sweep
      ->add_option("--expect", o.expect,
                   "exactly-once (every run), violation (at least one), or a verdict "
                   "(at least one run has it)")
      ->type_name("V");
  sweep->add_option("--show", o.show_failures, "How many failing seeds to describe")
      ->type_name("N")
      ->check(unsigned_integer(0))
      ->capture_default_str();
  sweep->add_option("--progress", o.progress, kProgressHelp)
      ->check(CLI::IsMember(
          std::vector<std::string>(std::begin(kProgressValues), std::end(kProgressValues))))
      ->type_name("WHEN")
      ->capture_default_str();
  sweep->add_option("--format", o.format, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("F")
      ->capture_default_str();
  sweep
      ->add_option("--shard", o.shard,
                   "Run only the I-th (0-based) of N equal slices of --seeds; combine the "
                   "shards' --format json results with eosim merge")
      ->type_name("I/N");
  sweep
      ->add_option("--plot", o.plot,
                   "Also write an SVG chart: the violation rate of every strategy (or of "
                   "--strategy) against --plot-x")
      ->type_name("FILE.svg");
  sweep
      ->add_option("--plot-x", o.plot_x,
                   "ratio: the fault mix scaled x1/8..x2; seeds: cumulative over --seeds")
      ->check(CLI::IsMember({"ratio", "seeds"}))
      ->type_name("X")
      ->capture_default_str();
  sweep->add_flag("--force", o.force, "--plot may replace an existing file");
  sweep->footer(kSweepFooter);
  return sweep;
}

CLI::App* merge_options(CLI::App& app, MergeCommandOptions& o) {
  CLI::App* merge = app.add_subcommand(
      "merge", "Combine the JSON results of sweep --shard I/N into one sweep's report");
  merge->add_option("results", o.inputs, "Every shard's `eosim sweep --format json` output")
      ->required()
      ->type_name("RESULT.json...");
  merge
      ->add_option("--expect", o.expect,
                   "As for sweep; default: the --expect the shards were given")
      ->type_name("V");
  merge
      ->add_option("--show", o.show_failures,
                   "How many failing seeds to describe (each shard must list as many)")
      ->type_name("N")
      ->check(unsigned_integer(0))
      ->capture_default_str();
  merge->add_option("--format", o.format, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("F")
      ->capture_default_str();
  merge->footer(kMergeFooter);
  return merge;
}

CLI::App* shrink_options(CLI::App& app, ShrinkCommandOptions& o) {
  CLI::App* shrink =
      app.add_subcommand("shrink", "Shrink a failing seed to a minimal, editable scenario file");
  shrink->add_option("file", o.file, "Scenario file")->required()->type_name("FILE");
  shrink->add_option("--seed", o.seed, "The failing seed (from eosim sweep)")
      ->required()
      ->type_name("N")
      ->check(unsigned_integer(0));
  shrink
      ->add_option("-o,--output", o.output,
                   "Write the minimal scenario here (a new file unless --force)")
      ->type_name("OUT.toml");
  shrink->add_flag("--force", o.force, "-o may replace an existing file (never FILE)");
  shrink->add_option("--faults", o.faults, "The --faults the sweep used")->type_name("SPEC");
  shrink->add_flag("--as-run", o.as_run,
                   "Shrink the run `eosim run FILE --seed N` makes (the file's own faults "
                   "only), not the sweep's");
  add_design_options(shrink, o.overrides,
                     {"The --strategy the sweep used", "The --producer the sweep used"});
  shrink->footer(kShrinkFooter);
  return shrink;
}

CLI::App* explore_options(CLI::App& app, ExploreCommandOptions& o) {
  CLI::App* explore =
      app.add_subcommand("explore", "Try every placement of up to K faults on a small workload");
  explore->add_option("file", o.file, "Scenario file (keep it small: 1-3 orders)")
      ->required()
      ->type_name("FILE");
  explore->add_option("--max-faults", o.max_faults, "Faults placed per schedule (K)")
      ->type_name("K")
      ->capture_default_str();
  explore
      ->add_option("--max-deviations", o.max_deviations,
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
  explore->add_option("--progress", o.progress, kProgressHelp)
      ->check(CLI::IsMember(
          std::vector<std::string>(std::begin(kProgressValues), std::end(kProgressValues))))
      ->type_name("WHEN")
      ->capture_default_str();
  explore->add_flag("--no-merge", o.no_merge,
                    "Run every fault placement, even one that goes on from the same run state "
                    "as an earlier one with the same budget, or (keyed draws) one that fires "
                    "before its schedule change (slower; for comparison)");
  explore->add_flag("--compare", o.compare,
                    "Also run the search without merging and report its schedule count, the "
                    "reduction factor and whether both found the same outcome classes");
  explore
      ->add_option("--draws", o.draws,
                   "How runs draw latencies and tie-breaks: sequence (the seed's generator "
                   "in turn, as `eosim run`) or keyed (each hashed from what it decides, so "
                   "runs in one state draw alike and merge far more); replaces the file's")
      ->type_name("MODE")
      ->capture_default_str();
  add_design_options(explore, o.overrides);
  explore
      ->add_option("-o,--output", o.output,
                   "Write the first counterexample here (a new file unless --force)")
      ->type_name("OUT.toml");
  explore->add_flag("--force", o.force, "-o may replace an existing file (never FILE)");
  explore->add_option("--expect", o.expect, "exactly-once (no violation) or violation")
      ->type_name("V");
  explore->add_option("--format", o.format, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("F")
      ->capture_default_str();
  explore->footer(kExploreFooter);
  return explore;
}

CLI::App* matrix_options(CLI::App& app, MatrixCommandOptions& o) {
  CLI::App* matrix =
      app.add_subcommand("matrix", "Which design survives which fault: strategies x fault sites");
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
  matrix->footer(kMatrixFooter);
  return matrix;
}

}  // namespace

Command add_sweep_command(CLI::App& app) {
  return make_command<SweepCommandOptions>(app, sweep_options, [](SweepCommandOptions& o) {
    o.terminal = progress_wanted();
    return sweep_command(o, std::cout, std::cerr);
  });
}

Command add_merge_command(CLI::App& app) {
  return make_command<MergeCommandOptions>(app, merge_options, [](MergeCommandOptions& o) {
    return merge_command(o, std::cout, std::cerr);
  });
}

Command add_shrink_command(CLI::App& app) {
  return make_command<ShrinkCommandOptions>(app, shrink_options, [](ShrinkCommandOptions& o) {
    return shrink_command(o, std::cout, std::cerr);
  });
}

Command add_explore_command(CLI::App& app) {
  return make_command<ExploreCommandOptions>(app, explore_options, [](ExploreCommandOptions& o) {
    o.terminal = progress_wanted();
    return explore_command(o, std::cout, std::cerr);
  });
}

Command add_matrix_command(CLI::App& app) {
  return make_command<MatrixCommandOptions>(app, matrix_options, [](MatrixCommandOptions& o) {
    return matrix_command(o, std::cout, std::cerr);
  });
}

}  // namespace cli
