#include "sim/faults.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "sim/assert.h"

namespace sim {

FaultPlan::FaultPlan(Chooser& chooser, const Scheduler& scheduler)
    : chooser_(chooser), scheduler_(scheduler) {
  occurrences_.reserve(32);  // a run has a few dozen (site, frame) pairs at most
}

void FaultPlan::set_rules(std::vector<FaultRule> rules) {
  rules_ = std::move(rules);
  rule_fired_.assign(rules_.size(), 0);
  step_rules_ = 0;
  for (const FaultRule& rule : rules_) step_rules_ += rule.step ? 1 : 0;
}

void FaultPlan::add_rule(FaultRule rule) {
  // A rule that could have matched an earlier opportunity would make this run differ from
  // one that had the rule from the start.
  EOSIM_ASSERT(rule.step || rule.after_step || rule.tick);
  EOSIM_ASSERT(!rule.step || *rule.step >= static_cast<std::int64_t>(scheduler_.steps()));
  EOSIM_ASSERT(!rule.after_step ||
               *rule.after_step >= static_cast<std::int64_t>(scheduler_.steps()));
  step_rules_ += rule.step ? 1 : 0;
  rules_.push_back(std::move(rule));
  rule_fired_.push_back(0);
}

void FaultPlan::set_random(RandomFaultOptions options) {
  ratio_of_ = {};
  for (const auto& [kind, ratio] : options.ratios) {
    EOSIM_ASSERT(ratio.denominator > 0);
    EOSIM_ASSERT(ratio.numerator <= ratio.denominator);
    const std::optional<FaultAction> action = parse_fault_action(kind);
    EOSIM_ASSERT(action.has_value());
    ratio_of_[static_cast<std::size_t>(*action)] = ratio;
  }
  random_ = std::move(options);
}

bool FaultPlan::matches(const FaultRule& rule, const FaultPoint& point,
                        std::int64_t nth) const {
  if (rule.tick || rule.step) return false;
  if (rule.after_step && static_cast<std::int64_t>(scheduler_.steps()) <= *rule.after_step) {
    return false;
  }
  if (rule.site != point.site) return false;
  if (!rule.key.matches(point.key)) return false;
  if (rule.frame && *rule.frame != point.frame) return false;
  if (rule.nth && *rule.nth != nth) return false;
  return true;
}

namespace {

// Equal texts, compared with one memcmp (std::string == string_view calls an out-of-line
// compare on every opportunity).
bool same_text(const std::string& a, std::string_view b) {
  return a.size() == b.size() && (b.empty() || std::memcmp(a.data(), b.data(), b.size()) == 0);
}

// Up to 8 bytes of `text` from `at` (fewer near its end), as a number.
std::uint64_t bytes_at(std::string_view text, std::size_t at) {
  std::uint64_t value = 0;
  const std::size_t n = at < text.size() ? std::min<std::size_t>(8, text.size() - at) : 0;
  if (n > 0) std::memcpy(&value, text.data() + at, n);
  return value;
}

// Tells (site, frame) pairs apart cheaply; equal pairs always give equal values. Sites
// differ early ("net.consumer->broker" / "net.broker->consumer") or in length, frame
// kinds likewise; a collision costs one comparison of the texts, never a wrong count.
std::uint64_t fingerprint(std::string_view site, std::string_view frame) {
  std::uint64_t h = (site.size() << 8) ^ frame.size();
  h = h * 0x9e3779b97f4a7c15ULL ^ bytes_at(site, 4);
  h = h * 0x9e3779b97f4a7c15ULL ^ bytes_at(site, site.size() > 8 ? site.size() - 8 : 0);
  h = h * 0x9e3779b97f4a7c15ULL ^ bytes_at(frame, frame.size() > 8 ? frame.size() - 8 : 0);
  return h;
}

}  // namespace

std::size_t FaultPlan::find_occurrence(std::uint64_t print, std::string_view site,
                                       std::string_view frame) const {
  for (std::size_t i = 0; i < occurrences_.size(); ++i) {
    const Occurrence& o = occurrences_[i];
    if (o.fingerprint == print && same_text(o.site, site) && same_text(o.frame, frame)) {
      return i;
    }
  }
  return occurrences_.size();
}

std::int64_t FaultPlan::next_occurrence(const FaultPoint& point) {
  const std::string_view site = point.site;
  const std::string_view frame = point.frame;
  // The site by address (a literal, a connection's name for its direction); the frame
  // kind by its bytes, since it usually sits in the frame itself, which moves.
  const auto site_at = reinterpret_cast<std::uintptr_t>(site.data());
  const std::uint64_t mixed =
      (site_at ^ (bytes_at(frame, 0) * 31) ^ (frame.size() << 56)) * 0x9e3779b97f4a7c15ULL;
  Recent& recent = recent_[(mixed >> 58) & (kRecent - 1)];  // the top bits mix best
  if (recent.site == site.data() && recent.site_size == site.size() &&
      recent.frame_size == frame.size() && recent.index < occurrences_.size()) {
    Occurrence& o = occurrences_[recent.index];
    if (same_text(o.site, site) && same_text(o.frame, frame)) return ++o.count;
  }
  const std::uint64_t print = fingerprint(site, frame);
  std::size_t i = find_occurrence(print, site, frame);
  if (i == occurrences_.size()) {
    occurrences_.push_back({print, std::string(site), std::string(frame), 0});
  }
  recent = {site.data(), site.size(), frame.size(), i};
  return ++occurrences_[i].count;
}

std::int64_t FaultPlan::occurrences_of(std::string_view site, std::string_view frame) const {
  const std::size_t i = find_occurrence(fingerprint(site, frame), site, frame);
  return i < occurrences_.size() ? occurrences_[i].count : 0;
}

std::optional<FaultAction> FaultPlan::check(const FaultPoint& point) {
  // Occurrences are counted per (site, frame) whether or not anything fires, so that a
  // fired fault can be written back as an exact `nth` rule.
  const std::int64_t nth = next_occurrence(point);
  if (log_opportunities_) {
    FiredFault& o = opportunities_.emplace_back();
    o.step = scheduler_.steps();
    o.time = scheduler_.now();
    o.site = std::string(point.site);
    o.action = point.kind;
    o.key = point.key;
    o.frame = std::string(point.frame);
    o.nth = nth;
  }
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    if (rule_fired_[i] >= rules_[i].times || !matches(rules_[i], point, nth)) continue;
    ++rule_fired_[i];
    return log(point, rules_[i].action, nth, true).action;
  }
  if (random_fired_ >= random_.budget || scheduler_.now() >= random_.horizon) {
    return std::nullopt;
  }
  const std::optional<Ratio>& ratio = ratio_of_[static_cast<std::size_t>(point.kind)];
  // Keyed: the opportunity's site, kind, key and frame, and its occurrence number there.
  const auto identity = [&] {
    StateHash key;
    for (const std::string_view text : {point.site, fault_action_name(point.kind), point.frame}) {
      key.add(text);
    }
    for (const std::int64_t part : point.key.parts) key.add(part);
    key.add(nth);
    return key.value();
  };
  if (!ratio || !chooser_.chance(*ratio, identity)) return std::nullopt;
  ++random_fired_;
  return log(point, point.kind, nth, false).action;
}

