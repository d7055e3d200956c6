#pragma once
// Names for enum values, for the edges where a value becomes text (scenario files, the
// command line, traces, reports, listings). This is the one way an enum is named: the
// module that owns an enum writes one constexpr table of Named<E> rows in the enum's
// order, checks it with `static_assert(sim::names_every_value(table))` and specialises
// enum_names<E>() to return it; everything else (the name of a value, the value of a name,
// the list for an error message) is this header's. No switch or array of its own names an
// enum (cmake/check_enum_names.cmake looks for hand-written ones).
//
// Invariants:
//  (1) A table that passes names_every_value lists E's values 0, 1, 2, ... in order, each
//      once, and E has no enumerator past its last row: so name_of is one index, and
//      value_named(name_of(x)) == x for every x once the names differ (the unit tests
//      check that for every table).
//  (2) A table in a header (constexpr enum_names) costs a hot path nothing over an array
//      indexed by the enum; a table behind a function in a .cpp costs one call.
//
// REQUIRES: E's enumerators are 0, 1, 2, ... (no explicit values, no gaps).

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace sim {

template <class E>
struct Named {
  E value;
  std::string_view name;
  std::string_view meaning;  // one line, for listings and help ("" where none is shown)
};

// Specialised by the module that owns E (constexpr in its header where a hot path names E).
template <class E>
std::span<const Named<E>> enum_names();

// Whether V is one of its enum's enumerators: compilers spell a named value by its name
// and any other value as a cast, "(E)3", in the signature of a function it instantiates.
// The value's text ends at ';' (GCC) or ']' (clang). A cast is told by the number after
// its last ')': an enumerator may hold parentheses too, clang's "(anonymous namespace)::E::kA".
template <auto V>
constexpr bool is_enumerator() {
  constexpr std::string_view signature = __PRETTY_FUNCTION__;
  constexpr std::string_view key = "V = ";
  constexpr std::size_t at = signature.find(key);
  if (at == std::string_view::npos) return false;
  std::string_view value = signature.substr(at + key.size());
  value = value.substr(0, value.find_first_of(";]"));
  const std::size_t close = value.rfind(')');
  if (close == std::string_view::npos || close + 1 >= value.size()) return true;
  const char after = value[close + 1];
  return after != '-' && (after < '0' || after > '9');
}

namespace named_detail {
template <class E, std::size_t... I>
constexpr bool all_enumerators(std::index_sequence<I...>) {
  return (is_enumerator<static_cast<E>(I)>() && ...);
}
}  // namespace named_detail

// Invariant (1): row i names value i, and value N (one past the table) is no enumerator.
template <class E, std::size_t N>
constexpr bool names_every_value(const std::array<Named<E>, N>& table) {
  for (std::size_t i = 0; i < N; ++i) {
    if (static_cast<std::size_t>(table[i].value) != i) return false;
  }
  return named_detail::all_enumerators<E>(std::make_index_sequence<N>{}) &&
         !is_enumerator<static_cast<E>(N)>();
}

template <class E>
constexpr std::string_view name_of(E value) {
  const std::span<const Named<E>> table = enum_names<E>();
  const auto index = static_cast<std::size_t>(value);
  return index < table.size() ? table[index].name : "?";  // "?": a value E does not have
}

template <class E>
constexpr std::string_view meaning_of(E value) {
  const std::span<const Named<E>> table = enum_names<E>();
  const auto index = static_cast<std::size_t>(value);
  return index < table.size() ? table[index].meaning : "?";
}

// nullopt for a name no value has. A scan: names are parsed where text enters, not per event.
template <class E>
constexpr std::optional<E> value_named(std::string_view name) {
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

// The names alone, in the enum's order: what a kernel interface that is handed names by id
// takes (sim::EventKindNames, the fault plan's sites and frame kinds).
template <class E, std::size_t N>
constexpr std::array<std::string_view, N> names_by_value(const std::array<Named<E>, N>& table) {
  std::array<std::string_view, N> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = table[i].name;
  return names;
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
