#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/kernel.h"

using sim::ConnId;
using sim::Frame;
using sim::Kernel;

namespace {

// A frame of the kind named so (the kernel's fault plan gives the name its id).
Frame frame(Kernel& k, const std::string& kind, std::int64_t n) {
  Frame f;
  f.kind = k.faults.frames().id(kind);
  f.key[0] = n;
  f.summary = kind + " " + std::to_string(n);
  sim::set_payload(f, n);
  return f;
}

// Two nodes, "client1" and "server"; records what each receives and when each learns
// that a connection died.
struct Pair {
  Kernel k;
  std::vector<std::int64_t> at_server, at_client;
  std::vector<sim::Tick> client_down, server_down;

  explicit Pair(std::uint64_t seed) : k(seed) {
    sim::NodeHandlers server;
    server.on_frame = [this](ConnId, const Frame& f) {
      at_server.push_back(*sim::payload_as<std::int64_t>(f));
    };
    server.on_disconnect = [this](ConnId) { server_down.push_back(k.scheduler.now()); };
    sim::NodeHandlers client;
    client.on_frame = [this](ConnId, const Frame& f) {
      at_client.push_back(*sim::payload_as<std::int64_t>(f));
    };
    client.on_disconnect = [this](ConnId) { client_down.push_back(k.scheduler.now()); };
    k.network.attach("server", server);
    k.network.attach("client1", client);
    sim::LinkOptions options;
    options.latency_min = 1;
    options.latency_max = 9;
    options.heartbeat_timeout = 30;
    options.reset_notice = 2;
    k.network.set_options(options);
  }
};

}  // namespace

TEST_CASE("network: a connection is FIFO even with random latency", "[network]") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Pair p(seed);
    const ConnId c = p.k.network.connect("client1", "server");
    REQUIRE(c != 0);
    for (std::int64_t i = 1; i <= 30; ++i) {
      // One send per tick, but latencies of 1..9 ticks overlap: only FIFO keeps order.
      p.k.scheduler.at(static_cast<sim::Tick>(i), "send", [&p, c, i] {
        p.k.network.send(c, "client1", frame(p.k, "basic.publish", i));
      });
    }
    p.k.scheduler.run(1000);
    std::vector<std::int64_t> expected;
    for (std::int64_t i = 1; i <= 30; ++i) expected.push_back(i);
    REQUIRE(p.at_server == expected);
  }
}

TEST_CASE("network: a dropped frame breaks the connection and loses what is behind it",
          "[network]") {
  Pair p(3);
  sim::FaultRule drop;
  drop.site = "net.client->server";
  drop.action = sim::FaultAction::kDrop;
  drop.frame = "basic.ack";
  drop.nth = 2;
  p.k.faults.set_rules({drop});
  const ConnId c = p.k.network.connect("client1", "server");
  p.k.scheduler.at(0, "burst", [&] {
    p.k.network.send(c, "client1", frame(p.k, "basic.ack", 1));
    p.k.network.send(c, "server", frame(p.k, "basic.deliver", 7));  // in flight the other way
    p.k.network.send(c, "client1", frame(p.k, "basic.ack", 2));     // dropped: breaks
    CHECK_FALSE(p.k.network.send(c, "client1", frame(p.k, "basic.ack", 3)));
  });
  p.k.scheduler.run(1000);
  CHECK(p.at_server.empty());  // ack 1 was still in flight when the connection broke
  CHECK(p.at_client.empty());
  CHECK_FALSE(p.k.network.is_open(c));
  // The sender notices at once (reset), the receiver only after the heartbeat timeout.
  CHECK(p.client_down == std::vector<sim::Tick>{2});
  CHECK(p.server_down == std::vector<sim::Tick>{30});
  // ack 1 and deliver 7 in flight, ack 2 dropped, ack 3 written before the client noticed.
  CHECK(p.k.network.frames_lost() == 4);
  REQUIRE(p.k.faults.fired().size() == 1);
  CHECK(p.k.faults.fired()[0].frame == "basic.ack");
}

