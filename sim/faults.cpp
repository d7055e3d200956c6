#include "sim/faults.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "sim/assert.h"

namespace sim {

namespace {
constexpr std::size_t kFirstRows = 32;
// Frame kind 0, "no frame", named as a constant table: a layer's table that starts with
// it is then viewed whole (NameTable::name_all), not copied name by name.
constexpr std::array<std::string_view, 1> kNoFrame{""};
}  // namespace

FaultPlan::FaultPlan(Chooser& chooser, const Scheduler& scheduler)
    : chooser_(chooser), scheduler_(scheduler) {
  frames_.name_all(kNoFrame);  // frame kind 0: no frame
  // A run of the ten-order bench counts 22 sites: one allocation instead of one per
  // doubling as rows are added.
  occurrences_.reserve(kFirstRows * kFrameColumns);
}

FaultPlan::RuleIds FaultPlan::resolve(const FaultRule& rule) {
  RuleIds ids;
  ids.site = sites_.id(rule.site);
  if (rule.frame) ids.frame = frames_.id(*rule.frame);
  return ids;
}

void FaultPlan::set_rules(std::vector<FaultRule> rules) {
  rules_ = std::move(rules);
  rule_fired_.assign(rules_.size(), 0);
  rule_ids_.clear();
  step_rules_ = 0;
  matched_rules_ = 0;
  for (const FaultRule& rule : rules_) {
    rule_ids_.push_back(resolve(rule));
    step_rules_ += rule.step ? 1 : 0;
    matched_rules_ += rule.tick || rule.step ? 0 : 1;
  }
  update_slow();
}

void FaultPlan::add_rule(FaultRule rule) {
  // A rule that could have matched an earlier opportunity would make this run differ from
  // one that had the rule from the start.
  EOSIM_ASSERT(rule.step || rule.after_step || rule.tick);
  EOSIM_ASSERT(!rule.step || *rule.step >= static_cast<std::int64_t>(scheduler_.steps()));
  EOSIM_ASSERT(!rule.after_step ||
               *rule.after_step >= static_cast<std::int64_t>(scheduler_.steps()));
  step_rules_ += rule.step ? 1 : 0;
  matched_rules_ += rule.tick || rule.step ? 0 : 1;
  rule_ids_.push_back(resolve(rule));
  rules_.push_back(std::move(rule));
  rule_fired_.push_back(0);
  update_slow();
}

void FaultPlan::set_random(RandomFaultOptions options) {
  ratio_of_ = {};  // Ratio::never() for each kind
  for (const auto& [kind, ratio] : options.ratios) {
    EOSIM_ASSERT(ratio.denominator > 0);
    EOSIM_ASSERT(ratio.numerator <= ratio.denominator);
    const std::optional<FaultAction> action = parse_fault_action(kind);
    EOSIM_ASSERT(action.has_value());
    ratio_of_[static_cast<std::size_t>(*action)] = ratio;
  }
  random_ = std::move(options);
  random_budget_ = random_.budget;
  random_horizon_ = random_.horizon;
}

bool FaultPlan::matches(const FaultRule& rule, const RuleIds& ids, const FaultPoint& point,
                        std::int64_t nth) const {
  if (rule.tick || rule.step) return false;
  if (rule.after_step && static_cast<std::int64_t>(scheduler_.steps()) <= *rule.after_step) {
    return false;
  }
  if (ids.site != point.site) return false;
  if (!rule.key.matches(point.key)) return false;
  if (ids.frame && *ids.frame != point.frame) return false;
  if (rule.nth && *rule.nth != nth) return false;
  return true;
}

// Inlined into check and record. REQUIRES: has_row(point.site).
[[gnu::always_inline]] inline std::int64_t FaultPlan::next_occurrence(const FaultPoint& point) {
  EOSIM_ASSERT(point.frame < kFrameColumns);
  return ++occurrences_[(row_of_[point.site] - 1) * kFrameColumns + point.frame];
}

// Out of line: called a dozen times a run, and inlined it made every call save and restore
// the registers it needs.
[[gnu::noinline]] std::size_t FaultPlan::add_row(SiteId site) {
  // A row for each site counted so far, not for every site named: the catalog names a few
  // hundred, a run counts a dozen, and zeroing a row for each was most of the counting.
  if (site >= row_of_.size()) row_of_.resize(std::max<std::size_t>(site + 1, sites_.size()), 0);
  EOSIM_ASSERT(row_of_[site] == 0);
  occurrences_.resize(occurrences_.size() + kFrameColumns, 0);
  row_of_[site] = static_cast<std::uint32_t>(occurrences_.size() / kFrameColumns);
  return row_of_[site] - 1;
}

std::int64_t FaultPlan::occurrences_of(SiteId site, FrameKind frame) const {
  if (frame >= kFrameColumns || site >= row_of_.size() || row_of_[site] == 0) return 0;
  return occurrences_[(row_of_[site] - 1) * kFrameColumns + frame];
}

// The random part of check, after the rules: whether a draw is made at all.
[[gnu::always_inline]] inline std::optional<FaultAction> FaultPlan::check_random(
    const FaultPoint& point, std::int64_t nth) {
  if (point.scripted_only || random_fired_ >= random_budget_ ||
      scheduler_.now() >= random_horizon_ ||
      ratio_of_[static_cast<std::size_t>(point.kind)].is_never()) {
    return std::nullopt;
  }
  return draw_random(point, nth);
}

[[gnu::noinline]] std::optional<FaultAction> FaultPlan::draw_random(const FaultPoint& point,
                                                                    std::int64_t nth) {
  const Ratio ratio = ratio_of_[static_cast<std::size_t>(point.kind)];
  if (!chooser_.chance(ratio, [&] { return identity(point, nth); })) return std::nullopt;
  return fire_random(point, nth);
}

std::optional<FaultAction> FaultPlan::check(const FaultPoint& point) {
  // Occurrences are counted per (site, frame) whether or not anything fires, so that a
  // fired fault can be written back as an exact `nth` rule. Every call out of the common
  // path is a tail call, so that a point that draws nothing (most of them) saves and
  // restores no register.
  if (!has_row(point.site)) [[unlikely]]
    return check_new_row(point);
  const std::int64_t nth = next_occurrence(point);
  if (slow_) [[unlikely]]
    return check_slow(point, nth);
  return check_random(point, nth);
}

// The first occurrence of its site in this run: the site gets its row, then is checked.
[[gnu::noinline]] std::optional<FaultAction> FaultPlan::check_new_row(const FaultPoint& point) {
  add_row(point.site);
  return check(point);
}

[[gnu::cold]] [[gnu::noinline]] std::optional<FaultAction> FaultPlan::check_slow(
    const FaultPoint& point, std::int64_t nth) {
  if (log_opportunities_ && !point.scripted_only) {
    FiredFault& o = opportunities_.emplace_back();
    o.step = scheduler_.steps();
    o.time = scheduler_.now();
    o.site = std::string(sites_.name(point.site));
    o.action = point.kind;
    o.key = point.key;
    o.frame = std::string(frames_.name(point.frame));
    o.nth = nth;
  }
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    if (rule_fired_[i] >= rules_[i].times || !matches(rules_[i], rule_ids_[i], point, nth)) {
      continue;
    }
    ++rule_fired_[i];
    return log(point, rules_[i].action, nth, true).action;
  }
  return check_random(point, nth);
}

