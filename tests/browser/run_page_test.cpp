// The run page (`eosim run --format html`) and the course site (`eosim course --html`) in
// a real browser: headless Chromium, driven through the DevTools protocol (cdp.h), steps
// through scenario 16 as a person would and checks what the page shows; screenshots at a
// laptop's 1280x800 and a phone's 390x844 must show nothing wider than the viewport; a
// scenario whose name and text are markup must show them as text, with no script of
// theirs run and nothing fetched; a lesson hides its answer until an option is chosen.
//
// Where Chromium is missing it says how to install it and exits 77 (ctest: skipped);
// under CI (the CI variable set) that is a failure instead, since .ci/run installs it.
//
// usage: eosim_browser_test EOSIM SOURCE_DIR OUT_DIR
//        eosim_browser_test --open-time PAGE   (a benchmark: how long the page takes to
//        load and to show its first, last and middle steps, its JS heap; not a test)
//        eosim_browser_test --fits PAGE OUT_DIR   (the viewport checks on any page, with
//        screenshots at 1280x800 and 390x844; not a test)

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/browser/cdp.h"
#include "tests/browser/page_checks.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace browser_test;

// The page's state as the test reads it: the step the page says it shows, the highlight
// band's step and place, and the text of the tables and the orders.
json page_state(cdp::Browser& b) {
  return b.evaluate(R"JS(({
    step: Number(document.body.getAttribute('data-step')),
    where: document.getElementById('where').textContent,
    band: Number(document.querySelector('#diagram .band').getAttribute('data-step')),
    bandY: parseFloat(document.querySelector('#diagram .band').style.top),
    tables: document.getElementById('tables').innerText,
    orders: document.getElementById('orders').innerText,
    duplicateRows: document.querySelectorAll('#tables tr.duplicate').length
  }))JS");
}

// Stepping: "next" (the button, then the arrow key) moves the highlight to the next step
// and, at a step that writes to a table, changes the tables shown.
void check_stepping(cdp::Browser& b) {
  const json start = page_state(b);
  check(start.value("step", -1) == 0 && start.value("band", -1) == 0,
        "the page opens at step 0 with step 0 highlighted (" + start.dump() + ")");
  // The first step after which the tables differ, found by pressing "next" like a person.
  int changed_at = -1;
  json before = start;
  for (int i = 0; i < 40 && changed_at < 0; ++i) {
    click(b, "#next");
    const json after = page_state(b);
    if (after.value("step", -1) != before.value("step", -1) + 1 ||
        after.value("band", -1) != after.value("step", -2) ||
        after.value("bandY", 0.0) <= before.value("bandY", 0.0) - 0.01) {
      check(false, "next moves the step and its highlight down by one step (" + before.dump() +
                       " -> " + after.dump() + ")");
      return;
    }
    if (after.value("tables", "") != before.value("tables", ""))
      changed_at = after.value("step", -1);
    before = after;
  }
  check(changed_at > 0,
        "pressing next reaches a step whose tables differ from the step before "
        "(step " +
            std::to_string(changed_at) + ")");
  b.press("ArrowRight", 39);
  const json key = page_state(b);
  check(key.value("step", -1) == changed_at + 1 && key.value("band", -1) == changed_at + 1,
        "the right arrow key steps forward too");
  b.press("ArrowLeft", 37);
  check(page_state(b).value("step", -1) == changed_at, "the left arrow key steps back");
}

