// `eosim live`: scenarios against a real RabbitMQ (src/live/live_run.h), with the report of
// `eosim run` headed "mode: live"; `--compare` runs each in the model too and compares per
// order. Built only with librabbitmq-dev (EOSIM_HAVE_LIVE); without it the command says so.
// `eosim live-actor` (hidden, not parsed by CLI11) is one actor process of a live run.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "src/cli/commands.h"
#include "src/prose/printable.h"
#include "src/report/report_format.h"
#include "src/world/world.h"

#ifdef EOSIM_HAVE_LIVE
#include "src/live/actor_process.h"
#include "src/live/amqp_client.h"
#include "src/live/launcher.h"
#include "src/live/live_run.h"
#include "src/live/process.h"
#include "src/orders/order_key.h"
#endif

namespace cli {

#ifndef EOSIM_HAVE_LIVE

int live_command(const LiveCommandOptions&, std::ostream&, std::ostream& err) {
  err << "eosim: live: this eosim was built without librabbitmq-dev (sudo bash "
         "scripts/setup.sh, then rebuild)\n";
  return kExitBadInput;
}

int live_actor_main(int, char**) { return kExitBadInput; }

#else

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string self_exe() {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).string();
}

std::string replay_of(const LiveCommandOptions& o, const std::string& file) {
  std::string line = "eosim live " + lab::shell_quoted(file);
  if (!o.strategy.empty()) line += " --strategy " + o.strategy;
  if (!o.producer.empty()) line += " --producer " + o.producer;
  if (!o.broker.empty()) line += " --broker URL";
  return line;
}

// Where a run keeps its files: DIR itself for one scenario, DIR/<file stem> for several.
std::string keep_dir_for(const LiveCommandOptions& o, const std::string& file, bool several) {
  if (o.keep_db.empty()) return "";
  if (!several) return o.keep_db;
  return (std::filesystem::path(o.keep_db) / std::filesystem::path(file).stem()).string();
}

struct Loaded {
  std::string file;
  lab::Scenario scenario;
};

// Loads every file; a scenario that cannot run live is an error for a single file and a
// note (skipped) in a folder.
int load_all(const LiveCommandOptions& o, const std::vector<std::string>& files,
             std::vector<Loaded>& out, std::ostream& err) {
  int exit_code = kExitOk;
  for (const auto& file : files) {
    Loaded l{file, {}};
    lab::LoadError load_error;
    if (!lab::load_scenario(file, l.scenario, load_error)) {
      err << load_error.to_string() << '\n';
      exit_code = worse(exit_code, kExitBadInput);
      continue;
    }
    l.scenario = lab::with_overrides(std::move(l.scenario), std::nullopt, o.strategy, o.producer);
    std::string refusal = live::live_refusal(l.scenario);
    if (refusal.empty() && !o.broker.empty()) refusal = live::broker_refusal(l.scenario);
    if (!refusal.empty()) {
      err << "eosim: live: " << file << ": " << refusal << '\n';
      if (files.size() == 1) return kExitBadInput;
      continue;  // a folder: the others still run
    }
    out.push_back(std::move(l));
  }
  return exit_code;
}

// The broker: the user's (checked by connecting once) or a private one started now.
int open_broker(const LiveCommandOptions& o, live::Endpoint& endpoint,
                std::unique_ptr<live::PrivateBroker>& own, std::ostream& err) {
  if (!o.broker.empty()) {
    if (live::Status st = live::parse_amqp_url(o.broker, endpoint); !st.ok()) {
      err << "eosim: live: --broker: " << st.message << '\n';
      return kExitBadInput;
    }
    std::unique_ptr<live::AmqpClient> probe;
    if (live::Status st = live::AmqpClient::connect(endpoint, {}, probe); !st.ok()) {
      err << "eosim: live: broker unreachable: " << st.message << '\n';
      return kExitBadInput;
    }
    return kExitOk;
  }
  if (o.progress) err << "live: starting a private RabbitMQ on loopback...\n";
  live::LaunchOptions launch;
  // consumer_timeout is checked on each channel's tick (60 s by default): a short tick
  // closes an expired channel within 20 ms of its timeout, as the model does within 1 tick.
  launch.channel_tick_ms = 20;
  if (const char* dir = std::getenv("EOSIM_RABBITMQ_BIN"); dir != nullptr && *dir != '\0') {
    launch.rabbitmq_bin_dir = dir;
  }
  if (live::Status st = live::PrivateBroker::start(launch, own); !st.ok()) {
    err << "eosim: live: " << st.message << '\n';
    return kExitBadInput;
  }
  endpoint = own->endpoint();
  return kExitOk;
}

