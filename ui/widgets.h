#pragma once
// Small drawing helpers shared by the panels: the colour scheme, fixed panel windows,
// and buttons that a headless test can find by label.

#include <imgui.h>

#include <map>
#include <string>

#include "src/checker/verdict.h"
#include "src/report/so_far.h"
#include "src/report/verdict_view.h"
#include "src/diagram/placement.h"
#include "src/diagram/sequence.h"

namespace ui {

// Colours that carry meaning, used the same way in every panel.
namespace palette {
constexpr ImU32 kGood = IM_COL32(80, 200, 120, 255);    // exactly once, acked, committed
constexpr ImU32 kBad = IM_COL32(235, 80, 80, 255);      // duplicated, lost, crash
constexpr ImU32 kWarn = IM_COL32(240, 180, 60, 255);    // stuck, fault, redelivered
constexpr ImU32 kInfo = IM_COL32(110, 170, 250, 255);   // deliveries
constexpr ImU32 kMuted = IM_COL32(150, 150, 160, 255);  // setup chatter, in flight
constexpr ImU32 kText = IM_COL32(230, 230, 235, 255);
constexpr ImU32 kHighlight = IM_COL32(255, 230, 120, 40);  // the current step's rows
constexpr ImU32 kDiverge = IM_COL32(255, 90, 200, 60);     // where two runs part
}  // namespace palette

ImVec4 to_vec4(ImU32 color);
// Colour of a checker outcome / verdict.
ImU32 outcome_color(lab::Outcome outcome);
ImU32 verdict_color(lab::Verdict verdict);
ImU32 effect_color(long long effects);
// The checker's verdict at a step, honestly (src/report/so_far.h, shared with the HTML
// page): before the run has ended only a double effect or a phantom is already certain.
using lab::verdict_known_so_far;
using lab::verdict_so_far;
// "expected 550, actual 400 (MISMATCH)" once the run is over; mid-run "expected at the
// end 550, now 700", never flagged: the expected balance is the whole run's intent, so a
// balance short of it mid-run is work still to come. Wraps rather than cut at the edge.
// Colour of a verdict view's tone (src/report/verdict_view.h).
ImU32 view_color(lab::ViewTone tone);
// "expected 550, actual 400 (MISMATCH)" once the run is over; mid-run "expected for the
// orders so far 550, now 700", never flagged: a balance short of it mid-run is work still
// to come. Wraps rather than cut at the edge.
void balance_figures(long long expected, long long actual, bool over);
// Colour of a diagram tone (panel_sequence.cpp); the SVG writer has its own for paper.
ImU32 tone_color(diagram::Tone tone);

// The current font's measures, for the GUI-free layout code (src/diagram/placement.h).
diagram::Metrics imgui_metrics();
// `text` as it fits in `width` pixels of the current font: whole, or cut with "...".
std::string fit_text(const std::string& text, float width);

// Headless tests set ImGui::GetIO().UserData to an ItemProbe: every widget drawn through
// these helpers records its rectangle under its label, so a test can click it with the
// mouse like a person would.
struct ItemProbe {
  std::map<std::string, ImVec4> rects;  // label -> (min.x, min.y, max.x, max.y)
};
void probe_last_item(const char* label);
bool button(const char* label, const ImVec2& size = ImVec2(0, 0));
// A button drawn disabled (greyed, never pressed) when `enabled` is false.
bool button_if(bool enabled, const char* label, const ImVec2& size = ImVec2(0, 0));

// A fixed, tiled window: no move, no resize, no collapse. Always pair with end_panel().
void begin_panel(const char* title, const ImVec2& pos, const ImVec2& size);
void end_panel();

// A bar the user drags to move the border between two panels: a small window of its own,
// drawn above the panels. Returns how far the mouse moved this frame while dragging it;
// `released` says the drag ended this frame. Probed under `id`.
ImVec2 splitter(const char* id, const ImVec2& pos, const ImVec2& size, bool& released);

void text_colored(ImU32 color, const std::string& text);
// Wrapped at the window's edge.
void text_wrapped_colored(ImU32 color, const std::string& text);
// A "(?)" with a tooltip, on the same line when it fits, else on the next.
void help_marker(const char* text);
// A section header: the second font of the atlas (bold) when there is one, else the
// default font drawn twice, a pixel apart.
void heading(const char* text);

}  // namespace ui
