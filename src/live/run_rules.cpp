#include "src/live/run_rules.h"

#include <algorithm>

#include "src/catalog/fault_sites.h"

namespace live {

namespace {

// Whether `name` is the catalog's site `id`.
bool at_site(const std::string& name, lab::Site id) {
  const lab::FaultSite* site = lab::find_fault_site(name);
  return site != nullptr && site->id == id;
}

// Live so far: a process that kills itself at its site, a failing commit, a network rule
// the fault proxy applies (net_faults.h), and the private broker stopped (or killed) and
// started again.
bool live_site(const std::string& name) {
  const lab::FaultSite* site = lab::find_fault_site(name);
  // The database link's faults: the consumer process carries them out on its own
  // connection, and the supervisor restarts a private PostgreSQL (database_refusal).
  if (site != nullptr && orders::scripted_only(site->id)) return true;
  return site != nullptr &&
         (site->is_network() || site->action == lab::Action::kCrash ||
          site->action == lab::Action::kFail || site->action == lab::Action::kRestart ||
          site->action == lab::Action::kKill);
}

}  // namespace

bool is_broker_stop(const std::string& site) {
  return at_site(site, lab::Site::kBrokerRestart) || at_site(site, lab::Site::kBrokerCrash);
}

bool is_broker_kill(const std::string& site) { return at_site(site, lab::Site::kBrokerCrash); }

bool is_wire_database_rule(const sim::FaultRule& rule) {
  const lab::FaultSite* site = lab::find_fault_site(rule.site);
  return site != nullptr && orders::is_commit_reply(site->id);
}

bool is_wire_dedup_rule(const sim::FaultRule& rule) {
  const lab::FaultSite* site = lab::find_fault_site(rule.site);
  return site != nullptr && orders::is_mark_reply(site->id);
}

bool is_database_restart(const std::string& name) {
  const lab::FaultSite* site = lab::find_fault_site(name);
  return site != nullptr && orders::is_db_restart(site->id);
}

bool kills_broker(const lab::Scenario& s) {
  return std::any_of(s.script.begin(), s.script.end(),
                     [](const sim::FaultRule& r) { return is_broker_kill(r.site); });
}

bool runs_alongside(const lab::Scenario& s) {
  // A clean stop of the broker ends every run's connections just as a kill does.
  const bool restarts = std::any_of(s.script.begin(), s.script.end(), [](const sim::FaultRule& r) {
    return is_broker_stop(r.site) || is_database_restart(r.site);
  });
  return !restarts && s.broker.consumer_timeout <= 0;
}

namespace {

// Keys of the scenario outside its fault script that a live run cannot honour: the
// model's draws and its simulated network's timing, which a live run does not have.
std::string key_refusal(const lab::Scenario& s) {
  if (s.seed_sensitive) {
    return "seed_sensitive = true cannot run live: the lesson shows only for some seeds, and a "
           "live run has no seed to pick them (the machine's timing takes the place of the "
           "model's draws)";
  }
  const lab::NetworkConfig defaults;
  if (s.network.latency_min != defaults.latency_min ||
      s.network.latency_max != defaults.latency_max) {
    return "[network] latency_min = " + std::to_string(s.network.latency_min) +
           ", latency_max = " + std::to_string(s.network.latency_max) +
           " cannot run live: frames take the real network's time (on loopback well under a "
           "tick), and a scenario that sets its latency depends on it";
  }
  if (s.network.client_timeout) {
    return "[network] client_timeout cannot run live: the real client library (rabbitmq-c) "
           "notices a silent broker after its own number of heartbeats";
  }
  return "";
}

// Why rule number `number` (1-based) of the script cannot run live, or "".
std::string rule_refusal(const sim::FaultRule& rule, std::size_t number) {
  const std::string key = "faults.script[" + std::to_string(number) + "]";
  if (rule.tick || rule.step || rule.after_step) {
    return key + ": fault at " + rule.site +
           " is triggered by a tick or step, which wall time would decide; live runs take "
           "rules on content only (order, attempt, frame, nth)";
  }
  if (!live_site(rule.site)) {
    return key + ": fault at " + rule.site + " (" + std::string(lab::action_name(rule.action)) +
           ") cannot run live yet: live runs take crash sites, db.commit, the database "
           "link's sites (db.commit_reply, db.restart, db.producer_*), network rules, "
           "broker.restart and broker.crash";
  }
  const lab::FaultSite* site = lab::find_fault_site(rule.site);
  if (rule.nth && !site->is_network()) {
    return key + ".nth at " + rule.site +
           " cannot run live: each actor process counts its own opportunities and a "
           "restarted one starts again from 1, where the model counts over the whole run "
           "(the fault proxy's network rules do count over the run); use order and attempt";
  }
  return "";
}

}  // namespace

std::string live_refusal(const lab::Scenario& s) {
  for (const auto& [kind, ratio] : s.random.ratios) {
    if (ratio.numerator > 0) {
      return "random fault ratios ([faults.random] " + kind +
             ") cannot run live: a live run takes only scripted faults";
    }
  }
  for (std::size_t i = 0; i < s.script.size(); ++i) {
    if (std::string why = rule_refusal(s.script[i], i + 1); !why.empty()) return why;
  }
  return key_refusal(s);
}

std::string database_refusal(const lab::Scenario& s, bool users_server) {
  if (!users_server) return "";
  for (std::size_t i = 0; i < s.script.size(); ++i) {
    if (is_database_restart(s.script[i].site)) {
      return "faults.script[" + std::to_string(i + 1) + "]: fault at " + s.script[i].site +
             " restarts the database: only the private PostgreSQL eosim starts (--store "
             "postgres) or SQLite is restarted, never a server given with --store "
             "postgres://...";
    }
  }
  return "";
}

std::string broker_refusal(const lab::Scenario& s) {
  if (s.broker.consumer_timeout > 0) {
    return "[broker] consumer_timeout is a setting of the whole RabbitMQ node (3.10 has no "
           "per-queue one): only the private RabbitMQ eosim starts (no --broker) is set";
  }
  for (std::size_t i = 0; i < s.script.size(); ++i) {
    const sim::FaultRule& rule = s.script[i];
    if (is_broker_stop(rule.site)) {
      return "faults.script[" + std::to_string(i + 1) + "]: fault at " + rule.site +
             " stops the broker: only the private RabbitMQ eosim starts (no --broker) is "
             "restarted, never a broker given with --broker";
    }
  }
  return "";
}

}  // namespace live