// The JSON summary of a live run: report_json's object with the live run's own fields.
nlohmann::ordered_json live_json(const LiveCommandOptions& o, const lab::RunRecord& record,
                                 const live::LiveResult& result) {
  nlohmann::ordered_json j = lab::report_json(record);
  j["mode"] = "live";
  j["wall_ms"] = result.wall_ms;
  j["tick_ms"] = o.tick_ms;
  j["restarts"] = result.restarts;
  j["broker_restarts"] = result.broker_restarts;
  j["broker_restart_ms"] = result.broker_restart_ms;
  j["timed_out"] = result.timed_out;
  if (!result.loop.empty()) j["loop"] = result.loop;
  if (!o.keep_db.empty()) j["run_dir"] = result.run_dir;
  return j;
}

// The merged trace, then {"summary": live_json}: what `eosim-gui --trace` opens.
void write_live_jsonl(std::ostream& out, const LiveCommandOptions& o,
                      const lab::RunRecord& record, const live::LiveResult& result) {
  sim::write_jsonl(out, result.trace, orders::kKeyNames);
  const nlohmann::ordered_json line = {{"summary", live_json(o, record, result)}};
  out << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void print_live(const LiveCommandOptions& o, const lab::RunRecord& record,
                const live::LiveResult& result, std::ostream& out) {
  if (o.format == "jsonl") {
    write_live_jsonl(out, o, record, result);
    return;
  }
  if (o.format == "json") {
    out << live_json(o, record, result).dump() << '\n';
    return;
  }
  out << "mode: live (a real RabbitMQ; every actor its own process)\n";
  out << lab::format_report_text(record, lab::TextStyle{o.colour, 88});
  out << "live: " << result.wall_ms / 1000 << '.' << (result.wall_ms % 1000) / 100
      << " s until settled (1 tick = " << o.tick_ms << " ms), " << result.restarts
      << " actor restart(s) after a crash site";
  if (result.broker_restarts > 0) {
    out << ", " << result.broker_restarts << " broker restart(s) taking "
        << result.broker_restart_ms / 1000 << '.' << (result.broker_restart_ms % 1000) / 100
        << " s";
  }
  if (!o.keep_db.empty()) out << ", files in " << result.run_dir;
  out << '\n';
  if (!result.loop.empty()) out << "live: " << result.loop << '\n';
  if (result.timed_out) {
    out << "TIMEOUT: the run did not settle within " << o.timeout_s
        << " s; at the end: " << result.still_going << '\n';
  }
}

// One order's effect as a comparison shows it: outcome and debit count, and the emails
// sent when the design has that side effect.
std::string order_cell(const lab::OrderOutcome* o, bool emails) {
  if (o == nullptr) return "-";
  std::string cell = std::string(lab::outcome_name(o->outcome)) + " (" +
                     std::to_string(o->debits) + " debit" + (o->debits == 1 ? "" : "s");
  if (emails) cell += ", " + std::to_string(o->effects) + " email" + (o->effects == 1 ? "" : "s");
  return cell + ")";
}

const lab::OrderOutcome* find_order(const lab::Report& r, std::int64_t order) {
  for (const auto& o : r.orders) {
    if (o.order == order) return &o;
  }
  return nullptr;
}

// After a deferred Ctrl-C (or SIGTERM, SIGHUP): everything this command started is stopped
// and its temporary folders are removed by now; the command dies of the signal.
[[noreturn]] void end_interrupted(std::ostream& err) {
  err << "eosim: live: interrupted; the run's processes and the private broker are stopped, "
         "temporary folders removed\n";
  err.flush();
  live::end_interrupted();
}

// Per order: the model's outcome, the live one, and whether they agree (outcome, debit
// count, and email count when either side checked emails). True when every order and the
// verdict agree; false for a live run cut short at its timeout (not compared).
bool print_comparison(const std::string& file, const lab::RunSummary& model,
                      const lab::RunSummary& real, std::ostream& out) {
  std::vector<std::int64_t> orders;
  for (const auto* r : {&model.report, &real.report}) {
    for (const auto& o : r->orders) orders.push_back(o.order);
  }
  std::sort(orders.begin(), orders.end());
  orders.erase(std::unique(orders.begin(), orders.end()), orders.end());
  const bool emails = model.report.effects_checked || real.report.effects_checked;
  const int width = emails ? 36 : 26;
  out << file << "\n  order  " << std::left << std::setw(width + 1) << "model"
      << std::setw(width + 1) << "live" << "agree\n" << std::right;
  bool all = model.report.verdict == real.report.verdict;
  char line[200];
  for (const std::int64_t n : orders) {
    const lab::OrderOutcome* m = find_order(model.report, n);
    const lab::OrderOutcome* l = find_order(real.report, n);
    const bool same = m != nullptr && l != nullptr && m->outcome == l->outcome &&
                      m->debits == l->debits && (!emails || m->effects == l->effects);
    all = all && same;
    std::snprintf(line, sizeof line, "  %5lld  %-*s %-*s %s\n", static_cast<long long>(n),
                  width, order_cell(m, emails).c_str(), width, order_cell(l, emails).c_str(),
                  same ? "yes" : "NO");
    out << line;
  }
  out << "  verdict: model " << model.report.verdict << ", live " << real.report.verdict;
  if (!real.cut_short.empty()) {
    // The live run's end was never reached: there is nothing to agree or disagree with.
    out << "  -> not compared: the live run was " << real.cut_short << "\n";
    return false;
  }
  out << (all ? "  -> agree" : "  -> DISAGREE") << "\n";
  return all;
}

}  // namespace

