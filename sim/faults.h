#pragma once
// The fault plan: scripted rules plus random ratios with a budget.
//
// Every fault the simulator can inject passes through FaultPlan::check, the single entry
// point. Actors describe each *opportunity* as a FaultPoint (a site and what is happening
// there); the plan answers with the action to take, or nothing. Sites and frame kinds are
// ids (sim/names.h) whose names the layer above hands to sites() and frames() before it
// sets rules; rules name them as text (they come from files), resolved to ids once.
//
// Invariants:
//  (1) Scripted rules are checked first and always fire when they match (up to `times`);
//      they do not consume the random budget.
//  (2) A random fault is one Chooser decision per opportunity, so it is on the tape and
//      a zeroed tape entry means "no fault". No decision is drawn once the budget is
//      spent, after the horizon, or when the kind's ratio is zero.
//  (3) Every fault that fires is appended to fired() with the step and time it fired at,
//      and reported to the on_fire hook.
//  (4) A rule with `after_step = N` matches no opportunity during steps 1..N; a rule with
//      `tick` or `step` matches none at all (the world fires those at their moment).
//  (5) With log_opportunities(true), every call of check() is appended to opportunities()
//      (before any rule or draw), in the shape of a FiredFault whose action is the point's
//      kind. Off by default: then it costs one branch per opportunity.
//  (6) times_fired(i) counts every firing of rules()[i], whether matched by check or
//      fired by the world through record_rule.
//  (7) Occurrences are counted per (site, frame kind) id pair; a fired fault carries the
//      names of both, so what leaves the plan reads as text.
//  (8) A point with scripted_only draws no random fault and is not logged as an
//      opportunity (invariant 5): only a rule fires there. Its occurrences are counted.

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/fault_action.h"
#include "sim/key.h"
#include "sim/names.h"
#include "sim/rng.h"
#include "sim/scheduler.h"
#include "sim/state_hash.h"

namespace sim {

// One opportunity for a fault. Fields left at 0 do not apply here.
struct FaultPoint {
  SiteId site;          // named by FaultPlan::sites(): the layer's, "net.<role>-><role>"
  FaultAction kind;     // random fault kind of this opportunity: kCrash, kDrop, ...
  Key key;              // what the opportunity is about (sim/key.h)
  FrameKind frame = 0;  // FaultPlan::frames(): a network frame's kind, 0 = none
  // Only a rule matches here (invariant 8): no random draw, no entry in opportunities().
  bool scripted_only = false;
};

// A scripted fault: fires whenever its match holds (up to `times`).
struct FaultRule {
  std::string site;
  FaultAction action = FaultAction::kCrash;  // what it does (the site allows it: catalog)
  KeyMatch key;                              // the parts of the point's key it asks for
  std::optional<std::string> frame;          // network frame kind
  std::optional<std::int64_t> nth;           // nth occurrence (1-based) of this site (+frame)
  std::optional<std::int64_t> tick;          // fire at this virtual time (timed sites only)
  std::int64_t times = 1;                    // how many times the rule may fire
  // Step triggers, for faults made by hand at a step of a running world (the GUI) that a
  // scenario file must replay exactly. Neither adds a scheduler event, so a run with the
  // rule in its file takes the same steps as the run the rule was made in.
  std::optional<std::int64_t> step;        // timed sites: fire right after step N (the world)
  std::optional<std::int64_t> after_step;  // armed only once step N is done (matched by check)
  // Not an expectation: the report still lists the rule if it never fired, but a run
  // where it did not fire meets its expectations. (The plan itself never reads it.)
  bool optional = false;
  friend bool operator==(const FaultRule&, const FaultRule&) = default;
};

// A fault that fired, with enough detail to write it back as a FaultRule.
struct FiredFault {
  std::uint64_t step = 0;
  Tick time = 0;
  std::string site;
  FaultAction action = FaultAction::kCrash;
  Key key;
  std::string frame;
  std::int64_t nth = 0;  // occurrence number of (site, frame) when it fired
  bool scripted = false;
};

struct RandomFaultOptions {
  // Per fault kind (by its name, as in [faults.random]), per opportunity.
  // REQUIRES: every name is a FaultAction's (parse_fault_action).
  std::map<std::string, Ratio> ratios;
  std::int64_t budget = 0;  // most random faults in one run
  Tick horizon = 0;         // no random fault at or after this time
};

class FaultPlan {
 public:
  FaultPlan(Chooser& chooser, const Scheduler& scheduler);

  // The names of the ids points carry (invariant 7); frames() names 0 "" (no frame).
  NameTable& sites() { return sites_; }
  const NameTable& sites() const { return sites_; }
  NameTable& frames() { return frames_; }
  const NameTable& frames() const { return frames_; }

  void set_rules(std::vector<FaultRule> rules);
  // Appends a rule mid-run. The run goes on exactly as if the rule had been in the plan
  // from the start, provided it could not have matched before now (a `step` or
  // `after_step` trigger at or after the current step).
  void add_rule(FaultRule rule);
  void set_random(RandomFaultOptions options);
  void set_on_fire(std::function<void(const FiredFault&)> hook) { on_fire_ = std::move(hook); }

