// `eosim live --compare`: see live_compare.h.

#ifdef EOSIM_HAVE_LIVE

#include "src/cli/live_compare.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <set>
#include <vector>

#include "src/cli/live_time.h"

namespace cli {

namespace {

// One order's effect as a comparison shows it: outcome and debit count, and the emails
// sent when the design has that side effect.
std::string order_cell(const lab::OrderOutcome* o, bool emails) {
  if (o == nullptr) return "-";
  std::string cell = std::string(lab::outcome_name(o->outcome)) + " (" +
                     std::to_string(o->debits) + " debit" + (o->debits == 1 ? "" : "s");
  if (emails) cell += ", " + std::to_string(o->effects) + " email" + (o->effects == 1 ? "" : "s");
  return cell + ")";
}

const lab::OrderOutcome* find_order(const lab::Report& r, std::int64_t order) {
  for (const auto& o : r.orders) {
    if (o.order == order) return &o;
  }
  return nullptr;
}

struct OrderRow {
  std::int64_t order = 0;
  std::string model, live;
  bool same = false;
};

// Per order of either side: both cells and whether they agree (outcome, debit count, and
// email count when either side checked emails).
std::vector<OrderRow> order_rows(const lab::Report& model, const lab::Report& real,
                                 bool emails) {
  std::vector<std::int64_t> orders;
  for (const auto* r : {&model, &real}) {
    for (const auto& o : r->orders) orders.push_back(o.order);
  }
  std::sort(orders.begin(), orders.end());
  orders.erase(std::unique(orders.begin(), orders.end()), orders.end());
  std::vector<OrderRow> rows;
  for (const std::int64_t n : orders) {
    const lab::OrderOutcome* m = find_order(model, n);
    const lab::OrderOutcome* l = find_order(real, n);
    const bool same = m != nullptr && l != nullptr && m->outcome == l->outcome &&
                      m->debits == l->debits && (!emails || m->effects == l->effects);
    rows.push_back({n, order_cell(m, emails), order_cell(l, emails), same});
  }
  return rows;
}

bool has_rule(const std::vector<lab::UnfiredRule>& unfired, std::int64_t number) {
  return std::any_of(unfired.begin(), unfired.end(),
                     [number](const lab::UnfiredRule& u) { return u.number == number; });
}

// The scripted rules one side fired and the other did not: a disagreement, and its reason.
std::vector<std::string> fault_reasons(const lab::RunSummary& model, const lab::RunSummary& real) {
  std::vector<std::string> reasons;
  for (const lab::UnfiredRule& u : real.unfired) {
    if (!has_rule(model.unfired, u.number)) {
      reasons.push_back(lab::unfired_text(u) + " live; it fired in the model");
    }
  }
  for (const lab::UnfiredRule& u : model.unfired) {
    if (!has_rule(real.unfired, u.number)) {
      reasons.push_back(lab::unfired_text(u) + " in the model; it fired live");
    }
  }
  return reasons;
}

std::string timing_line(const lab::RunSummary& model, const live::LiveResult& real,
                        const LiveTiming& t) {
  char line[240];
  std::snprintf(line, sizeof line,
                "  time: model %.4f s (%llu steps, %llu ticks); live %.2f s in all, settled "
                "after %.2f s",
                t.model_s, static_cast<unsigned long long>(model.steps),
                static_cast<unsigned long long>(model.time), t.live_s,
                static_cast<double>(real.wall_ms) / 1000.0);
  std::string text = line;
  if (real.broker_restarts > 0) {
    std::snprintf(line, sizeof line, " (%.2f s of it restarting the broker)",
                  static_cast<double>(real.broker_restart_ms) / 1000.0);
    text += line;
  }
  return text;
}

void print_text(const std::string& file, const lab::RunSummary& model,
                const live::LiveResult& real, const std::vector<OrderRow>& rows, bool emails,
                const std::vector<std::string>& reasons, bool agree, std::ostream& out) {
  const int width = emails ? 36 : 26;
  out << file << "\n  order  " << std::left << std::setw(width + 1) << "model"
      << std::setw(width + 1) << "live" << "agree\n" << std::right;
  char line[200];
  for (const OrderRow& r : rows) {
    std::snprintf(line, sizeof line, "  %5lld  %-*s %-*s %s\n", static_cast<long long>(r.order),
                  width, r.model.c_str(), width, r.live.c_str(), r.same ? "yes" : "NO");
    out << line;
  }
  out << "  verdict: model " << model.report.verdict << ", live " << real.summary.report.verdict;
  if (!real.summary.cut_short.empty()) {
    // The live run's end was never reached: there is nothing to agree or disagree with.
    out << "  -> not compared: the live run was " << real.summary.cut_short << "\n";
  } else {
    out << (agree ? "  -> agree" : "  -> DISAGREE") << "\n";
  }
  for (const std::string& why : reasons) out << "  reason: " << why << "\n";
}

nlohmann::ordered_json compare_json(const std::string& file, const lab::RunSummary& model,
                                    const live::LiveResult& real,
                                    const std::vector<OrderRow>& rows,
                                    const std::vector<std::string>& reasons, bool agree,
                                    const LiveTiming& t) {
  nlohmann::ordered_json orders = nlohmann::ordered_json::array();
  for (const OrderRow& r : rows) {
    orders.push_back({{"order", r.order}, {"model", r.model}, {"live", r.live}, {"agree", r.same}});
  }
  const bool compared = real.summary.cut_short.empty();
  return {{"file", file},
          {"scenario", model.scenario},
          {"compared", compared},
          {"agree", compared && agree},
          {"model", {{"verdict", std::string(lab::verdict_name(model.report.verdict))}}},
          {"live", {{"verdict", std::string(lab::verdict_name(real.summary.report.verdict))},
                    {"cut_short", real.summary.cut_short},
                    {"loop", real.loop}}},
          {"orders", std::move(orders)},
          {"reasons", reasons},
          {"store", real.schema.empty() ? "sqlite" : "postgres"},
          {"model_s", t.model_s},
          {"live_s", t.live_s},
          {"broker_restart_ms", real.broker_restart_ms},
          {"time_split", time_split_json(real)}};
}

}  // namespace

bool compare_one(const std::string& file, const lab::RunSummary& model,
                 const live::LiveResult& real, const LiveTiming& timing, bool json,
                 int timeout_s, std::ostream& out, CompareTally& tally) {
  const lab::Report& m = model.report;
  const lab::Report& l = real.summary.report;
  const bool emails = m.effects_checked || l.effects_checked;
  const std::vector<OrderRow> rows = order_rows(m, l, emails);
  std::vector<std::string> reasons = fault_reasons(model, real.summary);
  const bool agree = m.verdict == l.verdict && reasons.empty() &&
                     std::all_of(rows.begin(), rows.end(), [](const OrderRow& r) { return r.same; });
  const bool compared = real.summary.cut_short.empty();
  if (compared && !agree && reasons.empty() && real.user_consumer) {
    // The model ran eosim's own consumer, the live run the user's program.
    reasons.push_back("the same scripted faults fired on both sides: the model ran eosim's " +
                      model.strategy +
                      " consumer, the live run yours; where they differ, your consumer does not "
                      "do what that design does (docs/your-consumer.md)");
  } else if (compared && !agree && reasons.empty()) {
    // The same rules fired on both sides: what is left is timing (docs/live.md).
    reasons.push_back("the same scripted faults fired on both sides: wall time closed a margin of "
                      "a few ticks that the model keeps (docs/live.md, \"Which scenarios depend "
                      "on timing\"); a larger --tick-ms widens it");
  }
  if (!compared) {
    ++tally.not_compared;
  } else if (agree) {
    ++tally.agree;
  } else {
    ++tally.disagree;
  }
  if (json) {
    out << compare_json(file, model, real, rows, reasons, agree, timing).dump() << '\n';
    return compared && agree;
  }
  print_text(file, model, real, rows, emails, reasons, agree, out);
  out << timing_line(model, real, timing) << '\n';
  out << "  live time: " << time_split_text(real) << '\n';
  if (!real.loop.empty()) out << "  (live: " << real.loop << ")\n";
  if (real.timed_out) {
    out << "  (live: stopped at the timeout, " << timeout_s << " s: " << real.still_going << ")\n";
  }
  return compared && agree;
}

void compare_skipped(const std::string& file, const std::string& refused,
                     const std::string& error, bool json, std::ostream& out,
                     CompareTally& tally) {
  if (refused.empty()) {
    ++tally.failed;
  } else {
    ++tally.refused;
  }
  if (json) {
    nlohmann::ordered_json j = {{"file", file}, {"compared", false}, {"agree", false}};
    if (!refused.empty()) j["refused"] = refused;
    if (!error.empty()) j["error"] = error;
    out << j.dump() << '\n';
    return;
  }
  out << file << "\n  -> " << (refused.empty() ? "failed: " + error : "refused: " + refused)
      << "\n";
}

void print_tally(const CompareTally& t, bool json, std::ostream& out) {
  if (json) {
    const nlohmann::ordered_json j = {{"tally",
                                       {{"agree", t.agree},
                                        {"disagree", t.disagree},
                                        {"refused", t.refused},
                                        {"not_compared", t.not_compared},
                                        {"failed", t.failed}}}};
    out << j.dump() << '\n';
    return;
  }
  out << "compare: " << t.agree << " agree, " << t.disagree << " disagree, " << t.refused
      << " refused, " << t.not_compared << " not compared, " << t.failed << " failed\n";
}

}  // namespace cli

#endif
