#pragma once
// What the browser tests (run_page_test.cpp, compare_page_test.cpp) share: a check that
// prints ok/FAILED and counts failures, running eosim into a file, finding Chromium, and
// the viewport check over a screenshot.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/browser/cdp.h"

namespace browser_test {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kSkipped = 77;  // ctest: skipped (Chromium missing outside CI)

// Prints "ok: WHAT" or "FAILED: WHAT"; failures() counts the second kind.
void check(bool ok, const std::string& what);
int failures();

// The first Chromium (or Chrome) installed, "" when none.
std::string find_browser();
std::string slurp(const fs::path& path);
// Runs `eosim ARGS` with its stdout in `out`; true when it exits 0 or 1 (a verdict).
bool eosim(const std::string& binary, const std::string& args, const fs::path& out);
std::string url_of(const fs::path& page);

// Clicks the element `selector` where a person would: its centre, as laid out.
void click(cdp::Browser& b, const std::string& selector);

// Nothing is wider than the viewport: the page does not scroll sideways, and every element
// outside a box that scrolls by itself lies inside the viewport. From 1000 px wide (where
// the page sets its panes side by side) no box may be cut either: a table or a diagram
// wider than its pane, seen only by scrolling it sideways. No SVG picture cuts its own
// text at its edge. Saves a screenshot in `png` and checks it is drawn.
void check_fits(cdp::Browser& b, const fs::path& png, const std::string& what);

}  // namespace browser_test
