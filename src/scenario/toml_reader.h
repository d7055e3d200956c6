#pragma once
// Strict reading of TOML tables for eosim's input files (scenarios, lessons): every key is
// looked up by name, a table's keys are checked against the keys it may hold, and every
// value is checked for type and range. Each problem becomes a LoadError naming the file,
// the line and the dotted key, e.g. "faults.script[2].at".
//
// REQUIRES: the toml::table and the LoadError outlive the TableReader reading them.

#include <toml++/toml.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/catalog/catalog.h"
#include "src/catalog/fault_sites.h"
#include "src/prose/printable.h"
#include "src/scenario/scenario.h"
#include "src/toml/toml_guard.h"

namespace lab::toml_io {

constexpr std::int64_t kIntMax = std::numeric_limits<std::int64_t>::max();

inline std::int64_t line_of(const toml::node& node) {
  return static_cast<std::int64_t>(node.source().begin.line);
}

inline std::string type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time: return "a date/time";
    case toml::node_type::none: break;
  }
  return "nothing";
}


// Reads one TOML table. Keys in error messages are dotted paths from the document root.
class TableReader {
 public:
  TableReader(const toml::table& table, std::string prefix, const std::string& file,
              LoadError& error)
      : table_(table), prefix_(std::move(prefix)), file_(file), error_(error) {}

  std::string path(std::string_view key) const {
    return prefix_.empty() ? std::string(key) : prefix_ + "." + std::string(key);
  }
  std::int64_t table_line() const { return line_of(table_); }

  bool fail(std::int64_t line, std::string key, std::string message) const {
    error_ = LoadError{file_, line, std::move(key), std::move(message)};
    return false;
  }
  bool fail_at(std::string_view key, std::string message) const {
    const toml::node* node = table_.get(key);
    return fail(node ? line_of(*node) : table_line(), path(key), std::move(message));
  }

  // Every key of the table must be one of `known`.
  bool only_keys(const std::vector<std::string_view>& known) const {
    for (const auto& [key, node] : table_) {
      if (std::find(known.begin(), known.end(), key.str()) != known.end()) continue;
      std::string allowed;
      for (std::string_view name : known) {
        allowed += (allowed.empty() ? "" : ", ") + std::string(name);
      }
      return fail(static_cast<std::int64_t>(key.source().begin.line), path(key.str()),
                  "unknown key (expected one of: " + allowed + ")");
    }
    return true;
  }

  bool has(std::string_view key) const { return table_.contains(key); }

  // A missing key has no line of its own: point at the table's header, or at no line for
  // the root table (whose "header" would be a misleading line 1).
  bool require(std::string_view key) const {
    return has(key) ||
           fail(prefix_.empty() ? 0 : table_line(), path(key), "required key is missing");
  }

  bool wrong_type(std::string_view key, const toml::node& node, std::string_view expected) const {
    return fail(line_of(node), path(key),
                "expected " + std::string(expected) + ", found " + type_name(node));
  }

  bool read_int(std::string_view key, std::int64_t& out, std::int64_t min,
                std::int64_t max) const {
    const toml::node* node = table_.get(key);
    if (!node) return true;
    std::int64_t value = 0;
    if (!int_value(key, *node, min, max, value)) return false;
    out = value;
    return true;
  }

  bool read_int(std::string_view key, std::optional<std::int64_t>& out, std::int64_t min,
                std::int64_t max) const {
    std::int64_t value = 0;
    if (!has(key)) return true;
    if (!read_int(key, value, min, max)) return false;
    out = value;
    return true;
  }

  bool read_bool(std::string_view key, bool& out) const {
    const toml::node* node = table_.get(key);
    if (!node) return true;
    if (!node->is_boolean()) return wrong_type(key, *node, "a boolean (true or false)");
    out = node->as_boolean()->get();
    return true;
  }

  bool read_string(std::string_view key, std::string& out, bool allow_empty) const {
    const toml::node* node = table_.get(key);
    if (!node) return true;
    if (!node->is_string()) return wrong_type(key, *node, "a string");
    std::string value = node->as_string()->get();
    if (!allow_empty && value.empty()) return fail(line_of(*node), path(key), "must not be empty");
    out = std::move(value);
    return true;
  }

  // A string that must name an entry of a catalog list.
  template <typename List>
  bool read_name(std::string_view key, std::string& out, const List& list,
                 std::string_view what) const {
    std::string value = out;
    if (!read_string(key, value, true)) return false;
    if (!has(key)) return true;
    const bool known = std::any_of(list.begin(), list.end(),
                                   [&](const auto& entry) { return entry.name == value; });
    if (!known) {
      return fail_at(key, "unknown " + std::string(what) + " " + in_quotes(value) +
                              " (expected one of: " + join_names(list) + ")");
    }
    out = std::move(value);
    return true;
  }

  // A string that must name a value of enum E (sim::enum_names<E>), with the error
  // read_name gives for a catalog list; absent leaves `out` alone.
  template <class E>
  bool read_name(std::string_view key, E& out, std::string_view what) const {
    if (!has(key)) return true;
    std::string value;
    if (!read_string(key, value, true)) return false;
    const std::optional<E> named = sim::value_named<E>(value);
    if (!named) {
      return fail_at(key, "unknown " + std::string(what) + " " + in_quotes(value) +
                              " (expected one of: " + sim::names_list<E>() + ")");
    }
    out = *named;
    return true;
  }

