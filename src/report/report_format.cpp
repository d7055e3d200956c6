// Report formats for one run: text for people, JSON for tools, JSON Lines and Mermaid for
// the trace. Layout choices follow one rule: what went wrong must stand out (markers like
// "<- DUPLICATE" on the order that shows it), and what replays the run comes first.

#include "src/report/report_format.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "sim/escape.h"
#include "src/orders/event_kinds.h"
#include "src/orders/order_key.h"
#include "src/prose/printable.h"
#include "src/report/trace_format.h"
#include "src/report/verdict_view.h"

namespace lab {
namespace {

constexpr std::string_view kGreen = "\x1b[32m";
constexpr std::string_view kRed = "\x1b[1;31m";
constexpr std::string_view kReset = "\x1b[0m";

std::string painted(const std::string& text, std::string_view colour, const TextStyle& style) {
  if (!style.colour) return text;
  return std::string(colour) + text + std::string(kReset);
}

std::string padded(const std::string& text, std::size_t width) {
  if (text.size() >= width) return text;
  return text + std::string(width - text.size(), ' ');
}

std::string padded_left(const std::string& text, std::size_t width) {
  if (text.size() >= width) return text;
  return std::string(width - text.size(), ' ') + text;
}

std::string upper(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

// "exactly-once" as it is, a violation in capitals.
std::string verdict_word(Verdict verdict) {
  const std::string name(verdict_name(verdict));
  return verdict == Verdict::kExactlyOnce ? name : upper(name);
}

std::string number_list(const std::vector<std::int64_t>& numbers) {
  if (numbers.empty()) return "none";
  std::string out;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    out += (i == 0 ? "" : ", ") + std::to_string(numbers[i]);
  }
  return out;
}

}  // namespace

std::string set_aside_text(const Report& report) {
  std::string out;
  const auto add = [&out](std::size_t count, const char* what) {
    if (count == 0) return;
    out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + what;
  };
  add(report.dead_lettered.size(), "dead-lettered");
  add(report.rejected.size(), "rejected");
  return out;
}

namespace {

// The report's list that a non-exactly-once verdict is named after.
const std::vector<std::int64_t>* list_of_verdict(const Report& report) {
  if (report.effects_checked && report.verdict != report.ledger_verdict) {
    // The verdict comes from the external effects (a duplicated one: orders_named).
    if (report.verdict == Verdict::kLost) return &report.effect_lost;
    if (report.verdict == Verdict::kPhantom) return &report.effect_phantom;
  }
  return orders_named(report);
}

// "exactly-once", or "DUPLICATED (orders 2, 3)", "BALANCE-MISMATCH (expected 0, actual
// 150)": shouting marks a violation. A run the
// step bound ended says so: "INCOMPLETE (step bound N, K orders never produced)", or the
// verdict followed by "- the step bound (N) ended the run". A verdict that comes from the
// emails rather than the ledger says that too (`brief`: in a few words).
std::string verdict_text(const RunSummary& run, bool brief = false) {
  const Report& report = run.report;
  const std::string bound = std::to_string(run.step_bound);
  if (report.verdict == Verdict::kIncomplete && !run.cut_short.empty()) {
    return "INCOMPLETE (" + run.cut_short + ")";
  }
  if (report.verdict == Verdict::kIncomplete) {
    return "INCOMPLETE (step bound " + bound + ", " + std::to_string(run.orders_never_produced) +
           " orders never produced)";
  }
  std::string out = verdict_word(report.verdict);
  if (const auto* list = list_of_verdict(report); list != nullptr && !list->empty()) {
    out += " (orders " + number_list(*list) + ")";
  }
  if (report.verdict == Verdict::kBalanceMismatch) {
    out += " (expected " + std::to_string(report.balance_expected) + ", actual " +
           std::to_string(report.balance_actual) + ")";
  }
  if (report.effects_checked && report.verdict != report.ledger_verdict) {
    out += brief ? " in emails"
                 : " in the emails sent; the ledger alone is " +
                       std::string(verdict_name(report.ledger_verdict));
  }
  if (const std::string aside = set_aside_text(report); !aside.empty()) {
    out += report.verdict == Verdict::kExactlyOnce ? " (" + aside + ")" : ", " + aside;
  }
  if (run.step_bound_hit) out += " - the step bound (" + bound + ") ended the run";
  if (!run.cut_short.empty()) out += " - " + run.cut_short;
  return out;
}

bool shell_safe(const std::string& text) {
  if (text.empty()) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '/' || c == '.' || c == '_' || c == '-' || c == '+' || c == ',' || c == ':' ||
           c == '=';
  });
}


