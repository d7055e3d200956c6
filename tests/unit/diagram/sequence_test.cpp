// The sequence diagram's layout, without ImGui: frames become arrows from the row they
// were sent in to the row they arrived (or were lost) in, crashes and duplicates become
// notes, and growing the trace step by step gives the layout a full rebuild gives.

#include "src/diagram/sequence.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

using test_support::load_example;

std::vector<sim::TraceEvent> trace_of(const lab::Scenario& s) {
  lab::RunSummary summary;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, summary, &trace));
  return trace;
}

}  // namespace

TEST_CASE("crash between commit and ack: the redelivery, the crash and the duplicate",
          "[diagram]") {
  const lab::Scenario s = load_example("02-crash-between-commit-and-ack.toml");
  const auto trace = trace_of(s);
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(s));
  layout.update(trace, 1);
  REQUIRE(layout.rows().size() == trace.size());
  const auto sends = std::count_if(trace.begin(), trace.end(),
                                   [](const sim::TraceEvent& e) { return e.kind == sim::EventKind::kSend; });
  const auto frame_arrows =
      std::count_if(layout.arrows().begin(), layout.arrows().end(), [](const diagram::Arrow& a) {
        return a.kind == diagram::ArrowKind::kDelivered || a.kind == diagram::ArrowKind::kInFlight ||
               (a.kind == diagram::ArrowKind::kLost && a.to_row > a.from_row);
      });
  CHECK(frame_arrows == sends);
  // The run is over: nothing is still in flight.
  for (const diagram::Arrow& a : layout.arrows()) CHECK(a.kind != diagram::ArrowKind::kInFlight);

  const auto redelivery = std::find_if(layout.arrows().begin(), layout.arrows().end(),
                                       [](const diagram::Arrow& a) { return a.redelivered; });
  REQUIRE(redelivery != layout.arrows().end());
  CHECK(redelivery->kind == diagram::ArrowKind::kDelivered);
  CHECK(layout.lanes()[static_cast<std::size_t>(redelivery->from_lane)].actor == "broker");
  CHECK(layout.lanes()[static_cast<std::size_t>(redelivery->to_lane)].actor == "consumer1");
  CHECK(trace[redelivery->to_row].kind == sim::EventKind::kRecv);
  CHECK(trace[redelivery->to_row].detail == redelivery->label);

  const auto note = [&](diagram::NoteKind kind) {
    return std::count_if(layout.notes().begin(), layout.notes().end(),
                         [&](const diagram::Note& n) { return n.kind == kind; });
  };
  CHECK(note(diagram::NoteKind::kCrash) == 1);
  CHECK(note(diagram::NoteKind::kDuplicate) == 1);
  CHECK(note(diagram::NoteKind::kFault) == 1);
  const auto commits =
      std::count_if(layout.arrows().begin(), layout.arrows().end(),
                    [](const diagram::Arrow& a) { return a.kind == diagram::ArrowKind::kCommit; });
  CHECK(commits == 6);  // 3 orders written by the producer, 3 debits by the consumer
  REQUIRE(layout.downtimes().size() == 1);
  CHECK_FALSE(layout.downtimes()[0].open);
  CHECK(trace[layout.downtimes()[0].from_row].kind == sim::EventKind::kCrash);
  CHECK(trace[layout.downtimes()[0].to_row].kind == sim::EventKind::kRestart);
}

TEST_CASE("no-dedup: the second debit of order 2 is marked as committed again", "[diagram]") {
  const lab::Scenario s = load_example("03-crash-between-commit-and-ack-no-dedup.toml");
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(s));
  layout.update(trace_of(s), 1);
  std::vector<std::int64_t> again;
  for (const diagram::Arrow& a : layout.arrows()) {
    if (a.again) again.push_back(a.order);
  }
  CHECK(again == std::vector<std::int64_t>{2});

  const lab::Scenario atomic = load_example("02-crash-between-commit-and-ack.toml");
  layout.reset(lab::diagram_lanes(atomic));
  layout.update(trace_of(atomic), 1);
  for (const diagram::Arrow& a : layout.arrows()) CHECK_FALSE(a.again);
}

