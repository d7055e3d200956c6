// The verdict in words, as every view shows it: the duplicated email of scenario 31 stands
// beside the debits, the `duplicated:` line names it, and mid-run no verdict word is given
// for a state the rest of the run can still change.

#include "src/report/verdict_view.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "src/report/report_format.h"
#include "src/session/session.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

const lab::OrderView& order(const std::vector<lab::OrderView>& views, std::int64_t n) {
  const auto it = std::find_if(views.begin(), views.end(),
                               [n](const lab::OrderView& v) { return v.order == n; });
  REQUIRE(it != views.end());
  return *it;
}

}  // namespace

TEST_CASE("scenario 31: the second email of order 2 is the duplicate, beside its one debit",
          "[report][verdict]") {
  lab::Session session;
  REQUIRE_OK(session.open(test_support::load_example("31-side-effect-before-commit.toml")));
  const lab::Report& end = session.end().report;
  REQUIRE(end.verdict == lab::Verdict::kDuplicated);
  REQUIRE(end.duplicated.empty());  // the ledger alone is exactly-once
  const std::vector<lab::OrderView> views = lab::order_views(end, true);
  REQUIRE(lab::shows_emails(end));
  CHECK(order(views, 2).debits == "1");
  CHECK(order(views, 2).emails == "2 DUP");
  CHECK(order(views, 2).emails_tone == lab::ViewTone::kBad);
  CHECK(order(views, 2).outcome == "duplicated (email)");
  CHECK(order(views, 2).went_wrong);
  CHECK(order(views, 1).emails == "1");
  CHECK(order(views, 1).outcome == "debited");
  CHECK_FALSE(order(views, 1).went_wrong);
  CHECK(lab::duplicated_text(end) == "2 (email)");
  CHECK(lab::verdict_source(end) == "in the emails sent; the ledger alone is exactly-once");
}

TEST_CASE("scenario 31 at step 22: an email before its debit is no verdict yet",
          "[report][verdict]") {
  lab::Session session;
  REQUIRE_OK(session.open(test_support::load_example("31-side-effect-before-commit.toml")));
  session.seek(22);  // the email for order 2 is sent, the consumer crashes before its commit
  const lab::StepView& now = session.view();
  REQUIRE_FALSE(now.over);
  const lab::Report& r = now.summary.report;
  // The checker, asked now, sees an email with no debit: phantom. The run ends duplicated.
  CHECK(r.verdict == lab::Verdict::kPhantom);
  CHECK(lab::verdict_so_far(r.verdict, false) == "in progress");
  CHECK_FALSE(lab::verdict_known_so_far(r.verdict, false));
  for (const lab::OrderView& v : lab::order_views(r, false)) {
    INFO("order " << v.order << ": " << v.outcome << ", emails " << v.emails);
    CHECK(v.emails.find("PHANTOM") == std::string::npos);
    CHECK(v.outcome.find("phantom") == std::string::npos);
    CHECK_FALSE(v.went_wrong);
  }
  CHECK(lab::balance_expected_label(false) == "expected for the orders so far");
  // A duplicate is final the moment it happens.
  CHECK(lab::verdict_so_far(lab::Verdict::kDuplicated, false) == "duplicated (already)");
}

TEST_CASE("duplicated_text names orders duplicated in the ledger, the emails or both",
          "[report][verdict]") {
  lab::Report r;
  CHECK(lab::duplicated_text(r) == "none");
  r.duplicated = {1, 3};
  CHECK(lab::duplicated_text(r) == "1, 3");
  r.effects_checked = true;
  r.effect_duplicated = {2, 3};
  CHECK(lab::duplicated_text(r) == "1, 2 (email), 3 (debit and email)");
}