// The done-when of the page: stepping to the second debit of order 1 shows the duplicate
// in the tables and, at the same step, the diagram's highlighted rows hold that debit.
void check_second_debit(cdp::Browser& b) {
  click(b, "#first");
  int dup_step = -1;
  for (int i = 0; i < 200 && dup_step < 0; ++i) {
    const json s = page_state(b);
    if (s.value("duplicateRows", 0) > 0) dup_step = s.value("step", -1);
    if (s.value("step", 0) ==
        std::stoi(s.value("where", "step 0 of 0").substr(s.value("where", "").find(" of ") + 4)))
      break;
    if (dup_step < 0) click(b, "#next");
  }
  check(dup_step > 0,
        "stepping forward reaches a step where the debits table marks a duplicate "
        "(step " +
            std::to_string(dup_step) + ")");
  const json at = b.evaluate(R"JS((() => {
    const band = document.querySelector('#diagram .band');
    const y0 = parseFloat(band.style.top), y1 = y0 + parseFloat(band.style.height);
    const labels = [...document.querySelectorAll('#diagram svg text.label')]
      .filter(t => Number(t.getAttribute('y')) >= y0 && Number(t.getAttribute('y')) <= y1)
      .map(t => t.textContent);
    const view = document.getElementById('diagram').getBoundingClientRect();
    const shown = band.getBoundingClientRect();
    return { labels, visible: shown.top >= view.top && shown.bottom <= view.bottom &&
               shown.top >= 0 && shown.bottom <= innerHeight,
             dupMarks: document.querySelectorAll('#tables .dup').length,
             ordersDup: document.querySelectorAll('#orders .dup').length,
             verdict: document.getElementById('now').innerText };
  })())JS");
  std::string labels;
  for (const json& l : at.value("labels", json::array())) labels += l.get<std::string>() + " | ";
  check(labels.find("AGAIN") != std::string::npos,
        "at that step the highlighted diagram rows hold the second debit (" + labels + ")");
  check(at.value("visible", false),
        "the highlighted step is scrolled into the diagram's view and the window's");
  check(at.value("dupMarks", 0) >= 2 && at.value("ordersDup", 0) >= 1,
        "the tables mark both debit rows DUP and the orders table marks order 1's debits DUP");
  check(at.value("verdict", "").find("duplicated (already)") != std::string::npos,
        "the verdict so far says duplicated (already)");
}

// With JavaScript off the page is the static report: no controls, the tables at the end.
void check_without_script(cdp::Browser& b, const fs::path& page, const fs::path& png) {
  b.call("Emulation.setScriptExecutionDisabled", {{"value", true}});
  check(b.open(url_of(page)), "the page loads with JavaScript off");
  b.call("Emulation.setScriptExecutionDisabled", {{"value", false}});
  // Runtime.evaluate runs even where the page's own scripts may not.
  const json seen = b.evaluate(R"JS(({
    step: document.body.getAttribute('data-step'),
    player: getComputedStyle(document.getElementById('player')).display,
    tables: document.getElementById('tables-title').textContent,
    debits: document.getElementById('tables').innerText.includes('debits (2 rows)'),
    verdict: document.querySelector('.verdict').textContent
  }))JS");
  check(seen.value("step", json()).is_null() && seen.value("player", "") == "none",
        "without script no stepper shows (" + seen.dump() + ")");
  check(seen.value("tables", "") == "Database tables at the end of the run" &&
            seen.value("debits", false) && seen.value("verdict", "") == "verdict: duplicated",
        "without script the verdict and the tables at the end of the run show");
  std::ofstream(png, std::ios::binary) << b.screenshot_png();
}

// A scenario whose name and text are markup: the page shows them as text, runs no script
// of theirs, and its policy refuses a fetch.
void check_escaping(cdp::Browser& b, const std::string& binary, const fs::path& source,
                    const fs::path& dir) {
  const std::string name = "</script><script>alert(1)</script>";
  const std::string about = "<img src=x onerror=alert(2)> & \"quotes\" \u2028 end";
  std::string toml = slurp(source / "scenarios" / "01-happy-path.toml");
  const std::size_t at = toml.find("name");
  const std::size_t end = toml.find('\n', at);
  toml.replace(at, end - at, "name = '" + name + "'");
  const std::size_t about_at = toml.find("about");
  if (about_at != std::string::npos) {
    const std::size_t about_end = toml.find("\"\"\"", toml.find("\"\"\"", about_at) + 3);
    if (about_end != std::string::npos && toml.compare(about_at, 11, "about = \"\"\"") == 0) {
      toml.replace(about_at, about_end + 3 - about_at, "about = '" + about + "'");
    }
  }
  const fs::path file = dir / "markup.toml";
  std::ofstream(file, std::ios::binary) << toml;
  const fs::path page = dir / "markup.html";
  check(eosim(binary, "run '" + file.string() + "' --format html", page), "eosim run markup.toml");
  check(b.open(url_of(page)), "the markup page loads");
  const json seen = b.evaluate(R"JS((async () => {
    const violation = new Promise(done => {
      document.addEventListener('securitypolicyviolation', e => done(e.violatedDirective));
      setTimeout(() => done('none'), 3000);
    });
    let fetched = 'fetched';
    try { await fetch('http://127.0.0.1:9/'); } catch (e) { fetched = 'refused'; }
    return { h1: document.querySelector('h1').textContent, title: document.title,
             about: (document.querySelector('.about') || {}).textContent || '',
             scripts: document.scripts.length, images: document.images.length,
             player: !document.getElementById('player').hidden,
             fetched, violation: await violation };
  })())JS");
  check(seen.value("h1", "") == name,
        "the name shows as text in the heading (" + seen.dump() + ")");
  check(seen.value("title", "") == name + " - eosim", "the name shows as text in the title");
  check(seen.value("about", "").find("<img src=x") != std::string::npos,
        "the about text shows as text");
  check(seen.value("scripts", 0) == 2 && seen.value("images", 1) == 0,
        "no script or image of the scenario's made it into the page");
  check(seen.value("player", false), "the page's own script ran (its JSON parsed)");
  check(seen.value("fetched", "") == "refused" && seen.value("violation", "") == "connect-src",
        "the page's policy refuses a fetch");
  bool dialog = false;
  for (const json& e : b.events())
    dialog = dialog || e.value("method", "") == "Page.javascriptDialogOpening";
  check(!dialog, "no alert was opened");
}

