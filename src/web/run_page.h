#pragma once
// One run as a self-contained HTML page (`eosim run FILE --format html`, and the run part
// of each course page): one file, no network, no external script, style or font, so it can
// be mailed, attached to a pull request or opened from disk.
//
// Without JavaScript it is a static report: the scenario and its teaching text, the
// verdict and balance, each order's effects, the faults that fired, the sequence diagram
// (inline SVG from diagram/svg.h) and the rows of every table at the end of the run. With
// JavaScript a stepper appears: a slider, buttons and the arrow keys move through the
// steps; the diagram highlights the current step and scrolls to it, and the broker, the
// orders' effects, the verdict so far and the tables show that step. Every per-step state
// comes from walk_steps() (step_states.h), embedded once as JSON: the script only looks
// states up, it never interprets the trace.
//
// Invariants:
//  (1) Every text from a scenario file is escaped: HTML-escaped in the markup, and in the
//      embedded JSON '<', '>' and '&' are \u escapes, so no text can close the <script>.
//  (2) The page's Content-Security-Policy allows nothing to be fetched: default-src 'none',
//      only its own inline script and style, images only as data: URLs.
//  (3) Same inputs, same bytes (no clock, no locale).
// REQUIRES: `record`'s references outlive the call; `steps` comes from walk_steps() of
// record.scenario.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/diagram/svg.h"
#include "src/report/report_format.h"
#include "src/web/step_states.h"

namespace web {

// The width the page's diagram is drawn for: what the diagram pane has beside the state
// pane in a 1280 px window (page.css) once the window's and the pane's own scrollbars
// (15 px each in a desktop browser) are taken off - 760 px - with room to spare, so a
// laptop shows every lane of a two-consumer run without scrolling sideways.
inline constexpr float kDiagramWidth = 750;

// <!DOCTYPE html> to <body>: the security policy, the viewport and the style.
std::string page_head(const std::string& title);
// The script and the closing tags.
std::string page_tail();
// The stepper's controls for `steps` steps, hidden until the script shows them (no script,
// no dead buttons); with `events`, the list of the current step's events under them.
std::string player_nav(std::uint64_t steps, bool events);

// The run's report and stepper: everything between page_head and page_tail.
std::string run_sections(const lab::RunRecord& record, const StepStates& steps,
                         const diagram::SvgOptions& svg);

// How one run's part is written when a page holds more than one run (compare_page.h).
struct RunPart {
  // Starts every id of the part ("" on a run's own page), so two parts share a page. Only
  // letters, digits and '-': it goes into markup unescaped.
  std::string prefix;
  bool player = true;  // the slider and buttons; false: the page has one for all its parts
  bool about = true;   // the scenario's teaching text
  std::optional<std::uint64_t> mark;  // a step marked in the diagram (where two runs part)
};
std::string run_sections(const lab::RunRecord& record, const StepStates& steps,
                         const diagram::SvgOptions& svg, const RunPart& part);

// The run's sequence diagram as one standalone SVG: the picture run_sections() cuts into
// the page's blocks (one block, a short run's, is this picture without the line breaks
// between its elements). The course's pictures (docs/course/) are these.
std::string run_picture(const lab::RunRecord& record, const StepStates& steps,
                        const diagram::SvgOptions& svg);

// The whole page of one run.
std::string run_page(const lab::RunRecord& record, const StepStates& steps,
                     const diagram::SvgOptions& svg);

// `text` as JSON to embed in a <script> element: '<', '>', '&', U+2028 and U+2029 as
// \u escapes, invalid UTF-8 replaced. Still JSON, and JSON.parse gives the same value.
std::string script_json(const nlohmann::json& value);

}  // namespace web
