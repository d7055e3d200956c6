#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "sim/kernel.h"
#include "sim/synthetic.h"
#include "tests/support/golden.h"

namespace {

// The names of the key's parts and of the kinds above the kernel's are the caller's: these
// print the subject as "order" and name one kind above, "commit".
constexpr std::array<std::string_view, 1> kAbove = {"commit"};
constexpr auto kAll = sim::names_above_kernel(kAbove);
const sim::TraceNames kNames{{{"order", "attempt", "instance"}}, sim::EventKindNames{kAll}};
const sim::EventKind kCommit = sim::kind_above(0);

// A small fixed run: one connection, three frames, one of them lost.
void small_run(sim::Kernel& k) {
  k.trace.name_kinds(kNames.kinds);
  sim::NodeHandlers quiet;
  quiet.on_frame = [](sim::ConnId, const sim::Frame&) {};
  quiet.on_disconnect = [](sim::ConnId) {};
  k.network.attach("broker", quiet);
  k.network.attach("consumer1", quiet);
  sim::FaultRule drop;
  drop.site = "net.consumer->broker";
  drop.action = sim::FaultAction::kDrop;
  drop.frame = "basic.ack";
  k.faults.set_rules({drop});
  const sim::ConnId c = k.network.connect("consumer1", "broker");
  k.scheduler.at(1, "go", [&k, c] {
    sim::Frame deliver;
    deliver.kind = k.faults.frames().id("basic.deliver");
    deliver.key[0] = 1;  // the subject
    deliver.summary = "deliver tag=1";
    k.network.send(c, "broker", deliver);
  });
  k.scheduler.at(9, "ack", [&k, c] {
    k.trace.record("consumer1", kCommit, "", 1, "debit 150");
    sim::Frame ack;
    ack.kind = k.faults.frames().id("basic.ack");
    ack.key[0] = 1;
    ack.summary = "ack 1";
    k.network.send(c, "consumer1", ack);
  });
  k.scheduler.run(100);
}

sim::SyntheticOptions ring_options() {
  sim::SyntheticOptions o;
  o.max_steps = 5000;
  o.drop = {1, 50};
  return o;
}

}  // namespace

TEST_CASE("trace: a pinned golden hash for a small fixed run", "[trace]") {
  sim::Kernel k(42);
  small_run(k);
  REQUIRE(k.trace.size() == 8);
  // Changing the canonical encoding or the kernel's behaviour changes this value
  // (tests/golden/kernel-hashes.txt): do it only on purpose, and say so in the commit.
  golden::check_golden("kernel-hashes.txt", "small-fixed-run", sim::hash_hex(k.trace.hash()));
  sim::Kernel again(42);
  small_run(again);
  CHECK(again.trace.hash() == k.trace.hash());
}

TEST_CASE("trace: keeping events off still gives the same hash and count", "[trace]") {
  sim::Kernel kept(42);
  small_run(kept);
  sim::Kernel streamed(42);
  streamed.trace.keep(false);
  std::uint64_t streamed_events = 0;
  streamed.trace.add_sink([&](const sim::TraceEvent&) { ++streamed_events; });
  small_run(streamed);
  CHECK(streamed.trace.events().empty());
  CHECK(streamed_events == kept.trace.size());
  CHECK(streamed.trace.hash() == kept.trace.hash());
}

TEST_CASE("trace: the JSON Lines recording format", "[trace]") {
  sim::Kernel k(42);
  small_run(k);
  std::ostringstream jsonl;
  sim::write_jsonl(jsonl, k.trace.events(), kNames);
  CHECK(jsonl.str().find("{\"step\":3,\"time\":9,\"actor\":\"consumer1\",\"kind\":\"commit\","
                         "\"order\":1,\"detail\":\"debit 150\"}") != std::string::npos);
}