// The course site: a lesson hides its answer until an option is chosen, a wrong option
// gets its line of feedback and opens the answer with the run's stepper; the lesson links
// the next lesson and its fixed design, which exist; both fit a laptop and a phone.
void check_course(cdp::Browser& b, const std::string& binary, const fs::path& source,
                  const fs::path& dir) {
  const fs::path site = dir / "site";
  check(eosim(binary,
              "course --html '" + site.string() + "' --dir '" +
                  (source / "scenarios" / "lessons").string() + "'",
              dir / "course.out"),
        "eosim course --html");
  check(fs::exists(site / "index.html") && fs::exists(site / "lesson-12.html"),
        "the site has an index and every lesson's page");
  b.resize(1280, 800, false);
  check(b.open(url_of(site / "lesson-02.html")), "lesson 2's page loads from disk");
  const std::string state = R"JS((() => {
    const answer = document.getElementById('answer');
    const feedback = document.getElementById('feedback');
    const fixed = document.querySelector('p.fixed a[href$="-fixed.html"]');
    return { answerShown: answer.checkVisibility(), text: document.body.innerText,
             feedback: feedback.hidden ? '' : feedback.textContent,
             stepper: document.getElementById('player').checkVisibility(),
             next: (document.querySelector('nav.course a[href^="lesson-03"]') || {}).textContent || '',
             fixed: fixed ? fixed.getAttribute('href') : '',
             wrong: [...document.querySelectorAll('button.option')].findIndex(o => o.dataset.right === '0') };
  })())JS";
  const json before = b.evaluate(state);
  check(!before.value("answerShown", true) && !before.value("stepper", true) &&
            before.value("text", "").find("Answer 2:") == std::string::npos,
        "before a choice the answer and the run are hidden");
  check(before.value("next", "") == "next lesson" && fs::exists(site / "lesson-03.html"),
        "the lesson links the next lesson");
  const std::string fixed = before.value("fixed", "");
  check(!fixed.empty() && fs::exists(site / fixed),
        "the lesson links its fixed design (" + fixed + ")");
  click(b, "ol.options li:nth-child(" + std::to_string(before.value("wrong", 0) + 1) + ") button");
  const json after = b.evaluate(state);
  check(after.value("answerShown", false) && after.value("stepper", false) &&
            after.value("text", "").find("Answer 2:") != std::string::npos,
        "choosing an option shows the answer and the run's stepper");
  check(after.value("feedback", "").rfind("Not quite. ", 0) == 0 &&
            after.value("feedback", "").size() > 20,
        "a wrong option gets its line of feedback (" + after.value("feedback", "") + ")");
  check_fits(b, dir / "lesson-02-1280x800.png", "lesson 2 at 1280x800");
  b.resize(390, 844, true);
  check(b.open(url_of(site / "lesson-02.html")), "lesson 2 loads at 390x844");
  click(b, "ol.options li:nth-child(1) button");
  check_fits(b, dir / "lesson-02-390x844.png", "lesson 2 at 390x844");
  check(b.open(url_of(site / fixed)), "the fixed design's page loads");
  const json verdict = b.evaluate("document.querySelector('.verdict').textContent");
  check(verdict == "verdict: exactly-once",
        "the fixed design is exactly-once (" + verdict.dump() + ")");
  b.resize(1280, 800, false);
}

// The renderer's own account of its main thread so far (seconds of tasks, layout, style,
// script), its JS heap (bytes) and DOM nodes.
void print_metrics(cdp::Browser& b, const std::string& label) {
  const json metrics = b.call("Performance.getMetrics");
  std::string line;
  for (const json& m : metrics.value("metrics", json::array())) {
    const std::string name = m.value("name", "");
    if (name == "TaskDuration" || name == "ScriptDuration" || name == "LayoutDuration" ||
        name == "RecalcStyleDuration" || name == "JSHeapUsedSize" || name == "JSHeapTotalSize" ||
        name == "Nodes") {
      line += " " + name + "=" + m["value"].dump();
    }
  }
  std::printf("%s:%s\n", label.c_str(), line.c_str());
}

