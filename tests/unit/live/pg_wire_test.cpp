// PostgreSQL's wire protocol as the fault proxy cuts it (src/live/pg_wire.h): message
// boundaries, the SSLRequest answered 'N', and the COMMIT reply of a transaction that wrote
// a debit shown to the judge with its order - by the extended protocol (Parse, Bind) and
// the simple one (Query) - while a failed COMMIT (tag ROLLBACK) and a transaction without a
// debit pass unjudged. Bytes built by hand as libpq sends them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "src/live/pg_wire.h"

namespace {

using Bytes = std::vector<std::uint8_t>;

void put32(Bytes& b, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) b.push_back(static_cast<std::uint8_t>(v >> shift));
}
void put16(Bytes& b, std::uint16_t v) {
  b.push_back(static_cast<std::uint8_t>(v >> 8));
  b.push_back(static_cast<std::uint8_t>(v));
}
void put_cstring(Bytes& b, const std::string& s) {
  b.insert(b.end(), s.begin(), s.end());
  b.push_back(0);
}

Bytes message(char type, const Bytes& body) {
  Bytes b{static_cast<std::uint8_t>(type)};
  put32(b, static_cast<std::uint32_t>(body.size() + 4));
  b.insert(b.end(), body.begin(), body.end());
  return b;
}
Bytes text_message(char type, const std::string& text) {
  Bytes body;
  put_cstring(body, text);
  return message(type, body);
}
Bytes startup(std::uint32_t code, const Bytes& rest = {}) {
  Bytes b;
  put32(b, static_cast<std::uint32_t>(8 + rest.size()));
  put32(b, code);
  b.insert(b.end(), rest.begin(), rest.end());
  return b;
}
Bytes parse(const std::string& sql) {
  Bytes body;
  put_cstring(body, "");
  put_cstring(body, sql);
  put16(body, 0);
  return message('P', body);
}
Bytes bind(const std::vector<std::string>& values) {
  Bytes body;
  put_cstring(body, "");
  put_cstring(body, "");
  put16(body, 0);  // every parameter as text (libpq's PQexecParams without formats)
  put16(body, static_cast<std::uint16_t>(values.size()));
  for (const std::string& v : values) {
    put32(body, static_cast<std::uint32_t>(v.size()));
    body.insert(body.end(), v.begin(), v.end());
  }
  put16(body, 0);
  return message('B', body);
}
Bytes ready(char status) { return message('Z', Bytes{static_cast<std::uint8_t>(status)}); }

// One connection's framer, fed one whole unit at a time; what the judge was asked.
struct Conn {
  std::vector<live::CommitReply> asked;
  std::unique_ptr<live::Framer> framer;
  bool drop = true;
  Conn() {
    framer = live::postgres_framing([this](const live::CommitReply& r) {
      asked.push_back(r);
      live::ProxyAction a;
      if (drop) a.kind = live::ProxyAction::kDrop;
      return a;
    })({2, 9, 40000});
  }
  live::Cut send(live::Direction d, const Bytes& b) {
    const live::Cut cut = framer->next(d, b.data(), b.size(), 0);
    REQUIRE(cut.end == b.size());
    return cut;
  }
  live::Cut client(const Bytes& b) { return send(live::Direction::kClientToBroker, b); }
  live::Cut server(const Bytes& b) { return send(live::Direction::kBrokerToClient, b); }
  void logged_in() {
    CHECK(client(startup(196608, Bytes{'u', 's', 'e', 'r', 0, 'e', 0, 0})).answer.empty());
    CHECK(server(ready('I')).action.kind == live::ProxyAction::kPass);
  }
};

}  // namespace

TEST_CASE("pg wire: message boundaries, whole or not yet", "[pg-wire]") {
  const Bytes q = text_message('Q', "BEGIN");
  CHECK(live::pg_message_end(q.data(), q.size(), 0) == q.size());
  CHECK(live::pg_message_end(q.data(), q.size() - 1, 0) == 0);
  CHECK(live::pg_message_end(q.data(), 3, 0) == 0);
  Bytes two = q;
  two.insert(two.end(), q.begin(), q.end());
  CHECK(live::pg_message_end(two.data(), two.size(), q.size()) == two.size());
  const Bytes bad{'Q', 0, 0, 0, 2};  // a length shorter than the length field
  CHECK(live::pg_message_end(bad.data(), bad.size(), 0) == live::kNotFramed);
  const Bytes s = startup(196608, Bytes{'u', 0, 0});
  CHECK(live::pg_startup_end(s.data(), s.size(), 0) == s.size());
  CHECK(live::pg_startup_end(s.data(), 6, 0) == 0);
  const Bytes huge{0x7f, 0, 0, 0, 0, 3, 0, 0};
  CHECK(live::pg_startup_end(huge.data(), huge.size(), 0) == live::kNotFramed);
}

TEST_CASE("pg wire: the SSLRequest is answered N, the startup passes", "[pg-wire]") {
  Conn c;
  CHECK(c.client(startup(live::kSslRequestCode)).answer == Bytes{'N'});
  CHECK(c.client(startup(live::kGssEncRequestCode)).answer == Bytes{'N'});
  c.logged_in();
  // After the startup every client message is typed: a Query is not a startup packet.
  const Bytes q = text_message('Q', "SELECT 1");
  CHECK(c.client(q).answer.empty());
}