// One fired fault; site and action are padded to the given widths so a list aligns.
std::string fault_text(const sim::FiredFault& fault, std::size_t site_width,
                       std::size_t action_width) {
  std::string out = padded(fault.site, site_width) + "  " +
                    padded(std::string(sim::fault_action_name(fault.action)), action_width);
  if (fault.key[orders::kOrder] != 0) out += "  order " + std::to_string(fault.key[orders::kOrder]);
  if (fault.key[orders::kAttempt] != 0)
    out += "  attempt " + std::to_string(fault.key[orders::kAttempt]);
  if (!fault.frame.empty()) out += "  frame " + fault.frame;
  if (fault.nth != 0) out += "  nth " + std::to_string(fault.nth);
  if (fault.key[orders::kInstance] != 0)
    out += "  instance " + std::to_string(fault.key[orders::kInstance]);
  out += fault.scripted ? "  (scripted)" : "  (random)";
  return out;
}

// "debited x2, rejected x1" — every effect the tables hold for the order.
std::string effect_text(const OrderOutcome& order) {
  std::string out;
  const auto add = [&out](const char* what, std::int64_t count) {
    if (count == 0) return;
    out += (out.empty() ? "" : ", ") + std::string(what) + " x" + std::to_string(count);
  };
  add("debited", order.debits);
  add("rejected", order.rejections);
  add("dead-lettered", order.dead_letters);
  return out.empty() ? "no effect" : out;
}

std::string outcome_marker(const OrderOutcome& order) {
  if (order.outcome == lab::Outcome::kDuplicated) return "  <- DUPLICATE";
  if (order.outcome == lab::Outcome::kLost) return "  <- LOST";
  if (order.outcome == lab::Outcome::kPhantom) return "  <- PHANTOM (never committed)";
  if (order.outcome == lab::Outcome::kStuck) return "  <- STUCK (still queued or unsent)";
  if (order.outcome == lab::Outcome::kUnsettled) return "  <- UNSETTLED (no outcome yet)";
  return "";
}

void write_header(std::ostream& out, const RunRecord& r, const TextStyle& style) {
  const Scenario& s = r.scenario;
  // The file is named by the replay line below; the name line stays short.
  out << "scenario: " << printable(s.name) << "\n";
  if (!s.about.empty()) out << wrap_text(printable(s.about, true), style.width, "  ");
  out << "\nSEED=" << r.run.seed << "\n";
  if (!r.replay.empty()) out << "replay: " << printable(r.replay) << "\n";
  out << "strategy: " << r.run.strategy << "   producer: " << r.run.producer
      << "   queue: " << sim::name_of(s.broker.queue) << "   consumers: " << s.consumer.instances
      << "   orders: " << s.workload.orders << "\n";
  // Keys given beside a preset change it: say which, so the label is never mistaken for
  // the preset itself.
  std::vector<std::string> changes = s.consumer.overrides();
  for (const std::string& change : s.producer.overrides()) changes.push_back(change);
  for (const std::string& change : changes) out << "  overrides the preset: " << change << "\n";
}

void write_faults(std::ostream& out, const RunSummary& run) {
  out << "\n";
  for (const UnfiredRule& u : run.unfired) out << "WARNING: " << unfired_text(u) << "\n";
  out << "faults fired: ";
  if (run.faults.empty()) {
    out << "none\n";
    return;
  }
  out << run.faults.size() << "\n";
  std::size_t site_width = 0, action_width = 0;
  for (const auto& fault : run.faults) {
    site_width = std::max(site_width, fault.site.size());
    action_width = std::max(action_width, sim::fault_action_name(fault.action).size());
  }
  for (const auto& fault : run.faults) {
    out << "  step " << padded_left(std::to_string(fault.step), 6) << "  tick "
        << padded_left(std::to_string(fault.time), 6) << "  "
        << fault_text(fault, site_width, action_width) << "\n";
  }
}

