#pragma once
// Identities for names handed in from above. The kernel carries fault sites and frame
// kinds as small numbers and compares them as numbers; the layer that gives them their
// meaning hands in their names (as KeyNames names a key's parts), and the kernel reads a
// name only where text leaves it: a fired fault, a keyed draw's identity, a state hash.
//
// Invariants:
//  (1) Ids are dense from 0, in order of first naming; a name has exactly one id.
//  (2) name_all(names) on a table that holds a prefix of `names` gives names[i] the id i,
//      so a layer can use its own enum's values as ids.
//  (3) A name's text does not move while the table lives: name() views stay valid.

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "sim/assert.h"

namespace sim {

using NameId = std::uint16_t;
using SiteId = NameId;     // a fault site (sim/faults.h)
using FrameKind = NameId;  // a network frame's kind; 0 is "no frame" (sim/network.h)

class NameTable {
 public:
  // Invariant (2). REQUIRES: the table holds a prefix of `names`, and the texts `names`
  // views do not change while the table lives (a layer's constant table).
  void name_all(std::span<const std::string_view> names) {
    // Every actor of a world asks for its layer's names again (transport::sim_env); the
    // same table handed in again is named already. A first table is viewed, not copied:
    // each world's fault plan is named so.
    if (names.data() == table_.data() && (names.size() <= table_.size() || later_.empty())) {
      if (names.size() > table_.size()) table_ = names;
      return;
    }
    if (later_.empty() && names.size() >= table_.size()) {
      // Empty, or a view of a constant table that `names` extends (a plan names frame
      // kind 0 before its layer hands in the whole table): view `names` instead. Texts
      // viewed before stay valid (they are constant), and nothing is copied.
      for (std::size_t i = 0; i < table_.size(); ++i) EOSIM_ASSERT(table_[i] == names[i]);
      table_ = names;
      return;
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i < size()) {
        EOSIM_ASSERT(name(static_cast<NameId>(i)) == names[i]);
      } else {
        later_.emplace_back(names[i]);
      }
    }
  }
  // Its id, naming it when new.
  NameId id(std::string_view name) {
    if (const std::optional<NameId> known = find(name)) return *known;
    EOSIM_ASSERT(size() < 0xffff);
    later_.emplace_back(name);
    return static_cast<NameId>(size() - 1);
  }
  std::optional<NameId> find(std::string_view name) const {
    for (std::size_t i = 0; i < table_.size(); ++i) {
      if (table_[i] == name) return static_cast<NameId>(i);
    }
    for (std::size_t i = 0; i < later_.size(); ++i) {
      if (later_[i] == name) return static_cast<NameId>(table_.size() + i);
    }
    return std::nullopt;
  }
  std::string_view name(NameId id) const {
    EOSIM_ASSERT(id < size());
    return id < table_.size() ? table_[id] : std::string_view(later_[id - table_.size()]);
  }
  std::size_t size() const { return table_.size() + later_.size(); }

 private:
  // Ids 0.. are the views of the first constant table named whole (name_all); the names
  // after it are copies, in a deque: its elements never move (invariant 3).
  std::span<const std::string_view> table_;
  std::deque<std::string> later_;
};

}  // namespace sim