// A long run (scenario 10, a poison message requeued for thousands of steps): its
// diagram's later blocks wait undrawn until needed; stepping to the end or to any step
// draws the block that holds it, highlighted labels and all; without script every block
// is a picture.
void check_long_run(cdp::Browser& b, const std::string& binary, const fs::path& source,
                    const fs::path& dir) {
  const fs::path page = dir / "10.html";
  check(eosim(binary,
              "run '" + (source / "scenarios" / "10-poison-requeue-forever.toml").string() +
                  "' --format html",
              page),
        "eosim run scenario 10 --format html");
  check(b.open(url_of(page)), "the page of scenario 10 loads");
  const std::string state = R"JS((() => {
    const band = document.querySelector('#diagram .band');
    const y0 = parseFloat(band.style.top), y1 = y0 + parseFloat(band.style.height);
    const labels = [...document.querySelectorAll('#diagram svg text.label')]
      .filter(t => Number(t.getAttribute('y')) >= y0 && Number(t.getAttribute('y')) <= y1).length;
    return { blocks: document.querySelectorAll('#diagram .block').length,
             waiting: document.querySelectorAll('#diagram .block.deferred').length,
             pictures: document.querySelectorAll('#diagram svg.sequence').length,
             step: Number(band.getAttribute('data-step')), labels };
  })())JS";
  const json open = b.evaluate(state);
  check(open.value("blocks", 0) > 10 && open.value("waiting", 0) >= open.value("blocks", 0) - 2,
        "on opening, the long diagram's later blocks are not drawn yet (" + open.dump() + ")");
  click(b, "#last");
  const json last = b.evaluate(state);
  check(last.value("labels", 0) > 0 && last.value("waiting", 0) < open.value("waiting", 0),
        "at the last step its block is drawn and the highlight holds its labels (" + last.dump() +
            ")");
  b.evaluate("eosimStep(Math.floor(Number(document.getElementById('slider').max) / 2))");
  const json middle = b.evaluate(state);
  check(middle.value("labels", 0) > 0, "a step in the middle is drawn too (" + middle.dump() + ")");
  check_fits(b, dir / "10-1280x800.png", "scenario 10 at 1280x800");
  b.call("Emulation.setScriptExecutionDisabled", {{"value", true}});
  check(b.open(url_of(page)), "the page of scenario 10 loads with JavaScript off");
  b.call("Emulation.setScriptExecutionDisabled", {{"value", false}});
  const json off =
      b.evaluate(state.substr(0, state.find("const band")) +
                 "return { blocks: document.querySelectorAll('#diagram .block').length, "
                 "pictures: document.querySelectorAll('#diagram svg.sequence').length }; })()");
  check(off.value("pictures", 0) == off.value("blocks", -1),
        "without script every block of the diagram is a picture (" + off.dump() + ")");
}

