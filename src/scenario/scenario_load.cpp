// parse_scenario: strict TOML scenario reading. Every key is looked up by name, every
// table's keys are checked against the keys it may hold, and every value is checked for
// type and range before it reaches the Scenario. The first problem found ends the load.

#include <toml++/toml.h>

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <utility>

#include "src/catalog/catalog.h"
#include "src/orders/order_key.h"
#include "src/scenario/scenario.h"
#include "src/scenario/scenario_keys.h"
#include "src/scenario/toml_reader.h"

namespace lab {
namespace {

using toml_io::line_of;
using toml_io::TableReader;
using toml_io::type_name;

// Reads one table's integer keys within the bounds the key table gives them
// (scenario_keys.h): the generated reference prints the same numbers. A bound that is
// another key's value (the orders, the consumer instances) is read from `s` when asked,
// so that key must have been read before.
class Bounded {
 public:
  Bounded(const TableReader& t, std::string_view table, const Scenario& s)
      : t_(t), table_(table), s_(s) {}

  template <class Out>
  bool read(std::string_view key, Out& out) const {
    const auto [min, max] = bounds(key);
    return t_.read_int(key, out, min, max);
  }
  template <class Out>
  bool read_orders(std::string_view key, Out& out) const {
    const auto [min, max] = bounds(key);
    return t_.read_order_list(key, out, min, max);
  }
  std::pair<std::int64_t, std::int64_t> bounds(std::string_view key) const {
    const IntBounds& b = scenario_key(table_, key).bounds;
    switch (b.max_is) {
      case IntBounds::Max::kOrders: return {b.min, s_.workload.orders};
      case IntBounds::Max::kInstances: return {b.min, s_.consumer.instances};
      case IntBounds::Max::kNumber: break;
    }
    return {b.min, b.max};
  }

