// docs/conformance.md is generated from the case list, so it cannot drift from what the
// test checks: this test fails when the file differs from the list. To rewrite it after
// changing a case: EOSIM_WRITE_DOCS=1 build/tests/eosim_conformance_tests "[docs]".
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/conformance/script.h"

namespace conformance {
namespace {

const char* const kDocPath = EOSIM_SOURCE_DIR "/docs/conformance.md";

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

bool covers(const Case& c, int row) {
  if (c.row == row) return true;
  for (int r : c.also_rows) {
    if (r == row) return true;
  }
  return false;
}

const char* const kIntro = R"(# The model broker next to a real RabbitMQ

Everything eosim teaches rests on its model broker behaving like RabbitMQ. This table says,
case by case, what a real RabbitMQ 3.10.8 (Debian 12's `rabbitmq-server`) does, what the
model does, and which conformance case checks it. The `#` column names the behaviours a
case checks, numbered in the order they were measured on that broker: one case can check
several (a broker restart serves 10, 11 and 12) and one behaviour can need two cases. The
rules the model follows are stated, with their reasons, in [amqp-semantics.md](amqp-semantics.md).

This file is generated from the test's own case list (`tests/conformance/cases.cpp`); a
test fails when the two differ. Rewrite it with
`EOSIM_WRITE_DOCS=1 build/tests/eosim_conformance_tests "[docs]"`.

## How the cases run

`ctest -L conformance` starts a private RabbitMQ on loopback (its own data folder, ports and
epmd; `src/live/launcher.h`), runs every case once against the model broker's C++ API and
once against the real broker through rabbitmq-c, and requires the two logs to be equal. A
log holds only what RabbitMQ guarantees: deliveries per consumer in order (body, delivery
tag, `redelivered`, `x-delivery-count`, `x-death` with its fields, `x-first-death-*`,
message id), one line per confirmed publish seq (whatever the batching of the frames),
returns, channel-close and connection-close codes, and queue counts. Never a time, and
never an order across two connections. Where a behaviour is timing (heartbeats,
consumer_timeout), the model runs in virtual time and the order of events is compared.
After the last step every client gets a short pause, and every event it was given that no
step of the script read is logged too, as `unread` lines: a delivery the script never asked
for (say, one a delivery limit off by one hands out) still makes the logs differ.
The run stops the broker and checks that no broker or epmd process is left.
`EOSIM_AMQP_URL=amqp://user:pass@host:port/vhost` runs the cases against a broker of yours
(fresh queue names, deleted afterwards; cases that restart the broker are skipped).

)";

const char* const kNotModelled = R"(
## What the model leaves out, and why

- **Exchanges other than the default one**, topic and fanout routing, alternate exchanges:
  the lessons need one queue per role; routing adds nothing to exactly-once. Publishing to
  any other exchange name is a missing exchange (404), as in RabbitMQ.
- **basic.get** (polling): every actor in the lab consumes with basic.consume.
- **Publisher nacks**: RabbitMQ sends them only for internal errors; none was seen in the
  measurements (0 nacks in 6 runs with connection resets), so the model never sends one.
- **Message TTL, queue length limits** (`expired`, `maxlen` dead-letter reasons): not
  needed by any lesson; a dead-lettering reason is `rejected` or `delivery_limit`.
- **Timing itself**: heartbeat seconds, the channel tick that checks consumer_timeout,
  fsync latency. The model keeps their order (a silent peer is noticed after 3 missed
  heartbeats, a timed-out channel is closed after its timeout), in virtual ticks. When a
  *client* notices a silent broker depends on its library (the measured client: 14 s at
  heartbeat 2 s, the broker 6 s), so the cases check only the broker's side; in the lab it
  is a setting, `[network] client_timeout`.
- **The leaderless quorum queue** seen once in five SIGKILLs (a queue declared about a
  second before the kill came back without a leader): a cluster-recovery anomaly, not a
  protocol rule; the crash case declares its quorum queue seconds before the kill.
)";

int first_row(const Case& c) {
  int first = c.row;
  for (int r : c.also_rows) first = std::min(first, r);
  return first;
}

// "10, 11, 12": the rows a case checks, ascending.
std::string rows_text(const Case& c) {
  std::vector<int> rows{c.row};
  rows.insert(rows.end(), c.also_rows.begin(), c.also_rows.end());
  std::sort(rows.begin(), rows.end());
  std::string text;
  for (int r : rows) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return text;
}

}  // namespace

std::string conformance_markdown() {
  std::ostringstream out;
  out << kIntro;
  out << "## The table\n\n";
  out << "| # | behaviour checked | RabbitMQ 3.10.8 | model | case |\n";
  out << "|---|---|---|---|---|\n";
  // One line per case, in the order of the first row it checks; a case that checks several
  // rows (one broker restart serves three) names them all, once.
  for (int row = 1; row <= 19; ++row) {
    for (const Case& c : all_cases()) {
      if (first_row(c) != row) continue;
      out << "| " << rows_text(c) << " | " << cell(c.behaviour) << " | " << cell(c.rabbitmq)
          << " | " << cell(c.model_differs.empty() ? c.model : "DIFFERS: " + c.model_differs)
          << " | `" << c.id << "` |\n";
    }
  }
  out << kNotModelled;
  return out.str();
}

TEST_CASE("docs/conformance.md is generated from the case list", "[docs]") {
  const std::string expected = conformance_markdown();
  if (const char* write = std::getenv("EOSIM_WRITE_DOCS"); write != nullptr && *write == '1') {
    std::ofstream(kDocPath) << expected;
  }
  std::ifstream in(kDocPath);
  REQUIRE(in.good());
  const std::string actual((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO("docs/conformance.md differs from the case list: rewrite it with EOSIM_WRITE_DOCS=1 "
       "build/tests/eosim_conformance_tests \"[docs]\"");
  CHECK(actual == expected);
}

TEST_CASE("conformance: every row of the note has a case", "[docs]") {
  for (int row = 1; row <= 19; ++row) {
    INFO("row " << row);
    bool found = false;
    for (const Case& c : all_cases()) found = found || covers(c, row);
    CHECK(found);
  }
}

}  // namespace conformance
