// The fault-site catalog (src/catalog/fault_sites.h) against the actors: every site a run
// reaches is one the table says that producer pattern and strategy pass, every site the
// table says is passed is reached, and `attempt` counts what the table says it counts.

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>

#include "src/catalog/catalog.h"
#include "src/catalog/fault_sites.h"
#include "src/orders/order_key.h"
#include "src/world/world.h"
#include "tests/support/run_support.h"

namespace {

lab::Scenario small(const std::string& pattern, const std::string& strategy) {
  lab::Scenario s;
  s.name = "fault sites test";
  s.workload.orders = 3;
  s.producer.pattern = pattern;
  s.consumer.strategy = strategy;
  return s;
}

struct Seen {
  std::set<std::string> sites;
  std::set<std::pair<std::string, std::string>> frames;  // (site, frame)
  std::vector<sim::FiredFault> all;
};

Seen opportunities_of(const lab::Scenario& s) {
  lab::WorldOptions options;
  options.keep_trace = false;
  options.log_opportunities = true;
  auto world = run_support::world(s, options);
  REQUIRE(world);
  world->run();
  Seen seen;
  for (const sim::FiredFault& o : world->kernel().faults.opportunities()) {
    seen.sites.insert(o.site);
    if (!o.frame.empty()) seen.frames.insert({o.site, o.frame});
    seen.all.push_back(o);
  }
  return seen;
}

using run_support::run;

sim::FaultRule rule(std::string site, sim::FaultAction action, std::int64_t order,
                    std::int64_t attempt) {
  sim::FaultRule r;
  r.site = std::move(site);
  r.action = action;
  r.key[orders::kOrder] = order;
  r.key[orders::kAttempt] = attempt;
  return r;
}

// never_passed for two preset names.
std::string never(const lab::FaultSite& site, const lab::SiteFrame* frame,
                  const std::string& pattern, const std::string& strategy) {
  const producer::PatternPreset* p = producer::find_pattern(pattern);
  const consumer::Preset* c = consumer::find_preset(strategy);
  REQUIRE(p);
  REQUIRE(c);
  return lab::never_passed(site, frame, p->choices, pattern, consumer::Strategy{c->choices},
                           strategy);
}

}  // namespace

TEST_CASE("fault sites: the table is in enum order and self-consistent", "[fault_sites]") {
  REQUIRE(lab::fault_sites().size() == lab::kSiteCount);
  for (const lab::FaultSite& site : lab::fault_sites()) {
    INFO(site.name);
    CHECK(&lab::site_info(site.id) == &site);
    CHECK(lab::find_fault_site(site.name) == &site);
    CHECK(site.is_network() == site.takes(lab::kKeyFrame));
    CHECK(site.takes(lab::kKeyAttempt) == !site.attempt_means.empty());
    if (site.takes(lab::kKeyAttempt)) CHECK(site.takes(lab::kKeyOrder));
    if (site.moment_only) CHECK(site.keys == lab::kKeyInstance);
    for (const lab::SiteFrame& frame : site.frames) {
      if (frame.names_attempt) CHECK(frame.names_order);
    }
  }
  CHECK(lab::find_fault_site("consumer.on_delivery") == nullptr);
  CHECK(lab::action_name(lab::Action::kFail) == "fail");
}