// "emails x2  <- DUPLICATE EFFECT": the external effect of one order, against the one
// email every debited order should have sent.
std::string email_text(const OrderOutcome& order) {
  std::string out = "emails x" + std::to_string(order.effects);
  if (order.effects >= 2) return out + "  <- DUPLICATE EFFECT";
  if (order.debits >= 1 && order.effects == 0 && !order.stuck) return out + "  <- LOST EFFECT";
  if (order.debits == 0 && order.effects >= 1) return out + "  <- PHANTOM EFFECT";
  return out;
}

void write_orders(std::ostream& out, const Report& report) {
  out << "\norders:\n";
  out << "  order  amount  outcome        dedup rows  effect\n";
  for (const auto& order : report.orders) {
    out << "  " << padded_left(std::to_string(order.order), 5) << "  "
        << padded_left(std::to_string(order.amount), 6) << "  " << padded(std::string(outcome_name(order.outcome)), 13)
        << "  " << padded_left(std::to_string(order.dedup_rows), 10) << "  "
        << effect_text(order) << outcome_marker(order) << "\n";
    if (report.effects_checked) out << std::string(41, ' ') << email_text(order) << "\n";
  }
  if (report.orders_unlisted > 0) {
    out << "  (" << report.orders_unlisted << " more orders went right; a run of more than "
        << kListAllOrders << " lists only the others)\n";
  }
}

// What the dedup rows column counts for a design that keeps a separate dedup store (the
// ledger's processed_messages stays empty there, so a column of zeros would mislead).
void write_dedup_store_note(std::ostream& out, const RunRecord& record) {
  if (record.scenario.consumer.choices().dedup != consumer::Dedup::kSeparateStore) return;
  out << (record.run.report.dedup_store_read
              ? "  (dedup rows: the message's key in the separate dedup store, dedup.db table\n"
                "   seen; a key deleted after dedup_retention is no longer counted)\n"
              : "  (dedup rows: the separate dedup store was not read - a Redis store has no\n"
                "   table - so its keys are not counted)\n");
}

void write_lists(std::ostream& out, const RunSummary& run) {
  const Report& report = run.report;
  out << "\n";
  const std::pair<const char*, const std::vector<std::int64_t>*> lists[] = {
      {"lost:", &report.lost},         {"duplicated:", nullptr},
      {"phantom:", &report.phantom},   {"stuck:", &report.stuck},
      {"dead-lettered:", &report.dead_lettered}, {"rejected:", &report.rejected},
  };
  for (const auto& [label, list] : lists) {
    // Duplicated in any effect: a second email is as duplicated as a second debit.
    out << padded(label, 15) << " "
        << (list == nullptr ? duplicated_text(report) : number_list(*list)) << "\n";
  }
  if (!run.cut_short.empty()) {
    out << padded("unsettled:", 15) << " " << number_list(report.unsettled)
        << "  (no outcome yet when the run was stopped: not judged)\n";
  }
  if (report.effects_checked) {
    out << padded("effects:", 15) << " " << report.effect_verdict << " (duplicated "
        << number_list(report.effect_duplicated) << "; lost " << number_list(report.effect_lost)
        << "; phantom " << number_list(report.effect_phantom) << ")\n";
    out << padded("ledger:", 15) << " " << report.ledger_verdict << "\n";
  }
  out << padded("balance:", 15) << " initial " << report.balance_initial << ", expected "
      << report.balance_expected << ", actual " << report.balance_actual;
  if (report.balance_expected != report.balance_actual) out << "  <- MISMATCH";
  if (report.balance_negative) out << "  <- NEGATIVE";
  out << "\n" << padded("", 15) << " (" << kBalanceRule << ")\n";
  out << padded("redeliveries:", 15) << " " << run.redeliveries << "\n";
  // Only when it happened: a duplicate with no redelivery then names its cause.
  if (run.republished.value_or(0) > 0) {
    out << padded("republished:", 15) << " " << *run.republished
        << " (the relay published a row again)\n";
  }
  out << padded("steps:", 15) << " " << run.steps << " (virtual time " << run.time
      << " ticks)";
  if (run.step_bound_hit) out << "  <- hit the step bound before quiescence";
  out << "\n";
  out << padded("trace_hash:", 15) << " " << sim::hash_hex(run.trace_hash) << " ("
      << run.trace_events << " events)\n";
}

