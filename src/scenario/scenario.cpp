// Scenario values: error text, per-order amounts, writing a scenario back as TOML,
// reading a file, and the sweep's --faults spec. The TOML reading itself is in
// scenario_load.cpp.

#include "src/scenario/scenario.h"

#include <cstring>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <sstream>
#include <utility>

#include "sim/assert.h"
#include "sim/escape.h"
#include "src/catalog/catalog.h"
#include "src/files/input_file.h"
#include "src/orders/order_key.h"
#include "src/prose/printable.h"

namespace lab {
namespace {

std::string trimmed(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return std::string(text);
}

std::string string_value(std::string_view text) {
  return "\"" + sim::escape(text, sim::escapes::kTomlBasic) + "\"";
}

std::string int_list(const std::vector<std::int64_t>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += (i == 0 ? "" : ", ") + std::to_string(values[i]);
  }
  return out + "]";
}

const char* bool_value(bool value) { return value ? "true" : "false"; }

// `key = "name"` for a choice given in the file; nothing for one left to the preset.
template <class E>
void write_choice(std::ostringstream& out, const char* key, const std::optional<E>& value) {
  if (value) out << key << " = " << string_value(sim::name_of(*value)) << "\n";
}

void write_producer(std::ostringstream& out, const ProducerConfig& p) {
  out << "\n[producer]\npattern = " << string_value(p.pattern) << "\n";
  write_choice(out, "delivery", p.delivery);
  if (p.confirms) out << "confirms = " << bool_value(*p.confirms) << "\n";
  write_choice(out, "order", p.order);
  if (p.message_id != ProducerConfig{}.message_id) {
    out << "message_id = " << string_value(sim::name_of(p.message_id)) << "\n";
  }
  if (p.restart_after != ProducerConfig{}.restart_after) {
    out << "restart_after = " << p.restart_after << "\n";
  }
  if (p.relay_restart_after != ProducerConfig{}.relay_restart_after) {
    out << "relay_restart_after = " << p.relay_restart_after << "\n";
  }
}

void write_consumer(std::ostringstream& out, const ConsumerConfig& c) {
  out << "\n[consumer]\n";
  out << "strategy = " << string_value(c.strategy) << "\n";
  write_choice(out, "ack", c.ack);
  write_choice(out, "dedup", c.dedup);
  write_choice(out, "errors", c.errors);
  write_choice(out, "poison", c.poison);
  const ConsumerConfig defaults;
  if (c.mark != defaults.mark) out << "mark = " << string_value(sim::name_of(c.mark)) << "\n";
  if (c.dedup_order != defaults.dedup_order) {
    out << "dedup_order = " << string_value(sim::name_of(c.dedup_order)) << "\n";
  }
  if (c.side_effect != defaults.side_effect) {
    out << "side_effect = " << string_value(sim::name_of(c.side_effect)) << "\n";
  }
  if (c.idempotency_key) out << "idempotency_key = true\n";
  if (c.dedup_retention != 0) out << "dedup_retention = " << c.dedup_retention << "\n";
  if (c.check != defaults.check) out << "check = " << string_value(sim::name_of(c.check)) << "\n";
  write_choice(out, "isolation", c.isolation);
  out << "instances = " << c.instances << "\n";
  out << "work_ticks = " << c.work_ticks << "\n";
  if (c.restart_after != defaults.restart_after) out << "restart_after = " << c.restart_after << "\n";
}

void write_rule(std::ostringstream& out, const sim::FaultRule& rule) {
  out << "\n[[faults.script]]\n";
  out << "at = " << string_value(rule.site) << "\n";
  out << "do = " << string_value(action_name(rule.action)) << "\n";
  if (rule.key[orders::kOrder]) out << "order = " << *rule.key[orders::kOrder] << "\n";
  if (rule.key[orders::kAttempt]) out << "attempt = " << *rule.key[orders::kAttempt] << "\n";
  if (rule.frame) out << "frame = " << string_value(*rule.frame) << "\n";
  if (rule.nth) out << "nth = " << *rule.nth << "\n";
  if (rule.key[orders::kInstance]) out << "instance = " << *rule.key[orders::kInstance] << "\n";
  if (rule.tick) out << "tick = " << *rule.tick << "\n";
  if (rule.times != 1) out << "times = " << rule.times << "\n";
  if (rule.step) out << "step = " << *rule.step << "\n";
  if (rule.after_step) out << "after_step = " << *rule.after_step << "\n";
  if (rule.optional) out << "optional = true\n";
}

void write_expect(std::ostringstream& out, const Expect& e) {
  if (e == Expect{}) return;
  out << "\n[expect]\n";
  if (e.verdict) out << "verdict = " << string_value(verdict_name(*e.verdict)) << "\n";
  if (e.balance) out << "balance = " << *e.balance << "\n";
  const std::pair<const char*, const std::optional<std::vector<std::int64_t>>*> lists[] = {
      {"lost", &e.lost},           {"duplicated", &e.duplicated},
      {"phantom", &e.phantom},     {"stuck", &e.stuck},
      {"dead_lettered", &e.dead_lettered}, {"rejected", &e.rejected},
      {"effects_duplicated", &e.effects_duplicated}, {"effects_lost", &e.effects_lost},
      {"effects_phantom", &e.effects_phantom}};
  for (const auto& [key, list] : lists) {
    if (*list) out << key << " = " << int_list(**list) << "\n";
  }
}

}  // namespace

