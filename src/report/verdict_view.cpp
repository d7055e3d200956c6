// A verdict in words and tones (see verdict_view.h for the rules).
#include "src/report/verdict_view.h"

#include <algorithm>

namespace lab {

namespace {

bool contains(const std::vector<std::int64_t>& list, std::int64_t order) {
  return std::binary_search(list.begin(), list.end(), order);
}

std::string debits_text(const OrderOutcome& o) {
  std::string text = std::to_string(o.debits) + (o.debits >= 2 ? " DOUBLE" : "");
  if (o.rejections > 0) text += " +" + std::to_string(o.rejections) + " rejected";
  return text;
}

ViewTone debits_tone(const OrderOutcome& o) {
  if (o.rejections > 0 && o.debits == 0) return ViewTone::kInfo;
  return o.debits == 1 ? ViewTone::kGood : o.debits == 0 ? ViewTone::kWarn : ViewTone::kBad;
}

// Rule (2): an email count mid-run is only marked when it is a duplicate.
void fill_emails(const Report& r, const OrderOutcome& o, bool over, OrderView& v) {
  if (!r.effects_checked) return;
  v.emails = std::to_string(o.effects);
  v.emails_tone = o.effects == 1 ? ViewTone::kGood : ViewTone::kMuted;
  if (o.effects >= 2) {
    v.emails += " DUP";
    v.emails_tone = ViewTone::kBad;
  } else if (over && contains(r.effect_lost, o.order)) {
    v.emails += " LOST";
    v.emails_tone = ViewTone::kBad;
  } else if (over && contains(r.effect_phantom, o.order)) {
    v.emails += " PHANTOM";
    v.emails_tone = ViewTone::kBad;
  }
}

// The ledger's outcome, in mid-run words where it may still change (rule 2).
void fill_outcome(const OrderOutcome& o, bool over, OrderView& v) {
  v.outcome = std::string(outcome_name(o.outcome));
  v.outcome_tone = outcome_tone(o.outcome);
  v.went_wrong = o.outcome == Outcome::kDuplicated ||
                 (over && (o.outcome == Outcome::kLost || o.outcome == Outcome::kPhantom ||
                           o.outcome == Outcome::kStuck));
  if (over) return;
  if (o.outcome == Outcome::kStuck) {
    v.outcome = "pending";
    v.outcome_tone = ViewTone::kMuted;
  } else if (o.outcome == Outcome::kLost) {
    v.outcome = "no debit yet";
    v.outcome_tone = ViewTone::kMuted;
  } else if (o.outcome == Outcome::kPhantom) {
    v.outcome = "order not committed yet";
    v.outcome_tone = ViewTone::kWarn;
  }
}

// An email gone wrong makes the row's outcome say so, when the ledger's is fine.
void fill_effect_outcome(const Report& r, const OrderOutcome& o, bool over, OrderView& v) {
  if (!r.effects_checked || v.went_wrong) return;
  const char* what = nullptr;
  if (o.effects >= 2) {
    what = "duplicated (email)";
  } else if (over && contains(r.effect_lost, o.order)) {
    what = "lost (email)";
  } else if (over && contains(r.effect_phantom, o.order)) {
    what = "phantom (email)";
  }
  if (what == nullptr) return;
  v.outcome = what;
  v.outcome_tone = ViewTone::kBad;
  v.went_wrong = true;
}

}  // namespace

std::vector<OrderView> order_views(const Report& report, bool over) {
  std::vector<OrderView> views;
  views.reserve(report.orders.size());
  for (const OrderOutcome& o : report.orders) {
    OrderView v;
    v.order = o.order;
    v.amount = o.amount;
    v.committed = o.committed;
    v.debits = debits_text(o);
    v.debits_tone = debits_tone(o);
    fill_emails(report, o, over, v);
    fill_outcome(o, over, v);
    fill_effect_outcome(report, o, over, v);
    views.push_back(std::move(v));
  }
  return views;
}

ViewTone verdict_tone(Verdict verdict) {
  switch (verdict) {
    case Verdict::kExactlyOnce: return ViewTone::kGood;
    case Verdict::kStuck: return ViewTone::kWarn;
    default: return ViewTone::kBad;  // duplicated, lost, phantom, incomplete
  }
}

ViewTone outcome_tone(Outcome outcome) {
  switch (outcome) {
    case Outcome::kDebited: return ViewTone::kGood;
    case Outcome::kRejected:
    case Outcome::kDeadLettered: return ViewTone::kInfo;
    case Outcome::kStuck:
    case Outcome::kUnsettled: return ViewTone::kWarn;
    default: return ViewTone::kBad;
  }
}

std::string balance_expected_label(bool over) {
  return over ? "expected" : "expected for the orders so far";
}

std::string verdict_source(const Report& report) {
  if (!report.effects_checked || report.verdict == report.ledger_verdict) return "";
  return "in the emails sent; the ledger alone is " +
         std::string(verdict_name(report.ledger_verdict));
}

std::string duplicated_text(const Report& report) {
  std::vector<std::int64_t> all = report.duplicated;
  if (report.effects_checked) {
    all.insert(all.end(), report.effect_duplicated.begin(), report.effect_duplicated.end());
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  if (all.empty()) return "none";
  std::string text;
  for (const std::int64_t order : all) {
    if (!text.empty()) text += ", ";
    text += std::to_string(order);
    const bool debit = contains(report.duplicated, order);
    const bool email = report.effects_checked && contains(report.effect_duplicated, order);
    if (email) text += debit ? " (debit and email)" : " (email)";
  }
  return text;
}

}  // namespace lab