std::string expect_text(const RunRecord& r, const TextStyle& style) {
  if (r.unmet.empty()) {
    // Nothing was checked, so nothing passed: "ok" would claim more than the run showed.
    if (r.scenario.expect == Expect{}) {
      return "expect: no expectations (the file has no [expect] block to check)\n";
    }
    return "expect: " + painted("ok", kGreen, style) + "\n";
  }
  std::string out;
  for (const auto& line : r.unmet) {
    out += "expect: " + painted("FAILED", kRed, style) + ": " + line + "\n";
  }
  return out;
}


}  // namespace

std::string replay_command(const std::string& path, std::uint64_t seed,
                           const std::string& strategy_override,
                           const std::string& producer_override,
                           const ChoiceFlags& choices,
                           const std::vector<std::string>& extra_args) {
  std::string out = "eosim run " + shell_quoted(path) + " --seed " + std::to_string(seed);
  if (!strategy_override.empty()) out += " --strategy " + shell_quoted(strategy_override);
  if (!producer_override.empty()) out += " --producer " + shell_quoted(producer_override);
  out += choice_flags_text(choices);
  for (const std::string& arg : extra_args) out += " " + shell_quoted(arg);
  return out;
}

std::string shell_quoted(const std::string& text) {
  if (shell_safe(text)) return text;
  return "'" + sim::escape(text, sim::escapes::kShellSingleQuoted) + "'";
}

std::string format_report_text(const RunRecord& record, const TextStyle& style) {
  std::ostringstream out;
  write_header(out, record, style);
  write_faults(out, record.run);
  write_orders(out, record.run.report);
  write_dedup_store_note(out, record);
  write_lists(out, record.run);
  const bool good = record.run.report.verdict == Verdict::kExactlyOnce;
  out << "\nverdict: " << painted(verdict_text(record.run), good ? kGreen : kRed, style)
      << "\n";
  out << expect_text(record, style);
  return out.str();
}

namespace {

// "debited x1, emails x2": one order's effects in one cell.
std::string order_cell(const Report& report, std::int64_t order) {
  for (const OrderOutcome& o : report.orders) {
    if (o.order != order) continue;
    std::string cell = effect_text(o) + outcome_marker(o);
    if (report.effects_checked) cell += ", " + email_text(o);
    return cell;
  }
  return "-";
}

std::string one_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  while (!text.empty() && (text.front() == '\n' || text.front() == ' ')) text.erase(0, 1);
  std::string out;
  for (const char c : text) out += c == '\n' ? std::string("; ") : std::string(1, c);
  return out;
}

}  // namespace

std::string format_side_by_side(const RunRecord& written, const RunRecord& fixed,
                                const TextStyle& style) {
  const Report& a = written.run.report;
  const Report& b = fixed.run.report;
  std::ostringstream out;
  constexpr std::size_t kColumn = 44;
  const auto row = [&](const std::string& label, const std::string& left,
                       const std::string& right) {
    out << "  " << padded(label, 10) << "  " << padded(left, kColumn) << "  " << right << "\n";
  };
  out << "\nas written vs fixed, same seed " << written.run.seed << ":\n";
  row("", "as written", "fixed");
  row("design", written.run.strategy + " / " + written.run.producer,
      fixed.run.strategy + " / " + fixed.run.producer);
  row("change", "", one_line(written.scenario.fixed));
  const auto verdict = [&](const RunSummary& r, std::size_t width) {
    const bool good = r.report.verdict == Verdict::kExactlyOnce;
    const std::string text = verdict_text(r, true);
    // Padding goes outside the colour, so escape codes do not upset the columns.
    return painted(text, good ? kGreen : kRed, style) +
           std::string(text.size() < width ? width - text.size() : 0, ' ');
  };
  out << "  " << padded("verdict", 10) << "  " << verdict(written.run, kColumn) << "  "
      << verdict(fixed.run, 0)
      << "\n";
  std::vector<std::int64_t> orders;
  for (const Report* r : {&a, &b}) {
    for (const OrderOutcome& o : r->orders) {
      if (std::find(orders.begin(), orders.end(), o.order) == orders.end()) {
        orders.push_back(o.order);
      }
    }
  }
  std::sort(orders.begin(), orders.end());
  for (const std::int64_t order : orders) {
    row("order " + std::to_string(order), order_cell(a, order), order_cell(b, order));
  }
  row("balance", std::to_string(a.balance_actual), std::to_string(b.balance_actual));
  out << "replay: " << written.replay << " --fixed\n";
  return out.str();
}