  // The single entry point: returns the action to take at this opportunity, if any.
  std::optional<FaultAction> check(const FaultPoint& point);
  // A fault decided outside check (a GUI button, a timed rule) is still logged here.
  void record(const FaultPoint& point, FaultAction action, bool scripted);
  // Rule `index` (of rules()) fired at a moment the world chose (`tick`, `step`): logged
  // like record, and counted as that rule's firing.
  void record_rule(std::size_t index, const FaultPoint& point);
  // How often rule `index` has fired so far (0 = never: the report says so).
  std::int64_t times_fired(std::size_t index) const;

  const std::vector<FiredFault>& fired() const { return fired_; }
  // Exhaustive search wants every place a fault could have happened (invariant 5).
  void log_opportunities(bool on) {
    log_opportunities_ = on;
    update_slow();
  }
  const std::vector<FiredFault>& opportunities() const { return opportunities_; }
  const std::vector<FaultRule>& rules() const { return rules_; }
  std::int64_t random_fired() const { return random_fired_; }
  // Timed rules (with `tick`) are not matched by check; the world schedules them.
  std::vector<FaultRule> timed_rules() const;
  // Rules with `step` are not matched by check either; the world fires them after a step.
  bool has_step_rules() const { return step_rules_ > 0; }
  // What decides the faults still to come, for explore's state merging: every rule that
  // may still fire, with its `nth` and step triggers counted from now (occurrences and
  // steps so far are history), and the random budget left. Spent rules, the fired log and
  // the opportunity log are history and left out.
  void add_state(StateHash& hash) const {
    add_rules_state(hash, 0, rules_.size());
    add_random_state(hash);
  }
  // The parts of add_state: the rules [begin, end), and the random faults' budget.
  void add_rules_state(StateHash& hash, std::size_t begin, std::size_t end) const;
  void add_random_state(StateHash& hash) const;

 private:
  // A rule's site and frame as ids, resolved once when it is set.
  struct RuleIds {
    SiteId site = 0;
    std::optional<FrameKind> frame;
  };
  RuleIds resolve(const FaultRule& rule);
  bool matches(const FaultRule& rule, const RuleIds& ids, const FaultPoint& point,
               std::int64_t nth) const;
  // Whether `site` has its row of counts (add_row).
  bool has_row(SiteId site) const { return site < row_of_.size() && row_of_[site] != 0; }
  // Counts one more occurrence of (point.site, point.frame) and returns the count.
  // REQUIRES: has_row(point.site).
  std::int64_t next_occurrence(const FaultPoint& point);
  // Adds the row of `site`, which has none yet, and returns its index.
  std::size_t add_row(SiteId site);
  // How often (site, frame) has occurred so far.
  std::int64_t occurrences_of(SiteId site, FrameKind frame) const;
  // The parts of check a run without rules or logging never takes, out of line so that
  // the path every opportunity takes stays short: the opportunity log and the rules.
  std::optional<FaultAction> check_slow(const FaultPoint& point, std::int64_t nth);
  std::optional<FaultAction> check_new_row(const FaultPoint& point);
  // After the rules: a random fault, if the point, the budget, the horizon and the kind's
  // ratio allow a draw (check_random), drawn out of line (draw_random).
  std::optional<FaultAction> check_random(const FaultPoint& point, std::int64_t nth);
  std::optional<FaultAction> draw_random(const FaultPoint& point, std::int64_t nth);
  // What a keyed draw at this opportunity is about: its site, kind, key and frame, and
  // its occurrence number there.
  std::uint64_t identity(const FaultPoint& point, std::int64_t nth) const;
  std::optional<FaultAction> fire_random(const FaultPoint& point, std::int64_t nth);
  const FiredFault& log(const FaultPoint& point, FaultAction action, std::int64_t nth,
                        bool scripted);
  void update_slow() { slow_ = log_opportunities_ || matched_rules_ > 0; }

  // First, together: what every check reads (a few cache lines, not the whole plan).
  Chooser& chooser_;
  const Scheduler& scheduler_;
  // Occurrences per (site, frame kind): kFrameColumns counts per row, column `frame`, one
  // row per site counted so far, in the order first counted; row_of_[site] is its row + 1
  // (0 = not counted yet). A run has a few dozen pairs among hundreds of named sites.
  static constexpr std::size_t kFrameColumns = 32;
  std::vector<std::uint32_t> row_of_;
  std::vector<std::int64_t> occurrences_;
  bool slow_ = false;  // log_opportunities_ or a rule check matches (check_slow)
  std::int64_t random_fired_ = 0;
  std::int64_t random_budget_ = 0;  // random_.budget
  Tick random_horizon_ = 0;         // random_.horizon
  // random_.ratios by action, for the lookup every opportunity makes; never() where the
  // kind has none (no decision either way).
  std::array<Ratio, kFaultActionCount> ratio_of_{};

  NameTable sites_;
  NameTable frames_;
  std::vector<FaultRule> rules_;
  std::vector<RuleIds> rule_ids_;         // parallel to rules_
  std::vector<std::int64_t> rule_fired_;  // parallel to rules_
  std::size_t step_rules_ = 0;            // rules with a `step` trigger
  std::size_t matched_rules_ = 0;         // rules check matches (neither `tick` nor `step`)
  RandomFaultOptions random_;
  std::vector<FiredFault> fired_;
  bool log_opportunities_ = false;
  std::vector<FiredFault> opportunities_;
  std::function<void(const FiredFault&)> on_fire_;
};

}  // namespace sim
