#include "src/generals/report.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/assert.h"
#include "src/generals/mapping.h"
#include "src/prose/wrap.h"

namespace generals {

namespace {

constexpr int kLane = 36;   // columns between the two generals' bars in the diagram
constexpr int kWidth = 88;  // prose is wrapped at this column, as in `eosim run`

std::string g_name(General g) { return std::string(1, letter(g)); }

template <class E>
std::string name_text(E value) {
  return std::string(sim::name_of(value));
}

std::string repeat(char c, int n) { return std::string(static_cast<std::size_t>(std::max(n, 0)), c); }

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string other_levels_text(General g, OtherLevels levels) {
  const std::string who = g_name(other(g));
  if (levels.exact()) return who + " is at level " + std::to_string(levels.min);
  return who + " is at level " + std::to_string(levels.min) + " or " +
         std::to_string(levels.max);
}

// The arrow of one courier across the lane, exactly kLane columns wide.
std::string arrow(const CourierView& c) {
  const std::string tag = "#" + std::to_string(c.number);
  const bool rightwards = c.from == General::kA;
  const int half = kLane / 2;
  std::string body;
  switch (c.status) {
    case CourierStatus::kNotSent:
      return repeat(' ', kLane);
    case CourierStatus::kDelivered:
      body = rightwards ? tag + " " + repeat('-', kLane - static_cast<int>(tag.size()) - 2) + ">"
                        : "<" + repeat('-', kLane - static_cast<int>(tag.size()) - 2) + " " + tag;
      return body;
    case CourierStatus::kCaptured:
      body = rightwards ? tag + " " + repeat('-', half - static_cast<int>(tag.size()) - 2) + "X"
                        : "X" + repeat('-', half - static_cast<int>(tag.size()) - 2) + " " + tag;
      break;
    case CourierStatus::kInFlight:
      body = rightwards ? tag + " " + repeat('-', half - static_cast<int>(tag.size()) - 5) + " ..."
                        : "... " + repeat('-', half - static_cast<int>(tag.size()) - 5) + " " + tag;
      break;
  }
  const std::string gap = repeat(' ', kLane - static_cast<int>(body.size()));
  return rightwards ? body + gap : gap + body;
}

std::string courier_when(const CourierView& c) {
  switch (c.status) {
    case CourierStatus::kNotSent: return "";
    case CourierStatus::kDelivered:
      return "t=" + std::to_string(c.sent_at) + ".." + std::to_string(c.arrived_at);
    case CourierStatus::kCaptured: return "t=" + std::to_string(c.sent_at);
    case CourierStatus::kInFlight: return "t=" + std::to_string(c.sent_at) + "..";
  }
  return "";
}

std::string courier_state(const CourierView& c) {
  std::string state = name_text(c.status);
  if (c.status == CourierStatus::kCaptured) state += c.scripted ? " (scripted)" : " (random)";
  return state;
}

std::string rung_courier(const Rung& r) {
  std::string text = r.level == 0 ? std::string("own plan")
                                  : "#" + std::to_string(r.courier) + " " + name_text(r.status);
  if (r.known) text += r.confirmed ? ", confirmed" : ", unconfirmed";
  return text;
}

void write_diagram(std::ostringstream& out, const TwoGenerals& model) {
  out << "Couriers (t = virtual ticks)\n";
  out << "  " << pad("General A (broker)", kLane + 2) << "General B (consumer)\n";
  for (const CourierView& c : model.couriers()) {
    out << "    | " << arrow(c) << " |  ";
    if (c.status == CourierStatus::kNotSent) {
      out << "#" << c.number << " not sent\n";
      continue;
    }
    out << pad(courier_when(c), 10) << pad(courier_state(c), 21) << '"' << c.text << "\"\n";
  }
}

void write_ladder(std::ostringstream& out, const TwoGenerals& model) {
  out << "Who knows what\n";
  out << "  level  who  known  " << pad("courier", 27) << "fact\n";
  for (const Rung& r : model.ladder()) {
    out << "  " << pad(std::to_string(r.level), 7) << pad(g_name(r.who), 5)
        << pad(r.known ? "yes" : "no", 7) << pad(rung_courier(r), 27) << r.text << '\n';
  }
}

void write_mapping(std::ostringstream& out) {
  out << "The same exchange between a broker and a consumer\n";
  for (const MappingRow& row : broker_mapping()) {
    out << "  " << pad(row.generals, 33) << "-> " << row.broker << '\n';
    out << lab::wrap_text(row.note, kWidth, repeat(' ', 38));
  }
}

std::string outcome_text(Outcome outcome) {
  return name_text(outcome) + ": " + std::string(sim::meaning_of(outcome));
}

nlohmann::ordered_json decision_json(const Decision& d) {
  nlohmann::ordered_json j;
  j["level"] = d.level;
  j["attacks"] = d.attacks;
  j["other_level_min"] = d.other_levels.min;
  j["other_level_max"] = d.other_levels.max;
  j["belief"] = name_text(d.about_other);
  j["safe"] = d.safe;
  j["sentence"] = decision_sentence(d);
  return j;
}

}  // namespace

std::string replay_command(const GeneralsOptions& options) {
  std::string command = "eosim generals --couriers " + std::to_string(options.couriers) +
                        " --loss " + options.loss.to_string() + " --seed " +
                        std::to_string(options.seed);
  if (options.attack_level != GeneralsOptions{}.attack_level) {
    command += " --attack-level " + std::to_string(options.attack_level);
  }
  for (int c : options.capture) command += " --capture " + std::to_string(c);
  return command;
}

std::string decision_sentence(const Decision& d) {
  std::string text = g_name(d.general) + ": level " + std::to_string(d.level) + ", " +
                     (d.attacks ? "attacks" : "holds") + ". " +
                     other_levels_text(d.general, d.other_levels) + ": " +
                     name_text(d.about_other) + ". ";
  if (d.safe) return text + (d.attacks ? "Safe: the other attacks too." : "Safe: the other holds too.");
  if (d.attacks) {
    return text + (d.about_other == Belief::kSureHolds ? "Not safe: it attacks alone."
                                                       : "Not safe: it may attack alone.");
  }
  return text + (d.about_other == Belief::kSureAttacks ? "Not safe: the other attacks alone."
                                                       : "Not safe: the other may attack alone.");
}

std::string last_courier_sentence(const TwoGenerals& model) {
  EOSIM_ASSERT(model.last_courier_unconfirmed());
  const int last = model.last_sent();
  if (last == 0) return "No courier has left yet: A does not know whether B knows the plan.";
  const CourierView c = model.couriers()[static_cast<std::size_t>(last - 1)];
  const std::string sender = g_name(c.from);
  std::string text = "The last courier sent, #" + std::to_string(last) + " (" + sender + " -> " +
                     g_name(c.to) + ", " + name_text(c.status) + "), is unconfirmed: ";
  const bool more_may_follow =
      c.status != CourierStatus::kCaptured && last < model.options().couriers;
  if (more_may_follow && !model.done()) {
    text += sender + " learns that it arrived only if courier #" + std::to_string(last + 1) +
            " comes back.";
  } else {
    text += sender + " can never learn whether it arrived: only another courier could tell "
            "it, and none will follow.";
  }
  return text + " Every run ends this way, whatever N.";
}

std::string split_sentence(const GeneralsOptions& options, const std::optional<Split>& split) {
  const std::string n = "N = " + std::to_string(options.couriers);
  if (!split) {
    return "With " + n + " and this rule nobody attacks in any run: safe, and useless. With "
           "enough couriers to reach the rule, some run leaves one general attacking alone.";
  }
  const std::string alone = g_name(split->alone) + " attacking alone.";
  if (split->captured == 0) {
    return "No finite N is safe: with " + n + " and this rule, delivering every courier "
           "leaves " + alone;
  }
  return "No finite N is safe: with " + n + " and this rule, capturing only courier #" +
         std::to_string(split->captured) + " leaves " + alone;
}

std::string format_text(const TwoGenerals& model) {
  const GeneralsOptions& o = model.options();
  std::ostringstream out;
  out << "Two Generals: N = " << o.couriers << " couriers, loss " << o.loss.to_string()
      << ", seed " << o.seed << ", rule: attack once your knowledge level reaches "
      << o.attack_level << '\n';
  out << "SEED=" << o.seed << "\n\n";
  write_diagram(out, model);
  out << '\n';
  write_ladder(out, model);
  out << '\n';
  out << "Decisions (rule: attack once your level reaches " << o.attack_level << ")\n";
  for (General g : {General::kA, General::kB}) {
    out << lab::wrap_text(decision_sentence(model.decision(g)), kWidth, "  ");
  }
  out << "  Outcome: " << outcome_text(model.outcome()) << '\n';
  out << '\n';
  out << lab::wrap_text(last_courier_sentence(model), kWidth, "");
  out << "Common knowledge of the plan: " << (model.common_knowledge() ? "yes" : "no")
      << " (it never is).\n";
  out << lab::wrap_text(split_sentence(o, find_split(o)), kWidth, "");
  out << '\n';
  write_mapping(out);
  out << '\n';
  out << "trace_hash=" << sim::hash_hex(model.trace_hash())
      << " steps=" << model.kernel().scheduler.steps()
      << " faults_fired=" << model.kernel().faults.fired().size() << '\n';
  out << "replay: " << replay_command(o) << '\n';
  return out.str();
}

nlohmann::ordered_json report_json(const TwoGenerals& model) {
  const GeneralsOptions& o = model.options();
  nlohmann::ordered_json j;
  j["command"] = "generals";
  j["seed"] = o.seed;
  j["couriers_max"] = o.couriers;
  j["loss"] = o.loss.to_string();
  j["attack_level"] = o.attack_level;
  j["capture"] = o.capture;
  nlohmann::ordered_json couriers = nlohmann::ordered_json::array();
  for (const CourierView& c : model.couriers()) {
    nlohmann::ordered_json cj;
    cj["number"] = c.number;
    cj["from"] = g_name(c.from);
    cj["to"] = g_name(c.to);
    cj["text"] = c.text;
    cj["status"] = name_text(c.status);
    cj["scripted"] = c.scripted;
    cj["sent_at"] = c.status == CourierStatus::kNotSent ? nlohmann::ordered_json()
                                                         : nlohmann::ordered_json(c.sent_at);
    cj["arrived_at"] = c.status == CourierStatus::kDelivered
                           ? nlohmann::ordered_json(c.arrived_at)
                           : nlohmann::ordered_json();
    cj["confirmed"] = c.confirmed;
    couriers.push_back(std::move(cj));
  }
  j["couriers"] = std::move(couriers);
  nlohmann::ordered_json ladder = nlohmann::ordered_json::array();
  for (const Rung& r : model.ladder()) {
    nlohmann::ordered_json rj;
    rj["level"] = r.level;
    rj["who"] = g_name(r.who);
    rj["known"] = r.known;
    rj["courier"] = r.courier;
    rj["status"] = name_text(r.status);
    rj["confirmed"] = r.confirmed;
    rj["text"] = r.text;
    ladder.push_back(std::move(rj));
  }
  j["ladder"] = std::move(ladder);
  j["decisions"]["A"] = decision_json(model.decision(General::kA));
  j["decisions"]["B"] = decision_json(model.decision(General::kB));
  j["outcome"] = name_text(model.outcome());
  j["last_sent"] = model.last_sent();
  j["last_courier_unconfirmed"] = model.last_courier_unconfirmed();
  j["last_courier_sentence"] = last_courier_sentence(model);
  j["common_knowledge"] = model.common_knowledge();
  const std::optional<Split> split = find_split(o);
  if (split) {
    j["split"] = {{"captured", split->captured}, {"alone", g_name(split->alone)}};
  } else {
    j["split"] = nullptr;
  }
  j["split_sentence"] = split_sentence(o, split);
  nlohmann::ordered_json mapping = nlohmann::ordered_json::array();
  for (const MappingRow& row : broker_mapping()) {
    mapping.push_back({{"generals", row.generals}, {"broker", row.broker}, {"note", row.note}});
  }
  j["mapping"] = std::move(mapping);
  j["steps"] = model.kernel().scheduler.steps();
  j["faults_fired"] = model.kernel().faults.fired().size();
  j["trace_hash"] = sim::hash_hex(model.trace_hash());
  return j;
}

std::string format_mermaid(const TwoGenerals& model) {
  const auto id = [](General g) { return std::string(node_of(g)); };
  std::ostringstream out;
  out << "sequenceDiagram\n";
  out << "  participant " << id(General::kA) << " as General A (broker)\n";
  out << "  participant " << id(General::kB) << " as General B (consumer)\n";
  out << "  Note over " << id(General::kA) << ": level 0 - " << fact_text(0) << '\n';
  for (const CourierView& c : model.couriers()) {
    const std::string label = "courier " + std::to_string(c.number) + " - " + c.text;
    switch (c.status) {
      case CourierStatus::kNotSent:
        break;
      case CourierStatus::kDelivered:
        out << "  " << id(c.from) << "->>" << id(c.to) << ": " << label << '\n';
        out << "  Note over " << id(c.to) << ": level " << c.number << " - "
            << fact_text(c.number) << '\n';
        break;
      case CourierStatus::kCaptured:
        out << "  " << id(c.from) << "-x" << id(c.to) << ": " << label << " (captured)\n";
        break;
      case CourierStatus::kInFlight:
        out << "  " << id(c.from) << "-->>" << id(c.to) << ": " << label << " (in flight)\n";
        break;
    }
  }
  if (model.last_sent() > 0) {
    const General sender = sender_of(model.last_sent());
    out << "  Note over " << id(General::kA) << "," << id(General::kB) << ": courier "
        << model.last_sent() << " is unconfirmed - " << g_name(sender)
        << " never learns whether it arrived\n";
  }
  return out.str();
}

}  // namespace generals
