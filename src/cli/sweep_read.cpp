// read_sweep_json (sweep_report.h): a sweep result as `eosim merge` reads it back. Every
// field is checked for its JSON type and its range before it is used: a count is a JSON
// integer from 0 up (never -5, 3.5 or 1e30: converting a float above 2^64 to an integer
// is undefined behaviour), and the counts must agree with each other (runs = the seeds in
// the range = the sum of the verdicts; failing, unfired and step-bound runs at most runs).

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "src/cli/sweep_report.h"
#include "src/scenario/scenario.h"

namespace cli {

// A named namespace, not an anonymous one: unity builds put this file in one scope with
// sweep_report.cpp, whose helpers have other meanings for alike names.
namespace sweep_read {

using Json = nlohmann::json;

[[noreturn]] void refuse(const std::string& key, const std::string& what) {
  throw std::invalid_argument("key `" + key + "` " + what);
}

const Json& field(const Json& j, const std::string& key) {
  if (!j.is_object()) refuse(key, "is in something that is not a JSON object");
  const auto it = j.find(key);
  if (it == j.end()) refuse(key, "is missing");
  return *it;
}

std::string text_at(const Json& j, const std::string& key) {
  const Json& v = field(j, key);
  if (!v.is_string()) refuse(key, "is not a string");
  return v.get<std::string>();
}

// A JSON integer in [0, max].
std::uint64_t count_of(const Json& v, const std::string& key,
                       std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
  if (!v.is_number_unsigned()) refuse(key, "is not a whole number from 0 up");
  const auto value = v.get<std::uint64_t>();
  if (value > max) refuse(key, "is larger than " + std::to_string(max));
  return value;
}
std::uint64_t count_at(const Json& j, const std::string& key,
                       std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
  return count_of(field(j, key), key, max);
}

// A JSON integer that fits an int64.
std::int64_t signed_of(const Json& v, const std::string& key) {
  if (v.is_number_unsigned()) {
    const auto value = v.get<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      refuse(key, "is out of range");
    }
    return static_cast<std::int64_t>(value);
  }
  if (!v.is_number_integer()) refuse(key, "is not a whole number");
  return v.get<std::int64_t>();
}
std::int64_t signed_at(const Json& j, const std::string& key) {
  return signed_of(field(j, key), key);
}

std::map<std::string, std::uint64_t> counts_at(const Json& j, const std::string& key) {
  const Json& v = field(j, key);
  if (!v.is_object()) refuse(key, "is not a JSON object");
  std::map<std::string, std::uint64_t> out;
  for (const auto& [name, value] : v.items()) out[name] = count_of(value, key + "." + name);
  return out;
}

std::vector<std::int64_t> orders_at(const Json& j, const std::string& key) {
  const Json& v = field(j, key);
  if (!v.is_array()) refuse(key, "is not a list");
  std::vector<std::int64_t> out;
  for (const Json& order : v) out.push_back(signed_of(order, key + "[]"));
  return out;
}

std::uint64_t hash_at(const Json& j, const std::string& key) {
  const std::string hex = text_at(j, key);
  if (hex.empty() || hex.size() > 16 || hex.find_first_not_of("0123456789abcdef") != std::string::npos) {
    refuse(key, "is not a 64-bit hash in hex: " + hex);
  }
  return std::stoull(hex, nullptr, 16);
}

lab::SweepFailure failure_from_json(const Json& j, SweepReport& r) {
  lab::SweepFailure f;
  f.seed = count_at(j, "seed");
  const std::string verdict = text_at(j, "verdict");
  const std::optional<lab::Verdict> parsed = lab::parse_verdict(verdict);
  if (!parsed) refuse("verdict", "names no verdict: '" + verdict + "'");
  f.verdict = *parsed;
  f.lost = orders_at(j, "lost");
  f.duplicated = orders_at(j, "duplicated");
  f.phantom = orders_at(j, "phantom");
  f.stuck = orders_at(j, "stuck");
  // Written since the failures hold Violations: an older file has none to read.
  if (j.contains("effects_duplicated")) f.effect_duplicated = orders_at(j, "effects_duplicated");
  f.balance_expected = signed_at(j, "balance_expected");
  f.balance_actual = signed_at(j, "balance_actual");
  f.faults = static_cast<std::size_t>(count_at(j, "faults_fired"));
  f.steps = count_at(j, "steps");
  f.trace_hash = hash_at(j, "trace_hash");
  r.shrink_lines[f.seed] = text_at(j, "shrink");
  return f;
}

// Everything but the failures and the shard.
void summary_from_json(const Json& j, SweepReport& r) {
  lab::SweepSummary& s = r.summary;
  s.scenario = text_at(j, "scenario");
  r.file = text_at(j, "file");
  s.first_seed = count_at(field(j, "seeds"), "first");
  s.last_seed = count_at(field(j, "seeds"), "last");
  if (s.first_seed > s.last_seed) refuse("seeds", "go from a larger seed to a smaller one");
  r.strategy = text_at(j, "strategy");
  r.producer = text_at(j, "producer");
  if (const eosim::Status parsed = lab::parse_fault_spec(text_at(j, "faults"), s.ratios);
      !parsed.ok()) {
    refuse("faults", parsed.message);
  }
  s.budget = signed_at(j, "budget");
  s.horizon = signed_at(j, "horizon");
  r.max_steps = signed_at(j, "max_steps");
  s.runs = count_at(j, "runs");
  s.verdicts = counts_at(j, "verdicts");
  s.failing_runs = count_at(j, "failing_runs", s.runs);
  s.faults_fired = count_at(j, "faults_fired");
  s.faults_by_action = counts_at(j, "faults_by_action");
  s.steps = count_at(j, "steps");
  s.step_bound_hits = count_at(j, "step_bound_hits", s.runs);
  s.unfired_runs = count_at(j, "unfired_runs", s.runs);
  if (!field(j, "first_unfired").is_null()) {
    s.first_unfired_seed = count_at(field(j, "first_unfired"), "seed");
    s.first_unfired = text_at(field(j, "first_unfired"), "text");
  }
  s.digest = hash_at(j, "digest");
  r.expect = field(j, "expect").is_null() ? "" : text_at(j, "expect");
  if (!r.expect.empty() && !lab::valid_sweep_expectation(r.expect)) {
    refuse("expect", "names no expectation: '" + r.expect + "'");
  }
  s.jobs = static_cast<unsigned>(count_at(j, "jobs", std::numeric_limits<unsigned>::max()));
  const Json& seconds = field(j, "seconds");
  if (!seconds.is_number() || !std::isfinite(seconds.get<double>()) || seconds.get<double>() < 0) {
    refuse("seconds", "is not a time in seconds");
  }
  s.seconds = seconds.get<double>();
}

// The counts must describe the seed range they claim.
void check_counts(const SweepReport& r) {
  const lab::SweepSummary& s = r.summary;
  if (s.runs != s.last_seed - s.first_seed + 1) {
    refuse("runs", "is " + std::to_string(s.runs) + " for seeds " + std::to_string(s.first_seed) +
                       ".." + std::to_string(s.last_seed));
  }
  std::uint64_t judged = 0;
  for (const auto& [verdict, count] : s.verdicts) {
    if (count > s.runs - judged) refuse("verdicts", "add up to more than runs");
    judged += count;
  }
  if (judged != s.runs) refuse("verdicts", "add up to " + std::to_string(judged) + ", not runs");
  if (s.failures.size() > s.failing_runs) refuse("failures", "are more than failing_runs");
}

}  // namespace sweep_read

