// Redis's protocol as the fault proxy cuts it (src/live/resp_wire.h): every RESP2 reply
// type and a command's array of bulk strings framed whole, incomplete at every shorter
// prefix (a read split at any byte), refused when malformed or past the limits; and the
// +OK answering the consumer's SET ... NX shown to the judge with its order, while a nil
// (the key existed) and other commands' replies pass unjudged. Bytes as hiredis sends them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "src/live/resp_wire.h"

namespace {

using live::kNotFramed;

const std::uint8_t* resp_bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

std::size_t resp_reply_at(const std::string& s, std::size_t size) {
  return live::resp_reply_end(resp_bytes(s), size, 0);
}
std::size_t resp_command_at(const std::string& s, std::size_t size) {
  live::RespCommand c;
  return live::resp_command_end(resp_bytes(s), size, 0, c);
}

// A command as hiredis writes it (redisCommandArgv).
std::string resp_cmd(const std::vector<std::string>& args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const std::string& a : args) out += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
  return out;
}

// Framed whole at its full length, incomplete (0) at every shorter one.
template <class End>
void resp_framed_only_whole(const std::string& unit, End end) {
  INFO(unit);
  CHECK(end(unit, unit.size()) == unit.size());
  for (std::size_t cut = 0; cut < unit.size(); ++cut) {
    INFO("cut at " << cut);
    CHECK(end(unit, cut) == 0);
  }
}

// xorshift64: deterministic adversarial bytes, no std::*_distribution.
struct RespBits {
  std::uint64_t x = 0x9e3779b97f4a7c15ULL;
  std::uint64_t next() {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  }
};

// One connection's framer and what its judge was asked.
struct RespConn {
  std::vector<live::CommitReply> asked;
  std::unique_ptr<live::Framer> framer = live::redis_framing([this](const live::CommitReply& r) {
    asked.push_back(r);
    live::ProxyAction a;
    a.kind = live::ProxyAction::kDrop;
    return a;
  })({1, 7, 40001});
  live::Cut send(live::Direction d, const std::string& s) {
    const live::Cut cut = framer->next(d, resp_bytes(s), s.size(), 0);
    REQUIRE(cut.end == s.size());
    return cut;
  }
  live::Cut client(const std::string& s) { return send(live::Direction::kClientToBroker, s); }
  live::Cut server(const std::string& s) { return send(live::Direction::kBrokerToClient, s); }
};

}  // namespace

TEST_CASE("resp wire: every reply type framed whole, and not before", "[resp-wire]") {
  for (const std::string& unit :
       {std::string("+OK\r\n"), std::string("+\r\n"), std::string("-ERR wrong\r\n"),
        std::string(":0\r\n"), std::string(":-42\r\n"), std::string("$5\r\nhello\r\n"),
        std::string("$0\r\n\r\n"), std::string("$-1\r\n"), std::string("$4\r\na\r\nb\r\n"),
        std::string("*0\r\n"), std::string("*-1\r\n"),
        std::string("*2\r\n$1\r\n0\r\n*2\r\n$3\r\nk:1\r\n:7\r\n"),  // SCAN's shape
        std::string("*3\r\n+a\r\n-b\r\n$-1\r\n")}) {
    resp_framed_only_whole(unit, resp_reply_at);
  }
  const std::string two = "+OK\r\n:1\r\n";
  CHECK(live::resp_reply_end(resp_bytes(two), two.size(), 5) == two.size());
}

TEST_CASE("resp wire: commands framed whole, and not before", "[resp-wire]") {
  resp_framed_only_whole(resp_cmd({"SET", "p:seen:m-2", "2 33", "NX", "PX", "500"}),
                         resp_command_at);
  resp_framed_only_whole(resp_cmd({"EXISTS", "p:seen:m-2"}), resp_command_at);
  resp_framed_only_whole(resp_cmd({"AUTH", std::string("pa\r\nss\0w", 9)}), resp_command_at);
  resp_framed_only_whole(std::string("PING\r\n"), resp_command_at);  // inline
  resp_framed_only_whole(std::string("*0\r\n"), resp_command_at);
}

TEST_CASE("resp wire: malformed replies and commands are refused", "[resp-wire]") {
  for (const std::string& bad :
       {std::string("?\r\n"), std::string("+OK\n"), std::string("+O\rK\r\n"), std::string(":\r\n"),
        std::string(":1x\r\n"), std::string(":--1\r\n"), std::string(":1234567890123456789\r\n"),
        std::string("$-2\r\n"), std::string("$3\r\nabcd\r\n"), std::string("$3\r\nabc\n\n"),
        std::string("*-2\r\n"), std::string("*1\r\n?\r\n"),
        std::string("$99999999\r\n"),    // past kRespUnitMax
        std::string("*2000000\r\n")}) {  // past kRespCountMax
    INFO(bad);
    CHECK(resp_reply_at(bad, bad.size()) == kNotFramed);
  }
  for (const std::string& bad :
       {std::string("*1\r\n:1\r\n"), std::string("*1\r\n+SET\r\n"), std::string("*x\r\n"),
        std::string("*1\r\n$-1\r\n"), std::string("*1\r\n$3\r\nSETX\r\n"),
        std::string("*2000000\r\n")}) {
    INFO(bad);
    CHECK(resp_command_at(bad, bad.size()) == kNotFramed);
  }
  // A line that never ends: refused once it passes the line limit, not buffered forever.
  const std::string endless(live::kRespLineMax + 1, 'a');
  CHECK(resp_reply_at("+" + endless, endless.size() + 1) == kNotFramed);
  CHECK(resp_command_at(endless, endless.size()) == kNotFramed);
  CHECK(resp_command_at(endless, live::kRespLineMax - 1) == 0);
  // Nesting: kRespDepthMax arrays deep is framed, one more is refused.
  std::string deep;
  for (int i = 0; i < live::kRespDepthMax; ++i) deep += "*1\r\n";
  CHECK(resp_reply_at(deep + ":1\r\n", deep.size() + 4) == deep.size() + 4);
  CHECK(resp_reply_at("*1\r\n" + deep + ":1\r\n", deep.size() + 8) == kNotFramed);
}