std::string LoadError::to_string() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  out += ": ";
  if (!key.empty()) out += "key `" + key + "`: ";
  return printable(out + message);  // quotes the file's own text, which may hold controls
}

std::int64_t Workload::amount_of(std::int64_t order) const {
  EOSIM_ASSERT(order >= 1);
  EOSIM_ASSERT(order <= orders);
  if (amounts.empty()) return amount;
  EOSIM_ASSERT(static_cast<std::int64_t>(amounts.size()) == orders);
  return amounts[static_cast<std::size_t>(order - 1)];
}

std::string to_toml(const Scenario& s) {
  std::ostringstream out;
  out << "name = " << string_value(s.name) << "\n";
  if (s.about.find('\n') != std::string::npos) {
    // The newline right after the opening quotes is not part of the string.
    out << "about = \"\"\"\n" << sim::escape(s.about, sim::escapes::kTomlMultiLine) << "\"\"\"\n";
  } else {
    out << "about = " << string_value(s.about) << "\n";
  }
  // TOML integers stop at 2^63-1; larger seeds go out as decimal strings.
  if (s.seed > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    out << "seed = \"" << s.seed << "\"\n";
  } else {
    out << "seed = " << s.seed << "\n";
  }
  if (s.seed_sensitive) out << "seed_sensitive = true\n";
  if (s.max_steps != 0) out << "max_steps = " << s.max_steps << "\n";
  if (s.draws != sim::Draws::kSequence) {
    out << "draws = " << string_value(std::string(sim::name_of(s.draws))) << "\n";
  }
  if (!s.fixed.empty()) {
    out << "fixed = \"\"\"\n" << sim::escape(s.fixed, sim::escapes::kTomlMultiLine) << "\"\"\"\n";
  }

  const Workload& w = s.workload;
  out << "\n[workload]\n";
  out << "orders = " << w.orders << "\n";
  out << "amount = " << w.amount << "\n";
  out << "initial_balance = " << w.initial_balance << "\n";
  out << "account = " << string_value(w.account) << "\n";
  if (!w.amounts.empty()) out << "amounts = " << int_list(w.amounts) << "\n";
  if (!w.without_message_id.empty()) {
    out << "without_message_id = " << int_list(w.without_message_id) << "\n";
  }
  out << "interval_ticks = " << w.interval_ticks << "\n";

  write_producer(out, s.producer);

  const BrokerConfig& b = s.broker;
  out << "\n[broker]\n";
  out << "queue = " << string_value(sim::name_of(b.queue)) << "\n";
  out << "prefetch = " << b.prefetch << "\n";
  out << "delivery_limit = " << b.delivery_limit << "\n";
  out << "dead_letter = " << bool_value(b.dead_letter) << "\n";
  out << "durable = " << bool_value(b.durable) << "\n";
  out << "persistent = " << bool_value(b.persistent) << "\n";
  if (b.consumer_timeout > 0) out << "consumer_timeout = " << b.consumer_timeout << "\n";

  write_consumer(out, s.consumer);

  const NetworkConfig& n = s.network;
  out << "\n[network]\n";
  out << "latency_min = " << n.latency_min << "\n";
  out << "latency_max = " << n.latency_max << "\n";
  if (n.heartbeat) {
    out << "heartbeat = " << *n.heartbeat << "\n";
    if (n.client_timeout) out << "client_timeout = " << *n.client_timeout << "\n";
  } else {
    out << "heartbeat_timeout = " << n.heartbeat_timeout << "\n";
  }
  out << "reconnect_delay = " << n.reconnect_delay << "\n";

  out << "\n[faults]\n";
  out << "budget = " << s.random.budget << "\n";
  out << "horizon = " << s.random.horizon << "\n";
  if (!s.random.ratios.empty()) {
    out << "\n[faults.random]\n";
    for (const auto& [kind, ratio] : s.random.ratios) {
      out << kind << " = " << string_value(ratio.to_string()) << "\n";
    }
  }
  for (const sim::FaultRule& rule : s.script) write_rule(out, rule);
  write_expect(out, s.expect);
  return out.str();
}

std::int64_t step_bound(const Scenario& scenario) {
  return scenario.max_steps != 0 ? scenario.max_steps : 200'000 + 100 * scenario.workload.orders;
}

