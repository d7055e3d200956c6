#include "src/generals/generals.h"

#include <array>
#include <limits>
#include <string_view>
#include <utility>

#include "sim/assert.h"
#include "src/orders/event_kinds.h"
#include "src/orders/order_key.h"

namespace generals {

namespace {

// Long enough for any lesson; the fact texts grow with N, and a ladder taller than this
// teaches nothing a shorter one does not.
constexpr int kMaxCouriers = 64;

// The couriers' channel names its fault sites "courier.<role>-><role>" (sim/network.h).
constexpr std::string_view kCourierSites = "courier.";

std::string site_of(int courier) {
  return std::string(kCourierSites) + sim::node_role(node_of(sender_of(courier))) + "->" +
         sim::node_role(node_of(receiver_of(courier)));
}

}  // namespace

eosim::Status validate(const GeneralsOptions& options) {
  if (options.couriers < 1 || options.couriers > kMaxCouriers) {
    return eosim::Status::error("couriers must be from 1 to " + std::to_string(kMaxCouriers) +
                                ", got " + std::to_string(options.couriers));
  }
  if (options.loss.denominator == 0 || options.loss.numerator > options.loss.denominator) {
    return eosim::Status::error("loss must be a ratio from 0 to 1 such as 1/4, got " +
                                std::to_string(options.loss.numerator) + "/" +
                                std::to_string(options.loss.denominator));
  }
  if (options.latency_min > options.latency_max) {
    return eosim::Status::error("latency_min (" + std::to_string(options.latency_min) +
                                ") must not exceed latency_max (" +
                                std::to_string(options.latency_max) + ")");
  }
  if (options.attack_level < 0) {
    return eosim::Status::error("attack_level must be 0 or more, got " +
                                std::to_string(options.attack_level));
  }
  for (int c : options.capture) {
    if (c < 1 || c > options.couriers) {
      return eosim::Status::error("capture: courier " + std::to_string(c) +
                                  " does not exist (couriers are 1.." +
                                  std::to_string(options.couriers) + ")");
    }
  }
  return eosim::Status::success();
}

namespace {

constexpr std::array<sim::Named<CourierStatus>, 4> kStatusNames{{
    {CourierStatus::kNotSent, "not sent", ""},
    {CourierStatus::kInFlight, "in flight", ""},
    {CourierStatus::kDelivered, "delivered", ""},
    {CourierStatus::kCaptured, "captured", ""},
}};
static_assert(sim::names_every_value(kStatusNames));

constexpr std::array<sim::Named<Outcome>, 4> kOutcomeNames{{
    {Outcome::kBothAttack, "both attack", "they win, this time"},
    {Outcome::kNeitherAttacks, "neither attacks", "no battle"},
    {Outcome::kOnlyA, "only A attacks", "A's army attacks alone and is destroyed"},
    {Outcome::kOnlyB, "only B attacks", "B's army attacks alone and is destroyed"},
}};
static_assert(sim::names_every_value(kOutcomeNames));

}  // namespace

TwoGenerals::TwoGenerals(GeneralsOptions options)
    : options_(std::move(options)),
      kernel_(options_.seed),
      couriers_(static_cast<std::size_t>(options_.couriers)),
      rungs_(static_cast<std::size_t>(options_.couriers) + 1) {
  EOSIM_ASSERT(validate(options_).ok());
  kernel_.trace.name_kinds(orders::kTraceNames.kinds);
  if (!options_.loss.is_never()) {
    sim::RandomFaultOptions random;
    random.ratios[std::string(sim::fault_action_name(sim::FaultAction::kDrop))] = options_.loss;
    random.budget = std::numeric_limits<std::int64_t>::max();
    random.horizon = std::numeric_limits<sim::Tick>::max();
    kernel_.faults.set_random(std::move(random));
  }
  std::vector<sim::FaultRule> rules;
  for (int c : options_.capture) {
    sim::FaultRule rule;
    rule.site = site_of(c);
    rule.action = sim::FaultAction::kDrop;
    rule.key[orders::kOrder] = c;
    rule.frame = "courier";
    rules.push_back(std::move(rule));
  }
  kernel_.faults.set_rules(std::move(rules));

  for (General g : {General::kA, General::kB}) {
    sim::NodeHandlers handlers;
    handlers.on_datagram = [this, g](const sim::NodeId&, const sim::Frame& frame) {
      on_courier(g, frame);
    };
    kernel_.network.attach(node_of(g), std::move(handlers));
  }
  // A proposes in an event of its own, so that a stepper sees the state before courier 1
  // and can capture it by hand.
  kernel_.scheduler.at(0, "generals.propose", [this] {
    kernel_.trace.record(node_of(General::kA), orders::event::kLearn, "", 0,
                         "level 0: " + fact_text(0));
    dispatch(1);
    refresh_ladder();
  });
  refresh_ladder();
}

const TwoGenerals::Courier& TwoGenerals::courier(int number) const {
  EOSIM_ASSERT(number >= 1);
  EOSIM_ASSERT(number <= options_.couriers);
  return couriers_[static_cast<std::size_t>(number - 1)];
}

TwoGenerals::Courier& TwoGenerals::courier(int number) {
  return const_cast<Courier&>(std::as_const(*this).courier(number));
}

bool TwoGenerals::delivered(int number) const {
  return number >= 1 && number <= options_.couriers &&
         courier(number).status == CourierStatus::kDelivered;
}

bool TwoGenerals::step() { return kernel_.scheduler.step(); }

void TwoGenerals::run() {
  // One event to propose and one per delivered courier; anything more is a bug.
  const std::uint64_t bound = static_cast<std::uint64_t>(options_.couriers) + 1;
  kernel_.scheduler.run(bound);
  EOSIM_ASSERT(done());
}

bool TwoGenerals::capture_next() {
  if (last_sent_ >= options_.couriers) return false;
  if (last_sent_ > 0 && courier(last_sent_).status == CourierStatus::kCaptured) return false;
  capture_armed_ = true;
  return true;
}

void TwoGenerals::dispatch(int number) {
  EOSIM_ASSERT(number == last_sent_ + 1);
  const General from = sender_of(number);
  const General to = receiver_of(number);
  Courier& c = courier(number);
  c.sent_at = kernel_.scheduler.now();
  last_sent_ = number;

  sim::Frame frame;
  frame.kind = kernel_.faults.frames().id("courier");
  frame.key[orders::kOrder] = number;  // fault rules match a courier by its number through `order`
  frame.summary = "courier " + std::to_string(number) + ": " + courier_text(number);
  if (capture_armed_) {
    // Logged exactly as the network logs a scripted capture, so a session captured by
    // hand replays as `capture` rules with the same trace.
    capture_armed_ = false;
    const sim::SiteId site = kernel_.faults.sites().id(site_of(number));
    kernel_.faults.record(
        {site, sim::FaultAction::kDrop, orders::order_key(number), frame.kind},
        sim::FaultAction::kDrop, true);
    kernel_.trace.record(node_of(from), sim::EventKind::kLost, node_of(to), number,
                         frame.summary + " (captured)");
    c.status = CourierStatus::kCaptured;
    c.scripted = true;
    return;
  }
  const std::uint64_t lost_before = kernel_.network.frames_lost();
  const std::size_t fired_before = kernel_.faults.fired().size();
  kernel_.network.send_datagram(node_of(from), node_of(to), std::move(frame),
                                {options_.latency_min, options_.latency_max, kCourierSites});
  // The channel loses a courier synchronously, at the moment it is sent.
  if (kernel_.network.frames_lost() > lost_before) {
    c.status = CourierStatus::kCaptured;
    c.scripted = kernel_.faults.fired().size() > fired_before &&
                 kernel_.faults.fired().back().scripted;
  } else {
    c.status = CourierStatus::kInFlight;
  }
}

void TwoGenerals::on_courier(General receiver, const sim::Frame& frame) {
  const int number = static_cast<int>(frame.key[orders::kOrder]);
  EOSIM_ASSERT(receiver == receiver_of(number));
  Courier& c = courier(number);
  // A second copy (the channel can duplicate, though this model never asks it to) teaches
  // nothing new and must not send a second reply.
  if (c.status == CourierStatus::kDelivered) return;
  EOSIM_ASSERT(c.status == CourierStatus::kInFlight);
  c.status = CourierStatus::kDelivered;
  c.arrived_at = kernel_.scheduler.now();
  int& level = receiver == General::kA ? level_a_ : level_b_;
  EOSIM_ASSERT(number > level);
  level = number;
  kernel_.trace.record(node_of(receiver), orders::event::kLearn, "", number,
                       "level " + std::to_string(number) + ": " + fact_text(number));
  if (number < options_.couriers) dispatch(number + 1);
  refresh_ladder();
}

void TwoGenerals::refresh_ladder() {
  for (int k = 0; k <= options_.couriers; ++k) {
    Rung& rung = rungs_[static_cast<std::size_t>(k)];
    rung.level = k;
    rung.text = fact_text(k);
    rung.who = holder_of(k);
    rung.courier = k;
    rung.known = k == 0 || delivered(k);
    rung.status = k == 0 ? CourierStatus::kDelivered : courier(k).status;
    rung.confirmed = delivered(k + 1);
  }
}

std::vector<CourierView> TwoGenerals::couriers() const {
  std::vector<CourierView> views;
  for (int n = 1; n <= options_.couriers; ++n) {
    const Courier& c = courier(n);
    CourierView v;
    v.number = n;
    v.from = sender_of(n);
    v.to = receiver_of(n);
    v.text = courier_text(n);
    v.sender_level = n - 1;
    v.status = c.status;
    v.scripted = c.scripted;
    v.sent_at = c.sent_at;
    v.arrived_at = c.arrived_at;
    v.confirmed = delivered(n + 1);
    views.push_back(std::move(v));
  }
  return views;
}

bool TwoGenerals::last_courier_unconfirmed() const {
  // Read from the couriers themselves rather than last_sent_: the newest courier that
  // left, and whether anything came back after it.
  int last = 0;
  for (int n = 1; n <= options_.couriers; ++n) {
    if (courier(n).status != CourierStatus::kNotSent) last = n;
  }
  if (last == 0) return !delivered(1);  // A does not know whether B heard the plan
  return !delivered(last + 1);
}

Decision TwoGenerals::decision(General g) const {
  Decision d;
  d.general = g;
  d.level = level(g);
  d.attack_level = options_.attack_level;
  d.attacks = attacks_at(g, d.level, d.attack_level);
  const int next = d.level + 1;
  const bool sent_next = next <= options_.couriers && sender_of(next) == g &&
                         courier(next).status != CourierStatus::kNotSent;
  d.other_levels = possible_other_levels(g, d.level, sent_next);
  d.about_other = belief_about_other(g, d.other_levels, d.attack_level);
  d.safe = d.attacks ? d.about_other == Belief::kSureAttacks
                     : d.about_other == Belief::kSureHolds;
  return d;
}

Outcome TwoGenerals::outcome() const {
  const bool a = decision(General::kA).attacks;
  const bool b = decision(General::kB).attacks;
  if (a && b) return Outcome::kBothAttack;
  if (a) return Outcome::kOnlyA;
  if (b) return Outcome::kOnlyB;
  return Outcome::kNeitherAttacks;
}

bool TwoGenerals::common_knowledge() const {
  return level_b_ >= 1 && decision(General::kA).other_levels.exact() &&
         decision(General::kB).other_levels.exact();
}

std::optional<Split> find_split(GeneralsOptions options) {
  options.loss = sim::Ratio::never();
  // 0 stands for "nothing captured": the full exchange is tried first.
  for (int c = 0; c <= options.couriers; ++c) {
    GeneralsOptions attempt = options;
    attempt.capture.clear();
    if (c > 0) attempt.capture.push_back(c);
    TwoGenerals model(std::move(attempt));
    model.run();
    const Outcome outcome = model.outcome();
    if (outcome == Outcome::kOnlyA || outcome == Outcome::kOnlyB) {
      return Split{c, outcome == Outcome::kOnlyA ? General::kA : General::kB};
    }
  }
  return std::nullopt;
}

}  // namespace generals

namespace sim {
template <>
std::span<const Named<generals::CourierStatus>> enum_names<generals::CourierStatus>() {
  return generals::kStatusNames;
}
template <>
std::span<const Named<generals::Outcome>> enum_names<generals::Outcome>() {
  return generals::kOutcomeNames;
}
}  // namespace sim