TEST_CASE("pg wire: the COMMIT reply of a debit's transaction goes to the judge", "[pg-wire]") {
  Conn c;
  c.logged_in();
  c.client(text_message('Q', "BEGIN"));
  c.server(text_message('C', "BEGIN"));
  c.server(ready('T'));
  c.client(parse("UPDATE accounts SET balance = balance - $1 WHERE id = $2"));
  c.client(bind({"150", "1"}));
  c.client(
      parse("INSERT INTO debits(order_id, message_id, amount, consumer, tick) "
            "VALUES($1, $2, $3, $4, $5)"));
  c.client(bind({"2", "m-2", "150", "1", "33"}));
  c.server(text_message('C', "INSERT 0 1"));
  c.server(ready('T'));
  c.client(text_message('Q', "COMMIT"));
  const live::Cut reply = c.server(text_message('C', "COMMIT"));
  REQUIRE(c.asked.size() == 1);
  CHECK(c.asked[0].order == 2);
  CHECK(c.asked[0].wrote == live::Wrote::kDebit);
  CHECK(c.asked[0].id.listener == 2);
  CHECK(c.asked[0].id.connection == 9);
  CHECK(reply.action.kind == live::ProxyAction::kDrop);

  SECTION("the next transaction without a debit is not judged") {
    c.server(ready('I'));
    c.client(text_message('Q', "BEGIN"));
    c.server(text_message('C', "BEGIN"));
    c.client(text_message('Q', "COMMIT"));
    CHECK(c.server(text_message('C', "COMMIT")).action.kind == live::ProxyAction::kPass);
    CHECK(c.asked.size() == 1);
  }
}

TEST_CASE("pg wire: the order service's COMMIT reply goes to the judge with its order",
          "[pg-wire]") {
  Conn c;
  c.logged_in();
  c.client(text_message('Q', "BEGIN"));
  c.server(text_message('C', "BEGIN"));
  c.server(ready('T'));
  c.client(parse("INSERT INTO orders(id, account, amount, created_tick) VALUES($1, $2, $3, $4)"));
  c.client(bind({"3", "alice", "150", "30"}));
  c.server(text_message('C', "INSERT 0 1"));
  c.client(
      parse("INSERT INTO outbox(order_id, message_id, body, created_tick) "
            "VALUES($1, $2, $3, $4)"));
  c.client(bind({"3", "m-3", "{}", "30"}));  // the outbox row does not replace the order
  c.server(text_message('C', "INSERT 0 1"));
  c.server(ready('T'));
  c.client(text_message('Q', "COMMIT"));
  const live::Cut reply = c.server(text_message('C', "COMMIT"));
  REQUIRE(c.asked.size() == 1);
  CHECK(c.asked[0].order == 3);
  CHECK(c.asked[0].wrote == live::Wrote::kOrder);
  CHECK(reply.action.kind == live::ProxyAction::kDrop);
}

TEST_CASE("pg wire: a failed COMMIT (ROLLBACK) and autocommit pass unjudged", "[pg-wire]") {
  Conn c;
  c.logged_in();
  c.client(text_message('Q', "BEGIN"));
  c.client(text_message('Q', "INSERT INTO debits(order_id, message_id) VALUES (5, 'm')"));
  c.client(text_message('Q', "COMMIT"));
  CHECK(c.server(text_message('C', "ROLLBACK")).action.kind == live::ProxyAction::kPass);
  c.server(ready('I'));
  CHECK(c.asked.empty());
  // A debit in autocommit (no COMMIT): its transaction ended with ReadyForQuery idle.
  c.client(text_message('Q', "INSERT INTO debits(order_id, message_id) VALUES (6, 'm')"));
  c.server(text_message('C', "INSERT 0 1"));
  c.server(ready('I'));
  c.client(text_message('Q', "COMMIT"));  // a stray COMMIT: a warning, no transaction
  c.server(text_message('C', "COMMIT"));
  CHECK(c.asked.empty());
  // The simple protocol's debit, committed: judged with the order from VALUES.
  c.client(text_message('Q', "begin"));
  c.client(text_message('Q', "  insert into DEBITS(order_id, message_id) values ( 12, 'm')"));
  c.client(text_message('Q', "COMMIT"));
  c.server(text_message('C', "COMMIT"));
  REQUIRE(c.asked.size() == 1);
  CHECK(c.asked[0].order == 12);
}

TEST_CASE("pg wire: the order of a statement, read or not", "[pg-wire]") {
  using live::Wrote;
  const live::WrittenOrder debit = live::order_in_sql("INSERT INTO debits(order_id) VALUES(42)");
  CHECK(debit.what == Wrote::kDebit);
  CHECK(debit.order == 42);
  const live::WrittenOrder order =
      live::order_in_sql("  insert into ORDERS(id, account) VALUES (7, 'alice')");
  CHECK(order.what == Wrote::kOrder);
  CHECK(order.order == 7);
  CHECK(live::order_in_sql("INSERT INTO debits(order_id) VALUES($1)").order == 0);
  CHECK(live::order_in_sql("INSERT INTO rejections(order_id) VALUES(42)").order == 0);
  CHECK(live::order_in_sql("INSERT INTO outbox(order_id) VALUES(42)").order == 0);
  CHECK(live::order_in_sql("INSERT INTO debits").order == 0);
  CHECK(live::order_in_sql("").what == Wrote::kNothing);
  CHECK(live::insert_kind("INSERT INTO orders(id) VALUES($1)") == Wrote::kOrder);
  CHECK(live::insert_kind("INSERT INTO outbox(order_id) VALUES($1)") == Wrote::kNothing);
  Bytes b = bind({"17", "x"});
  CHECK(live::first_bind_value(b.data() + 5, b.size() - 5) == 17);
  b = bind({"m-17"});
  CHECK(live::first_bind_value(b.data() + 5, b.size() - 5) == 0);
  b = bind({});
  CHECK(live::first_bind_value(b.data() + 5, b.size() - 5) == 0);
  const Bytes cut_short{0, 0, 0, 0};
  CHECK(live::first_bind_value(cut_short.data(), cut_short.size()) == 0);
}