TEST_CASE("fault sites: what runs reach is what the table says is passed", "[fault_sites]") {
  for (const lab::CatalogEntry& p : lab::producers()) {
    for (const lab::CatalogEntry& st : lab::strategies()) {
      const std::string pattern(p.name), strategy(st.name);
      INFO(pattern << " / " << strategy);
      const Seen seen = opportunities_of(small(pattern, strategy));
      const producer::Pattern pat = producer::find_pattern(pattern)->pattern;
      const consumer::Strategy strat{consumer::find_preset(strategy)->choices};
      for (const lab::FaultSite& site : lab::fault_sites()) {
        if (site.moment_only || orders::scripted_only(site.id)) continue;
        INFO(site.name);
        // Without faults every passed site is reached: none depends on bad luck.
        CHECK(seen.sites.count(std::string(site.name)) ==
              (lab::site_passed(site, nullptr, pat, strat) ? 1u : 0u));
      }
      for (const auto& [site_name, frame_name] : seen.frames) {
        INFO(site_name << " " << frame_name);
        const lab::FaultSite* site = lab::find_fault_site(site_name);
        REQUIRE(site);
        const lab::SiteFrame* frame = site->frame(frame_name);
        REQUIRE(frame);
        CHECK(lab::site_passed(*site, frame, pat, strat));
      }
      for (const sim::FiredFault& o : seen.all) {
        INFO(o.site << " " << o.frame);
        const lab::FaultSite* site = lab::find_fault_site(o.site);
        REQUIRE(site);
        const lab::SiteFrame* frame = o.frame.empty() ? nullptr : site->frame(o.frame);
        const bool names_order = frame ? frame->names_order : site->takes(lab::kKeyOrder);
        const bool names_attempt = frame ? frame->names_attempt : site->takes(lab::kKeyAttempt);
        CHECK((o.key[orders::kOrder] != 0) == names_order);
        CHECK((o.key[orders::kAttempt] != 0) == names_attempt);
        if (site->max_attempt != 0) CHECK(o.key[orders::kAttempt] <= site->max_attempt);
      }
    }
  }
}

TEST_CASE("fault sites: design variations pass what the table says, every site is reached",
          "[fault_sites]") {
  // The presets alone never send an email nor write the key last: the variations of
  // [consumer] decide those sites, so they are run here too.
  struct Variation {
    const char* name;
    void (*apply)(lab::ConsumerConfig&);
  };
  const Variation variations[] = {
      {"as preset", [](lab::ConsumerConfig&) {}},
      {"mark = after-commit", [](lab::ConsumerConfig& c) { c.mark = consumer::Mark::kAfterCommit; }},
      {"dedup_order = effect-first",
       [](lab::ConsumerConfig& c) { c.dedup_order = consumer::DedupOrder::kEffectFirst; }},
      {"side_effect = before-commit",
       [](lab::ConsumerConfig& c) { c.side_effect = consumer::SideEffect::kBeforeCommit; }},
      {"side_effect = after-commit",
       [](lab::ConsumerConfig& c) { c.side_effect = consumer::SideEffect::kAfterCommit; }},
  };
  std::set<std::string> reached;
  for (const lab::CatalogEntry& p : lab::producers()) {
    for (const lab::CatalogEntry& st : lab::strategies()) {
      for (const Variation& v : variations) {
        lab::Scenario s = small(std::string(p.name), std::string(st.name));
        v.apply(s.consumer);
        INFO(p.name << " / " << st.name << " / " << v.name);
        const Seen seen = opportunities_of(s);
        reached.insert(seen.sites.begin(), seen.sites.end());
        const producer::Pattern pat = producer::find_pattern(std::string(p.name))->pattern;
        for (const lab::FaultSite& site : lab::fault_sites()) {
          if (site.moment_only || orders::scripted_only(site.id)) continue;
          INFO(site.name);
          CHECK(seen.sites.count(std::string(site.name)) ==
                (lab::site_passed(site, nullptr, pat, s.consumer.design()) ? 1u : 0u));
        }
      }
    }
  }
  // A catalogued site no design reaches could never fire: the table would promise a lesson
  // the actors cannot give.
  for (const lab::FaultSite& site : lab::fault_sites()) {
    INFO(site.name);
    // A scripted-only site logs no opportunity: the next test fires a rule at each.
    if (!site.moment_only && !orders::scripted_only(site.id)) {
      CHECK(reached.count(std::string(site.name)) == 1);
    }
  }
}