// FNV-1a 64 over the canonical text of one event, written out plainly: the reference the
// trace's own hashing (which folds numbers digit by digit, four bytes a turn) must equal.
namespace {

std::uint64_t fnv1a_reference(std::uint64_t hash, const std::string& text) {
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace

TEST_CASE(
    "trace: an event's hash is FNV-1a over its canonical text, numbers as to_string writes them",
    "[trace]") {
  const std::int64_t subjects[] = {0, 7, -1, 1234567, INT64_MIN, INT64_MAX};
  for (const std::int64_t subject : subjects) {
    sim::Chooser chooser(1);
    sim::Scheduler scheduler(chooser);
    sim::Trace trace(scheduler);
    trace.name_kinds(kNames.kinds);
    trace.record("consumer12", kCommit, "broker", subject,
                 {"tag=", std::uint64_t{18446744073709551615ULL}, " of ", -42, " ", 0, "", "x",
                  std::int64_t{INT64_MIN}, "abcdefghij"});
    const std::string detail = "tag=18446744073709551615 of -42 0x" +
                               std::to_string(std::int64_t{INT64_MIN}) + "abcdefghij";
    const std::string f(1, '\x1f');  // the field separator; an event ends with 0x1e
    const std::string text = "0" + f + "0" + f + "consumer12" + f + "commit" + f + "broker" + f +
                             std::to_string(subject) + f + detail + "\x1e";
    INFO("subject " << subject);
    CHECK(trace.hash() == fnv1a_reference(0xcbf29ce484222325ULL, text));
    const sim::TraceEvent event{0, 0, "consumer12", kCommit, "broker", subject, detail};
    CHECK(sim::hash_event(0xcbf29ce484222325ULL, event, kNames.kinds) == trace.hash());
  }
}

// Numbers of every length around the fast paths' bounds (one, two, three, four digits and
// more) in every numeric field, and many (actor, kind, target) triples, short and long,
// ASCII or not, so that record's tabled middle (sim/fold.h) and its digit folds meet the
// plain text often. The events are recorded on a thread of their own: the tables are kept
// per thread, and one that earlier tests filled up would leave only the byte-loop path.
namespace {

std::vector<std::pair<std::uint64_t, std::uint64_t>> record_many_events() {
  std::vector<std::uint64_t> numbers;
  for (std::uint64_t power = 1; power <= 1000000000000000000ULL; power *= 10) {
    for (const std::uint64_t near : {power - 1, power, power + 1, 2 * power + 3}) {
      numbers.push_back(near);
    }
  }
  for (std::uint64_t n = 0; n < 10000; n += 37) numbers.push_back(n);
  const std::string names[] = {"",
                               "a",
                               "ab",
                               "relay",
                               "caf\xc3\xa9",
                               "\xff\x80\x7f",
                               "broker",
                               "consumer1",
                               "producer",
                               "consumer12345678",
                               "consumer123456789"};
  const std::size_t name_count = std::size(names);
  sim::Chooser chooser(1);
  sim::Scheduler scheduler(chooser);
  sim::Trace trace(scheduler);
  trace.name_kinds(kNames.kinds);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> hashes;  // (record's, the loop's)
  std::uint64_t expected = 0xcbf29ce484222325ULL;
  const std::string f(1, '\x1f');
  std::size_t at = 0;
  for (const std::uint64_t time : {0, 5, 99, 100, 999, 1000, 9999, 10000, 123456}) {
    scheduler.at(time, "record", [&] {
      for (int i = 0; i < 80; ++i, ++at) {
        const std::string& actor = names[at % name_count];
        const std::string& target = names[(at / name_count) % name_count];
        const auto kind = at % 3 == 0 ? kCommit : sim::EventKind::kSend;
        const std::uint64_t number = numbers[at % numbers.size()];
        auto subject = static_cast<std::int64_t>(numbers[(at * 7) % numbers.size()]);
        if (at % 2 == 1) subject = -subject;
        const auto negative = -static_cast<std::int64_t>(number % 100000);
        trace.record(actor, kind, target, subject, {"n=", number, " m=", negative});
        const std::string text =
            std::to_string(scheduler.steps()) + f + std::to_string(scheduler.now()) + f + actor +
            f + std::string(kNames.kinds.name(kind)) + f + target + f + std::to_string(subject) +
            f + "n=" + std::to_string(number) + " m=" + std::to_string(negative) + "\x1e";
        expected = fnv1a_reference(expected, text);
        hashes.emplace_back(trace.hash(), expected);
      }
    });
  }
  scheduler.run(100);
  return hashes;
}

}  // namespace

TEST_CASE("trace: record's hash is the byte loop's over many events, numbers and names",
          "[trace]") {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> hashes;
  std::thread([&hashes] { hashes = record_many_events(); }).join();
  REQUIRE(hashes.size() == 720);  // 9 times, 80 events at each
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    INFO("event " << i);
    REQUIRE(hashes[i].first == hashes[i].second);
  }
}

TEST_CASE("trace: json_escape handles quotes and control characters", "[trace]") {
  CHECK(sim::json_escape("a\"b\\c\n\x01") == "a\\\"b\\\\c\\n\\u0001");
}

TEST_CASE("determinism: a run replayed from its tape has the same trace hash", "[trace][tape]") {
  sim::Kernel original(2024);
  const auto first = sim::run_synthetic(original, ring_options());
  REQUIRE(first.steps == 5000);
  REQUIRE(first.frames_lost > 0);  // the run did exercise faults and reconnects
  sim::Kernel replay(7, original.chooser.tape(), sim::TapeEnd::kRandom);
  sim::run_synthetic(replay, ring_options());
  CHECK(replay.trace.hash() == original.trace.hash());
  sim::Kernel same_seed(2024);
  sim::run_synthetic(same_seed, ring_options());
  CHECK(same_seed.trace.hash() == original.trace.hash());
  sim::Kernel other_seed(2025);
  sim::run_synthetic(other_seed, ring_options());
  CHECK(other_seed.trace.hash() != original.trace.hash());
}

TEST_CASE("trace: an event under a head hashes and keeps as the same event without one",
          "[trace]") {
  sim::Kernel k(1);
  sim::Trace& plain = k.trace;
  sim::Trace headed(k.scheduler);
  plain.name_kinds(kNames.kinds);
  headed.name_kinds(kNames.kinds);
  struct Triple {
    std::string actor;
    sim::EventKind kind;
    std::string target;
  };
  // Tabled heads, one of a kind above the kernel's, and one whose actor is too long for a
  // table (folded byte by byte).
  const std::vector<Triple> triples = {{"consumer1", sim::EventKind::kSend, "broker"},
                                       {"broker", sim::EventKind::kRecv, "consumer1"},
                                       {"consumer1", kCommit, ""},
                                       {"a-very-long-actor-name", sim::EventKind::kSend, "broker"}};
  // Made on a thread that is gone before they are used: each head holds its own table.
  std::vector<sim::TraceHead> heads;
  std::thread([&] {
    for (const Triple& t : triples) heads.push_back(headed.head(t.actor, t.kind, t.target));
  }).join();
  REQUIRE(heads.size() == triples.size());
  CHECK(heads[0].fold != nullptr);
  CHECK(heads[3].fold == nullptr);
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < triples.size(); ++i) {
      const Triple& t = triples[i];
      const std::uint64_t tag = 7 * round + i;
      const std::array<sim::DetailPart, 4> detail = {"deliver tag=", tag, " order-", round};
      plain.record(t.actor, t.kind, t.target, round, detail);
      headed.record(heads[i], round, detail);
      REQUIRE(plain.hash() == headed.hash());
    }
  }
  REQUIRE(headed.events().size() == plain.events().size());
  for (std::size_t i = 0; i < plain.events().size(); ++i) {
    const sim::TraceEvent& a = plain.events()[i];
    const sim::TraceEvent& b = headed.events()[i];
    CHECK(sim::format_jsonl(a, kNames) == sim::format_jsonl(b, kNames));
  }
}