TEST_CASE("network: a frame sent on a broken link before its sender noticed is traced lost",
          "[network]") {
  // Invariant (3): every frame sent arrives once or is traced as lost. A frame written by
  // an end that has not been told of the break vanished untraced, so a broker's delivery
  // on it left a later "redelivered" with no first delivery in the trace.
  Pair p(3);
  p.k.trace.keep(true);
  const ConnId c = p.k.network.connect("client1", "server");
  p.k.scheduler.at(0, "break", [&] { p.k.network.break_connection(c, "client1", "test"); });
  p.k.scheduler.at(5, "server writes", [&] {  // the server notices only at 30
    CHECK_FALSE(p.k.network.send(c, "server", frame(p.k, "basic.deliver", 4)));
  });
  p.k.scheduler.at(40, "server writes again", [&] {  // told now: nothing is written
    CHECK_FALSE(p.k.network.send(c, "server", frame(p.k, "basic.deliver", 5)));
  });
  p.k.scheduler.run(1000);
  std::vector<std::string> lost;
  for (const sim::TraceEvent& e : p.k.trace.events()) {
    if (e.kind == sim::EventKind::kLost) lost.push_back(e.actor + " " + e.detail);
  }
  CHECK(lost == std::vector<std::string>{"server basic.deliver 4 (connection broken)"});
  CHECK(p.k.network.frames_sent() == 1);
  CHECK(p.k.network.frames_lost() == 1);
  CHECK(p.at_client.empty());
}

TEST_CASE("network: a crashed end's frames still arrive, then the peer sees the close",
          "[network]") {
  Pair p(5);
  const ConnId c = p.k.network.connect("client1", "server");
  p.k.scheduler.at(0, "crash", [&] {
    p.k.network.send(c, "client1", frame(p.k, "basic.ack", 1));
    p.k.network.send(c, "server", frame(p.k, "basic.deliver", 2));
    p.k.network.abort_all("client1");
  });
  p.k.scheduler.run(1000);
  CHECK(p.at_server == std::vector<std::int64_t>{1});
  CHECK(p.at_client.empty());  // towards the dead process: lost
  REQUIRE(p.server_down.size() == 1);
  CHECK(p.client_down.empty());  // a dead process is told nothing
}

TEST_CASE("network: a frame written towards a closed end before the close arrives is lost",
          "[network]") {
  Pair p(5);
  p.k.trace.keep(true);
  const ConnId c = p.k.network.connect("client1", "server");
  p.k.scheduler.at(0, "crash", [&] {
    p.k.network.abort_all("client1");
    // The server writes before the close reaches it.
    CHECK_FALSE(p.k.network.send(c, "server", frame(p.k, "basic.deliver", 2)));
  });
  p.k.scheduler.run(1000);
  const auto& events = p.k.trace.events();
  const bool traced = std::any_of(events.begin(), events.end(), [](const sim::TraceEvent& e) {
    return e.kind == sim::EventKind::kLost &&
           e.detail == "basic.deliver 2 (receiver closed the connection)";
  });
  CHECK(traced);
  CHECK(p.k.network.frames_lost() == 1);
}

namespace {

// A Pair with fixed latency 2 and the given per-side detection; the server's deliver of
// order 1 freezes the link as it arrives (at tick 2).
void freeze_on_first_deliver(Pair& p, std::optional<sim::Tick> server_detect,
                             std::optional<sim::Tick> client_detect) {
  sim::LinkOptions options = p.k.network.options();
  options.latency_min = 2;
  options.latency_max = 2;
  options.server_detect = server_detect;
  options.client_detect = client_detect;
  p.k.network.set_options(options);
  sim::FaultRule freeze;
  freeze.site = "net.server->client";
  freeze.action = sim::FaultAction::kFreeze;
  freeze.frame = "basic.deliver";
  freeze.key[0] = 1;  // the frame numbered 1
  p.k.faults.set_rules({freeze});
}

}  // namespace

TEST_CASE("network: a frozen link carries nothing, the server notices, the client never",
          "[network]") {
  Pair p(4);
  freeze_on_first_deliver(p, 15, 0);
  const ConnId c = p.k.network.connect("client1", "server");
  p.k.scheduler.at(0, "deliver", [&] {
    p.k.network.send(c, "server", frame(p.k, "basic.deliver", 1));
    p.k.network.send(c, "server", frame(p.k, "basic.deliver", 2));  // behind it: frozen in flight
  });
  bool ack_accepted = false;
  bool late_deliver_accepted = true;
  p.k.scheduler.at(5, "ack", [&] {
    CHECK(p.k.network.is_frozen(c));
    ack_accepted = p.k.network.send(c, "client1", frame(p.k, "basic.ack", 1));
  });
  p.k.scheduler.at(20, "after the server gave up", [&] {
    late_deliver_accepted = p.k.network.send(c, "server", frame(p.k, "basic.deliver", 3));
    CHECK(p.k.network.send(c, "client1",
                           frame(p.k, "basic.ack", 1)));  // the client still cannot tell
  });
  p.k.scheduler.run(1000);
  CHECK(p.at_client == std::vector<std::int64_t>{1});  // the frame that froze it arrived
  CHECK(p.at_server.empty());
  CHECK(ack_accepted);              // the sender cannot tell: no reset, only silence
  CHECK_FALSE(late_deliver_accepted);  // the server closed its socket: its sends fail
  CHECK(p.server_down == std::vector<sim::Tick>{2 + 15});
  CHECK(p.client_down.empty());  // client detection 0: never
  // deliver 2 (in flight), ack 1 and the second ack; deliver 3 was refused, not lost.
  CHECK(p.k.network.frames_lost() == 3);
}

