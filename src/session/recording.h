#pragma once
// A recorded run: the JSON Lines trace a run wrote (`eosim live --format jsonl`, the
// trace.jsonl of a kept live run folder, or `eosim run --format jsonl`), stepped through
// read-only. It is what the GUI shows for a live run: there is no world to replay - the
// broker and the processes were real - so going back only shows fewer recorded events.
//
// A file is trace event lines (sim::format_jsonl: step, time, actor, kind, optional
// target and order, detail) in step order, optionally followed by one summary line
// ({"summary": report_json(...)}, with "mode": "live" from a live run).
//
// Invariants:
//  (1) events() is exactly the recorded events whose step is <= step(), in file order; it
//      only grows when stepping forward (a diagram built from it can extend itself).
//  (2) A file loads whole or not at all: a line that is not an event or the summary is an
//      error naming the file and the line, and leaves the recording as it was.
//  (3) Nothing here runs anything: end() is the summary as recorded, view() holds the
//      step, the time and, once the last step is shown, that summary.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/session/session.h"

namespace lab {

class Recording final : public SteppedRun {
 public:
  // Reads `path`. On failure the error is "FILE:LINE: what" (or "FILE: what") and the
  // recording is unchanged.
  eosim::Status load(const std::string& path);
  // The same from a stream; `name` stands for the file in errors.
  eosim::Status parse(std::istream& in, const std::string& name);
  bool is_open() const override { return !all_.empty(); }

  const std::string& path() const { return path_; }
  bool live() const { return live_; }          // the summary says "mode": "live"
  bool has_summary() const { return has_summary_; }
  const std::string& replay() const { return replay_; }  // the command that made it
  const std::string& scenario_file() const { return scenario_file_; }
  const std::string& run_dir() const { return run_dir_; }  // a kept live run's folder, or ""
  // Lanes for a diagram: the actors and stores of the trace, in lab::diagram_lanes order.
  const std::vector<std::string>& lanes() const { return lanes_; }
  // Bumped by every load: views derived from events() know another file was opened.
  std::uint64_t revision() const override { return revision_; }

  const std::vector<sim::TraceEvent>& all_events() const { return all_; }
  const std::vector<sim::TraceEvent>& events() const { return shown_; }
  std::uint64_t step() const override { return step_; }
  std::uint64_t target() const override { return step_; }  // seeking is immediate
  bool settled() const override { return true; }
  bool over() const override { return step_ >= end_.steps; }
  // The recorded summary; steps = the last event's step. Without a summary line
  // (has_summary() false), an empty report for that many steps: no verdict to show.
  const RunSummary& end() const { return end_; }
  const StepView& view() const { return view_; }
  const RunSummary& end() override { return end_; }
  const StepView& view() override { return view_; }

  // --- moving through the events (SteppedRun) ---
  bool step_forward() override;  // false when the last step is shown
  void step_back() override;
  void seek(std::uint64_t step) override;  // clamped to end().steps
  void request(std::uint64_t step) override { seek(step); }
  bool pump(std::uint64_t) override { return false; }  // there already

 private:
  void show(std::uint64_t step);

  std::string path_, replay_, scenario_file_, run_dir_;
  bool live_ = false, has_summary_ = false;
  std::vector<sim::TraceEvent> all_, shown_;
  std::vector<std::string> lanes_;
  RunSummary end_;
  StepView view_;
  std::uint64_t step_ = 0;
  std::uint64_t revision_ = 0;
};

}  // namespace lab