eosim::Status read_sweep_json(const std::string& text, SweepReport& r) {
  using namespace sweep_read;  // NOLINT: this file's own helpers
  r = SweepReport{};
  try {
    const Json j = Json::parse(text);
    summary_from_json(j, r);
    const Json& failures = field(j, "failures");
    if (!failures.is_array()) refuse("failures", "is not a list");
    for (const Json& f : failures) r.summary.failures.push_back(failure_from_json(f, r));
    check_counts(r);
    if (j.contains("shard")) {
      const Json& sh = field(j, "shard");
      r.shard = SweepShard{count_at(sh, "index"), count_at(sh, "count"),
                           count_at(field(sh, "seeds"), "first"),
                           count_at(field(sh, "seeds"), "last")};
      // What the shard ran (absent from shards of an older eosim: then merge refuses
      // to put them beside ones that say).
      if (sh.contains("scenario_hash")) r.shard->scenario_hash = text_at(sh, "scenario_hash");
      if (sh.contains("eosim_version")) r.shard->eosim_version = text_at(sh, "eosim_version");
      if (r.shard->first_seed > r.shard->last_seed) {
        refuse("shard.seeds", "go from a larger seed to a smaller one");
      }
    }
  } catch (const std::exception& e) {
    return eosim::Status::error(std::string("not a sweep result (eosim sweep --format json): ") +
                                e.what());
  }
  return eosim::Status::success();
}

}  // namespace cli
