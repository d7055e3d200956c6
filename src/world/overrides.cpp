// ScenarioOverrides applied, and the consumer's choice flags (src/catalog/choice_flags.h)
// checked and applied: the one place a front end's changes reach a loaded scenario.

#include "src/world/overrides.h"

#include <map>
#include <utility>

#include "sim/assert.h"
#include "sim/named.h"
#include "src/catalog/catalog.h"
#include "src/consumer/strategy.h"
#include "src/scenario/scenario.h"

namespace lab {

namespace {

template <class E>
eosim::Status check_flag(const char* flag, const std::string& value) {
  if (value.empty() || sim::value_named<E>(value)) return eosim::Status::success();
  return eosim::Status::error("unknown value `" + value + "` for " + flag +
                              "; valid values: " + sim::names_list<E>());
}

template <class E>
void apply_flag(const std::string& value, std::optional<E>& out) {
  if (value.empty()) return;
  out = sim::value_named<E>(value);
  EOSIM_ASSERT(out.has_value());  // check_choice_flags ran first
}

// A preset named on the command line replaces the whole design, keys given beside the
// file's preset included.
void apply_design(const ScenarioOverrides& o, Scenario& scenario) {
  if (o.seed) scenario.seed = *o.seed;
  if (!o.strategy.empty()) {
    scenario.consumer.strategy = o.strategy;
    scenario.consumer.clear_choices();
  }
  if (!o.producer.empty()) {
    scenario.producer.pattern = o.producer;
    scenario.producer.delivery.reset();
    scenario.producer.confirms.reset();
    scenario.producer.order.reset();
  }
  apply_choice_flags(o.choices, scenario);
}

// The rules are read against `scenario` as the design overrides left it.
eosim::Status apply_faults(const ScenarioOverrides& o, Scenario& scenario) {
  std::vector<sim::FaultRule> script;
  const bool clear = o.fault_rules.size() == 1 && o.fault_rules.front() == "none";
  for (std::size_t i = 0; i < o.fault_rules.size() && !clear; ++i) {
    sim::FaultRule rule;
    if (eosim::Status parsed = parse_fault_rule(o.fault_rules[i], scenario, rule); !parsed.ok()) {
      return parsed;
    }
    script.push_back(std::move(rule));
  }
  std::map<std::string, sim::Ratio> ratios;
  if (o.faults && *o.faults != "none") {
    if (const eosim::Status parsed = parse_fault_spec(*o.faults, ratios); !parsed.ok()) {
      return eosim::Status::error("--faults " + *o.faults + ": " + parsed.message);
    }
  }
  if (!o.fault_rules.empty()) scenario.script = std::move(script);
  if (o.faults) scenario.random.ratios = std::move(ratios);
  return eosim::Status::success();
}

}  // namespace

eosim::Status check_choice_flags(const ChoiceFlags& f) {
  eosim::Status status = check_flag<consumer::AckTiming>("--ack", f.ack);
  if (status.ok()) status = check_flag<consumer::Dedup>("--dedup", f.dedup);
  if (status.ok()) status = check_flag<consumer::ErrorPolicy>("--errors", f.errors);
  if (status.ok()) status = check_flag<consumer::PoisonPolicy>("--poison", f.poison);
  return status;
}

void apply_choice_flags(const ChoiceFlags& f, Scenario& scenario) {
  apply_flag(f.ack, scenario.consumer.ack);
  apply_flag(f.dedup, scenario.consumer.dedup);
  apply_flag(f.errors, scenario.consumer.errors);
  apply_flag(f.poison, scenario.consumer.poison);
}

std::string choice_flags_text(const ChoiceFlags& f) {
  std::string out;
  const std::pair<const char*, const std::string*> flags[] = {{" --ack ", &f.ack},
                                                              {" --dedup ", &f.dedup},
                                                              {" --errors ", &f.errors},
                                                              {" --poison ", &f.poison}};
  for (const auto& [flag, value] : flags) {
    if (!value->empty()) out += flag + *value;
  }
  return out;
}

eosim::Status check_overrides(const ScenarioOverrides& o) {
  if (!o.strategy.empty() && find_strategy(o.strategy) == nullptr) {
    return eosim::Status::error("unknown strategy `" + o.strategy +
                                "`; valid strategies: " + join_names(strategies()));
  }
  if (!o.producer.empty() && find_producer(o.producer) == nullptr) {
    return eosim::Status::error("unknown producer `" + o.producer +
                                "`; valid producers: " + join_names(producers()));
  }
  return check_choice_flags(o.choices);
}

eosim::Result<Scenario> apply_overrides(Scenario scenario, const ScenarioOverrides& overrides) {
  apply_design(overrides, scenario);
  if (eosim::Status applied = apply_faults(overrides, scenario); !applied.ok()) return applied;
  return scenario;
}

std::vector<std::string> fault_option_args(const ScenarioOverrides& o) {
  std::vector<std::string> args;
  for (const std::string& rule : o.fault_rules) args.insert(args.end(), {"--fault", rule});
  if (o.faults) args.insert(args.end(), {"--faults", *o.faults});
  return args;
}

}  // namespace lab
