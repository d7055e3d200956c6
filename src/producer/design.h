#pragma once
// A producer's design as independent choices, and the four named patterns as presets of
// them. patterns() is the only table of the presets: the loader, `eosim list producers`
// and the catalog read it.
//
//   delivery  outbox (order + outbox row in one transaction, a relay publishes)
//             | direct (the order service publishes itself)
//   confirms  the relay waits for publisher confirms before marking a row sent (outbox)
//   order     commit-first | publish-first (direct: which of the two writes comes first)
//   message_id  outbox (fixed with the order, the same on every republish)
//             | at-publish (a new id on each publish: a republish looks new)
//
// Invariants: valid_design() holds for every preset; patterns' choices are unique.

#include <span>
#include <string>
#include <string_view>

#include "sim/named.h"

namespace producer {

enum class Pattern { kOutbox, kOutboxNoConfirm, kDualWrite, kPublishThenCommit };
enum class Delivery { kOutbox, kDirect };
enum class PublishOrder { kCommitFirst, kPublishFirst };
enum class MessageIdSource { kOutbox, kAtPublish };

struct ProducerChoices {
  Delivery delivery = Delivery::kOutbox;
  bool confirms = true;
  PublishOrder order = PublishOrder::kCommitFirst;
  friend bool operator==(const ProducerChoices&, const ProducerChoices&) = default;
};

struct PatternPreset {
  std::string_view name;
  Pattern pattern;
  ProducerChoices choices;
  std::string_view meaning;
};

std::span<const PatternPreset> patterns();
const PatternPreset* find_pattern(std::string_view name);
// The preset with these choices, or nullptr when none has them (an invalid combination).
const PatternPreset* pattern_with(const ProducerChoices& choices);
// "" when the choices make a design; else why not, in a sentence.
std::string why_invalid(const ProducerChoices& choices);
// "delivery=outbox confirms=true order=commit-first".
std::string describe(const ProducerChoices& choices);

}  // namespace producer

namespace sim {
template <>
std::span<const Named<producer::Delivery>> enum_names<producer::Delivery>();
template <>
std::span<const Named<producer::PublishOrder>> enum_names<producer::PublishOrder>();
template <>
std::span<const Named<producer::MessageIdSource>> enum_names<producer::MessageIdSource>();
}  // namespace sim