[[gnu::cold]] [[gnu::noinline]] std::uint64_t FaultPlan::identity(const FaultPoint& point,
                                                                  std::int64_t nth) const {
  StateHash key;
  for (const std::string_view text :
       {sites_.name(point.site), fault_action_name(point.kind), frames_.name(point.frame)}) {
    key.add(text);
  }
  for (const std::int64_t part : point.key.parts) key.add(part);
  key.add(nth);
  return key.value();
}

[[gnu::cold]] [[gnu::noinline]] std::optional<FaultAction> FaultPlan::fire_random(
    const FaultPoint& point, std::int64_t nth) {
  ++random_fired_;
  return log(point, point.kind, nth, false).action;
}

void FaultPlan::record(const FaultPoint& point, FaultAction action, bool scripted) {
  if (!has_row(point.site)) add_row(point.site);
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

[[gnu::cold]] const FiredFault& FaultPlan::log(const FaultPoint& point, FaultAction action,
                                               std::int64_t nth, bool scripted) {
  FiredFault fault;
  fault.step = scheduler_.steps();
  fault.time = scheduler_.now();
  fault.site = std::string(sites_.name(point.site));
  fault.action = action;
  fault.key = point.key;
  fault.frame = std::string(frames_.name(point.frame));
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
    if (left <= 0) continue;    // spent: it never matches again
    std::int64_t nth_left = 0;  // occurrences of its (site, frame) still to pass; <= 0: never
    const RuleIds& ids = rule_ids_[i];
    if (rule.nth && ids.frame) {
      nth_left = *rule.nth - occurrences_of(ids.site, *ids.frame);
      if (nth_left <= 0) continue;  // its occurrence has passed: it never matches again
    } else if (rule.nth) {
      // Without a frame, `nth` counts each (site, frame) of the site on its own.
      // Fed in order of the frame kind's name, whatever order they first occurred in.
      std::vector<std::pair<std::string_view, std::int64_t>> of_site;
      for (std::size_t frame = 0; frame < kFrameColumns; ++frame) {
        const std::int64_t count = occurrences_of(ids.site, static_cast<FrameKind>(frame));
        if (count > 0) of_site.emplace_back(frames_.name(static_cast<FrameKind>(frame)), count);
      }
      std::sort(of_site.begin(), of_site.end());
      for (const auto& [frame, count] : of_site) {
        hash.add(frame);
        hash.add(std::max<std::int64_t>(*rule.nth - count, 0));
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