int live_actor_main(int argc, char** argv) {
  live::ActorArgs args;
  if (const live::Status parsed = live::parse_actor_args(argc, argv, args); !parsed.ok()) {
    std::cerr << parsed.message << '\n';
    return kExitBadInput;
  }
  return live::run_actor(args, std::cerr);
}

int live_command(const LiveCommandOptions& o, std::ostream& out, std::ostream& err) {
  if (const eosim::Status checked = check_overrides(o.strategy, o.producer); !checked.ok()) {
    err << "eosim: " << lab::printable(checked.message) << '\n';
    return kExitBadInput;
  }
  std::vector<std::string> files;
  if (const eosim::Status expanded = expand_inputs(o.inputs, files); !expanded.ok()) {
    err << "eosim: " << lab::printable(expanded.message) << '\n';
    return kExitBadInput;
  }
  std::vector<Loaded> runs;
  int exit_code = load_all(o, files, runs, err);
  if (exit_code == kExitBadInput && files.size() == 1) return exit_code;
  if (runs.empty()) return worse(exit_code, kExitBadInput);

  // A signal handler cannot remove folders: the first Ctrl-C stops the run in order.
  live::defer_interrupts();
  live::Endpoint endpoint;
  std::unique_ptr<live::PrivateBroker> own;
  if (const int code = open_broker(o, endpoint, own, err); code != kExitOk) {
    if (live::interrupted() != 0) end_interrupted(err);  // `own` removed its folder
    return code;
  }

  for (const Loaded& l : runs) {
    if (live::interrupted() != 0) break;
    live::LiveOptions lo;
    lo.keep_db = keep_dir_for(o, l.file, runs.size() > 1);
    lo.timeout_s = o.timeout_s;
    lo.tick_ms = o.tick_ms;
    lo.strategy = o.strategy;
    lo.producer = o.producer;
    lo.self_exe = self_exe();
    lo.broker = own.get();
    if (o.progress) {
      lo.progress = [&err](const std::string& line) { err << '\r' << line << "\x1b[K" << std::flush; };
    }
    live::LiveResult result;
    const auto live_started = std::chrono::steady_clock::now();
    const live::Status st = live::run_live(l.scenario, endpoint, lo, result);
    const double live_s = seconds_since(live_started);
    if (o.progress) err << "\r\x1b[K" << std::flush;
    if (o.keep_db.empty() && !result.run_dir.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(result.run_dir, ec);
    }
    if (live::interrupted() != 0) break;
    if (!st.ok()) {
      err << "eosim: live: " << l.file << ": " << st.message << '\n';
      exit_code = worse(exit_code, kExitInternal);
      continue;
    }
    if (o.compare) {
      lab::RunSummary model;
      lab::WorldOptions world;
      world.keep_trace = false;
      const auto model_started = std::chrono::steady_clock::now();
      if (const eosim::Status ran = lab::run_scenario(l.scenario, world, model, nullptr);
          !ran.ok()) {
        err << "eosim: live: " << l.file << ": cannot build the model's world: " << ran.message
            << '\n';
        exit_code = worse(exit_code, kExitInternal);
        continue;
      }
      const double model_s = seconds_since(model_started);
      const bool agree = print_comparison(l.file, model, result.summary, out);
      char times[200];
      std::snprintf(times, sizeof times,
                    "  time: model %.4f s (%llu steps, %llu ticks); live %.2f s in all, settled "
                    "after %.2f s",
                    model_s, static_cast<unsigned long long>(model.steps),
                    static_cast<unsigned long long>(model.time), live_s,
                    static_cast<double>(result.wall_ms) / 1000.0);
      out << times;
      if (result.broker_restarts > 0) {
        std::snprintf(times, sizeof times, " (%.2f s of it restarting the broker)",
                      static_cast<double>(result.broker_restart_ms) / 1000.0);
        out << times;
      }
      out << '\n';
      if (!result.loop.empty()) out << "  (live: " << result.loop << ")\n";
      if (result.timed_out) {
        out << "  (live: stopped at the timeout, " << o.timeout_s << " s: " << result.still_going
            << ")\n";
      }
      // A run stopped at its timeout had not settled: what it is compared with is not its
      // end, so it fails (exit 1, as without --compare) even where the orders agree so far.
      if (!agree || result.timed_out) exit_code = worse(exit_code, kExitExpectFailed);
      continue;
    }
    const std::vector<std::string> unmet = lab::unmet_expectations(l.scenario, result.summary);
    const lab::RunRecord record{l.scenario, result.summary, unmet, replay_of(o, l.file)};
    print_live(o, record, result, out);
    // A kept run folder holds the merged trace too, for the GUI (the run folder is new or
    // was refused above when it held a run, so nothing of the user's is replaced).
    if (!o.keep_db.empty()) {
      std::ofstream trace(result.run_dir + "/trace.jsonl");
      write_live_jsonl(trace, o, record, result);
      if (!trace) {
        err << "eosim: live: cannot write " << result.run_dir << "/trace.jsonl\n";
        exit_code = worse(exit_code, kExitInternal);
      }
    }
    if (!unmet.empty() || result.timed_out) exit_code = worse(exit_code, kExitExpectFailed);
  }
  if (own) own->stop();
  if (live::interrupted() != 0) end_interrupted(err);
  return exit_code;
}

#endif

}  // namespace cli