std::string format_verdict_line(const RunRecord& record, const TextStyle& style) {
  const bool good = record.run.report.verdict == Verdict::kExactlyOnce;
  return printable(record.scenario.name) + ": " +
         painted(verdict_text(record.run), good ? kGreen : kRed, style) + ", expect " +
         (record.unmet.empty() ? painted("ok", kGreen, style) : painted("FAILED", kRed, style)) +
         " (SEED=" + std::to_string(record.run.seed) + ")\n";
}

nlohmann::ordered_json report_json(const RunRecord& record) {
  const RunSummary& run = record.run;
  const Report& report = run.report;
  nlohmann::ordered_json faults = nlohmann::ordered_json::array();
  for (const auto& f : run.faults) {
    faults.push_back({{"step", f.step},
                      {"tick", f.time},
                      {"site", f.site},
                      {"action", sim::fault_action_name(f.action)},
                      {"order", f.key[orders::kOrder]},
                      {"attempt", f.key[orders::kAttempt]},
                      {"frame", f.frame},
                      {"nth", f.nth},
                      {"instance", f.key[orders::kInstance]},
                      {"scripted", f.scripted}});
  }
  nlohmann::ordered_json orders = nlohmann::ordered_json::array();
  for (const auto& o : report.orders) {
    orders.push_back({{"order", o.order},
                      {"amount", o.amount},
                      {"committed", o.committed},
                      {"outcome", o.outcome},
                      {"debits", o.debits},
                      {"rejections", o.rejections},
                      {"dead_letters", o.dead_letters},
                      {"dedup_rows", o.dedup_rows},
                      {"effects", o.effects},
                      {"stuck", o.stuck}});
  }
  nlohmann::ordered_json j;
  j["scenario"] = record.scenario.name;
  j["file"] = record.scenario.path;
  j["seed"] = run.seed;
  j["strategy"] = run.strategy;
  j["producer"] = run.producer;
  const consumer::Choices choices = record.scenario.consumer.choices();
  j["consumer"] = {{"preset", record.scenario.consumer.strategy},
                   {"ack", sim::name_of(choices.ack)},
                   {"dedup", sim::name_of(choices.dedup)},
                   {"errors", sim::name_of(choices.errors)},
                   {"poison", sim::name_of(choices.poison)},
                   {"overrides", record.scenario.consumer.overrides()}};
  put_violations(j, report);
  j["ledger_verdict"] = report.ledger_verdict;
  if (report.effects_checked) {
    j["effects"] = {{"verdict", report.effect_verdict},
                    {"duplicated", report.effect_duplicated},
                    {"lost", report.effect_lost},
                    {"phantom", report.effect_phantom}};
  } else {
    j["effects"] = nullptr;  // the design has no effect outside the ledger
  }
  j["verdict_text"] = verdict_text(run);
  j["counts"] = {{"lost", report.lost.size()},
                 {"duplicated", report.duplicated.size()},
                 {"phantom", report.phantom.size()},
                 {"stuck", report.stuck.size()},
                 {"dead_lettered", report.dead_lettered.size()},
                 {"rejected", report.rejected.size()}};
  j["dead_lettered"] = report.dead_lettered;
  j["rejected"] = report.rejected;
  j["balance_initial"] = report.balance_initial;
  j["balance_expected"] = report.balance_expected;
  j["balance_actual"] = report.balance_actual;
  j["balance_negative"] = report.balance_negative;
  j["redeliveries"] = run.redeliveries;
  if (run.republished) j["republished"] = *run.republished;
  j["faults_fired"] = std::move(faults);
  nlohmann::ordered_json unfired = nlohmann::ordered_json::array();
  for (const UnfiredRule& u : run.unfired) {
    unfired.push_back({{"rule", u.number},
                       {"at", u.rule.site},
                       {"optional", u.rule.optional},
                       {"text", unfired_text(u)}});
  }
  j["unfired"] = std::move(unfired);
  j["steps"] = run.steps;
  j["time"] = run.time;
  j["step_bound_hit"] = run.step_bound_hit;
  j["step_bound"] = run.step_bound;
  j["orders_never_produced"] = run.orders_never_produced;
  j["trace_hash"] = sim::hash_hex(run.trace_hash);
  j["trace_events"] = run.trace_events;
  j["expect_ok"] = record.unmet.empty();
  j["unmet"] = record.unmet;
  j["orders"] = std::move(orders);
  // Only beyond kListAllOrders order numbers: the orders that went right, not listed.
  if (report.orders_unlisted > 0) j["orders_unlisted"] = report.orders_unlisted;
  // Only for a run stopped before it settled (a live run at its timeout).
  if (!run.cut_short.empty()) {
    j["cut_short"] = run.cut_short;
    j["unsettled"] = report.unsettled;
  }
  j["replay"] = record.replay;
  return j;
}

