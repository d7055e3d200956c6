#include <catch2/catch.hpp>

#include <sstream>

#include "src/orders/event_kinds.h"
#include "src/orders/order_key.h"
#include "src/report/trace_format.h"

namespace {

sim::TraceEvent event(std::uint64_t step, sim::Tick time, std::string actor, sim::EventKind kind,
                      std::string target, std::int64_t subject, std::string detail) {
  return {step, time, std::move(actor), kind, std::move(target), subject, std::move(detail)};
}

// A consumer's connection: a delivery, a commit, a lost ack and the break it causes.
std::vector<sim::TraceEvent> small_trace() {
  using K = sim::EventKind;
  return {
      event(0, 0, "consumer1", K::kConnect, "broker", 0, "connection 1"),
      event(1, 1, "broker", K::kSend, "consumer1", 1, "deliver tag=1"),
      event(2, 3, "consumer1", K::kRecv, "broker", 1, "deliver tag=1"),
      event(3, 9, "consumer1", orders::event::kCommit, "", 1, "debit 150"),
      event(4, 9, "consumer1", K::kLost, "broker", 1, "ack 1 (dropped: connection breaks)"),
      event(4, 9, "consumer1", K::kBroken, "broker", 0, "frame lost"),
  };
}

}  // namespace

TEST_CASE("trace views: one aligned text line per event", "[report][trace]") {
  std::ostringstream text;
  lab::write_trace_text(text, small_trace(), orders::kKeyNames);
  CHECK(text.str().find("     3 t=9      consumer1 commit order=1  debit 150\n") !=
        std::string::npos);
  CHECK(text.str().find("consumer1 recv <- broker order=1  deliver tag=1") != std::string::npos);
}

TEST_CASE("trace views: Mermaid draws frames when they arrive, and notes", "[report][trace]") {
  std::ostringstream mermaid;
  lab::write_trace_mermaid(mermaid, small_trace(), orders::kKeyNames, {"broker"});
  CHECK(mermaid.str() ==
        "sequenceDiagram\n"
        "  participant broker as broker\n"
        "  participant consumer1 as consumer1\n"
        "  consumer1-->>broker: connect\n"
        "  broker->>consumer1: deliver tag=1 [order 1]\n"
        "  Note over consumer1: commit: debit 150 [order 1]\n"
        "  consumer1-xbroker: ack 1 (dropped: connection breaks) [order 1]\n"
        "  Note over consumer1: broken: frame lost (broker)\n");
}