 private:
  const TableReader& t_;
  std::string_view table_;
  const Scenario& s_;
};

bool read_top(const TableReader& top, Scenario& s) {
  if (!top.only_keys(keys_of(""))) {
    return false;
  }
  if (!top.require("name") || !top.read_string("name", s.name, false)) return false;
  if (!top.read_string("about", s.about, true)) return false;
  if (!top.read_string("fixed", s.fixed, false)) return false;
  if (const toml::node* seed = top.get("seed")) {
    // TOML integers stop at 2^63-1, so larger seeds are written as decimal strings.
    if (const auto* text = seed->as_string()) {
      std::uint64_t value = 0;
      std::istringstream in(text->get());
      const bool digits = !text->get().empty() &&
                          std::all_of(text->get().begin(), text->get().end(),
                                      [](char c) { return c >= '0' && c <= '9'; });
      if (!digits || !(in >> value) || !in.eof()) {
        return top.fail(line_of(*seed), "seed", "must be a non-negative integer, got " +
                                                    in_quotes(text->get()));
      }
      s.seed = value;
    } else {
      std::int64_t value = 0;
      if (!Bounded(top, "", s).read("seed", value)) return false;
      s.seed = static_cast<std::uint64_t>(value);
    }
  }
  return top.read_bool("seed_sensitive", s.seed_sensitive) &&
         Bounded(top, "", s).read("max_steps", s.max_steps) && top.read_choice("draws", s.draws);
}

bool read_workload(const TableReader& t, Scenario& s) {
  Workload& w = s.workload;
  const Bounded n(t, "workload", s);
  if (!t.only_keys(keys_of("workload")) || !n.read("orders", w.orders) ||
      !n.read("amount", w.amount) || !n.read("initial_balance", w.initial_balance) ||
      !t.read_string("account", w.account, false) ||
      !n.read_orders("without_message_id", w.without_message_id) ||
      !n.read("interval_ticks", w.interval_ticks)) {
    return false;
  }
  const toml::node* node = t.get("amounts");
  if (!node) return true;
  const toml::array* array = node->as_array();
  if (!array) return t.wrong_type("amounts", *node, "an array of integers");
  std::vector<std::int64_t> amounts;
  const auto [min, max] = n.bounds("amounts");
  for (const toml::node& element : *array) {
    const auto* value = element.as_integer();
    if (!value) return t.wrong_type("amounts", element, "an integer");
    if (value->get() < min || value->get() > max) {
      return t.fail(line_of(element), t.path("amounts"),
                    "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                        ", got " + std::to_string(value->get()));
    }
    amounts.push_back(value->get());
  }
  if (static_cast<std::int64_t>(amounts.size()) != w.orders) {
    return t.fail_at("amounts", "has " + std::to_string(amounts.size()) +
                                    " entries but workload.orders is " +
                                    std::to_string(w.orders));
  }
  w.amounts = std::move(amounts);
  return true;
}

// [producer]: a preset `pattern` and the choices that may replace its values.
bool read_producer(const TableReader& t, Scenario& s) {
  ProducerConfig& p = s.producer;
  if (!t.only_keys(keys_of("producer")) ||
      !t.read_name("pattern", p.pattern, producers(), "producer pattern") ||
      !t.read_choice("delivery", p.delivery) || !t.read_bool("confirms", p.confirms) ||
      !t.read_choice("order", p.order) || !t.read_choice("message_id", p.message_id) ||
      !Bounded(t, "producer", s).read("restart_after", p.restart_after) ||
      !Bounded(t, "producer", s).read("relay_restart_after", p.relay_restart_after)) {
    return false;
  }
  const std::string why = producer::why_invalid(p.choices());
  if (!why.empty()) {
    const std::string_view key = t.has("confirms") ? "confirms"
                                 : t.has("order")  ? "order"
                                                   : "delivery";
    return t.fail_at(key, why);
  }
  return true;
}

// A variation that only means something with another choice: a key that would silently
// do nothing is an error instead.
bool check_variations(const TableReader& t, const ConsumerConfig& c) {
  const consumer::Dedup dedup = c.choices().dedup;
  if (t.has("mark") && dedup != consumer::Dedup::kSeparateStore) {
    return t.fail_at("mark", "applies only to dedup = \"separate-store\" (the design has " +
                                 in_quotes(sim::name_of(dedup)) + ")");
  }
  if (t.has("dedup_order") && dedup != consumer::Dedup::kSameTxn) {
    return t.fail_at("dedup_order", "applies only to dedup = \"same-transaction\" (the "
                                    "design has " + in_quotes(sim::name_of(dedup)) + ")");
  }
  if (t.has("check") && dedup != consumer::Dedup::kCheckThenAct) {
    return t.fail_at("check", "applies only to dedup = \"check-then-act\" (the design has " +
                                  in_quotes(sim::name_of(dedup)) + ")");
  }
  if (c.idempotency_key && c.side_effect == consumer::SideEffect::kNone) {
    return t.fail_at("idempotency_key", "needs a side_effect to carry the key");
  }
  if (c.dedup_retention > 0 && dedup == consumer::Dedup::kNone) {
    return t.fail_at("dedup_retention", "needs dedup keys to expire (the design has "
                                        "dedup = \"none\")");
  }
  return true;
}

// [consumer]: a preset `strategy`, the four choices that may replace its values, and the
// variations no preset fixes.
bool read_consumer(const TableReader& t, Scenario& s) {
  ConsumerConfig& c = s.consumer;
  const Bounded n(t, "consumer", s);
  if (!t.only_keys(keys_of("consumer")) ||
      !t.read_name("strategy", c.strategy, strategies(), "strategy") ||
      !t.read_choice("ack", c.ack) || !t.read_choice("dedup", c.dedup) ||
      !t.read_choice("errors", c.errors) || !t.read_choice("poison", c.poison) ||
      !t.read_choice("mark", c.mark) || !t.read_choice("dedup_order", c.dedup_order) ||
      !t.read_choice("side_effect", c.side_effect) || !t.read_choice("check", c.check) ||
      !t.read_choice("isolation", c.isolation) ||
      !t.read_bool("idempotency_key", c.idempotency_key) ||
      !n.read("dedup_retention", c.dedup_retention) || !n.read("instances", c.instances) ||
      !n.read("work_ticks", c.work_ticks) || !n.read("restart_after", c.restart_after) ||
      !t.read_string("command", c.command, false)) {
    return false;
  }
  return check_variations(t, c);
}


// [network] heartbeat and client_timeout (conformance row 18). Heartbeats replace the
// symmetric heartbeat_timeout, so a file gives one or the other; client_timeout is the
// client's side of heartbeats and means nothing without them.
bool read_heartbeats(const TableReader& t, const Bounded& bounded, NetworkConfig& n) {
  if (!bounded.read("heartbeat", n.heartbeat) ||
      !bounded.read("client_timeout", n.client_timeout)) {
    return false;
  }
  if (n.heartbeat && t.has("heartbeat_timeout")) {
    return t.fail_at("heartbeat_timeout", "give heartbeat or heartbeat_timeout, not both "
                                          "(heartbeat sets each side's own detection)");
  }
  if (n.client_timeout && !n.heartbeat) {
    return t.fail_at("client_timeout", "needs heartbeat (a client's timeout is its side of "
                                       "heartbeats)");
  }
  if (n.client_timeout && *n.heartbeat == 0 && *n.client_timeout != 0) {
    return t.fail_at("client_timeout", "heartbeat = 0 turns heartbeats off on both sides: "
                                       "no client can notice a silent broker");
  }
  return true;
}

bool read_actors(const TableReader& root, Scenario& s) {
  bool ok = true;
  if (const toml::table* table = root.sub_table("producer", ok)) {
    if (!read_producer(TableReader(*table, "producer", root.file(), root.error()), s)) {
      return false;
    }
  }
  if (!ok) return false;
  if (const toml::table* table = root.sub_table("broker", ok)) {
    TableReader t(*table, "broker", root.file(), root.error());
    BrokerConfig& b = s.broker;
    const Bounded n(t, "broker", s);
    if (!t.only_keys(keys_of("broker")) || !n.read("consumer_timeout", b.consumer_timeout) ||
        !t.read_name("queue", b.queue, "queue type") || !n.read("prefetch", b.prefetch) ||
        !n.read("delivery_limit", b.delivery_limit) || !t.read_bool("dead_letter", b.dead_letter) ||
        !t.read_bool("durable", b.durable) || !t.read_bool("persistent", b.persistent)) {
      return false;
    }
    // RabbitMQ ignores a delivery limit on a classic queue; a scenario that sets one
    // almost certainly expects it to act.
    if (b.delivery_limit > 0 && b.queue != broker::QueueType::kQuorum) {
      return t.fail_at("delivery_limit", "needs queue = \"quorum\" (classic queues have no "
                                         "delivery limit)");
    }
  }
  if (!ok) return false;
  if (const toml::table* table = root.sub_table("consumer", ok)) {
    if (!read_consumer(TableReader(*table, "consumer", root.file(), root.error()), s)) {
      return false;
    }
  }
  if (!ok) return false;
  if (const toml::table* table = root.sub_table("network", ok)) {
    TableReader t(*table, "network", root.file(), root.error());
    NetworkConfig& n = s.network;
    const Bounded bounded(t, "network", s);
    if (!t.only_keys(keys_of("network")) || !bounded.read("latency_min", n.latency_min) ||
        !bounded.read("latency_max", n.latency_max) ||
        !bounded.read("heartbeat_timeout", n.heartbeat_timeout) ||
        !bounded.read("reconnect_delay", n.reconnect_delay) || !read_heartbeats(t, bounded, n)) {
      return false;
    }
    if (n.latency_min > n.latency_max) {
      const std::string_view key = t.has("latency_max") ? "latency_max" : "latency_min";
      return t.fail_at(key, "latency_min (" + std::to_string(n.latency_min) +
                                ") is above latency_max (" + std::to_string(n.latency_max) +
                                ")");
    }
  }
  return ok;
}

// The moment a rule fires at: `tick`/`step` are for timed sites, at most one trigger.
bool check_triggers(const TableReader& t, const FaultSite& site) {
  for (const std::string_view moment : {"tick", "step"}) {
    if (!t.has(moment) || site.timed) continue;
    std::vector<std::string_view> timed;
    for (const FaultSite& each : fault_sites()) {
      if (each.timed) timed.push_back(each.name);
    }
    return t.fail_at(moment,
                     "applies only to " + join_names(timed) + ", not " + std::string(site.name));
  }
  // At most one trigger in time: a rule fires at a tick, right after a step, or at an
  // opportunity (from the start, or once `after_step` is done).
  const int triggers = (t.has("tick") ? 1 : 0) + (t.has("step") ? 1 : 0) +
                       (t.has("after_step") ? 1 : 0);
  if (triggers > 1) {
    const std::string_view key = t.has("after_step") ? "after_step" : "step";
    return t.fail_at(key, "a rule takes at most one of tick, step and after_step");
  }
  if (site.moment_only && triggers == 0) {
    return t.fail_at("at", std::string(site.name) +
                               " has no opportunities of its own: give it `step` or `tick`");
  }
  if (site.moment_only && t.has("after_step")) {
    return t.fail_at("after_step",
                     std::string(site.name) + " takes `step` or `tick`, not after_step");
  }
  return true;
}

std::string rule_site(const FaultSite& site) { return std::string(site.name); }

// Every match key must be one the site can match on (catalog/fault_sites.h); a key it cannot
// match would make the rule silently never fire.
bool check_match_keys(const TableReader& t, const FaultSite& site, const SiteFrame* frame) {
  struct KeyName {
    SiteKey key;
    std::string_view name;
  };
  constexpr KeyName kMatchKeys[] = {{kKeyOrder, "order"},
                                    {kKeyAttempt, "attempt"},
                                    {kKeyFrame, "frame"},
                                    {kKeyNth, "nth"},
                                    {kKeyInstance, "instance"}};
  const bool at_moment = t.has("tick") || t.has("step");
  std::vector<std::string_view> takes;
  for (const KeyName& k : kMatchKeys) {
    if (site.takes(k.key)) takes.push_back(k.name);
  }
  for (const KeyName& k : kMatchKeys) {
    if (!t.has(k.name)) continue;
    if (at_moment && k.key != kKeyInstance) {
      return t.fail_at(k.name, "a rule with `tick` or `step` fires at that moment, so `" +
                                   std::string(k.name) + "` cannot apply (only `instance` does)");
    }
    if (!site.takes(k.key)) {
      return t.fail_at(k.name, std::string(site.name) + " cannot match on `" +
                                   std::string(k.name) + "` (it takes: " +
                                   (takes.empty() ? std::string("none") : join_names(takes)) +
                                   ")");
    }
  }
  if (!site.is_network()) return true;
  // On a link only some frames name an order; the rule must be able to meet one.
  for (const bool attempt : {false, true}) {
    const std::string_view key = attempt ? "attempt" : "order";
    if (!t.has(key)) continue;
    bool some = false;
    for (const SiteFrame& f : site.frames) {
      const bool names = attempt ? f.names_attempt : f.names_order;
      some = some || (names && (!frame || frame == &f));
    }
    if (!some) {
      std::vector<std::string_view> naming;
      for (const SiteFrame& f : site.frames) {
        if (attempt ? f.names_attempt : f.names_order) naming.push_back(f.kind);
      }
      const std::string that_do =
          naming.empty() ? std::string("none") : join_names(naming);
      return t.fail_at(key, frame ? std::string(frame->kind) + " carries no " +
                                        std::string(key) + " (frames on " + rule_site(site) +
                                        " that do: " + that_do + ")"
                                  : "no frame on " + rule_site(site) + " carries an " +
                                        std::string(key));
    }
  }
  return true;
}

// `do = "crash"` on a network site kills the consumer at one frame (SiteFrame::kills): the
// rule names that frame, and fires at it, never at a moment (`tick`, `step`: a process
// crash at a moment is consumer.process).
bool check_kill(const TableReader& t, const FaultSite& site, const SiteFrame* frame) {
  std::vector<std::string_view> killing;
  for (const SiteFrame& f : site.frames) {
    if (f.kills) killing.push_back(f.kind);
  }
  const std::string which = join_names(killing);
  const std::string crash = "\"crash\" at " + rule_site(site);
  if (frame == nullptr) {
    return t.fail_at("do", crash + " kills the consumer at a frame: give `frame = \"" + which +
                               "\"`");
  }
  if (!frame->kills) {
    return t.fail_at("frame", crash + " applies only to frame " + which + ", not " +
                                  std::string(frame->kind));
  }
  for (const std::string_view moment : {"tick", "step"}) {
    if (t.has(moment)) {
      return t.fail_at(moment, crash + " fires at its frame, not at a moment (a crash at a "
                                       "moment: consumer.process)");
    }
  }
  return true;
}

// `attempt` can only reach so high at some sites (the order service never retries).
bool check_attempt_bound(const TableReader& t, const FaultSite& site,
                         const sim::FaultRule& rule) {
  if (!rule.key[orders::kAttempt] || site.max_attempt == 0 ||
      *rule.key[orders::kAttempt] <= site.max_attempt)
    return true;
  return t.fail_at("attempt", "at " + std::string(site.name) + " `attempt` is " +
                                  std::string(site.attempt_means) + ", so " +
                                  std::to_string(*rule.key[orders::kAttempt]) + " never happens");
}

bool read_rule(const TableReader& t, const Scenario& s, sim::FaultRule& rule) {
  std::string action;
  if (!t.only_keys(keys_of("faults.script")) ||
      !t.require("at") || !t.require("do") ||
      !t.read_name("at", rule.site, fault_sites(), "fault site") ||
      !t.read_name("do", action, fault_kinds(), "action")) {
    return false;
  }
  rule.action = *parse_action(action);  // read_name checked it against the catalog
  const FaultSite& site = *find_fault_site(rule.site);
  if (!site.allows(rule.action)) {
    return t.fail_at("do", "action " + in_quotes(action) + " is not allowed at " +
                               rule.site + " (allowed: " + site.allowed_text() + ")");
  }
  const SiteFrame* frame = nullptr;
  if (t.has("frame")) {
    std::string kind;
    if (!t.read_name("frame", kind, frame_kinds(), "frame kind")) return false;
    if (!site.is_network()) {
      return t.fail_at("frame", "applies only to network sites (net.*), not " + rule.site);
    }
    frame = site.frame(kind);
    if (!frame) {
      return t.fail_at("frame", in_quotes(kind) + " never travels on " + rule.site +
                                    " (it carries: " + join_names(site.frame_names()) + ")");
    }
    rule.frame = std::move(kind);
  }
  const bool kill = site.is_network() && rule.action == Action::kCrash;
  if ((kill && !check_kill(t, site, frame)) || !check_triggers(t, site) ||
      !check_match_keys(t, site, frame)) {
    return false;
  }
  const std::string never = rule_never_passed(s, rule);
  if (!never.empty()) return t.fail_at(frame ? "frame" : "at", never);
  const Bounded n(t, "faults.script", s);
  return n.read("order", rule.key[orders::kOrder]) &&
         n.read("attempt", rule.key[orders::kAttempt]) && check_attempt_bound(t, site, rule) &&
         n.read("nth", rule.nth) && n.read("instance", rule.key[orders::kInstance]) &&
         n.read("tick", rule.tick) && n.read("times", rule.times) && n.read("step", rule.step) &&
         n.read("after_step", rule.after_step) && t.read_bool("optional", rule.optional);
}

bool read_faults(const TableReader& root, Scenario& s) {
  bool ok = true;
  const toml::table* table = root.sub_table("faults", ok);
  if (!table) return ok;
  TableReader t(*table, "faults", root.file(), root.error());
  const Bounded n(t, "faults", s);
  if (!t.only_keys(keys_of("faults")) || !n.read("budget", s.random.budget) ||
      !n.read("horizon", s.random.horizon)) {
    return false;
  }
  if (const toml::table* random = t.sub_table("random", ok)) {
    TableReader r(*random, "faults.random", root.file(), root.error());
    for (const auto& [key, node] : *random) {
      const std::string kind(key.str());
      if (!find_fault_kind(kind)) {
        return r.fail(static_cast<std::int64_t>(key.source().begin.line), r.path(kind),
                      "unknown fault kind (expected one of: " + join_names(fault_kinds()) +
                          ")");
      }
      if (!random_kind(kind)) {
        return r.fail(static_cast<std::int64_t>(key.source().begin.line), r.path(kind),
                      kind + " is scripted only ([[faults.script]]): no opportunity draws it");
      }
      if (!node.is_string()) return r.wrong_type(kind, node, "a ratio string like \"1/20\"");
      sim::Ratio ratio;
      if (!sim::Ratio::parse(node.as_string()->get(), ratio)) {
        return r.fail(line_of(node), r.path(kind),
                      "bad ratio " + in_quotes(node.as_string()->get()) +
                          " (expected \"N/D\" with N <= D and D > 0, \"0\" or \"1\")");
      }
      s.random.ratios[kind] = ratio;
    }
  }
  if (!ok) return false;
  const toml::node* script = t.get("script");
  if (!script) return true;
  const toml::array* rules = script->as_array();
  if (!rules) return t.wrong_type("script", *script, "an array of tables ([[faults.script]])");
  for (std::size_t i = 0; i < rules->size(); ++i) {
    const toml::node& element = *rules->get(i);
    const std::string prefix = "faults.script[" + std::to_string(i + 1) + "]";
    if (!element.is_table()) {
      return t.fail(line_of(element), prefix, "expected a table, found " + type_name(element));
    }
    TableReader r(*element.as_table(), prefix, root.file(), root.error());
    sim::FaultRule rule;
    if (!read_rule(r, s, rule)) return false;
    s.script.push_back(std::move(rule));
  }
  return true;
}

bool read_expect(const TableReader& root, Scenario& s) {
  bool ok = true;
  const toml::table* table = root.sub_table("expect", ok);
  if (!table) return ok;
  TableReader t(*table, "expect", root.file(), root.error());
  Expect& e = s.expect;
  const Bounded n(t, "expect", s);
  if (!t.only_keys(keys_of("expect"))) {
    return false;
  }
  if (t.has("verdict")) {
    std::string verdict;
    if (!t.read_name("verdict", verdict, verdicts(), "verdict")) return false;
    e.verdict = parse_verdict(verdict);  // read_name checked it against the catalog
  }
  return n.read("balance", e.balance) && n.read_orders("lost", e.lost) &&
         n.read_orders("duplicated", e.duplicated) && n.read_orders("phantom", e.phantom) &&
         n.read_orders("stuck", e.stuck) && n.read_orders("dead_lettered", e.dead_lettered) &&
         n.read_orders("rejected", e.rejected) &&
         n.read_orders("effects_duplicated", e.effects_duplicated) &&
         n.read_orders("effects_lost", e.effects_lost) &&
         n.read_orders("effects_phantom", e.effects_phantom);
}

// The workload comes first: order numbers elsewhere are checked against its `orders`,
// and consumer instances in rules against [consumer].
bool read_document(const toml::table& root, const std::string& file, Scenario& s,
                   LoadError& error) {
  TableReader top(root, "", file, error);
  if (!read_top(top, s)) return false;
  bool ok = true;
  if (const toml::table* table = top.sub_table("workload", ok)) {
    if (!read_workload(TableReader(*table, "workload", file, error), s)) return false;
  }
  return ok && read_actors(top, s) && read_faults(top, s) && read_expect(top, s);
}

// `from`'s keys replace `into`'s; tables merge key by key.
void merge(toml::table& into, const toml::table& from) {
  for (const auto& [key, value] : from) {
    toml::table* inner = into[key].as_table();
    if (value.is_table() && inner != nullptr) {
      merge(*inner, *value.as_table());
    } else {
      into.insert_or_assign(key, value);
    }
  }
}

// A new preset replaces the whole design: the keys given beside the old one go.
void drop_choices_replaced(toml::table& root, const toml::table& change) {
  const std::pair<const char*, std::vector<const char*>> presets[] = {
      {"consumer", {"strategy", "ack", "dedup", "errors", "poison", "mark", "dedup_order",
                    "check"}},
      {"producer", {"pattern", "delivery", "confirms", "order"}}};
  for (const auto& [table, keys] : presets) {
    const toml::table* changed = change[table].as_table();
    toml::table* base = root[table].as_table();
    if (changed == nullptr || base == nullptr || !changed->contains(keys.front())) continue;
    for (const char* key : keys) base->erase(key);
  }
}

// fixed_twin, with the error for parse_scenario to place on the file's line.
bool make_twin(const Scenario& scenario, Scenario& out, LoadError& error) {
  const auto fail = [&](std::string message) {
    error = LoadError{scenario.path, 0, "fixed", std::move(message)};
    return false;
  };
  toml::table change;
  // The text is a string of the file: its own line says little, so only the message is kept.
  if (LoadError not_toml; !toml_io::parse_toml(scenario.fixed, scenario.path, change, not_toml)) {
    return fail("not TOML assignments: " + not_toml.message);
  }
  toml::table root = toml::parse(to_toml(scenario), scenario.path);  // invariant (4)
  root.erase("fixed");
  root.erase("expect");
  drop_choices_replaced(root, change);
  merge(root, change);
  if (!change.contains("expect")) root.insert("expect", toml::table{{"verdict", "exactly-once"}});
  root.insert_or_assign("name", scenario.name + " (fixed)");
  Scenario twin;
  LoadError inner;
  if (!read_document(root, scenario.path, twin, inner)) {
    return fail("the fixed design is not a valid scenario: key `" + inner.key + "`: " +
                inner.message);
  }
  twin.path = scenario.path;
  out = std::move(twin);
  return true;
}

}  // namespace

eosim::Result<Scenario> fixed_twin(const Scenario& scenario) {
  Scenario twin;
  if (LoadError error; !make_twin(scenario, twin, error)) return error.status();
  return twin;
}

eosim::Result<Scenario> parse_scenario(std::string_view toml_text, const std::string& source_name) {
  toml::table root;
  LoadError error;
  if (!toml_io::parse_toml(toml_text, source_name, root, error)) return error.status();
  const toml::node* question = root.get("question");
  if (question != nullptr && root.contains("runs")) {
    // A lesson asks a question about runs of scenarios: "unknown key" would not say what to do.
    return LoadError{source_name, line_of(*question), "",
                     "this is a lesson, not a scenario: eosim lesson " + source_name}
        .status();
  }
  Scenario scenario;
  scenario.path = source_name;
  if (!read_document(root, source_name, scenario, error)) return error.status();
  if (!scenario.fixed.empty()) {
    // A twin that cannot be built is an error of this file, found when it loads.
    Scenario twin;
    if (!make_twin(scenario, twin, error)) {
      error.line = line_of(*root.get("fixed"));
      return error.status();
    }
  }
  return scenario;
}

}  // namespace lab

namespace lab {
namespace {

// A value of a --fault spec as TOML: digits stay an integer, anything else is a string.
bool spec_value_toml(std::string_view value, std::string& out) {
  const bool number = !value.empty() &&
                      std::all_of(value.begin() + (value[0] == '-' ? 1 : 0), value.end(),
                                  [](char c) { return c >= '0' && c <= '9'; }) &&
                      value != "-";
  if (number) {
    out = std::string(value);
    return true;
  }
  if (value.find_first_of("\"\\\n") != std::string_view::npos) return false;
  out = in_quotes(value);
  return true;
}

// "SITE:k=v,k=v" as the lines of a TOML table, with `do` filled in where the site allows
// one action only.
eosim::Status spec_to_toml(const std::string& spec, std::string& toml_text) {
  const std::size_t colon = spec.find(':');
  const std::string site = spec.substr(0, colon);
  std::string value;
  if (find_fault_site(site) == nullptr || !spec_value_toml(site, value)) {
    return eosim::Status::error("unknown fault site `" + site +
                                "` (expected one of: " + join_names(fault_sites()) + ")");
  }
  toml_text = "at = " + value + "\n";
  bool has_do = false;
  std::string_view rest =
      colon == std::string::npos ? "" : std::string_view(spec).substr(colon + 1);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest.remove_prefix(comma == std::string_view::npos ? rest.size() : comma + 1);
    const std::size_t equals = item.find('=');
    if (equals == std::string_view::npos || equals == 0) {
      return eosim::Status::error("expected SITE[:KEY=VALUE,...], got `" + std::string(item) + "`");
    }
    const std::string_view key = item.substr(0, equals);
    const bool plain_key = std::all_of(key.begin(), key.end(),
                                       [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
    if (!plain_key || !spec_value_toml(item.substr(equals + 1), value)) {
      return eosim::Status::error("bad item `" + std::string(item) + "`");
    }
    has_do = has_do || key == "do";
    toml_text += std::string(key) + " = " + value + "\n";
  }
  const FaultSite& known = *find_fault_site(site);
  if (!has_do) toml_text += "do = " + in_quotes(action_name(known.action)) + "\n";
  return eosim::Status::success();
}

}  // namespace

eosim::Status parse_fault_rule(const std::string& spec, const Scenario& scenario,
                               sim::FaultRule& out) {
  const std::string source = "--fault " + spec;
  std::string toml_text;
  if (eosim::Status status = spec_to_toml(spec, toml_text); !status.ok()) {
    return eosim::Status::error(source + ": " + status.message);
  }
  toml::table root;
  LoadError parse_error;
  if (!toml_io::parse_toml(toml_text, source, root, parse_error)) {
    return eosim::Status::error(source + ": " + parse_error.message);
  }
  LoadError load_error;
  TableReader reader(root, "", source, load_error);
  sim::FaultRule rule;
  if (!read_rule(reader, scenario, rule)) {
    return eosim::Status::error(source + ": " +
                                (load_error.key.empty() ? "" : "key `" + load_error.key + "`: ") +
                                load_error.message);
  }
  out = std::move(rule);
  return eosim::Status::success();
}

}  // namespace lab
