// The consumer's and producer's designs of a scenario: a preset, with the keys given
// beside it applied, and the words the reports use to say which keys changed it.

#include <string>
#include <vector>

#include "sim/assert.h"
#include "src/scenario/scenario.h"

namespace lab {
namespace {

// One key that may replace a preset's value: appends "key = value (preset has old)" to
// `out` when it is given and differs, and applies it to `value`.
template <class E>
void apply(const char* key, const std::optional<E>& given, std::string_view preset, E& value,
           std::vector<std::string>* out) {
  if (!given) return;
  if (out && *given != value) {
    out->push_back(std::string(key) + " = " + std::string(sim::name_of(*given)) + " (" +
                   std::string(preset) + " has " + std::string(sim::name_of(value)) + ")");
  }
  value = *given;
}

void apply(const char* key, const std::optional<bool>& given, std::string_view preset,
           bool& value, std::vector<std::string>* out) {
  if (!given) return;
  const auto text = [](bool b) { return std::string(b ? "true" : "false"); };
  if (out && *given != value) {
    out->push_back(std::string(key) + " = " + text(*given) + " (" + std::string(preset) +
                   " has " + text(value) + ")");
  }
  value = *given;
}

consumer::Choices consumer_choices(const ConsumerConfig& c, std::vector<std::string>* out) {
  const consumer::Preset* preset = consumer::find_preset(c.strategy);
  EOSIM_ASSERT(preset != nullptr);
  consumer::Choices choices = preset->choices;
  apply("ack", c.ack, preset->name, choices.ack, out);
  apply("dedup", c.dedup, preset->name, choices.dedup, out);
  apply("errors", c.errors, preset->name, choices.errors, out);
  apply("poison", c.poison, preset->name, choices.poison, out);
  return choices;
}

producer::ProducerChoices producer_choices(const ProducerConfig& p,
                                           std::vector<std::string>* out) {
  const producer::PatternPreset* preset = producer::find_pattern(p.pattern);
  EOSIM_ASSERT(preset != nullptr);
  producer::ProducerChoices choices = preset->choices;
  apply("delivery", p.delivery, preset->name, choices.delivery, out);
  apply("confirms", p.confirms, preset->name, choices.confirms, out);
  apply("order", p.order, preset->name, choices.order, out);
  return choices;
}

// "atomic + dedup=none (= no-dedup)": the preset and each change, and the preset the
// result equals, if any.
std::string label_of(std::string_view preset, const std::vector<std::string>& changes,
                     std::string_view equals) {
  std::string out(preset);
  for (const std::string& change : changes) {
    std::string short_form = change.substr(0, change.find(" ("));
    std::string compact;
    for (const char ch : short_form) {
      if (ch != ' ') compact += ch;
    }
    out += " + " + compact;
  }
  if (!changes.empty() && !equals.empty()) out += " (= " + std::string(equals) + ")";
  return out;
}

}  // namespace

consumer::Choices ConsumerConfig::choices() const { return consumer_choices(*this, nullptr); }

consumer::Strategy ConsumerConfig::design() const {
  consumer::Strategy s;
  s.choices = choices();
  s.mark = mark;
  s.dedup_order = dedup_order;
  s.side_effect = side_effect;
  s.idempotency_key = idempotency_key;
  s.dedup_retention = dedup_retention;
  s.check = check;
  s.isolation = isolation;
  return s;
}

std::vector<std::string> ConsumerConfig::overrides() const {
  std::vector<std::string> out;
  consumer_choices(*this, &out);
  return out;
}

std::string ConsumerConfig::label() const {
  return label_of(strategy, overrides(), consumer::preset_of(choices()));
}

std::string ConsumerConfig::meaning() const {
  const consumer::Strategy d = design();
  if (d.choices.dedup == consumer::Dedup::kCheckThenAct &&
      d.check == consumer::Check::kInTransaction) {
    return "SELECTs the order's debit inside the debit's own transaction and debits a step "
           "later in that same transaction; with no unique key, whether two consumers racing "
           "on one message both debit is the isolation level's to decide (read committed lets "
           "both through, serializable refuses one with 40001)";
  }
  if (d.choices.dedup == consumer::Dedup::kSeparateStore &&
      d.mark == consumer::Mark::kAfterCommit) {
    return "commits the debit, then marks the message seen in a separate store (a cache "
           "such as Redis); a crash in between applies it twice";
  }
  const std::string_view equal = consumer::preset_of(choices());
  const consumer::Preset* preset = consumer::find_preset(equal.empty() ? strategy : equal);
  return preset != nullptr ? std::string(preset->meaning) : "";
}

void ConsumerConfig::clear_choices() {
  ack.reset();
  dedup.reset();
  errors.reset();
  poison.reset();
}

producer::ProducerChoices ProducerConfig::choices() const {
  return producer_choices(*this, nullptr);
}

std::vector<std::string> ProducerConfig::overrides() const {
  std::vector<std::string> out;
  producer_choices(*this, &out);
  return out;
}

std::string ProducerConfig::label() const {
  const producer::PatternPreset* equal = producer::pattern_with(choices());
  return label_of(pattern, overrides(), equal ? equal->name : "");
}

}  // namespace lab
