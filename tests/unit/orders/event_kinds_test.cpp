// The lab trace's vocabulary: every kind, the kernel's and the lab's, has one distinct name
// that parses back to it.

#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "sim/event_kind.h"
#include "src/orders/event_kinds.h"
#include "src/orders/fault_site.h"
#include "tests/support/named_check.h"

TEST_CASE("event kind names parse back to the same kind, and are distinct", "[trace]") {
  std::set<std::string> names;
  const auto last = static_cast<int>(orders::event::kLearn);
  for (int i = 0; i <= last; ++i) {
    const auto kind = static_cast<sim::EventKind>(i);
    const std::string name(orders::event_kind_name(kind));
    CHECK_FALSE(name.empty());
    CHECK(orders::parse_event_kind(name) == kind);
    names.insert(name);
  }
  CHECK(names.size() == static_cast<std::size_t>(last) + 1);
  // The names are the trace's bytes: these two are pinned by every trace hash.
  CHECK(orders::event_kind_name(sim::EventKind::kRecv) == "recv");
  CHECK(orders::event_kind_name(orders::event::kDeadLetter) == "dead-letter");
  CHECK_FALSE(orders::parse_event_kind("Recv"));
  CHECK_FALSE(orders::parse_event_kind(""));
}

TEST_CASE("fault sites are named by the table made from their rows", "[faults]") {
  check_named_round_trip<orders::Site>();
  STATIC_REQUIRE(orders::site_name(orders::Site::kDbCommit) == "db.commit");
  STATIC_REQUIRE(orders::site_named("net.broker->consumer") == orders::Site::kNetBrokerToConsumer);
  CHECK(orders::kSiteNames[static_cast<std::size_t>(orders::Site::kBrokerRestart)] ==
        sim::name_of(orders::Site::kBrokerRestart));
}