TEST_CASE("network: on a frozen link each end notices after its own detection time",
          "[network]") {
  SECTION("per side: the server first, the client later") {
    Pair p(6);
    freeze_on_first_deliver(p, 6, 14);
    const ConnId c = p.k.network.connect("client1", "server");
    p.k.scheduler.at(0, "deliver",
                     [&] { p.k.network.send(c, "server", frame(p.k, "basic.deliver", 1)); });
    p.k.scheduler.run(1000);
    CHECK(p.server_down == std::vector<sim::Tick>{2 + 6});
    CHECK(p.client_down == std::vector<sim::Tick>{2 + 14});
  }
  SECTION("without per-side detection: both after heartbeat_timeout") {
    Pair p(6);
    freeze_on_first_deliver(p, std::nullopt, std::nullopt);
    const ConnId c = p.k.network.connect("client1", "server");
    p.k.scheduler.at(0, "deliver",
                     [&] { p.k.network.send(c, "server", frame(p.k, "basic.deliver", 1)); });
    p.k.scheduler.run(1000);
    CHECK(p.server_down == std::vector<sim::Tick>{2 + 30});
    CHECK(p.client_down == std::vector<sim::Tick>{2 + 30});
  }
  SECTION("a crashed client sends no FIN through a frozen link") {
    Pair p(6);
    freeze_on_first_deliver(p, 0, 0);
    const ConnId c = p.k.network.connect("client1", "server");
    p.k.scheduler.at(0, "deliver",
                     [&] { p.k.network.send(c, "server", frame(p.k, "basic.deliver", 1)); });
    p.k.scheduler.at(5, "crash", [&] { p.k.network.abort_all("client1"); });
    p.k.scheduler.run(1000);
    CHECK(p.server_down.empty());  // server detection 0: what it holds stays held
  }
}

TEST_CASE("network: a broken link's far end is told by its own detection, or never",
          "[network]") {
  Pair p(3);
  sim::LinkOptions options = p.k.network.options();
  options.server_detect = 0;
  options.client_detect = 12;
  p.k.network.set_options(options);
  const ConnId c = p.k.network.connect("client1", "server");
  p.k.scheduler.at(0, "break", [&] { p.k.network.break_connection(c, "client1", "test"); });
  p.k.scheduler.at(1, "break the other way", [&] {
    const ConnId d = p.k.network.connect("client1", "server");
    p.k.network.break_connection(d, "server", "test");
  });
  p.k.scheduler.run(1000);
  CHECK(p.client_down == std::vector<sim::Tick>{2, 1 + 12});  // reset notice, then detection
  CHECK(p.server_down == std::vector<sim::Tick>{1 + 2});     // only the reset it saw itself
}

TEST_CASE("network: partitions are windows of virtual time", "[network]") {
  Pair p(9);
  p.k.network.partition("client1", "server", 10, 20);
  ConnId before = p.k.network.connect("client1", "server");
  REQUIRE(before != 0);
  ConnId during = 0, after = 0;
  p.k.scheduler.at(12, "in", [&] {
    during = p.k.network.connect("client1", "server");
    p.k.network.send(before, "client1", frame(p.k, "basic.publish", 1));
  });
  p.k.scheduler.at(20, "out", [&] {
    after = p.k.network.connect("client1", "server");
    p.k.network.send(after, "client1", frame(p.k, "basic.publish", 2));
  });
  p.k.scheduler.run(1000);
  CHECK(during == 0);
  CHECK(after != 0);
  CHECK_FALSE(p.k.network.is_open(before));
  CHECK(p.at_server == std::vector<std::int64_t>{2});
}

