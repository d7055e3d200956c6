// `eosim live --compare scenarios/`: every scenario that can run live, in the model and
// against a real RabbitMQ (the private one eosim starts), must agree - the verdict and
// each order's outcome and debit count. The ones that cannot run live are refused with
// their reason on one line each, and the run goes on without them, then exits 2 (a
// refusal is not a pass) after its tally line. Nothing is left
// running afterwards: every process eosim started carries the test's TMPDIR.
// Two runs at a time on the one broker (--jobs 2); those that restart the broker run alone
// afterwards. At 30 ms a tick: at 10 ms, scenarios 34 and 35 have margins of a few ticks
// that a loaded machine has crossed (docs/live.md, "Model versus real").
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "tests/live/compare_suite.h"
#include "tests/live/live_cli.h"

namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("live: model and RabbitMQ agree on every scenario that can run live", "[live-compare]") {
  live_test::TempDir dir;
  const std::string folder = live_test::kSource + "/scenarios";
  const std::string tmpdir = "TMPDIR=" + dir.path;
  const live_test::Outcome o = live_test::eosim(
      {"live", "--compare", "--jobs", "2", "--tick-ms", "30", folder + "/"}, dir, {tmpdir}, 580000);
  // Printed whatever happens: the comparison table and the refusals with their reasons.
  WARN(o.out);
  CHECK(o.out.find("DISAGREE") == std::string::npos);

  // Lines "eosim: live: FILE: reason" (refused) and "FILE" then "  order  model" (compared).
  std::vector<std::string> lines;
  std::istringstream text(o.out);
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  const auto refused_line = [&](const std::string& file) {
    const std::string name = "/" + file;
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
      return l.rfind("eosim: live: ", 0) == 0 && l.find(name + ": ") != std::string::npos;
    });
  };
  const auto compared_block = [&](const std::string& file) {
    const std::string name = "/" + file;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
      const std::string& l = lines[i];
      if (l.size() >= name.size() && l.compare(l.size() - name.size(), name.size(), name) == 0 &&
          lines[i + 1].rfind("  order  model", 0) == 0) {
        return true;
      }
    }
    return false;
  };
  const live_test::SuiteCount c =
      live_test::each_compared_or_refused(folder, compared_block, refused_line);
  const std::size_t compared = c.compared, refused = c.refused;
  CHECK(occurrences(o.out, "-> agree") == compared);
  // Each comparison says where its live run's time went, and that the command's own
  // RabbitMQ was started before the first run.
  CHECK(occurrences(o.out, "  live time: setup ") == compared);
  CHECK(occurrences(o.out, "; before the first run: RabbitMQ ") == compared);
  // The tally; a refused scenario is not a pass: the others run, then the command exits 2.
  CHECK(o.out.find("compare: " + std::to_string(compared) + " agree, 0 disagree, " +
                   std::to_string(refused) + " refused, 0 not compared, 0 failed") !=
        std::string::npos);
  live_test::check_suite(c, o.exit_code, tmpdir);
}
