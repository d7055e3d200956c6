#pragma once
// A trace for people: one aligned line per event, and a Mermaid sequenceDiagram. The
// kernel records a trace and writes its recording format, JSON Lines (sim/trace.h); these
// are views of it, beside the other reports.
//
// Mermaid: frames are arrows drawn when they arrive (lost ones crossed out), other events
// with a target (a commit to a database) are arrows too, the rest are notes over their
// actor. `lanes` fixes the order of the first participants; any other actor gets a lane in
// order of first appearance. A subject prints under `names.subject()`.

#include <iosfwd>
#include <string>
#include <vector>

#include "sim/key.h"
#include "sim/trace.h"

namespace lab {

// "     3 t=9      consumer1 commit order=1  debit 150"
std::string format_trace_line(const sim::TraceEvent& event, const sim::KeyNames& names);
void write_trace_text(std::ostream& out, const std::vector<sim::TraceEvent>& events,
                      const sim::KeyNames& names);
void write_trace_mermaid(std::ostream& out, const std::vector<sim::TraceEvent>& events,
                         const sim::KeyNames& names, const std::vector<std::string>& lanes = {});

}  // namespace lab
