#pragma once
// PostgreSQL's frontend/backend protocol (version 3) as bytes on the wire, as far as the
// fault proxy needs it to carry the database link (fault_proxy.h): where a message ends,
// and which transaction's COMMIT a reply answers.
//
// The client's first message has no type byte: int32 length (counting itself), int32
// code, the rest. An SSLRequest or GSSENCRequest (codes 80877103, 80877104) asks for
// encryption: the proxy answers 'N' (no) itself and the client goes on in the clear, with
// its StartupMessage - so the proxy always sees the messages. After the startup every
// message is one type byte, int32 length (counting itself, not the type) and the body,
// both ways.
//
// A transaction's order: the first parameter of an INSERT INTO debits (the row a
// consumer's debit writes) or of an INSERT INTO orders (the order service's order row);
// extended protocol: Parse, then Bind's first value; simple protocol: the first number
// after VALUES. The reply to the COMMIT that ends that transaction - CommandComplete with
// the tag COMMIT - is shown to the judge with the order and which of the two it wrote,
// before it passes; a COMMIT that fails answers ROLLBACK and is not shown, as the model
// asks db.commit_reply and db.producer_commit_reply only after a commit that took effect.
//
// Invariants:
//  (1) pg_message_end never reads past `size` and never returns a position <= `pos` other
//      than 0 (incomplete) or kNotFramed (a length no message has).
//  (2) Content the framer cannot read (a binary parameter, a statement it does not know)
//      is forwarded unjudged, never an error.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "src/live/fault_proxy.h"
#include "src/live/store_reply.h"

namespace live {

inline constexpr std::int32_t kSslRequestCode = 80877103;
inline constexpr std::int32_t kGssEncRequestCode = 80877104;

// The untyped startup-phase message at `pos` (as for typed ones: 0 while incomplete,
// kNotFramed when no such message can be that long or short).
std::size_t pg_startup_end(const std::uint8_t* data, std::size_t size, std::size_t pos);
// The typed message at `pos`.
std::size_t pg_message_end(const std::uint8_t* data, std::size_t size, std::size_t pos);

// What a transaction wrote that its COMMIT's reply is judged by: a consumer's debit
// (Wrote::kDebit), or the order service's order row (Wrote::kOrder).
struct WrittenOrder {
  Wrote what = Wrote::kNothing;
  std::int64_t order = 0;
};

// Which of the two a statement inserts (INSERT INTO debits / orders), by its text.
Wrote insert_kind(std::string_view sql);
// The order a statement's text writes (simple protocol): the first number after VALUES
// of an INSERT INTO debits or orders; {} for any other statement.
WrittenOrder order_in_sql(std::string_view sql);
// The first parameter of a Bind message's body (text format) as a number; 0 if none.
std::int64_t first_bind_value(const std::uint8_t* body, std::size_t size);

// The proxy's framer for PostgreSQL; `judge` is asked about every COMMIT reply of a
// transaction that wrote a debit or an order (null: everything passes).
FramerFactory postgres_framing(CommitJudge judge);

}  // namespace live