TEST_CASE("a frame lost with its connection ends in a lost arrow", "[diagram]") {
  const lab::Scenario s = load_example("04-ack-lost-on-the-wire.toml");
  const auto trace = trace_of(s);
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(s));
  layout.update(trace, 1);
  const auto lost =
      std::count_if(layout.arrows().begin(), layout.arrows().end(),
                    [](const diagram::Arrow& a) { return a.kind == diagram::ArrowKind::kLost; });
  const auto lost_events = std::count_if(trace.begin(), trace.end(), [](const sim::TraceEvent& e) {
    return e.kind == sim::EventKind::kLost && !e.target.empty();
  });
  CHECK(lost >= 1);
  CHECK(lost == lost_events);
  const auto broken =
      std::count_if(layout.arrows().begin(), layout.arrows().end(),
                    [](const diagram::Arrow& a) { return a.kind == diagram::ArrowKind::kBroken; });
  CHECK(broken >= 1);
}

TEST_CASE("growing the layout event by event equals building it at once, spans hold",
          "[diagram]") {
  const std::string file = GENERATE(std::string("02-crash-between-commit-and-ack.toml"),
                                    std::string("16-competing-consumers-check-then-act.toml"),
                                    std::string("18-broker-restart-durable.toml"));
  INFO(file);
  const lab::Scenario s = load_example(file);
  const auto trace = trace_of(s);
  diagram::SequenceLayout whole, grown;
  whole.reset(lab::diagram_lanes(s));
  grown.reset(lab::diagram_lanes(s));
  whole.update(trace, 7);
  std::vector<sim::TraceEvent> prefix;
  for (const auto& e : trace) {
    prefix.push_back(e);
    grown.update(prefix, 7);
  }
  REQUIRE(grown.arrows().size() == whole.arrows().size());
  for (std::size_t i = 0; i < whole.arrows().size(); ++i) {
    const diagram::Arrow& a = whole.arrows()[i];
    const diagram::Arrow& b = grown.arrows()[i];
    CHECK(a.from_row == b.from_row);
    CHECK(a.to_row == b.to_row);
    CHECK(a.kind == b.kind);
    CHECK(a.label == b.label);
    CHECK(a.to_row - a.from_row <= whole.max_span());
    if (i > 0) CHECK(whole.arrows()[i - 1].from_row <= a.from_row);
  }
  CHECK(grown.notes().size() == whole.notes().size());
  // A shorter trace (a step back) or another revision rebuilds from scratch.
  prefix.resize(prefix.size() / 2);
  grown.update(prefix, 7);
  CHECK(grown.rows().size() == prefix.size());
  whole.update(prefix, 8);
  CHECK(whole.arrows().size() == grown.arrows().size());
}

TEST_CASE("lane titles read as people say them", "[diagram]") {
  CHECK(diagram::lane_title("consumer2") == "Consumer 2");
  CHECK(diagram::lane_title("ledger") == "ledger DB");
  CHECK(diagram::lane_title("broker") == "Broker");
  CHECK(diagram::lane_title("generalA") == "GeneralA");
  CHECK(diagram::lane_title("dedup") == "dedup store");
}

TEST_CASE("the separate dedup store has a lane of its own, written before the ledger",
          "[diagram]") {
  const lab::Scenario s = load_example("07-separate-dedup-store.toml");
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(s));
  layout.update(trace_of(s), 1);
  const int dedup = layout.lane_of("dedup");
  CHECK(layout.lanes()[static_cast<std::size_t>(dedup)].title == "dedup store");
  CHECK(layout.lanes()[static_cast<std::size_t>(dedup)].store);
  const auto writes = std::count_if(layout.arrows().begin(), layout.arrows().end(),
                                    [&](const diagram::Arrow& a) { return a.to_lane == dedup; });
  CHECK(writes == 3);  // one "mark seen" per order; order 2's outlives its rolled-back debit
  // Lanes come only from diagram_lanes: nothing was appended for an unknown actor.
  CHECK(layout.lanes().size() == lab::diagram_lanes(s).size());
}

TEST_CASE("every row has at most one label, and a lost frame's reason is in its own row",
          "[diagram]") {
  const lab::Scenario s = load_example("04-ack-lost-on-the-wire.toml");
  const auto trace = trace_of(s);
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(s));
  layout.update(trace, 1);
  std::size_t lost_labels = 0;
  for (std::size_t i = 0; i < layout.rows().size(); ++i) {
    const diagram::RowLabel& label = layout.rows()[i].label;
    if (label.lost) {
      ++lost_labels;
      CHECK(trace[i].kind == sim::EventKind::kLost);
      CHECK(label.text.rfind("LOST: ", 0) == 0);
    }
    if (trace[i].kind == sim::EventKind::kRecv) CHECK(label.text.empty());  // the arrow is labelled where sent
    if (trace[i].kind == sim::EventKind::kSend) CHECK(label.text == trace[i].detail);
  }
  CHECK(lost_labels >= 1);
}
