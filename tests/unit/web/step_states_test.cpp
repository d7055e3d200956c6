// The run page's data (src/web/step_states.h, run_page.h): replaying the per-step changes
// gives, at every step, exactly what the GUI's session shows there; the stepped run is the
// run `eosim run` makes; and no text from a scenario can close the page's <script>.

#include "src/web/step_states.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "src/orders/order_key.h"
#include "src/report/report_format.h"
#include "src/report/so_far.h"
#include "src/report/trace_format.h"
#include "src/session/session.h"
#include "src/web/run_page.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

using nlohmann::json;
using test_support::load_example;

// The page's replay of the states (page.js's apply), for the parts a test compares: the
// tables' rows, the orders and the verdict so far.
struct Replayed {
  std::vector<std::vector<json>> tables;
  std::map<std::int64_t, json> orders;
  json verdict;
};

void apply_state(Replayed& r, const json& d) {
  if (d.contains("tb")) {
    for (const json& change : d["tb"]) {
      auto& rows = r.tables.at(change[0].get<std::size_t>());
      rows.resize(std::max(rows.size(), change[1].get<std::size_t>()));
      for (const json& row : change[2]) rows.at(row[0].get<std::size_t>()) = row[1];
      rows.resize(change[1].get<std::size_t>());
    }
  }
  if (d.contains("v")) r.verdict = d["v"];
  if (d.contains("O")) r.orders.clear();
  for (const char* key : {"o", "O"}) {
    if (!d.contains(key)) continue;
    for (const json& order : d[key]) r.orders[order[0].get<std::int64_t>()] = order;
  }
}

// What the session shows at step k, in the page's terms.
Replayed shown(lab::Session& session, std::uint64_t k) {
  session.seek(k);
  const lab::StepView& v = session.view();
  Replayed r;
  for (const lab::DbTable& t : v.tables) {
    std::vector<json> rows;
    for (const auto& row : t.rows) rows.push_back(row);
    r.tables.push_back(rows);
  }
  for (const lab::OrderOutcome& o : v.summary.report.orders) r.orders[o.order] = o.debits;
  r.verdict = lab::verdict_so_far(v.summary.report.verdict, v.over);
  return r;
}

void check_every_step(const std::string& file) {
  INFO(file);
  const lab::Scenario scenario = load_example(file);
  web::StepStates steps;
  REQUIRE_OK(web::walk_steps(scenario, steps));
  REQUIRE(steps.states.size() == steps.steps + 1);

  lab::RunSummary run;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(scenario, lab::WorldOptions{}, run, &trace));
  CHECK(steps.steps == run.steps);
  REQUIRE(steps.trace.size() == trace.size());
  for (std::size_t i = 0; i < trace.size(); ++i) {
    CHECK(lab::format_trace_line(steps.trace[i], orders::kKeyNames) == lab::format_trace_line(trace[i], orders::kKeyNames));
  }

  lab::Session session;
  REQUIRE_OK(session.open(scenario));
  Replayed page;
  page.tables.resize(steps.tables.size());
  for (std::uint64_t k = 0; k <= steps.steps; ++k) {
    INFO("step " << k);
    apply_state(page, steps.states[k]);
    const Replayed gui = shown(session, k);
    REQUIRE(page.tables == gui.tables);
    REQUIRE(page.orders.size() == gui.orders.size());
    for (const auto& [order, debits] : gui.orders) CHECK(page.orders.at(order)[3] == debits);
    CHECK(page.verdict[0] == gui.verdict);
  }
  CHECK(page.verdict[0] == std::string(lab::verdict_name(run.report.verdict)));
}

}  // namespace

TEST_CASE("web: the page's states replay to the session's view at every step", "[web]") {
  check_every_step("16-competing-consumers-check-then-act.toml");
  check_every_step("31-side-effect-before-commit.toml");
  check_every_step("11-poison-delivery-limit.toml");
}

TEST_CASE("web: a state holds only what changed since the step before", "[web]") {
  web::StepStates steps;
  REQUIRE_OK(web::walk_steps(load_example("16-competing-consumers-check-then-act.toml"), steps));
  int with_tables = 0;
  for (std::size_t k = 1; k < steps.states.size(); ++k) with_tables += steps.states[k].contains("tb");
  CHECK(with_tables > 0);
  CHECK(with_tables < static_cast<int>(steps.steps) / 2);  // most steps write no table
}

TEST_CASE("web: JSON for a <script> element cannot close it and parses back the same",
          "[web]") {
  const std::string name = "</script><script>alert(1)</script> & <!-- \xE2\x80\xA8 \xE2\x80\xA9";
  const json value = {{"name", name}, {"bad utf-8", std::string("a\xFF")}};
  const std::string text = web::script_json(value);
  CHECK(text.find('<') == std::string::npos);
  CHECK(text.find('>') == std::string::npos);
  CHECK(text.find('&') == std::string::npos);
  CHECK(text.find("\xE2\x80\xA8") == std::string::npos);
  CHECK(text.find("\xE2\x80\xA9") == std::string::npos);
  CHECK(json::parse(text)["name"] == name);
}

TEST_CASE("web: a scenario named like markup stays text in the run page", "[web]") {
  lab::Scenario scenario = load_example("01-happy-path.toml");
  scenario.name = "</script><script>alert(1)</script>";
  scenario.about = "<img src=x onerror=alert(2)>";
  web::StepStates steps;
  REQUIRE_OK(web::walk_steps(scenario, steps));
  lab::RunSummary run;
  REQUIRE_OK(lab::run_scenario(scenario, lab::WorldOptions{}, run, nullptr));
  const std::vector<std::string> unmet;
  const lab::RunRecord record{scenario, run, unmet, "eosim run x.toml --seed 1"};
  const std::string page = web::run_page(record, steps, diagram::SvgOptions{});
  std::size_t scripts = 0;
  for (std::size_t at = page.find("<script"); at != std::string::npos; at = page.find("<script", at + 1)) {
    ++scripts;
  }
  CHECK(scripts == 2);  // the data and the stepper, nothing from the file
  CHECK(page.find("<img") == std::string::npos);
  CHECK(page.find("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(page.find("Content-Security-Policy\" content=\"default-src 'none'") != std::string::npos);
}