  // A string naming a value of enum E (sim::enum_names<E>); absent leaves `out` alone.
  template <class E>
  bool read_choice(std::string_view key, std::optional<E>& out) const {
    if (!has(key)) return true;
    std::string value;
    if (!read_string(key, value, true)) return false;
    const std::optional<E> named = sim::value_named<E>(value);
    if (!named) {
      return fail_at(key, "unknown value " + in_quotes(value) +
                              " (expected one of: " + sim::names_list<E>() + ")");
    }
    out = named;
    return true;
  }

  template <class E>
  bool read_choice(std::string_view key, E& out) const {
    std::optional<E> value;
    if (!read_choice(key, value)) return false;
    if (value) out = *value;
    return true;
  }

  bool read_bool(std::string_view key, std::optional<bool>& out) const {
    if (!has(key)) return true;
    bool value = false;
    if (!read_bool(key, value)) return false;
    out = value;
    return true;
  }

  // An array of order numbers in [min, max], returned sorted, each at most once.
  bool read_order_list(std::string_view key, std::vector<std::int64_t>& out, std::int64_t min,
                       std::int64_t max) const {
    const toml::node* node = table_.get(key);
    if (!node) return true;
    const toml::array* array = node->as_array();
    if (!array) return wrong_type(key, *node, "an array of order numbers");
    std::vector<std::int64_t> values;
    for (const toml::node& element : *array) {
      std::int64_t value = 0;
      if (!int_value(key, element, min, max, value)) return false;
      if (std::find(values.begin(), values.end(), value) != values.end()) {
        return fail(line_of(element), path(key), "lists order " + std::to_string(value) + " twice");
      }
      values.push_back(value);
    }
    std::sort(values.begin(), values.end());
    out = std::move(values);
    return true;
  }

  bool read_order_list(std::string_view key, std::optional<std::vector<std::int64_t>>& out,
                       std::int64_t min, std::int64_t max) const {
    if (!has(key)) return true;
    std::vector<std::int64_t> values;
    if (!read_order_list(key, values, min, max)) return false;
    out = std::move(values);
    return true;
  }

  // A sub-table, or nullptr when the key is absent. `ok` turns false on a wrong type.
  const toml::table* sub_table(std::string_view key, bool& ok) const {
    const toml::node* node = table_.get(key);
    if (!node) return nullptr;
    if (!node->is_table()) {
      ok = wrong_type(key, *node, "a table ([" + path(key) + "])");
      return nullptr;
    }
    return node->as_table();
  }

  const toml::node* get(std::string_view key) const { return table_.get(key); }
  const std::string& file() const { return file_; }
  LoadError& error() const { return error_; }


  // The tables of an array of tables ([[key]]), each with its dotted prefix "key[i]".
  // False (with the error set) when the key holds anything else.
  struct Element {
    const toml::table* table;
    std::string prefix;
  };
  bool table_array(std::string_view key, std::vector<Element>& out) const {
    const toml::node* node = table_.get(key);
    if (!node) return true;
    const toml::array* array = node->as_array();
    if (!array) return wrong_type(key, *node, "an array of tables ([[" + path(key) + "]])");
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      const std::string prefix = path(key) + "[" + std::to_string(i + 1) + "]";
      if (!element.is_table()) {
        return fail(line_of(element), prefix, "expected a table, found " + type_name(element));
      }
      out.push_back({element.as_table(), prefix});
    }
    return true;
  }

  // An array of non-empty strings.
  bool read_string_list(std::string_view key, std::vector<std::string>& out) const {
    const toml::node* node = table_.get(key);
    if (!node) return true;
    const toml::array* array = node->as_array();
    if (!array) return wrong_type(key, *node, "an array of strings");
    std::vector<std::string> values;
    for (const toml::node& element : *array) {
      if (!element.is_string()) return wrong_type(key, element, "a string");
      values.push_back(element.as_string()->get());
    }
    out = std::move(values);
    return true;
  }

 private:
  bool int_value(std::string_view key, const toml::node& node, std::int64_t min,
                 std::int64_t max, std::int64_t& out) const {
    if (!node.is_integer()) return wrong_type(key, node, "an integer");
    const std::int64_t value = node.as_integer()->get();
    if (value < min || value > max) {
      std::string range = max == kIntMax ? "at least " + std::to_string(min)
                                           : "between " + std::to_string(min) + " and " +
                                                 std::to_string(max);
      return fail(line_of(node), path(key),
                  "must be " + range + ", got " + std::to_string(value));
    }
    out = value;
    return true;
  }

  const toml::table& table_;
  std::string prefix_;
  const std::string& file_;
  LoadError& error_;
};

// Parses `text` (named `source` in errors). False, with `error` at the line, on bad TOML.
// Text that could trip toml++ 3.3.0 is refused first (toml/toml_guard.h).
inline bool parse_toml(std::string_view text, const std::string& source, toml::table& out,
                       LoadError& error) {
  std::int64_t bad_line = 0;
  if (eosim::Status safe = check_toml_text(text, bad_line); !safe.ok()) {
    error = LoadError{source, bad_line, "", std::move(safe.message)};
    return false;
  }
  try {
    out = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    error = LoadError{source, static_cast<std::int64_t>(e.source().begin.line), "",
                      std::string(e.description())};
    return false;
  }
  return true;
}

}  // namespace lab::toml_io
