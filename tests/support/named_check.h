#pragma once
// Checks an enum's name table (sim/named.h) at run time, for the tests of the module that
// owns the enum: every value has a distinct name (one may be "", as a frame kind's kNone
// is), parsing a name gives its value back, and a value past the table is named "?".

#include <catch2/catch.hpp>

#include <cstddef>
#include <set>
#include <string>

#include "sim/named.h"

template <class E>
void check_named_round_trip() {
  const auto table = sim::enum_names<E>();
  REQUIRE_FALSE(table.empty());
  std::set<std::string> names;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto value = static_cast<E>(i);
    const std::string name(sim::name_of(value));
    INFO("value " << i << " is named '" << name << "'");
    CHECK(table[i].value == value);
    CHECK(name != "?");
    CHECK(sim::value_named<E>(name) == value);
    names.insert(name);
  }
  CHECK(names.size() == table.size());
  CHECK(sim::name_of(static_cast<E>(table.size())) == "?");
}
