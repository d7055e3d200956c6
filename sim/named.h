#pragma once
// Names for enum values, for the edges where a value becomes text (scenario files, the
// command line, listings). A module that owns an enum specialises enum_names<E>() with one
// constexpr table; everything else (lookup by value, by name, the list for an error
// message) is this header's, so every enum is named the same way.
//
// REQUIRES: each table names every value of its enum exactly once.

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sim {

template <class E>
struct Named {
  E value;
  std::string_view name;
  std::string_view meaning;  // one line, for listings and help
};

// Specialised by the module that owns E.
template <class E>
std::span<const Named<E>> enum_names();

template <class E>
std::string_view name_of(E value) {
  for (const auto& entry : enum_names<E>()) {
    if (entry.value == value) return entry.name;
  }
  return "?";  // unreachable when the table is complete
}

template <class E>
std::optional<E> value_named(std::string_view name) {
  for (const auto& entry : enum_names<E>()) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

// "a, b, c": every name of E, for messages that say what was expected.
template <class E>
std::string names_list() {
  std::string out;
  for (const auto& entry : enum_names<E>()) {
    out += (out.empty() ? "" : ", ") + std::string(entry.name);
  }
  return out;
}

// Preset tables (the designs an actor can be given, by name) are arrays of entries
// with a `name` and a `choices` bundle; both are looked up by these two, so the tables are
// searched one way. nullptr when no entry matches.
template <class Entry>
const Entry* find_named(std::span<const Entry> table, std::string_view name) {
  for (const Entry& entry : table) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

template <class Entry, class Choices>
const Entry* find_with_choices(std::span<const Entry> table, const Choices& choices) {
  for (const Entry& entry : table) {
    if (entry.choices == choices) return &entry;
  }
  return nullptr;
}

}  // namespace sim
