// The trace's vocabulary: every kind has one distinct name that parses back to it.

#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "sim/event_kind.h"

TEST_CASE("event kind names parse back to the same kind, and are distinct", "[trace]") {
  std::set<std::string> names;
  const auto last = static_cast<int>(sim::EventKind::kLearn);
  for (int i = 0; i <= last; ++i) {
    const auto kind = static_cast<sim::EventKind>(i);
    const std::string name(sim::event_kind_name(kind));
    CHECK_FALSE(name.empty());
    CHECK(sim::parse_event_kind(name) == kind);
    names.insert(name);
  }
  CHECK(names.size() == static_cast<std::size_t>(last) + 1);
  // The names are the trace's bytes: these two are pinned by every trace hash.
  CHECK(sim::event_kind_name(sim::EventKind::kRecv) == "recv");
  CHECK(sim::event_kind_name(sim::EventKind::kDeadLetter) == "dead-letter");
  CHECK_FALSE(sim::parse_event_kind("Recv"));
  CHECK_FALSE(sim::parse_event_kind(""));
}
