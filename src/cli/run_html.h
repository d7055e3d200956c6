#pragma once
// One run as a self-contained HTML page: the scenario and its teaching text, the verdict
// and balance, each order's effects, the faults that fired, the sequence diagram (inline
// SVG from svg.h) and the final rows of every database table. No script, no external
// file: the page can be mailed, attached to an issue or opened from disk.
//
// It lives with the CLI (`eosim run --format html`), not in src/diagram: the page needs
// the world's tables and the report, and the diagram library needs only the trace.
//
// REQUIRES: `record`'s references outlive the call.

#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/diagram/svg.h"
#include "src/report/report_format.h"
#include "src/world/world.h"

namespace cli {

std::string run_html(const lab::RunRecord& record, const std::vector<sim::TraceEvent>& trace,
                     const std::vector<lab::DbTable>& tables,
                     const diagram::SvgOptions& svg);

}  // namespace cli