eosim::Result<Scenario> load_scenario(const std::string& path) {
  std::string text;
  if (eosim::Status read = read_scenario_file(path, text); !read.ok()) {
    return LoadError{path, 0, "", std::move(read.message)}.status();
  }
  return parse_scenario(text, path);
}

eosim::Status scenario_files_in(const std::string& dir, std::vector<std::string>& files) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    return eosim::Status::error(dir + ": cannot open the directory: " + ec.message());
  }
  std::vector<fs::path> found;
  for (const fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) break;
    const fs::path& path = it->path();
    std::error_code type_ec;
    if (path.extension() == ".toml" && !fs::is_directory(path, type_ec)) found.push_back(path);
  }
  if (ec) {
    return eosim::Status::error(dir + ": cannot read the directory: " + ec.message());
  }
  // Sorted by file name (not by directory order, which differs between file systems), so a
  // suite always runs and prints in the same order.
  std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
    return a.filename().string() < b.filename().string();
  });
  for (const auto& path : found) files.push_back(path.string());
  return eosim::Status::success();
}

eosim::Status read_scenario_file(const std::string& path, std::string& text) {
  return files::read_input_file(
      path, {"scenario file", kMaxScenarioBytes, "a scenario file is a few kB of TOML"}, text);
}

std::string rule_never_passed(const Scenario& s, const sim::FaultRule& rule) {
  const FaultSite* site = find_fault_site(rule.site);
  EOSIM_ASSERT(site != nullptr);  // invariant (1)
  const SiteFrame* frame = rule.frame ? site->frame(*rule.frame) : nullptr;
  return never_passed(*site, frame, s.producer.choices(), s.producer.label(), s.consumer.design(),
                      s.consumer.label());
}

eosim::Status check_script(const Scenario& s) {
  for (std::size_t i = 0; i < s.script.size(); ++i) {
    const std::string never = rule_never_passed(s, s.script[i]);
    if (never.empty()) continue;
    return LoadError{
        s.path, 0,
        "faults.script[" + std::to_string(i + 1) + "]." + (s.script[i].frame ? "frame" : "at"),
        never + " (after the command line's design options)"}
        .status();
  }
  return eosim::Status::success();
}

eosim::Status parse_fault_spec(const std::string& spec, std::map<std::string, sim::Ratio>& out) {
  std::map<std::string, sim::Ratio> ratios;
  std::size_t start = 0;
  while (start < spec.size()) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string item = spec.substr(start, comma - start);
    start = comma + 1;
    const std::size_t equals = item.find('=');
    if (equals == std::string::npos) {
      return eosim::Status::error("fault spec item " + in_quotes(item) +
                                  " is not KIND=RATIO (e.g. drop=1/20)");
    }
    const std::string kind = trimmed(std::string_view(item).substr(0, equals));
    const std::string text = trimmed(std::string_view(item).substr(equals + 1));
    if (!find_fault_kind(kind)) {
      return eosim::Status::error("unknown fault kind " + in_quotes(kind) +
                                  " (expected one of: " + join_names(fault_kinds()) + ")");
    }
    if (!random_kind(kind)) {
      return eosim::Status::error("fault kind " + in_quotes(kind) +
                                  " is scripted only ([[faults.script]])");
    }
    if (ratios.count(kind) != 0) {
      return eosim::Status::error("fault kind " + in_quotes(kind) + " is given twice");
    }
    if (!sim::Ratio::parse(text, ratios[kind])) {
      return eosim::Status::error("bad ratio " + in_quotes(text) + " for " + kind +
                                  " (expected N/D with N <= D and D > 0, 0 or 1)");
    }
  }
  if (!spec.empty() && spec.back() == ',') {
    return eosim::Status::error("fault spec ends with a comma");
  }
  out = std::move(ratios);
  return eosim::Status::success();
}

std::string fault_rule_text(const sim::FaultRule& rule) {
  std::string text = rule.site;
  std::vector<std::string> items;
  const FaultSite* site = find_fault_site(rule.site);
  if (site == nullptr || rule.action != site->action) {
    items.push_back("do=" + std::string(action_name(rule.action)));  // not the site's default
  }
  const auto add = [&items](const char* key, const std::optional<std::int64_t>& value) {
    if (value) items.push_back(std::string(key) + "=" + std::to_string(*value));
  };
  add("order", rule.key[orders::kOrder]);
  add("attempt", rule.key[orders::kAttempt]);
  if (rule.frame) items.push_back("frame=" + *rule.frame);
  add("nth", rule.nth);
  add("instance", rule.key[orders::kInstance]);
  add("tick", rule.tick);
  if (rule.times != 1) items.push_back("times=" + std::to_string(rule.times));
  add("step", rule.step);
  add("after_step", rule.after_step);
  for (std::size_t i = 0; i < items.size(); ++i) text += (i == 0 ? ":" : ",") + items[i];
  return text;
}

}  // namespace lab
