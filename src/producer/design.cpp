#include "src/producer/design.h"

#include <array>

namespace producer {

namespace {

using D = Delivery;
using O = PublishOrder;

constexpr std::array<PatternPreset, 4> kPatterns{{
    {"outbox", Pattern::kOutbox, {D::kOutbox, true, O::kCommitFirst},
     "order and outbox row in one transaction; a relay publishes with confirms and marks "
     "the row sent only after the confirm"},
    {"dual-write", Pattern::kDualWrite, {D::kDirect, false, O::kCommitFirst},
     "commits the order, then publishes; a crash or a lost publish in between loses the "
     "message"},
    {"publish-then-commit", Pattern::kPublishThenCommit, {D::kDirect, false, O::kPublishFirst},
     "publishes, then commits the order; a failed commit leaves a phantom message"},
    {"outbox-no-confirm", Pattern::kOutboxNoConfirm, {D::kOutbox, false, O::kCommitFirst},
     "outbox, but the relay marks a row sent as soon as it publishes; a lost publish is "
     "never retried"},
}};

constexpr std::array<sim::Named<Delivery>, 2> kDelivery{{
    {D::kOutbox, "outbox", "the order and its message are written in one transaction; a "
                           "relay publishes the message"},
    {D::kDirect, "direct", "the order service commits the order and publishes the message "
                           "itself: two writes, no atomicity"},
}};
static_assert(sim::names_every_value(kDelivery));

constexpr std::array<sim::Named<PublishOrder>, 2> kOrder{{
    {O::kCommitFirst, "commit-first", "commit the order, then publish (direct)"},
    {O::kPublishFirst, "publish-first", "publish, then commit the order (direct)"},
}};
static_assert(sim::names_every_value(kOrder));

constexpr std::array<sim::Named<MessageIdSource>, 2> kMessageId{{
    {MessageIdSource::kOutbox, "outbox", "the id is fixed when the order is written: a "
                                         "republish carries the same id"},
    {MessageIdSource::kAtPublish, "at-publish", "a new id is made at each publish: a "
                                                "republish looks like a new message"},
}};
static_assert(sim::names_every_value(kMessageId));

}  // namespace

std::span<const PatternPreset> patterns() { return kPatterns; }

const PatternPreset* find_pattern(std::string_view name) {
  return sim::find_named(patterns(), name);
}

const PatternPreset* pattern_with(const ProducerChoices& choices) {
  return sim::find_with_choices(patterns(), choices);
}

std::string why_invalid(const ProducerChoices& c) {
  if (c.delivery == D::kOutbox && c.order == O::kPublishFirst) {
    return "the outbox writes the order and its message in one transaction, so nothing "
           "is published before the commit (order = \"publish-first\" needs delivery = "
           "\"direct\")";
  }
  if (c.delivery == D::kDirect && c.confirms) {
    return "the order service publishes once and never retries, so nothing would act on "
           "a confirm (confirms = true needs delivery = \"outbox\")";
  }
  return "";
}

std::string describe(const ProducerChoices& c) {
  return "delivery=" + std::string(sim::name_of(c.delivery)) +
         " confirms=" + (c.confirms ? "true" : "false") +
         " order=" + std::string(sim::name_of(c.order));
}

}  // namespace producer

namespace sim {

template <>
std::span<const Named<producer::Delivery>> enum_names<producer::Delivery>() {
  return producer::kDelivery;
}
template <>
std::span<const Named<producer::PublishOrder>> enum_names<producer::PublishOrder>() {
  return producer::kOrder;
}
template <>
std::span<const Named<producer::MessageIdSource>> enum_names<producer::MessageIdSource>() {
  return producer::kMessageId;
}

}  // namespace sim
