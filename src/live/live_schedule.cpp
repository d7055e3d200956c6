#include "src/live/live_schedule.h"

#include <algorithm>
#include <iterator>
#include <sstream>

#include "sim/fault_action.h"
#include "src/orders/fault_site.h"

namespace live {

namespace {

constexpr std::string_view kDeliver = "basic.deliver";
constexpr std::string_view kAck = "basic.ack";

bool known_kind(const std::string& kind) {
  return std::any_of(std::begin(kLiveFaultKinds), std::end(kLiveFaultKinds),
                     [&kind](const LiveFaultKind& k) { return kind == k.name; });
}

// One rule on a consumer's link: the kth `frame` (basic.deliver from the broker, or
// basic.ack from a consumer), counted over the run.
sim::FaultRule link_rule(std::string_view frame, std::int64_t k, sim::FaultAction action) {
  sim::FaultRule rule;
  rule.site = std::string(orders::site_name(
      frame == kDeliver ? orders::Site::kNetBrokerToConsumer : orders::Site::kNetConsumerToBroker));
  rule.frame = std::string(frame);
  rule.nth = k;
  rule.action = action;
  rule.optional = true;  // a run that never sees the kth frame is not a failure
  return rule;
}

std::string ordinal(std::int64_t n) {
  const std::int64_t tens = n % 100;
  const char* suffix = tens >= 11 && tens <= 13 ? "th"
                       : n % 10 == 1            ? "st"
                       : n % 10 == 2            ? "nd"
                       : n % 10 == 3            ? "rd"
                                                : "th";
  return std::to_string(n) + suffix;
}

}  // namespace

Status parse_live_faults(const std::string& spec, std::map<std::string, sim::Ratio>& out) {
  std::map<std::string, sim::Ratio> ratios;
  std::istringstream parts(spec);
  for (std::string part; std::getline(parts, part, ',');) {
    const auto eq = part.find('=');
    const std::string kind = part.substr(0, eq);
    sim::Ratio ratio;
    if (eq == std::string::npos || !known_kind(kind)) {
      return Status::bad_input_error("--faults: '" + part +
                                     "' is not KIND=RATIO with KIND one of kill, drop, freeze");
    }
    if (!sim::Ratio::parse(part.substr(eq + 1), ratio)) {
      return Status::bad_input_error("--faults: '" + part +
                                     "': the ratio must be N/D with N <= D, 0 or 1");
    }
    if (!ratios.emplace(kind, ratio).second) {
      return Status::bad_input_error("--faults: " + kind + " is given twice");
    }
  }
  if (ratios.empty()) return Status::bad_input_error("--faults: no kind given");
  out = std::move(ratios);
  return Status::success();
}

std::string live_faults_text(const std::map<std::string, sim::Ratio>& ratios) {
  std::string text;
  for (const LiveFaultKind& kind : kLiveFaultKinds) {
    const auto it = ratios.find(kind.name);
    if (it == ratios.end()) continue;
    text += (text.empty() ? "" : ",") + it->first + "=" + it->second.to_string();
  }
  return text;
}

std::vector<ScheduledFault> draw_schedule(const lab::Scenario& s,
                                          const std::map<std::string, sim::Ratio>& ratios,
                                          std::uint64_t seed) {
  // Mixed with a constant of its own: the live schedule of seed N shares nothing with the
  // model's draws of seed N.
  sim::Prng prng(seed ^ 0x6c6976652d736368ULL);  // "live-sch"
  std::vector<ScheduledFault> rules;
  for (std::int64_t k = 1; k <= s.workload.orders; ++k) {
    for (const LiveFaultKind& kind : kLiveFaultKinds) {
      const auto it = ratios.find(kind.name);
      if (it == ratios.end() || it->second.is_never()) continue;
      if (static_cast<std::int64_t>(rules.size()) >= s.random.budget) return rules;
      if (prng.below(it->second.denominator) >= it->second.numerator) continue;
      // A kill has a third place: at a delay after the delivery.
      const bool kill = kind.action == sim::FaultAction::kCrash;
      const std::uint64_t where = prng.below(kill ? 3 : 2);
      const std::string_view frame = where == 1 ? kAck : kDeliver;
      const std::int64_t delay_ms =
          where == 2 ? 1 + static_cast<std::int64_t>(prng.below(kMaxKillDelayMs)) : 0;
      rules.push_back({link_rule(frame, k, kind.action), delay_ms});
    }
  }
  return rules;
}

std::string schedule_line(const ScheduledFault& fault) {
  const sim::FaultRule& rule = fault.rule;
  const bool deliver = rule.frame && *rule.frame == kDeliver;
  const std::string frame = "the " + ordinal(rule.nth.value_or(1)) + " " +
                            (deliver ? "delivery (basic.deliver)" : "ack (basic.ack)");
  switch (rule.action) {
    case sim::FaultAction::kCrash:
      if (fault.delay_ms > 0) {
        return "kill the consumer (SIGKILL) " + std::to_string(fault.delay_ms) + " ms after " +
               frame + " reaches it, wherever its code is then";
      }
      return deliver ? "kill the consumer (SIGKILL) as " + frame +
                           " reaches it: it holds that delivery unacked"
                     : "kill the consumer (SIGKILL) right after " + frame + " leaves it";
    case sim::FaultAction::kFreeze:
      return "freeze the consumer's connection after " + frame + " passes";
    default: return "lose " + frame + ": the consumer's connection breaks";
  }
}

std::string schedule_scenario(const lab::Scenario& s, std::uint64_t seed, const std::string& spec,
                              const std::string& replay, const std::vector<ScheduledFault>& faults,
                              std::size_t& left_out) {
  lab::Scenario file = s;
  file.seed = seed;
  std::string omitted;
  left_out = 0;
  for (const ScheduledFault& fault : faults) {
    const std::string why = fault.delay_ms > 0
                                ? "a delay is the machine's clock, which the model has none of"
                                : lab::rule_never_passed(s, fault.rule);
    if (why.empty()) {
      file.script.push_back(fault.rule);
      continue;
    }
    ++left_out;
    omitted += "#   " + schedule_line(fault) + ": " + why + "\n";
  }
  std::string text =
      "# The fault schedule of seed " + std::to_string(seed) + " (--faults " + spec +
      ") as a scenario file:\n# the scenario's own rules and the drawn ones "
      "(optional: a run that never reaches\n# a rule's frame is not a failure). "
      "Keep it, change it, run it live (same faults,\n# timing may differ; replay.toml "
      "is this file):\n#   " +
      replay + "\n# or in the model, with eosim's own consumer: eosim run replay.toml\n";
  if (left_out > 0) {
    text += "# Left out (replay them with --seeds " + std::to_string(seed) + " --faults " + spec +
            "):\n" + omitted;
  }
  return text + "\n" + lab::to_toml(file);
}

std::string schedule_text(std::uint64_t seed, const std::string& spec, const std::string& replay,
                          const std::vector<ScheduledFault>& faults) {
  std::string text = "# The fault schedule of seed " + std::to_string(seed) + " (--faults " + spec +
                     "), counted over the run on the fault proxy.\n" +
                     "# Replay it (same faults, timing may differ):\n#   " + replay + "\n";
  if (faults.empty()) text += "# (seed " + std::to_string(seed) + " drew no fault)\n";
  for (const ScheduledFault& fault : faults) {
    text += schedule_line(fault) + "\n    " + lab::fault_rule_text(fault.rule) +
            (fault.delay_ms > 0 ? " (+" + std::to_string(fault.delay_ms) + " ms)" : "") + "\n";
  }
  return text;
}

}  // namespace live