TEST_CASE("resp wire: any bytes are framed, incomplete or refused, never past the end",
          "[resp-wire]") {
  // Mutations of valid units (a byte replaced, cut short, spliced) and random bytes over a
  // small alphabet that RESP's own characters dominate.
  const std::vector<std::string> seeds = {
      "*2\r\n$1\r\n0\r\n*2\r\n$3\r\nk:1\r\n:7\r\n", "+OK\r\n", "$5\r\nhello\r\n",
      resp_cmd({"SET", "p:seen:m-2", "2 33", "NX", "PX", "500"}), "*3\r\n+a\r\n-b\r\n$-1\r\n"};
  const std::string alphabet = "*$+-:\r\n0123456789-aX";
  RespBits bits;
  for (int round = 0; round < 20000; ++round) {
    std::string s = seeds[bits.next() % seeds.size()];
    const int edits = 1 + static_cast<int>(bits.next() % 4);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      const std::size_t at = bits.next() % s.size();
      const char c = alphabet[bits.next() % alphabet.size()];
      switch (bits.next() % 3) {
        case 0: s[at] = c; break;
        case 1: s.insert(s.begin() + static_cast<long>(at), c); break;
        default: s.erase(at, 1); break;
      }
    }
    for (std::size_t pos = 0; pos <= s.size(); ++pos) {
      const std::size_t r = live::resp_reply_end(resp_bytes(s), s.size(), pos);
      live::RespCommand c;
      const std::size_t k = live::resp_command_end(resp_bytes(s), s.size(), pos, c);
      INFO(s << " at " << pos);
      CHECK((r == 0 || r == kNotFramed || (r > pos && r <= s.size())));
      CHECK((k == 0 || k == kNotFramed || (k > pos && k <= s.size())));
    }
  }
}

TEST_CASE("resp wire: the +OK of the consumer's mark goes to the judge", "[resp-wire]") {
  RespConn c;
  c.client(resp_cmd({"AUTH", "secret"}));
  CHECK(c.server("+OK\r\n").action.kind == live::ProxyAction::kPass);  // AUTH's: no mark
  c.client(resp_cmd({"EXISTS", "p:seen:m-2"}));
  c.client(resp_cmd({"SET", "p:seen:m-2", "2 33", "NX"}));  // pipelined behind the EXISTS
  CHECK(c.server(":0\r\n").action.kind == live::ProxyAction::kPass);
  CHECK(c.asked.empty());
  const live::Cut ok = c.server("+OK\r\n");
  CHECK(ok.action.kind == live::ProxyAction::kDrop);
  REQUIRE(c.asked.size() == 1);
  CHECK(c.asked[0].order == 2);
  CHECK(c.asked[0].wrote == live::Wrote::kDedupKey);
  CHECK(c.asked[0].id.connection == 7);
  // The key existed: nil, nothing written, nothing to lose.
  c.client(resp_cmd({"set", "p:seen:m-3", "3 40", "nx", "PX", "500"}));
  CHECK(c.server("$-1\r\n").action.kind == live::ProxyAction::kPass);
  // A SET without NX, an empty command (no reply) and an inline PING are not marks.
  c.client(resp_cmd({"SET", "other", "4 1"}));
  c.client("*0\r\n");
  c.client("PING\r\n");
  CHECK(c.server("+OK\r\n").action.kind == live::ProxyAction::kPass);
  CHECK(c.server("+PONG\r\n").action.kind == live::ProxyAction::kPass);
  CHECK(c.asked.size() == 1);
}

TEST_CASE("resp wire: which commands mark an order", "[resp-wire]") {
  auto order_of = [](const std::vector<std::string>& args) {
    const std::string s = resp_cmd(args);
    live::RespCommand c;
    REQUIRE(live::resp_command_end(resp_bytes(s), s.size(), 0, c) == s.size());
    return live::marked_order(c);
  };
  CHECK(order_of({"SET", "k", "12 7", "NX"}) == 12);
  CHECK(order_of({"SET", "k", "12", "PX", "5", "NX"}) == 12);
  CHECK(order_of({"SET", "k", "12 7"}) == 0);
  CHECK(order_of({"GET", "k", "12 7", "NX"}) == 0);
  CHECK(order_of({"SET", "k", "x12", "NX"}) == 0);
  CHECK(order_of({"SET", "k", "0 1", "NX"}) == 0);
}