TEST_CASE("fault sites: a rule at a scripted-only site fires where the table says it is "
          "passed, a random fault never does",
          "[fault_sites]") {
  for (const lab::CatalogEntry& st : lab::strategies()) {
    const consumer::Strategy strat{consumer::find_preset(std::string(st.name))->choices};
    for (const lab::FaultSite& site : lab::fault_sites()) {
      if (!orders::scripted_only(site.id)) continue;
      INFO(st.name << " / " << site.name);
      lab::Scenario s = small("outbox", std::string(st.name));
      s.script = {rule(std::string(site.name), site.action, 2, 1)};
      const lab::RunSummary r = run(s);
      const bool passed = lab::site_passed(site, nullptr, producer::Pattern::kOutbox, strat);
      CHECK(r.faults.size() == (passed ? 1u : 0u));
      if (!r.faults.empty()) CHECK(r.faults[0].site == site.name);
    }
  }
  // Every kind drawn at every opportunity, as often as the budget allows: the kinds these
  // sites do (drop, restart) are drawn elsewhere, never here.
  lab::Scenario s = small("outbox", "atomic");
  for (const char* kind : {"drop", "restart", "fail", "crash"}) s.random.ratios[kind] = {1, 1};
  s.random.budget = 1000;
  const lab::RunSummary r = run(s);
  CHECK_FALSE(r.faults.empty());
  for (const sim::FiredFault& f : r.faults) {
    INFO(f.site);
    const std::optional<orders::Site> site = orders::site_named(f.site);
    REQUIRE(site);
    CHECK_FALSE(orders::scripted_only(*site));
  }
}

TEST_CASE("fault sites: relay attempts count publishes of the order's row", "[fault_sites]") {
  lab::Scenario s = small("outbox", "atomic");
  s.script = {rule("relay.after_publish", sim::FaultAction::kCrash, 2, 1),
              rule("relay.after_publish", sim::FaultAction::kCrash, 2, 2)};
  const lab::RunSummary r = run(s);
  REQUIRE(r.faults.size() == 2);
  CHECK(r.faults[0].key[orders::kAttempt] == 1);
  CHECK(r.faults[1].key[orders::kAttempt] == 2);
  CHECK(r.unfired.empty());
  CHECK(r.report.verdict == lab::Verdict::kExactlyOnce);  // republished with the same id, deduplicated
}

TEST_CASE("fault sites: a publish attempt on the relay's link fires and loses the order",
          "[fault_sites]") {
  // The case: before publish frames carried an attempt this rule never fired and
  // the run read as "outbox without confirms is safe".
  lab::Scenario s = small("outbox-no-confirm", "atomic");
  sim::FaultRule drop = rule("net.relay->broker", sim::FaultAction::kDrop, 2, 1);
  drop.frame = "basic.publish";
  s.script = {drop};
  const lab::RunSummary r = run(s);
  REQUIRE(r.faults.size() == 1);
  CHECK(r.faults[0].key[orders::kAttempt] == 1);
  CHECK(r.report.verdict == lab::Verdict::kLost);
  CHECK(r.report.lost == std::vector<std::int64_t>{2});
}

TEST_CASE("fault sites: the order service's attempt is 1", "[fault_sites]") {
  lab::Scenario s = small("dual-write", "atomic");
  s.script = {rule("producer.after_commit", sim::FaultAction::kCrash, 2, 1)};
  const lab::RunSummary r = run(s);
  REQUIRE(r.faults.size() == 1);
  CHECK(r.report.verdict == lab::Verdict::kLost);
}

TEST_CASE("fault sites: who passes a site, in words", "[fault_sites]") {
  const lab::FaultSite& relay = lab::site_info(lab::Site::kRelayAfterPublish);
  CHECK(lab::passed_by_text(relay, nullptr) ==
        "producer patterns outbox, outbox-no-confirm");
  CHECK(never(relay, nullptr, "outbox", "atomic").empty());
  CHECK(never(relay, nullptr, "dual-write", "atomic") ==
        "relay.after_publish is never passed under producer dual-write (passed by: "
        "producer patterns outbox, outbox-no-confirm)");
  const lab::FaultSite& dedup = lab::site_info(lab::Site::kConsumerAfterDedupInsert);
  const std::string why = never(dedup, nullptr, "outbox", "no-dedup");
  CHECK(why.find("consumer no-dedup") != std::string::npos);
  CHECK(why.find("separate-dedup-store") != std::string::npos);
  const lab::FaultSite& acks = lab::site_info(lab::Site::kNetConsumerToBroker);
  CHECK_FALSE(never(acks, acks.frame("basic.ack"), "outbox", "auto-ack").empty());
  CHECK(never(acks, acks.frame("basic.qos"), "outbox", "auto-ack").empty());
}
