// `eosim compare --format html` in a real browser: headless Chromium driven through the
// DevTools protocol (cdp.h). Scenario 02 under its own strategy (atomic) and under
// no-dedup: the page must say "identical until step N" with the N the test finds itself in
// the two runs' traces (`eosim run --format jsonl`), "next" and the arrow keys must move
// both runs' highlighted steps together, the two runs must show the same events and state
// just before N and different events at N, the step N link and marks must point at N, the
// verdicts at the end must be the two runs' own, each run headed by its own consumer
// strategy; screenshots at 1280x800 and 390x844 must
// show nothing wider than the viewport (at 1280 nothing cut in its box either, no lane
// title cut by its picture). The text format is checked on the same pair and on
// a file compared with itself.
//
// Where Chromium is missing it exits 77 (ctest: skipped); under CI that is a failure.
//
// usage: eosim_browser_compare_test EOSIM SOURCE_DIR OUT_DIR

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "tests/browser/cdp.h"
#include "tests/browser/page_checks.h"

namespace {

using namespace browser_test;

// The trace event lines of an `eosim run --format jsonl` output (the summary left out).
std::vector<json> trace_lines(const fs::path& file) {
  std::vector<json> events;
  std::istringstream in(slurp(file));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.rfind("{\"summary\"", 0) == 0) continue;
    events.push_back(json::parse(line));
  }
  return events;
}

// The step of the first event where two traces differ (in the longer one when one is the
// other's beginning); -1 when they are the same.
long parting_step(const std::vector<json>& a, const std::vector<json>& b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  if (i == a.size() && i == b.size()) return -1;
  const std::vector<json>& longer = a.size() > i ? a : b;
  return longer[i].value("step", -1L);
}

// Both runs as the page shows them now.
json state(cdp::Browser& b) {
  return b.evaluate(R"JS((() => {
    const band = side => document.querySelector('#' + side + '-diagram .band');
    const mark = side => document.querySelector('#' + side + '-diagram .mark');
    const text = id => (document.getElementById(id) || {}).innerText || '';
    return { step: Number(document.body.getAttribute('data-step')),
             L: Number(band('L').getAttribute('data-step')),
             R: Number(band('R').getAttribute('data-step')),
             markL: mark('L') ? Number(mark('L').getAttribute('data-step')) : -1,
             markR: mark('R') ? Number(mark('R').getAttribute('data-step')) : -1,
             parting: text('parting'), nowL: text('L-now'), nowR: text('R-now'),
             eventsL: text('L-events'), eventsR: text('R-events'),
             ordersL: text('L-orders'), ordersR: text('R-orders') };
  })())JS");
}

void check_stepping(cdp::Browser& b) {
  const json start = state(b);
  check(start.value("step", -1) == 0 && start.value("L", -1) == 0 && start.value("R", -1) == 0,
        "the page opens at step 0 with step 0 highlighted in both runs (" + start.dump() + ")");
  for (int k = 1; k <= 3; ++k) {
    click(b, "#next");
    const json s = state(b);
    check(s.value("step", -1) == k && s.value("L", -1) == k && s.value("R", -1) == k,
          "next moves both runs' highlighted step to " + std::to_string(k) + " (step " +
              std::to_string(s.value("step", -1)) + ", left " + std::to_string(s.value("L", -1)) +
              ", right " + std::to_string(s.value("R", -1)) + ")");
  }
  b.press("ArrowRight", 39);
  const json key = state(b);
  check(key.value("L", -1) == 4 && key.value("R", -1) == 4, "the right arrow key moves both too");
}

// The parting: the sentence, the marks, the link, and the runs just before and at step N.
void check_parting(cdp::Browser& b, long expected) {
  const std::string n = std::to_string(expected);
  const json s = state(b);
  check(s.value("parting", "").find("identical until step " + n + " ") != std::string::npos,
        "the page says identical until step " + n + " (" + s.value("parting", "") + ")");
  check(s.value("markL", -1) == expected && s.value("markR", -1) == expected,
        "both diagrams mark step " + n);
  // Scrolled back to it first, as a person would: stepping docked the slider at the top.
  b.evaluate("document.querySelector('#parting a.step-link').scrollIntoView({block: 'center'})");
  click(b, "#parting a.step-link");
  const json at = state(b);
  check(at.value("L", -1) == expected && at.value("R", -1) == expected,
        "the link in the sentence goes to step " + n + " in both runs");
  check(at.value("eventsL", "") != at.value("eventsR", ""),
        "at step " + n + " the two runs show different events (left: " + at.value("eventsL", "") +
            " | right: " + at.value("eventsR", "") + ")");
  b.press("ArrowLeft", 37);
  const json before = state(b);
  check(before.value("L", -1) == expected - 1 &&
            before.value("eventsL", "") == before.value("eventsR", "") &&
            before.value("nowL", "") == before.value("nowR", "") &&
            before.value("ordersL", "") == before.value("ordersR", ""),
        "one step before, both runs show the same events, broker, verdict so far and orders");
}

