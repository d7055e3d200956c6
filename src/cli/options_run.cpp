// The options of `eosim run` and of the commands that read one run or the catalog:
// compare, list, generals and bench kernel.

#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/options.h"

namespace cli {

namespace {

constexpr const char* kRunFooter =
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
    "--db says where the databases live without --keep-db: memory, or files in a\n"
    "private folder made under $TMPDIR (else /tmp) and removed after the run, whose\n"
    "pages the OS caches outside the process: a long run's memory stays small, at\n"
    "some cost in time. auto (the default) takes files from 100,000 orders on. The run\n"
    "is the same either way: same trace, verdict and report.\n"
    "--fixed runs a broken scenario's corrected design (the file's `fixed` key) on the\n"
    "same seed after it and prints both verdicts side by side; the twin must be\n"
    "exactly-once (exit 1 otherwise).\n"
    "--ack/--dedup/--errors/--poison replace one of the four choices of the consumer's\n"
    "preset (the file's, or --strategy's); `eosim list strategies` shows every value.\n"
    "--fault SITE[:KEY=VALUE,...] is one [[faults.script]] rule (keys: do, order,\n"
    "attempt, frame, nth, instance, tick, times; without `do` a rule takes the site's\n"
    "first action: drop on a network site, where freeze must be named); --faults\n"
    "takes sweep's SPEC (drop=1/20,crash=1/30).\n"
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
    "key, value, option), 3 internal error.";

constexpr const char* kCompareFooter =
    "Runs the left and the right scenario (with one FILE: the same file twice, the right\n"
    "one under --vs's strategy, as the GUI's compare mode) and says how long their traces\n"
    "are the same: \"identical until step N\", and the two events where they part.\n"
    "--format html writes one page (no network, opens from disk) with both runs on one\n"
    "slider: each run's diagram, broker, orders and tables at the step, the step where\n"
    "they part marked in both diagrams.\n"
    "\n"
    "Examples:\n"
    "  eosim compare scenarios/02-crash-between-commit-and-ack.toml --vs no-dedup\n"
    "  eosim compare scenarios/02-crash-between-commit-and-ack.toml --strategy atomic \\\n"
    "      --vs no-dedup --format html > compare.html\n"
    "  eosim compare scenarios/02-crash-between-commit-and-ack.toml \\\n"
    "      scenarios/03-crash-between-commit-and-ack-no-dedup.toml\n"
    "\n"
    "Exit codes: 0 compared (whatever the verdicts), 2 bad input, 3 internal error.";

constexpr const char* kListFooter =
    "Prints every name a scenario file may use, with one line of meaning each (from the\n"
    "same catalog the loader checks against), or the scenario files in --dir.\n"
    "\n"
    "Examples:\n"
    "  eosim list strategies\n"
    "  eosim list faults\n"
    "  eosim list scenarios --dir scenarios";

constexpr const char* kGeneralsFooter =
    "General A proposes \"attack at dawn\" by courier; each courier that arrives is answered\n"
    "by the next (ack, ack of the ack, ...) up to N. Prints the exchange, who knows what,\n"
    "each general's decision, the last courier that nobody can confirm (whatever N), and\n"
    "the same exchange read as broker -> consumer -> ack.\n"
    "\n"
    "Examples:\n"
    "  eosim generals\n"
    "  eosim generals --couriers 6 --loss 1/3 --seed 7\n"
    "  eosim generals --couriers 4 --loss 0 --capture 3\n"
    "  eosim generals --format mermaid > generals.mmd";

constexpr const char* kBenchKernelFooter =
    "Runs the kernel's synthetic ring (network frames, random drops, reconnects) for N\n"
    "events and prints events, frames, seconds, events/s and the trace hash. Only the\n"
    "timing varies between machines; the trace hash does not.\n"
    "\n"
    "Examples:\n"
    "  eosim bench kernel\n"
    "  eosim bench kernel --events 10000000";

CLI::App* run_options(CLI::App& app, RunOptions& o) {
  CLI::App* run = app.add_subcommand("run", "Run scenarios; report each order and the verdict");
  run->add_option("files", o.inputs, "Scenario files, or directories of *.toml files")
      ->required()
      ->type_name("FILE|DIR");
  add_optional(run, "--seed", o.overrides.seed, "Replace each file's seed (replays a run)")
      ->type_name("N")
      ->check(unsigned_integer(0));
  add_design_options(run, o.overrides);
  run->add_option("--format", o.format, "Output format (see below)")
      ->check(CLI::IsMember({"text", "json", "jsonl", "mermaid", "svg", "html"}))
      ->type_name("F")
      ->capture_default_str();
  add_fault_options(run, o.overrides);
  run->add_option("--keep-db", o.keep_db, "Keep the run's SQLite databases in DIR")
      ->type_name("DIR");
  run->add_option("--db", o.db,
                  "Where the databases live without --keep-db: memory, files (a private "
                  "temporary folder) or auto")
      ->check(CLI::IsMember({"auto", "memory", "files"}))
      ->type_name("WHERE")
      ->capture_default_str();
  run->add_flag("--force", o.force, "--keep-db may replace databases already in DIR");
  run->add_flag("-q,--quiet", o.quiet, "Text: only the verdict (one line per scenario)");
  run->add_flag("--fixed", o.fixed,
                "Also run each file's fixed twin (its `fixed` key) on the same seed and show "
                "both side by side");
  run->add_flag("-t,--trace", o.trace,
                "Text: print the whole exchange, one event per line, before the report");
  run->footer(kRunFooter);
  return run;
}

CLI::App* compare_options(CLI::App& app, CompareOptions& o) {
  CLI::App* compare = app.add_subcommand(
      "compare", "Two runs side by side (two files, or --strategy X --vs Y) and where they part");
  compare->add_option("files", o.files, "Scenario file(s): left, then right")
      ->required()
      ->expected(1, 2)
      ->type_name("FILE");
  add_optional(compare, "--seed", o.seed, "Replace both files' seed")
      ->type_name("N")
      ->check(unsigned_integer(0));
  compare
      ->add_option("--strategy", o.strategy,
                   "Replace the consumer strategy of both runs (eosim list strategies)")
      ->type_name("S");
  compare->add_option("--vs", o.vs, "Replace the right run's strategy (one FILE: required)")
      ->type_name("S");
  compare->add_option("--format", o.format, "text, or html (one self-contained page)")
      ->check(CLI::IsMember({"text", "html"}))
      ->type_name("F")
      ->capture_default_str();
  compare->footer(kCompareFooter);
  return compare;
}

CLI::App* list_options(CLI::App& app, ListOptions& o) {
  CLI::App* list = app.add_subcommand("list", "List strategies, producers, faults, scenarios...");
  list->add_option("topic", o.topic, "What to list")
      ->required()
      ->check(CLI::IsMember(cli::list_topics()))
      ->type_name("TOPIC");
  list->add_option("--dir", o.dir,
                   "Where `list scenarios` looks (default: ./scenarios, else eosim's own "
                   "beside the program or under PREFIX/share/eosim)")
      ->type_name("DIR");
  list->footer(kListFooter);
  return list;
}

CLI::App* generals_options(CLI::App& app, GeneralsCommandOptions& o) {
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
  generals
      ->add_option("--attack-level", o.attack_level,
                   "Rule: attack once your knowledge level reaches D")
      ->type_name("D")
      ->capture_default_str();
  generals->add_option("--capture", o.capture, "Capture courier N by script (repeatable)")
      ->type_name("N");
  generals->add_option("--format", o.format, "Output format: text, json or mermaid")
      ->check(CLI::IsMember({"text", "json", "mermaid"}))
      ->type_name("F")
      ->capture_default_str();
  generals->footer(kGeneralsFooter);
  return generals;
}

CLI::App* bench_options(CLI::App& app, BenchKernelOptions& o) {
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
  kernel->footer(kBenchKernelFooter);
  bench->footer("Examples:\n  eosim bench kernel --events 1000000");
  return kernel;
}

}  // namespace

Command add_run_command(CLI::App& app) {
  return make_command<RunOptions>(app, run_options, [](RunOptions& o) {
    o.colour = colour_wanted();
    return run_command(o, std::cout, std::cerr);
  });
}

Command add_compare_command(CLI::App& app) {
  return make_command<CompareOptions>(app, compare_options, [](CompareOptions& o) {
    return compare_command(o, std::cout, std::cerr);
  });
}

Command add_list_command(CLI::App& app) {
  return make_command<ListOptions>(
      app, list_options, [](ListOptions& o) { return list_command(o, std::cout, std::cerr); });
}

Command add_generals_command(CLI::App& app) {
  return make_command<GeneralsCommandOptions>(app, generals_options, [](GeneralsCommandOptions& o) {
    return generals_command(o, std::cout, std::cerr);
  });
}

Command add_bench_command(CLI::App& app) {
  return make_command<BenchKernelOptions>(
      app, bench_options, [](BenchKernelOptions& o) { return bench_kernel_command(o, std::cout); });
}

}  // namespace cli
