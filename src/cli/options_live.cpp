// The options of `eosim live`: scenarios against a real RabbitMQ.

#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/options.h"

namespace cli {

namespace {

constexpr const char* kLiveFooter =
    "Runs each scenario against a real RabbitMQ: a private one on loopback started for\n"
    "the command and stopped after it (rabbitmq-server must be installed: sudo bash\n"
    "scripts/setup.sh), or yours with --broker. The order service, relay and every\n"
    "consumer run as processes of their own - the same code as in the simulator - with\n"
    "SQLite files in a run folder; the same checker reads the same tables and prints\n"
    "the same report, marked `mode: live`.\n"
    "\n"
    "Faults: a crash site (consumer.after_commit, relay.after_publish, ...) SIGKILLs the\n"
    "actor's process exactly there, and it is restarted after its restart delay;\n"
    "db.commit fails the commit. Every actor reaches the broker through a fault proxy:\n"
    "a network rule (net.consumer->broker, frame basic.ack, nth 2, ...) drops the\n"
    "matching frame and breaks that connection, or freezes it (a silent peer).\n"
    "broker.restart / broker.crash stop (SIGTERM / SIGKILL) and restart the private\n"
    "broker as the publisher sends that order's message; [broker] consumer_timeout sets\n"
    "the private broker's node setting. Both are refused with --broker (exit 2).\n"
    "Random ratios and tick/step triggers are refused (exit 2): a live run takes\n"
    "faults on content only, so it ends the same way every time. An order redelivered\n"
    "20 times while nothing else changes ends the run as a redelivery loop. docs/live.md\n"
    "\n"
    "A live sweep (--seeds A..B --faults kill=1/3,drop=1/4) runs the scenario once per\n"
    "seed, each with faults on the consumers' links that the seed draws before the run:\n"
    "the fault proxy kills a consumer as its kth delivery reaches it (or a drawn 1-100 ms\n"
    "later) or after its kth ack, loses a delivery or an ack, or freezes the connection.\n"
    "A seed means the same faults every time; timing may differ. A failing seed's run\n"
    "folder is kept and the command that replays its schedule printed\n"
    "(docs/your-consumer.md).\n"
    "\n"
    "The private broker is /usr/lib/rabbitmq/bin/rabbitmq-server, or the one in the\n"
    "folder EOSIM_RABBITMQ_BIN names.\n"
    "\n"
    "Examples:\n"
    "  eosim live scenarios/02-crash-between-commit-and-ack.toml\n"
    "  eosim live scenarios/02-crash-between-commit-and-ack.toml --strategy no-dedup "
    "--keep-db run02\n"
    "  eosim-gui --trace run02/trace.jsonl      # step through it, read-only\n"
    "  eosim live scenarios/01-happy-path.toml --consumer 'python3 my_consumer.py' "
    "--seeds 1..20\n"
    "\n"
    "A scenario file whose keys a live run cannot honour is refused naming the key; in a\n"
    "folder the others still run and the command exits 2 at the end. A broker that\n"
    "cannot be read during a run gives an error, never a verdict. Temporary folders of\n"
    "an eosim killed earlier are removed. The report names the broker and its version.\n"
    "\n"
    "Exit codes: 0 expectations met, 1 an expectation failed (a scripted fault that never\n"
    "fired too) or a run timed out, 2 bad input (file, URL, a key or fault that cannot run\n"
    "live, unreachable broker, login, vhost or permission refused - with the broker's\n"
    "reply code - no rabbitmq-server, a used --keep-db folder), 3 the broker lost during a\n"
    "run or another internal error.";

// The options for the user's own consumer (docs/your-consumer.md).
void consumer_options(CLI::App* live, LiveCommandOptions& o) {
  live->add_option("--consumer", o.consumer,
                   "Run this shell command as the consumer, in place of eosim's own "
                   "(docs/your-consumer.md: its environment, the message, failpoints)")
      ->type_name("CMD");
  live->add_option("--consumers", o.consumers, "Run N copies of the consumer (instances)")
      ->type_name("N")
      ->check(CLI::Range(1, 16));
  live->add_option("--effects-query", o.effects_query,
                   "With your consumer: the SQL on its ledger that gives one row per applied "
                   "effect, the order id first (default: SELECT order_id FROM debits)")
      ->type_name("SQL");
  live->add_option("--seeds", o.seeds,
                   "A live sweep: one run per seed, each with the fault schedule the seed draws "
                   "(--faults) on top of the file's rules; one seed N replays that run's schedule "
                   "(same faults, timing may differ)")
      ->type_name("A..B");
  live->add_option("--faults", o.faults,
                   "With --seeds: chances per order of kill (the consumer SIGKILLed as a delivery "
                   "reaches it or after an ack), drop (an ack or delivery lost) and freeze (its "
                   "connection silent), e.g. kill=1/3,drop=1/4 (default kill=1/3,drop=1/3)")
      ->type_name("SPEC");
  live->add_option("--jobs", o.jobs,
                   "Run this many live runs at once, each on its own queues, fault proxy and run "
                   "folder, on the one broker: the seeds of --seeds A..B, or several scenario "
                   "files (those that restart the broker or the database, or set "
                   "consumer_timeout, then run one at a time; each report is printed whole as "
                   "its run ends) (default 1)")
      ->type_name("N")
      ->check(CLI::Range(1, 16));
}

CLI::App* live_options(CLI::App& app, LiveCommandOptions& o) {
  CLI::App* live = app.add_subcommand(
      "live", "Run scenarios against a real RabbitMQ, each actor its own process");
  live->add_option("files", o.inputs, "Scenario files, or directories of *.toml files")
      ->required()
      ->type_name("FILE|DIR");
  live->add_option("--broker", o.broker,
                   "Use this broker (amqp://user:pass@host:port/vhost) instead of a private "
                   "one; only queues named for the run are declared, read and deleted")
      ->type_name("URL");
  live->add_option("--store", o.store,
                   "Where the stores live: sqlite (files in the run folder), postgres (a "
                   "private PostgreSQL 15 on loopback), or postgres://user:pass@host:port/db "
                   "(your server: a new schema per run, nothing of yours touched)")
      ->type_name("S")
      ->capture_default_str();
  live->add_option("--dedup-store", o.dedup_store,
                   "redis: a design with a separate dedup store keeps its keys in a private "
                   "redis-server on loopback (SET NX, dedup_retention as the keys' TTL) "
                   "instead of a table beside the other stores; the consumers reach it "
                   "through the fault proxy (dedup.mark_reply drops the reply to a mark)")
      ->type_name("redis");
  add_design_options(live, o.overrides, {.choices = false});
  live->add_option("--keep-db", o.keep_db,
                   "Keep the run folder in DIR: SQLite files, each actor's log and trace, and "
                   "trace.jsonl (the merged trace, which eosim-gui --trace steps through); with "
                   "--store postgres also the stopped PostgreSQL cluster (DIR/postgres)")
      ->type_name("DIR");
  live->add_option("--timeout", o.timeout_s,
                   "Stop a run that has not settled after SEC seconds and report what is stuck")
      ->type_name("SEC")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  live->add_option("--tick-ms", o.tick_ms, "Wall milliseconds per scenario tick")
      ->type_name("MS")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  live->add_option("--format", o.format,
                   "Output format: text, json, or jsonl (the merged trace of every process, "
                   "then the summary)")
      ->check(CLI::IsMember({"text", "json", "jsonl"}))
      ->type_name("F")
      ->capture_default_str();
  live->add_flag(
      "--compare", o.compare,
      "Also run each scenario in the model and print, per order, the model's "
      "outcome, the live one and whether they agree (exit 1 if any differs or a run timed out); "
      "a tally line ends it, and --format json prints one object per scenario, then the tally");
  consumer_options(live, o);
  live->footer(kLiveFooter);
  return live;
}

}  // namespace

Command add_live_command(CLI::App& app) {
  return make_command<LiveCommandOptions>(app, live_options, [](LiveCommandOptions& o) {
    o.progress = progress_wanted();
    o.colour = colour_wanted();
    return live_command(o, std::cout, std::cerr);
  });
}

}  // namespace cli
