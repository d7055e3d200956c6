#pragma once
// Report formats: one run (its Scenario, RunSummary, unmet expectations) rendered as text a
// person reads, as one JSON object, as JSON Lines of trace events, or as a Mermaid diagram.
// The CLI prints these; tests and the GUI may reuse them.
//
// Invariants:
//  (1) Formatting only reads: nothing here changes a run or decides anything about it, so
//      the same inputs always give the same bytes (no clock, no locale, no colour unless
//      the caller asks for it).
//  (2) The text report always carries the line `SEED=<n>` and a command that replays the
//      run, so any run shown to a person can be reproduced.
//  (3) In the JSON object (report_json) order numbers are JSON integers and trace_hash is
//      16 lowercase hex digits (sim::hash_hex).
// REQUIRES: RunRecord's references outlive the call they are passed to.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>  // the full header only where JSON is built or read

#include "sim/trace.h"
#include "src/catalog/choice_flags.h"
#include "src/prose/wrap.h"  // wrap_text, which the report's users print with
#include "src/scenario/scenario.h"
#include "src/status/status.h"
#include "src/world/world.h"

namespace lab {

// Everything one report shows about one run.
struct RunRecord {
  const Scenario& scenario;               // as run, i.e. after command-line overrides
  const RunSummary& run;
  const std::vector<std::string>& unmet;  // unmet_expectations(scenario, run)
  std::string replay;                     // a command line that replays this run
};

struct TextStyle {
  bool colour = false;  // ANSI colours on the verdict and expect lines (TTYs only)
  int width = 88;       // wrap prose at this column
};

// `eosim run 'FILE' --seed N [--strategy S] [--producer P] [--ack A ...] [EXTRA...]`; an
// empty override is left out. The path and every extra argument are shell-quoted when
// they need to be, so the line can be pasted as it is.
std::string replay_command(const std::string& path, std::uint64_t seed,
                           const std::string& strategy_override,
                           const std::string& producer_override,
                           const ChoiceFlags& choices = {},
                           const std::vector<std::string>& extra_args = {});

// `text` as one shell word: unchanged when it is plain, else in single quotes.
std::string shell_quoted(const std::string& text);

// The full human-readable report of one run, ending with a newline.
std::string format_report_text(const RunRecord& record, const TextStyle& style);

// One line: the scenario's name, its verdict and whether its expectations held.
std::string format_verdict_line(const RunRecord& record, const TextStyle& style);

// The JSON summary object of one run (`eosim run --format json`).
// Keys keep a fixed, readable order (scenario and seed first), hence ordered_json.
nlohmann::ordered_json report_json(const RunRecord& record);
// report_json as one compact line (no newline). Invalid UTF-8 in names is replaced, never
// thrown, since scenario text comes from users' files.
std::string report_json_line(const RunRecord& record);

// Reads a summary object as report_json writes it back into `out` (the fields a recorded
// run shows: names, verdict and lists, balances, faults, orders, steps, hash). An error
// naming the first key that is missing or has the wrong type; `out` is then as it was.
// Fields report_json derives (counts, verdict_text) are not read.
eosim::Status summary_from_json(const nlohmann::json& j, RunSummary& out);

// JSON Lines: every trace event (sim::format_jsonl), then {"summary": report_json(...)}.
void write_report_jsonl(std::ostream& out, const RunRecord& record,
                        const std::vector<sim::TraceEvent>& events);

// A Mermaid sequence diagram of the trace, headed by `%%` comment lines naming the
// scenario and its seed (comments keep the diagram valid).
void write_report_mermaid(std::ostream& out, const RunRecord& record,
                          const std::vector<sim::TraceEvent>& events);

// A broken scenario and its fixed twin, run on the same seed, side by side: the design,
// the change, the verdict, each order's effects and the balance, in two columns.
std::string format_side_by_side(const RunRecord& written, const RunRecord& fixed,
                                const TextStyle& style);

// One row of the suite table printed after several scenario files.
struct SuiteRow {
  std::string name;     // scenario name, or the file when it could not be run
  Verdict verdict = Verdict::kExactlyOnce;  // meaningful only when `ran`
  bool ran = false;
  bool expect_ok = false;
  std::string aside;    // set_aside_text of the run: "1 dead-lettered", "" for none
};

// "1 dead-lettered, 1 rejected": the orders that took an outcome other than a debit. Not a
// violation, but a summary that said only "exactly-once" would hide them; "" for none.
std::string set_aside_text(const Report& report);

// "N scenarios: X passed expectations, Y failed[, Z not run]" and one line per row.
std::string format_suite_text(const std::vector<SuiteRow>& rows, const TextStyle& style);


}  // namespace lab
