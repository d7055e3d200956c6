// A recorded run (lab::Recording, opened with --trace or the browser's "Open a trace"): what
// it is, the controls a recording cannot have and why, and the checker's verdict once the
// last recorded event is shown. The diagram and the transport are the explore view's own.

#include <string>

#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

// A control that a simulated run has and a recording cannot: drawn disabled, with why.
void disabled_control(const char* label, const char* why) {
  button_if(false, label);
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", why);
  ImGui::PopTextWrapPos();
}

}  // namespace

void draw_recording(const Model& model, Commands& commands) {
  const SessionModel& m = model.recorded;
  if (!m.valid()) return;
  const lab::Recording& r = *m.recording;
  ImGui::PushTextWrapPos(0.0f);
  text_colored(palette::kInfo, r.live() ? "A recorded live run: a real RabbitMQ, real processes"
                                        : "A recorded run (read-only)");
  ImGui::TextUnformatted(r.path().c_str());
  if (r.has_summary()) {
    ImGui::Text("%s   seed %llu   %s / %s", r.end().scenario.c_str(),
                static_cast<unsigned long long>(r.end().seed), r.end().producer.c_str(),
                r.end().strategy.c_str());
  }
  ImGui::Text("%zu recorded events over %llu steps", r.all_events().size(),
              static_cast<unsigned long long>(r.end().steps));
  ImGui::Spacing();
  ImGui::TextUnformatted(
      "Step, Back, Play and the slider move through what was recorded. Back does not "
      "undo anything: the broker and the processes were real and have finished.");
  ImGui::PopTextWrapPos();
  ImGui::Separator();
  disabled_control("Inject a fault", "a fault has to happen in a run; this one is over");
  disabled_control("Change strategy", "the processes ran with the strategy above");
  disabled_control("Re-run", "a new live run is a new recording:");
  if (!r.replay().empty()) {
    ImGui::PushTextWrapPos(0.0f);
    text_colored(palette::kMuted, "  " + r.replay() + " --keep-db DIR");
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
  if (button("Close the recording")) commands.push_back(CloseTraceCmd{});
  help_marker("Back to the simulated scenario that was open before.");
}

void draw_recorded_verdict(const SessionModel& m, bool show_end) {
  if (!m.recording->has_summary()) {
    ImGui::PushTextWrapPos(0.0f);
    text_colored(palette::kMuted,
                 "No verdict: this trace has no summary line (a single process's trace file). "
                 "The merged trace of the whole run has one: DIR/trace.jsonl of a kept run.");
    ImGui::PopTextWrapPos();
    return;
  }
  if (m.view->over) {
    draw_verdict(m, show_end);
    return;
  }
  if (!show_end) {
    ImGui::PushTextWrapPos(0.0f);
    text_colored(palette::kMuted, "At this step: in progress");
    ImGui::TextUnformatted(
        "The checker read the run's SQLite files after the last recorded event; its verdict "
        "shows there (or tick \"show the end\").");
    ImGui::PopTextWrapPos();
    return;
  }
  // A teacher asked for the end before it is shown: the recorded verdict, marked as such.
  lab::StepView end = *m.view;
  end.over = true;
  end.summary = *m.end;
  SessionModel shown = m;
  shown.view = &end;
  text_colored(palette::kWarn, "How the run ended (shown early):");
  draw_verdict(shown, true);
}

void draw_recorded_state(const SessionModel& m) {
  const lab::Recording& r = *m.recording;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(
      "A trace records what each process did, not the broker's queues or the database rows: "
      "in a live run those were a real RabbitMQ and SQLite files.");
  ImGui::Spacing();
  if (!r.run_dir().empty()) {
    ImGui::TextUnformatted("The run kept its files in:");
    text_colored(palette::kInfo, r.run_dir());
    text_colored(palette::kMuted, "sqlite3 " + r.run_dir() + "/ledger.db 'SELECT * FROM debits'");
  } else {
    ImGui::TextUnformatted(
        "eosim live FILE --keep-db DIR keeps them (orders.db, ledger.db, deliveries.db, "
        "faults.log) next to DIR/trace.jsonl.");
  }
  ImGui::PopTextWrapPos();
}

}  // namespace ui
