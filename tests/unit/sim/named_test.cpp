// sim/named.h: enum names (the one name table per enum, its checks and lookups) and the
// preset-table lookups the consumer's strategies and the producer's patterns share.
#include <catch2/catch.hpp>

#include <array>
#include <string_view>

#include "sim/named.h"
#include "sim/rng.h"
#include "tests/support/named_check.h"

namespace {

enum class Colour : unsigned char { kRed, kGreen, kBlue };

// The tables names_every_value must refuse: a value missing at the end, two rows out of
// the enum's order, a value named twice.
constexpr std::array<sim::Named<Colour>, 2> kMissingLast{{
    {Colour::kRed, "red", ""},
    {Colour::kGreen, "green", ""},
}};
constexpr std::array<sim::Named<Colour>, 3> kOutOfOrder{{
    {Colour::kRed, "red", ""},
    {Colour::kBlue, "blue", ""},
    {Colour::kGreen, "green", ""},
}};
constexpr std::array<sim::Named<Colour>, 3> kTwice{{
    {Colour::kRed, "red", ""},
    {Colour::kGreen, "green", ""},
    {Colour::kGreen, "green", ""},
}};
constexpr std::array<sim::Named<Colour>, 3> kColours{{
    {Colour::kRed, "red", "warm"},
    {Colour::kGreen, "green", "grass"},
    {Colour::kBlue, "blue", "sky"},
}};

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

namespace sim {
template <>
std::span<const Named<Colour>> enum_names<Colour>() {
  return kColours;
}
}  // namespace sim

TEST_CASE("named: a table names every value of its enum once, in the enum's order", "[named]") {
  STATIC_REQUIRE(sim::is_enumerator<Colour::kBlue>());
  STATIC_REQUIRE_FALSE(sim::is_enumerator<static_cast<Colour>(3)>());
  STATIC_REQUIRE(sim::names_every_value(kColours));
  STATIC_REQUIRE_FALSE(sim::names_every_value(kMissingLast));
  STATIC_REQUIRE_FALSE(sim::names_every_value(kOutOfOrder));
  STATIC_REQUIRE_FALSE(sim::names_every_value(kTwice));
}

TEST_CASE("named: a value's name and meaning, a name's value, the list", "[named]") {
  check_named_round_trip<Colour>();
  check_named_round_trip<sim::Draws>();
  CHECK(sim::name_of(Colour::kGreen) == "green");
  CHECK(sim::meaning_of(Colour::kBlue) == "sky");
  CHECK(sim::value_named<Colour>("blue") == Colour::kBlue);
  CHECK_FALSE(sim::value_named<Colour>("Blue"));
  CHECK(sim::names_list<Colour>() == "red, green, blue");
  constexpr auto kNames = sim::names_by_value(kColours);
  STATIC_REQUIRE(kNames[2] == "blue");
}

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
