// sim/named.h: enum names and the preset-table lookups the consumer's strategies and the
// producer's patterns share.
#include <catch2/catch.hpp>

#include <array>
#include <string_view>

#include "sim/named.h"

namespace {

struct Bundle {
  int a = 0;
  bool b = false;
  friend bool operator==(const Bundle&, const Bundle&) = default;
};

struct Entry {
  std::string_view name;
  Bundle choices;
  std::string_view meaning;
};

constexpr std::array<Entry, 3> kTable{{
    {"first", {1, false}, ""},
    {"second", {2, true}, ""},
    {"third", {3, false}, ""},
}};

}  // namespace

TEST_CASE("named: a preset table is found by name and by its choices", "[named]") {
  const std::span<const Entry> table = kTable;
  REQUIRE(sim::find_named(table, "second") == &kTable[1]);
  CHECK(sim::find_named(table, "third") == &kTable[2]);
  CHECK(sim::find_named(table, "Second") == nullptr);
  CHECK(sim::find_named(table, "") == nullptr);
  CHECK(sim::find_with_choices(table, Bundle{1, false}) == &kTable[0]);
  CHECK(sim::find_with_choices(table, Bundle{3, false}) == &kTable[2]);
  CHECK(sim::find_with_choices(table, Bundle{1, true}) == nullptr);
}
