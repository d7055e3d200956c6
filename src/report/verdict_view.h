#pragma once
// A verdict as people are shown it, in words and tones, for every view that shows one:
// the GUI's verdict panel, the HTML page of a run, the text report. One place decides what
// a cell says, so the views cannot disagree (the GUI once said "duplicated" above a table
// in which every order was green, because the duplicate was an email it did not show).
//
// Rules:
//  (1) The external effect (the emails of consumer.side_effect) stands beside the debits
//      of every order whenever the checker read it; a second email is marked DUP like a
//      second debit is marked DOUBLE.
//  (2) Mid-run (`over` false) no cell and no verdict names a state that may still change:
//      only a duplicate is final (a debit or an email cannot be taken back). An order still
//      on its way is "pending"; an order with nothing yet is "no debit yet"; a debit whose
//      order is not committed yet is "order not committed yet"; an email sent for an order
//      not debited yet is shown as a plain count.
//  (3) The balance expected mid-run is for the orders committed so far; labels say so.

#include <cstdint>
#include <string>
#include <vector>

#include "src/checker/checker.h"
#include "src/report/so_far.h"

namespace lab {

// What a colour means; each view maps a tone to its own colour.
enum class ViewTone : std::uint8_t { kText, kGood, kWarn, kBad, kInfo, kMuted };

struct OrderView {
  std::int64_t order = 0;
  std::int64_t amount = 0;
  bool committed = false;
  std::string debits;  // "1", "2 DOUBLE", "0", "1 +1 rejected"
  ViewTone debits_tone = ViewTone::kText;
  std::string emails;  // "" when the effects were not checked; "1", "2 DUP", "0 LOST"
  ViewTone emails_tone = ViewTone::kText;
  std::string outcome;  // "debited", "duplicated (email)", "pending", ...
  ViewTone outcome_tone = ViewTone::kText;
  bool went_wrong = false;  // a final violation (or, once over, any violation)
};

// Every listed order of `report`, as rows of a table.
std::vector<OrderView> order_views(const Report& report, bool over);
// The emails column is shown (the design has a side effect and the checker read it).
inline bool shows_emails(const Report& report) { return report.effects_checked; }

// The verdict's word at a step: verdict_so_far() in src/report/so_far.h.
ViewTone verdict_tone(Verdict verdict);
ViewTone outcome_tone(Outcome outcome);

// "expected" at the end of a run; "expected for the orders so far" mid-run.
std::string balance_expected_label(bool over);

// Where a verdict comes from when it is not the ledger's: "in the emails sent; the ledger
// alone is exactly-once" ("" when the ledger's verdict is the run's).
std::string verdict_source(const Report& report);

// The orders duplicated in any effect, for a `duplicated:` line: "1, 2 (email)"; the
// orders whose only duplicate is an email say so. "none" when there is none.
std::string duplicated_text(const Report& report);

}  // namespace lab
