#pragma once
// Two runs side by side as one self-contained page (`eosim compare A.toml B.toml --format
// html`, or one file `--strategy X --vs Y`): the GUI's compare mode in a browser. One
// slider and one set of buttons move both runs; above them the page says how long the two
// traces are the same ("identical until step N") and shows the events where they part;
// that step is marked in both diagrams and is a link to it.
//
// Each run is written by run_sections() (run_page.h) with its own id prefix ("L-", "R-")
// and its states from walk_steps(), exactly as on a run's own page; where the runs part
// comes from lab::first_divergence(), the function the GUI uses. The script only looks
// states up: there is no second reading of a trace.
//
// Invariants: those of run_page.h (escaping, no fetch, same inputs same bytes).
// REQUIRES: each side's `steps` comes from walk_steps() of its record's scenario.

#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/diagram/svg.h"
#include "src/report/report_format.h"
#include "src/session/session.h"
#include "src/web/step_states.h"

namespace web {

// The width each run's diagram is drawn for: half of what a 1280 px window leaves, less
// the window's and the diagram's own scrollbars (592 px), with room to spare.
inline constexpr float kCompareDiagramWidth = 580;

struct CompareSide {
  const lab::RunRecord& record;
  const StepStates& steps;
};

// Where two traces part, in words: "identical until step 12 (event 31)", or "identical:
// the two runs are the same, step for step" (the GUI's compare mode says the same).
std::string parting_text(const lab::Divergence& divergence);
// The event of `trace` where the runs part, as text ("" when it has none there).
std::string parting_event(const lab::Divergence& divergence,
                          const std::vector<sim::TraceEvent>& trace);

// The name of a run of scenario `name` under consumer `strategy` when its file chose
// `file_strategy`: the name as it is when the two are the same; else a trailing
// "(file strategy)" in the name ("crash between commit and ack (atomic)", spaced or
// hyphenated) becomes "(strategy)", and any other name gains ", consumer strategy", so a
// heading never names a design the run did not have.
std::string run_name(const std::string& name, const std::string& file_strategy,
                     const std::string& strategy);

std::string compare_page(const CompareSide& left, const CompareSide& right,
                         const diagram::SvgOptions& svg);

}  // namespace web