TEST_CASE("network: datagrams may be captured, duplicated and overtake each other",
          "[network]") {
  Kernel k(11);
  std::vector<std::int64_t> got;
  sim::NodeHandlers b;
  b.on_datagram = [&](const sim::NodeId&, const Frame& f) {
    got.push_back(*sim::payload_as<std::int64_t>(f));
  };
  k.network.attach("generalB", b);
  sim::RandomFaultOptions random;
  random.ratios["drop"] = {1, 4};
  random.ratios["duplicate"] = {1, 4};
  random.budget = 1000;
  random.horizon = 1000;
  k.faults.set_random(random);
  for (std::int64_t i = 1; i <= 200; ++i) {
    k.network.send_datagram("generalA", "generalB", frame(k, "courier", i), {1, 20});
  }
  k.scheduler.run(10000);
  bool reordered = false, duplicated = false;
  for (std::size_t i = 1; i < got.size(); ++i) {
    reordered = reordered || got[i] < got[i - 1];
    duplicated = duplicated || got[i] == got[i - 1];
  }
  CHECK(got.size() < 240);  // a quarter captured...
  CHECK(got.size() > 160);  // ...and a quarter of the rest twice
  CHECK(reordered);
  CHECK(k.network.frames_lost() > 20);
  bool dup_fault = false;
  for (const auto& f : k.faults.fired()) {
    dup_fault = dup_fault || f.action == sim::FaultAction::kDuplicate;
  }
  CHECK(dup_fault);
  (void)duplicated;
}

TEST_CASE("network: node roles and instances name fault sites", "[network]") {
  CHECK(sim::node_role("consumer2") == "consumer");
  CHECK(sim::node_instance("consumer2") == 2);
  CHECK(sim::node_role("broker") == "broker");
  CHECK(sim::node_instance("broker") == 0);
}

TEST_CASE("network: the instance part carries the sender's instance, else the receiver's",
          "[network]") {
  // A rule on key part 1 = 2: it can only match once the network fills part 1.
  const auto run = [](bool with_part) {
    Kernel k(5);
    sim::NodeHandlers quiet;
    quiet.on_frame = [](ConnId, const Frame&) {};
    k.network.attach("server", quiet);
    k.network.attach("client2", quiet);
    if (with_part) k.network.set_instance_part(1);
    sim::FaultRule to_client;
    to_client.site = "net.server->client";
    to_client.action = sim::FaultAction::kDrop;
    to_client.key[1] = 2;
    sim::FaultRule from_client = to_client;
    from_client.site = "net.client->server";
    k.faults.set_rules({to_client, from_client});
    const ConnId c = k.network.connect("client2", "server");
    k.network.send(c, "client2", frame(k, "up", 7));
    k.network.send(c, "server", frame(k, "down", 8));
    return k.faults.fired();
  };
  CHECK(run(false).empty());
  const auto fired = run(true);
  REQUIRE(fired.size() == 1);  // the first drop breaks the connection: no second send
  CHECK(fired[0].site == "net.client->server");
  CHECK(fired[0].key[0] == 7);
  CHECK(fired[0].key[1] == 2);
}

TEST_CASE("network: payload_as reads a payload of its own type only", "[network]") {
  Frame empty;
  CHECK(sim::payload_as<std::int64_t>(empty) == nullptr);
  Frame wide;
  sim::set_payload(wide, std::int64_t{42});
  REQUIRE(sim::payload_as<std::int64_t>(wide) != nullptr);
  CHECK(*sim::payload_as<std::int64_t>(wide) == 42);
  CHECK(sim::payload_as<std::int32_t>(wide) == nullptr);  // another T, even a close one
  CHECK(sim::payload_as<std::uint64_t>(wide) == nullptr);
  Frame narrow;
  sim::set_payload(narrow, std::int32_t{7});
  REQUIRE(sim::payload_as<std::int32_t>(narrow) != nullptr);
  CHECK(*sim::payload_as<std::int32_t>(narrow) == 7);
  CHECK(sim::payload_as<std::int64_t>(narrow) == nullptr);
}

TEST_CASE("network: a payload is taken from its frame when the frame owns it alone", "[network]") {
  sim::Frame frame;
  std::int64_t& value = sim::emplace_payload<std::int64_t>(frame, 42);
  std::optional<std::int32_t> another_type;
  CHECK(sim::payload_to_take(frame, another_type) == nullptr);
  std::optional<std::int64_t> spill;
  CHECK(sim::payload_to_take(frame, spill) == &value);  // its own: no copy
  CHECK_FALSE(spill.has_value());
  const sim::Frame other_owner = frame;
  std::int64_t* copy = sim::payload_to_take(frame, spill);
  REQUIRE(copy != nullptr);
  CHECK(copy == &*spill);
  *copy = 7;  // the receiver changes its copy: the other owner's value stays
  CHECK(*sim::payload_as<std::int64_t>(other_owner) == 42);
}