// The benchmark: load `page` at 1280x800 and report the times the page itself measured.
int open_time(const std::string& browser, const fs::path& page) {
  cdp::Browser b;
  const fs::path profile = fs::temp_directory_path() / "eosim-open-time-profile";
  std::error_code ec;
  fs::remove_all(profile, ec);
  if (const std::string started = b.start(browser, profile.string()); !started.empty()) {
    std::printf("cannot start Chromium: %s\n", started.c_str());
    return 1;
  }
  b.resize(1280, 800, false);
  b.call("Performance.enable");
  // CPU seconds of the browser's processes: on a busy machine they say more than the clock.
  const auto cpu = [&b] {
    double total = 0;
    for (const json& p : b.call("SystemInfo.getProcessInfo", json::object(), false)
                             .value("processInfo", json::array())) {
      total += p.value("cpuTime", 0.0);
    }
    return total;
  };
  const double cpu_before = cpu();
  const auto begin = std::chrono::steady_clock::now();
  if (!b.open(url_of(page))) return 1;
  const double wall =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  const double cpu_open = cpu() - cpu_before;
  print_metrics(b, "renderer on load");
  const json t = b.evaluate(R"JS((() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const elements = document.getElementsByTagName('*').length;
    const waiting = document.querySelectorAll('.block.deferred').length;
    const blocks = document.querySelectorAll('.diagram .block').length;
    const last = Number(document.getElementById('slider').max);
    const time = k => { const t0 = performance.now(); eosimStep(k); return performance.now() - t0; };
    return { load: nav.loadEventEnd, interactive: nav.domInteractive, steps: last, elements,
             waiting, blocks,
             last: time(last), middle: time(Math.floor(last / 2)), first: time(0),
             next: time(1) };
  })())JS");
  std::printf("%s: %ju bytes, %s steps\n", page.string().c_str(),
              static_cast<std::uintmax_t>(fs::file_size(page)),
              t.value("steps", json()).dump().c_str());
  std::printf(
      "navigation to load event: %.0f ms (page's own clock: dom interactive %.0f ms, "
      "load %.0f ms); CPU of the browser's processes meanwhile: %.2f s\n",
      wall, t.value("interactive", 0.0), t.value("load", 0.0), cpu_open);
  std::printf("on load: %s elements; diagram blocks %s, %s of them not drawn yet\n",
              t.value("elements", json()).dump().c_str(), t.value("blocks", json()).dump().c_str(),
              t.value("waiting", json()).dump().c_str());
  std::printf("showing a step: last %.1f ms, middle %.1f ms, first %.1f ms, next %.1f ms\n",
              t.value("last", 0.0), t.value("middle", 0.0), t.value("first", 0.0),
              t.value("next", 0.0));
  print_metrics(b, "renderer after the steps above");
  fs::remove_all(profile, ec);
  return 0;
}

// A look at any page, not a test: at 1280x800 and 390x844, stepped to its last step, the
// viewport checks and a screenshot of each in OUT_DIR.
int fits(const std::string& browser, const fs::path& page, const fs::path& dir) {
  cdp::Browser b;
  fs::create_directories(dir);
  if (const std::string started = b.start(browser, (dir / "profile").string()); !started.empty()) {
    std::printf("cannot start Chromium: %s\n", started.c_str());
    return 1;
  }
  for (const auto& [w, h] : {std::pair{1280, 800}, std::pair{390, 844}}) {
    const std::string size = std::to_string(w) + "x" + std::to_string(h);
    b.resize(w, h, w < 1000);
    check(b.open(url_of(page)), page.filename().string() + " loads at " + size);
    b.evaluate("window.eosimStep && eosimStep(1e9)");
    check_fits(b, dir / (page.stem().string() + "-" + size + ".png"), size);
  }
  return failures() == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--open-time") {
    const std::string browser = find_browser();
    if (browser.empty()) return kSkipped;
    return open_time(browser, argv[2]);
  }
  if (argc == 4 && std::string(argv[1]) == "--fits") {
    const std::string browser = find_browser();
    if (browser.empty()) return kSkipped;
    return fits(browser, argv[2], argv[3]);
  }
  if (argc != 4) {
    std::fprintf(stderr, "usage: eosim_browser_test EOSIM SOURCE_DIR OUT_DIR\n");
    return 2;
  }
  const std::string binary = argv[1];
  const fs::path source = argv[2], dir = argv[3];
  const std::string browser = find_browser();
  if (browser.empty()) {
    std::printf(
        "Chromium is not installed, so the pages cannot be checked in a browser: "
        "apt-get install chromium (scripts/setup.sh installs it)\n");
    return std::getenv("CI") != nullptr ? 1 : kSkipped;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  const fs::path page = dir / "16.html";
  check(eosim(binary,
              "run '" +
                  (source / "scenarios" / "16-competing-consumers-check-then-act.toml").string() +
                  "' --format html",
              page),
        "eosim run scenario 16 --format html");
  cdp::Browser b;
  const std::string started = b.start(browser, (dir / "profile").string());
  check(started.empty(), "Chromium starts and opens a page " + started);
  if (!started.empty()) return 1;
  b.resize(1280, 800, false);
  check(b.open(url_of(page)), "the page of scenario 16 loads from disk");
  check_stepping(b);
  check_second_debit(b);
  check_fits(b, dir / "16-1280x800.png", "1280x800");
  b.resize(390, 844, true);
  check(b.open(url_of(page)), "the page loads at 390x844");
  click(b, "#last");
  check_fits(b, dir / "16-390x844.png", "390x844");
  b.resize(1280, 800, false);
  check_without_script(b, page, dir / "16-no-script.png");
  check_long_run(b, binary, source, dir);
  check_escaping(b, binary, source, dir);
  check_course(b, binary, source, dir);
  std::printf("%s\n", failures() == 0 ? "the run page checks out" : "the run page FAILED");
  return failures() == 0 ? 0 : 1;
}