void FaultPlan::record(const FaultPoint& point, FaultAction action, bool scripted) {
  const std::int64_t nth = next_occurrence(point);
  log(point, action, nth, scripted);
}

void FaultPlan::record_rule(std::size_t index, const FaultPoint& point) {
  EOSIM_ASSERT(index < rules_.size());
  ++rule_fired_[index];
  record(point, rules_[index].action, true);
}

std::int64_t FaultPlan::times_fired(std::size_t index) const {
  EOSIM_ASSERT(index < rule_fired_.size());
  return rule_fired_[index];
}

const FiredFault& FaultPlan::log(const FaultPoint& point, FaultAction action,
                                 std::int64_t nth, bool scripted) {
  FiredFault fault;
  fault.step = scheduler_.steps();
  fault.time = scheduler_.now();
  fault.site = std::string(point.site);
  fault.action = action;
  fault.key = point.key;
  fault.frame = std::string(point.frame);
  fault.nth = nth;
  fault.scripted = scripted;
  fired_.push_back(std::move(fault));
  if (on_fire_) on_fire_(fired_.back());
  return fired_.back();
}

namespace {

void add_optional(StateHash& hash, const std::optional<std::int64_t>& value) {
  hash.add(value.has_value());
  if (value) hash.add(*value);
}

}  // namespace

void FaultPlan::add_rules_state(StateHash& hash, std::size_t begin, std::size_t end) const {
  const auto steps = static_cast<std::int64_t>(scheduler_.steps());
  for (std::size_t i = begin; i < std::min(end, rules_.size()); ++i) {
    const FaultRule& rule = rules_[i];
    const std::int64_t left = rule.times - rule_fired_[i];
    if (left <= 0) continue;  // spent: it never matches again
    std::int64_t nth_left = 0;  // occurrences of its (site, frame) still to pass; <= 0: never
    if (rule.nth && rule.frame) {
      nth_left = *rule.nth - occurrences_of(rule.site, *rule.frame);
      if (nth_left <= 0) continue;  // its occurrence has passed: it never matches again
    } else if (rule.nth) {
      // Without a frame, `nth` counts each (site, frame) of the site on its own.
      // Fed in order of frame kind, whatever order they first occurred in.
      std::vector<const Occurrence*> of_site;
      for (const Occurrence& o : occurrences_) {
        if (o.site == rule.site) of_site.push_back(&o);
      }
      std::sort(of_site.begin(), of_site.end(),
                [](const Occurrence* a, const Occurrence* b) { return a->frame < b->frame; });
      for (const Occurrence* o : of_site) {
        hash.add(std::string_view(o->frame));
        hash.add(std::max<std::int64_t>(*rule.nth - o->count, 0));
      }
    }
    hash.add(static_cast<std::uint64_t>(i));
    hash.add(left);
    hash.add(std::string_view(rule.site));
    hash.add(fault_action_name(rule.action));
    hash.add(std::string_view(rule.frame.value_or("")));
    hash.add(rule.frame.has_value());
    for (const auto& part : rule.key.parts) add_optional(hash, part);
    hash.add(rule.tick.has_value());  // when: its fault.timed event, relative to now
    hash.add(nth_left);
    // Step triggers: only whether they lie ahead, and how far.
    add_optional(hash, rule.step ? std::optional<std::int64_t>(*rule.step - steps) : std::nullopt);
    const bool armed = !rule.after_step || *rule.after_step < steps;
    hash.add(armed);
    if (!armed) hash.add(*rule.after_step - steps);
  }
}

void FaultPlan::add_random_state(StateHash& hash) const {
  hash.add(random_.budget - random_fired_);
  const Tick now = scheduler_.now();
  hash.add(static_cast<std::uint64_t>(random_.horizon > now ? random_.horizon - now : 0));
  for (const auto& [kind, ratio] : random_.ratios) {
    hash.add(std::string_view(kind));
    hash.add(ratio.numerator);
    hash.add(ratio.denominator);
  }
}

std::vector<FaultRule> FaultPlan::timed_rules() const {
  std::vector<FaultRule> timed;
  for (const auto& rule : rules_) {
    if (rule.tick) timed.push_back(rule);
  }
  return timed;
}

}  // namespace sim
