#include "src/generals/knowledge.h"

#include <array>

#include "sim/assert.h"

namespace generals {

namespace {

// The knowers of fact `level`, outermost first: fact 3 is "B knows that A knows that B
// knows the plan", so {B, A, B}. Fact 0 is A's own knowledge of its plan.
std::vector<General> knowers(int level) {
  EOSIM_ASSERT(level >= 0);
  if (level == 0) return {General::kA};
  std::vector<General> chain;
  for (int k = level; k >= 1; --k) chain.push_back(holder_of(k));
  return chain;
}

}  // namespace

const char* node_of(General g) { return g == General::kA ? "generalA" : "generalB"; }

General sender_of(int courier) {
  EOSIM_ASSERT(courier >= 1);
  return courier % 2 == 1 ? General::kA : General::kB;
}

General holder_of(int level) {
  EOSIM_ASSERT(level >= 0);
  return level % 2 == 1 ? General::kB : General::kA;
}

std::string fact_text(int level) {
  if (level == 0) return "A knows the plan: attack at dawn";
  std::string text;
  for (General g : knowers(level)) {
    if (!text.empty()) text += " that ";
    text += std::string(1, letter(g)) + " knows";
  }
  return text + " the plan";
}

std::string courier_text(int courier) {
  if (courier == 1) return "Attack at dawn.";
  // The sender holds fact courier-1 and tells it to the receiver in the first person.
  const General self = sender_of(courier);
  std::string text;
  for (General g : knowers(courier - 1)) {
    if (!text.empty()) text += " that ";
    text += g == self ? "I know" : "you know";
  }
  return text + " the plan.";
}

bool attacks_at(General g, int level, int attack_level) {
  EOSIM_ASSERT(level >= 0);
  EOSIM_ASSERT(attack_level >= 0);
  if (g == General::kB && level < 1) return false;  // B cannot attack a plan it never heard
  return level >= attack_level;
}

OtherLevels possible_other_levels(General g, int level, bool sent_next) {
  EOSIM_ASSERT(level >= 0);
  // Having received courier `level` from the other, g knows the other reached level-1.
  // At level 0 nobody has heard from the other side, and the other is still at 0 too:
  // A cannot advance without a courier from B.
  const int floor = level >= 1 ? level - 1 : 0;
  const bool outstanding = sent_next && sender_of(level + 1) == g;
  return {floor, outstanding ? level + 1 : floor};
}

namespace {

constexpr std::array<sim::Named<Belief>, 3> kBeliefNames{{
    {Belief::kSureAttacks, "sure the other attacks", ""},
    {Belief::kSureHolds, "sure the other holds", ""},
    {Belief::kUnsure, "cannot tell what the other does", ""},
}};
static_assert(sim::names_every_value(kBeliefNames));

}  // namespace

Belief belief_about_other(General g, OtherLevels other_levels, int attack_level) {
  // The other's level is one of min and max (levels of one general move in steps of 2),
  // and attacking is monotone in the level, so the two ends decide.
  const General o = other(g);
  const bool at_min = attacks_at(o, other_levels.min, attack_level);
  const bool at_max = attacks_at(o, other_levels.max, attack_level);
  if (at_min && at_max) return Belief::kSureAttacks;
  if (!at_min && !at_max) return Belief::kSureHolds;
  return Belief::kUnsure;
}

}  // namespace generals

namespace sim {
template <>
std::span<const Named<generals::Belief>> enum_names<generals::Belief>() {
  return generals::kBeliefNames;
}
}  // namespace sim
