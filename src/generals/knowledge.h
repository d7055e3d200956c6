#pragma once
// The epistemics of the Two Generals exchange, as pure functions of knowledge levels.
//
// Courier n goes from its sender to its receiver: odd couriers from General A, even ones
// from General B. Delivering courier n teaches its receiver *fact n*:
//   fact 0  "A knows the plan: attack at dawn"          (A's own, from the start)
//   fact 1  "B knows the plan"                          (courier 1 delivered)
//   fact 2  "A knows that B knows the plan"             (courier 2 delivered)
//   fact 3  "B knows that A knows that B knows the plan" ...
// A general's *knowledge level* is the highest fact it holds: A starts at 0 (it knows the
// plan), B starts at 0 meaning it knows nothing; A's levels are even, B's odd (or 0).
//
// Invariants:
//  (1) Everything here is a function of (levels, which couriers were sent, the rule):
//      no state, no randomness, so the CLI, the GUI and the tests compute the same answers.
//  (2) A general at level L that has sent courier L+1 cannot tell whether it arrived, so
//      it considers both "the other is at L-1" and "the other is at L+1" possible. This is
//      the whole theorem: whoever sent the last courier is always left in that state.
// REQUIRES: levels and courier numbers are >= 0; a courier number is >= 1.

#include <string>
#include <vector>

#include "sim/named.h"

namespace generals {

enum class General : char { kA = 'A', kB = 'B' };

inline char letter(General g) { return static_cast<char>(g); }
inline General other(General g) { return g == General::kA ? General::kB : General::kA; }
// The sim node of each general ("generalA", "generalB"); fault sites are named after them.
const char* node_of(General g);

// Odd couriers come from A (the plan, ack-of-ack, ...), even ones from B (ack, ...).
General sender_of(int courier);
inline General receiver_of(int courier) { return other(sender_of(courier)); }
// Who holds fact `level`: A for 0 and even levels, B for odd ones.
General holder_of(int level);

// Fact `level` in the third person, e.g. "A knows that B knows the plan".
std::string fact_text(int level);
// What courier n says, in its sender's voice: "Attack at dawn.", "I know the plan.",
// "I know that you know the plan.", "I know that you know that I know the plan.", ...
std::string courier_text(int courier);

// The decision rule: a general attacks when its level reaches `attack_level`. B also
// needs to know the plan at all (level >= 1). attack_level 2 reads "attack only when you
// know that the other knows you are in": fact 2 for A; for B (odd levels) that is fact 3,
// "B knows that A knows that B knows the plan".
bool attacks_at(General g, int level, int attack_level);

// What a general can tell about the other's level: every level the other may have now.
struct OtherLevels {
  int min = 0;
  int max = 0;
  bool exact() const { return min == max; }
};
// `level` is g's level; `sent_next` says whether g has sent courier level+1 (only
// meaningful when g is that courier's sender, see invariant (2)).
OtherLevels possible_other_levels(General g, int level, bool sent_next);

// Does g know what the other decides? Sure it attacks, sure it holds, or cannot tell.
// Named (sim::name_of) "sure the other attacks", "sure the other holds", "cannot tell what
// the other does".
enum class Belief { kSureAttacks, kSureHolds, kUnsure };
Belief belief_about_other(General g, OtherLevels other_levels, int attack_level);

}  // namespace generals

namespace sim {
template <>
std::span<const Named<generals::Belief>> enum_names<generals::Belief>();
}  // namespace sim