std::string report_json_line(const RunRecord& record) {
  return report_json(record).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void write_report_jsonl(std::ostream& out, const RunRecord& record,
                        const std::vector<sim::TraceEvent>& events) {
  sim::write_jsonl(out, events, orders::kTraceNames);
  const nlohmann::ordered_json line = {{"summary", report_json(record)}};
  out << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void write_report_mermaid(std::ostream& out, const RunRecord& record,
                          const std::vector<sim::TraceEvent>& events) {
  // A newline inside a `%%` comment would end it and leave prose in the diagram.
  std::string name = printable(record.scenario.name);
  std::replace(name.begin(), name.end(), '\n', ' ');
  out << "%% " << name << "  SEED=" << record.run.seed << "\n";
  if (!record.replay.empty()) out << "%% replay: " << printable(record.replay) << "\n";
  if (record.run.step_bound_hit) out << "%% verdict: " << verdict_text(record.run) << "\n";
  write_trace_mermaid(out, events, orders::kKeyNames, diagram_lanes(record.scenario));
}

std::string format_suite_text(const std::vector<SuiteRow>& rows, const TextStyle& style) {
  std::size_t passed = 0, failed = 0, not_run = 0, width = 0;
  for (const auto& row : rows) {
    if (!row.ran) {
      ++not_run;
    } else if (row.expect_ok) {
      ++passed;
    } else {
      ++failed;
    }
    width = std::max(width, printable(row.name).size());
  }
  const auto shown = [](const SuiteRow& row) {
    const bool good = row.verdict == Verdict::kExactlyOnce;
    std::string text = verdict_word(row.verdict);
    if (!row.aside.empty()) text += good ? " (" + row.aside + ")" : ", " + row.aside;
    return text;
  };
  std::size_t verdict_width = 12;
  for (const auto& row : rows) verdict_width = std::max(verdict_width, shown(row).size());
  std::ostringstream out;
  out << rows.size() << " scenarios: " << passed << " passed expectations, " << failed
      << " failed";
  if (not_run > 0) out << ", " << not_run << " not run (bad input or internal error)";
  out << "\n";
  for (const auto& row : rows) {
    out << "  " << padded(printable(row.name), width) << "  ";
    if (!row.ran) {
      out << painted("not run", kRed, style) << "\n";
      continue;
    }
    const bool good = row.verdict == Verdict::kExactlyOnce;
    out << painted(padded(shown(row), verdict_width), good ? kGreen : kRed, style)
        << "  expect "
        << (row.expect_ok ? painted("ok", kGreen, style) : painted("FAILED", kRed, style))
        << "\n";
  }
  return out.str();
}


}  // namespace lab