// Each run is headed by its own design: the right run is scenario 02 under no-dedup, and
// the file's name says "(atomic)", its own strategy.
void check_headings(cdp::Browser& b) {
  const json h = b.evaluate(R"JS(({
    L: document.getElementById('L-scenario-name').textContent,
    R: document.getElementById('R-scenario-name').textContent,
    title: document.getElementById('compare-title').textContent }))JS");
  check(h.value("L", "").find("(atomic)") != std::string::npos &&
            h.value("R", "").find("atomic") == std::string::npos &&
            h.value("R", "").find("no-dedup") != std::string::npos,
        "each run's heading names its own consumer, the no-dedup run's not atomic (" + h.dump() +
            ")");
  const std::string title = h.value("title", "");
  check(title.find(" vs ") != std::string::npos &&
            title.substr(title.find(" vs ")).find("atomic") == std::string::npos,
        "the page's title does not call the no-dedup run atomic");
}

void check_ends(cdp::Browser& b) {
  click(b, "#last");
  const json end = state(b);
  check(end.value("nowL", "").find("exactly-once") != std::string::npos &&
            end.value("nowR", "").find("duplicated") != std::string::npos,
        "at the end the left run (atomic) is exactly-once and the right (no-dedup) duplicated");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: eosim_browser_compare_test EOSIM SOURCE_DIR OUT_DIR\n");
    return 2;
  }
  const std::string binary = argv[1];
  const fs::path source = argv[2], dir = argv[3];
  const std::string browser = find_browser();
  if (browser.empty()) {
    std::printf("Chromium is not installed: apt-get install chromium (scripts/setup.sh)\n");
    return std::getenv("CI") != nullptr ? 1 : kSkipped;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  const std::string file =
      "'" + (source / "scenarios" / "02-crash-between-commit-and-ack.toml").string() + "'";
  check(
      eosim(binary, "run " + file + " --format jsonl", dir / "left.jsonl") &&
          eosim(binary, "run " + file + " --strategy no-dedup --format jsonl", dir / "right.jsonl"),
      "the two runs' traces");
  const long expected =
      parting_step(trace_lines(dir / "left.jsonl"), trace_lines(dir / "right.jsonl"));
  check(expected > 1, "the traces part at step " + std::to_string(expected));
  check(eosim(binary, "compare " + file + " --vs no-dedup", dir / "compare.txt") &&
            slurp(dir / "compare.txt")
                    .find("identical until step " + std::to_string(expected) + " ") !=
                std::string::npos,
        "the text says identical until step " + std::to_string(expected));
  check(
      eosim(binary, "compare " + file + " " + file, dir / "same.txt") &&
          slurp(dir / "same.txt").find("identical: the two runs are the same") != std::string::npos,
      "a file compared with itself is identical");
  const fs::path page = dir / "compare.html";
  check(eosim(binary, "compare " + file + " --vs no-dedup --format html", page),
        "eosim compare --format html");

  cdp::Browser b;
  const std::string started = b.start(browser, (dir / "profile").string());
  check(started.empty(), "Chromium starts and opens a page " + started);
  if (!started.empty()) return 1;
  b.resize(1280, 800, false);
  check(b.open(url_of(page)), "the comparison loads from disk");
  check_headings(b);
  check_stepping(b);
  check_parting(b, expected);
  check_ends(b);
  check_fits(b, dir / "compare-1280x800.png", "1280x800");
  b.resize(390, 844, true);
  check(b.open(url_of(page)), "the comparison loads at 390x844");
  click(b, "#next");
  check_fits(b, dir / "compare-390x844.png", "390x844");
  std::printf("%s\n",
              failures() == 0 ? "the comparison page checks out" : "the comparison page FAILED");
  return failures() == 0 ? 0 : 1;
}
