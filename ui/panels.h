#pragma once
// The panels. Each is a function of the const model and the view state; the ones that
// can change the run queue commands instead of acting. Each draws its contents into the
// current window (the app places the windows), one file per panel.

#include <cstddef>

#include "ui/commands.h"
#include "ui/model.h"
#include "ui/view_state.h"

namespace ui {

// panel_toolbar.cpp: mode switch, step / back / play / speed, the scrub slider, status.
// `lesson_line` names what Lessons mode shows (LessonsMode::toolbar_line).
void draw_toolbar(const Model& model, ViewState& view, Commands& commands,
                  const std::string& lesson_line);
// panel_browser.cpp: scenarios with their `about`, seed/strategy/producer overrides, reset.
void draw_browser(const Model& model, ViewState& view, Commands& commands);
// panel_sequence.cpp: the diagram of one session. `slot` keeps each diagram's scrolling
// apart; `divergence_event` marks where a compared run differs (SIZE_MAX: none).
void draw_sequence(const SessionModel& model, ViewState& view, Slot slot,
                   std::size_t divergence_event = static_cast<std::size_t>(-1));
// panel_broker.cpp: ready messages, unacked deliveries per consumer, dead letters.
void draw_broker(const SessionModel& model);
// panel_tables.cpp: the live SQLite tables.
void draw_tables(const SessionModel& model, Slot slot);
// panel_verdict.cpp: per-order effect counts, balances, the verdict and the faults behind it.
// `show_end`: show how the whole run ends before it has (a teacher's toggle).
void draw_verdict(const SessionModel& model, bool show_end);
// panel_faults.cpp: fault buttons, the faults made by hand, export.
void draw_faults(const Model& model, ViewState& view, Commands& commands);
// panel_compare.cpp: two strategies side by side on the same scenario and seed.
void draw_compare(const Model& model, ViewState& view, Commands& commands);
// panel_recording.cpp: a recorded run (read-only): where it came from, the controls it
// cannot have and why; its verdict once the last event is shown; what a trace does not hold.
void draw_recording(const Model& model, Commands& commands);
void draw_recorded_verdict(const SessionModel& model, bool show_end);
void draw_recorded_state(const SessionModel& model);
// panel_generals.cpp: the Two Generals mode.
void draw_generals(const Model& model, ViewState& view, Commands& commands);

}  // namespace ui
