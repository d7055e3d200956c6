#include "src/session/session.h"

#include <fstream>
#include <utility>

#include "sim/assert.h"
#include "src/broker/broker.h"
#include "src/catalog/fault_sites.h"
#include "src/files/output_file.h"
#include "src/orders/order_key.h"

namespace lab {

namespace {

constexpr const char* kWorkQueue = "orders";

std::string instance_name(const std::optional<std::int64_t>& instance) {
  return instance ? "consumer" + std::to_string(*instance) : "any consumer";
}

}  // namespace

sim::FaultRule rule_for(const HandFault& fault, std::uint64_t step) {
  const auto at = static_cast<std::int64_t>(step);
  sim::FaultRule rule;
  if (fault.instance > 0) rule.key[orders::kInstance] = fault.instance;
  switch (fault.kind) {
    case HandFaultKind::kDropNext:
      rule.site = fault.link;
      rule.action = Action::kDrop;
      rule.frame = fault.frame;
      rule.after_step = at;
      break;
    case HandFaultKind::kBreakConnection:
      rule.site = fault.link;
      rule.action = Action::kDrop;
      rule.step = at;
      break;
    case HandFaultKind::kCrashNow:
      rule.site = orders::site_name(Site::kConsumerProcess);
      rule.action = Action::kCrash;
      rule.step = at;
      break;
    case HandFaultKind::kCrashAfterCommit:
      rule.site = orders::site_name(Site::kConsumerAfterCommit);
      rule.action = Action::kCrash;
      rule.after_step = at;
      break;
    case HandFaultKind::kRestartBroker:
      rule.site = orders::site_name(Site::kBrokerRestart);
      rule.action = Action::kRestart;
      rule.key[orders::kInstance].reset();
      rule.step = at;
      break;
    case HandFaultKind::kFailNextCommit:
      rule.site = orders::site_name(Site::kDbCommit);
      rule.action = Action::kFail;
      rule.after_step = at;
      break;
  }
  return rule;
}

std::string describe_rule(const sim::FaultRule& r) {
  std::string text;
  if (r.step) text = "step " + std::to_string(*r.step) + ": ";
  if (r.after_step) text = "after step " + std::to_string(*r.after_step) + ": ";
  if (r.tick) text = "tick " + std::to_string(*r.tick) + ": ";
  const FaultSite* site_entry = find_fault_site(r.site);
  const std::optional<Site> site =
      site_entry != nullptr ? std::optional<Site>(site_entry->id) : std::nullopt;
  const bool net = site_entry != nullptr && site_entry->is_network();
  if (site == Site::kConsumerProcess) {
    text += "crash " + instance_name(r.key[orders::kInstance]) + " now";
  } else if (site == Site::kConsumerAfterCommit && !r.key[orders::kOrder]) {
    text += "crash " + instance_name(r.key[orders::kInstance]) + " after its next commit";
  } else if (site == Site::kBrokerRestart && (r.step || r.tick)) {
    text += "restart the broker";
  } else if (site == Site::kDbCommit && !r.key[orders::kOrder]) {
    text += "fail the next commit of " + instance_name(r.key[orders::kInstance]);
  } else if (net && (r.step || r.tick)) {
    text += "break " + r.site.substr(4);
  } else if (net && r.frame && !r.nth) {
    text += "drop the next " + *r.frame + " on " + r.site.substr(4);
  } else {
    text += std::string(action_name(r.action)) + " at " + r.site;
    if (r.frame) text += " " + *r.frame;
    if (r.nth) text += " #" + std::to_string(*r.nth);
    if (r.key[orders::kOrder]) text += " order " + std::to_string(*r.key[orders::kOrder]);
    if (r.key[orders::kAttempt]) text += " attempt " + std::to_string(*r.key[orders::kAttempt]);
    if (r.key[orders::kInstance]) text += " instance " + std::to_string(*r.key[orders::kInstance]);
  }
  return text;
}

std::string message_label(const broker::Message& m) {
  return m.message_id.empty() ? std::string("(no message_id)") : m.message_id;
}

std::string x_death_text(const broker::Message& m) {
  std::string deaths;
  for (const broker::XDeath& x : m.deaths.get().x_death) {
    deaths += (deaths.empty() ? "" : "; ") + x.reason + " from " + x.queue + " x" +
              std::to_string(x.count);
  }
  return deaths;
}

Divergence first_divergence(const std::vector<sim::TraceEvent>& a,
                            const std::vector<sim::TraceEvent>& b) {
  const auto same = [](const sim::TraceEvent& x, const sim::TraceEvent& y) {
    return x.step == y.step && x.time == y.time && x.actor == y.actor && x.kind == y.kind &&
           x.target == y.target && x.subject == y.subject && x.detail == y.detail;
  };
  Divergence d;
  const std::size_t n = std::min(a.size(), b.size());
  while (d.event < n && same(a[d.event], b[d.event])) ++d.event;
  if (d.event == n && a.size() == b.size()) return d;
  d.diverged = true;
  const auto& longer = a.size() > d.event ? a : b;
  d.step = d.event < longer.size() ? longer[d.event].step : 0;
  return d;
}

eosim::Status Session::open(const Scenario& base) {
  Session next;  // built aside, so a failure leaves this session as it was
  next.base_ = base;
  next.scenario_ = base;
  if (eosim::Status built = next.rebuild(); !built.ok()) return built;
  base_ = std::move(next.base_);
  configured_ = base_;
  hand_.clear();
  scenario_ = std::move(next.scenario_);
  world_ = std::move(next.world_);
  pending_.reset();
  target_ = 0;
  changed();
  return eosim::Status::success();
}

eosim::Status Session::load(const std::string& path) {
  const eosim::Result<Scenario> scenario = load_scenario(path);
  if (!scenario.ok()) return scenario.status();
  return open(scenario.value());
}

eosim::Status Session::configure(const ScenarioOverrides& overrides) {
  if (eosim::Status checked = check_overrides(overrides); !checked.ok()) return checked;
  eosim::Result<Scenario> next = apply_overrides(base_, overrides);
  if (!next.ok()) return next.status();
  eosim::Result<std::unique_ptr<World>> world = World::create(next.value(), WorldOptions{});
  if (!world.ok()) return world.status();
  configured_ = next.value();
  hand_.clear();
  scenario_ = std::move(next.value());
  world_ = std::move(world.value());
  pending_.reset();
  target_ = 0;
  changed();
  return eosim::Status::success();
}

eosim::Status Session::rebuild() {
  eosim::Result<std::unique_ptr<World>> world = World::create(scenario_, WorldOptions{});
  if (!world.ok()) return world.status();
  world_ = std::move(world.value());
  return eosim::Status::success();
}

std::unique_ptr<World> Session::fresh_world() const {
  eosim::Result<std::unique_ptr<World>> world = World::create(scenario_, WorldOptions{});
  // The same scenario built before: failing now (out of memory) is not recoverable here.
  EOSIM_ASSERT(world.ok());
  return std::move(world.value());
}

void Session::changed() {
  ++revision_;
  end_.reset();
  view_.reset();
}

const RunSummary& Session::end() {
  if (!end_) {
    WorldOptions options;
    options.keep_trace = false;
    RunSummary summary;
    const eosim::Status ran = run_scenario(scenario_, options, summary, nullptr);
    EOSIM_ASSERT(ran.ok());  // the same scenario already built world_
    end_ = std::move(summary);
  }
  return *end_;
}

const StepView& Session::view() {
  if (view_ && view_->step == step()) return *view_;
  StepView v;
  v.step = step();
  v.time = world_->kernel().scheduler.now();
  v.over = world_->over();
  v.tables = world_->tables();
  v.actors = world_->actors();
  const broker::Broker& b = world_->broker();
  v.ready = b.ready(kWorkQueue);
  v.channels = b.channels();
  for (const std::string& name : b.queue_names()) {
    if (name == kWorkQueue) continue;
    for (auto& message : b.ready(name)) v.dead_letters.push_back(std::move(message));
  }
  v.counters = b.counters();
  v.summary = world_->summary();
  view_ = std::move(v);
  return *view_;
}

bool Session::step_forward() {
  pending_.reset();
  const bool stepped = world_->step();
  target_ = step();
  if (stepped) view_.reset();
  return stepped;
}

void Session::step_back() {
  if (step() > 0) seek(step() - 1);
}

void Session::seek(std::uint64_t to) {
  request(to);
  while (pump(UINT64_MAX)) {
  }
}

void Session::request(std::uint64_t to) { target_ = to; }

bool Session::pump(std::uint64_t max_steps) {
  if (target_ >= step()) {
    // Forward: the shown world itself walks there (each state on the way is final).
    pending_.reset();
    std::uint64_t done = 0;
    while (step() < target_ && done < max_steps && world_->step()) ++done;
    if (done > 0) view_.reset();
    if (step() < target_ && world_->over()) target_ = step();  // the run ended first
    return step() != target_;
  }
  // Back: replay aside from step 0 and swap when there (invariant 3). A replay already
  // under way is reused when it has not passed the target.
  if (!pending_ || pending_->steps() > target_) pending_ = fresh_world();
  std::uint64_t done = 0;
  while (pending_->steps() < target_ && done < max_steps && pending_->step()) ++done;
  if (pending_->steps() < target_ && !pending_->over()) return true;
  world_ = std::move(pending_);
  target_ = step();
  view_.reset();
  return false;
}

void Session::inject(const HandFault& fault) {
  pending_.reset();
  target_ = step();
  const sim::FaultRule rule = rule_for(fault, step());
  std::vector<sim::FaultRule> kept;
  bool dropped = false;
  for (const sim::FaultRule& r : hand_) {
    const std::int64_t at = r.step ? *r.step : r.after_step.value_or(0);
    if (at > static_cast<std::int64_t>(step())) {
      dropped = true;
    } else {
      kept.push_back(r);
    }
  }
  hand_ = std::move(kept);
  hand_.push_back(rule);
  scenario_ = configured_;
  scenario_.script.insert(scenario_.script.end(), hand_.begin(), hand_.end());
  if (dropped) {
    // The live world holds the dropped rules: replay without them, then add the new one.
    const std::uint64_t at = step();
    scenario_.script.pop_back();
    world_ = fresh_world();
    while (step() < at && world_->step()) {
    }
    scenario_.script.push_back(rule);
  }
  world_->add_fault(rule);
  changed();
}

void Session::remove_hand_rule(std::size_t index) {
  EOSIM_ASSERT(index < hand_.size());
  hand_.erase(hand_.begin() + static_cast<std::ptrdiff_t>(index));
  scenario_ = configured_;
  scenario_.script.insert(scenario_.script.end(), hand_.begin(), hand_.end());
  const std::uint64_t at = step();
  pending_.reset();
  world_ = fresh_world();
  changed();
  seek(at);
}

std::string Session::export_toml() {
  Scenario out = scenario_;
  const RunSummary& run = end();
  out.expect = Expect{};
  out.expect.verdict = run.report.verdict;
  out.expect.balance = run.report.balance_actual;
  if (!hand_.empty()) {
    // The original name and text describe the run before the hand faults; say what changed.
    const std::string faults = std::to_string(hand_.size()) +
                               (hand_.size() == 1 ? " fault" : " faults") + " by hand";
    out.name = scenario_.name + " + " + faults;
    out.about = "\"" + scenario_.name + "\" with " + faults + " in eosim-gui:\n";
    for (const sim::FaultRule& rule : hand_) out.about += "- " + describe_rule(rule) + "\n";
    out.about += "It replays to trace hash " + sim::hash_hex(run.trace_hash) + ".\n";
    // A hand fault armed for a moment that never came would fail the file's run.
    for (const UnfiredRule& u : run.unfired) {
      const auto index = static_cast<std::size_t>(u.number - 1);
      if (index >= out.script.size() - hand_.size()) out.script[index].optional = true;
    }
  }
  return to_toml(out);
}

eosim::Status Session::export_to(const std::string& path, bool replace) {
  if (eosim::Status checked = files::check_output_file(path, {scenario_.path}, replace);
      !checked.ok()) {
    return checked;
  }
  return files::write_output_file(path, export_toml(), replace);
}

}  // namespace lab
