#pragma once
// What a store's fault proxy shows its judge (db_faults.h): a reply about to pass to the
// client that says a write took effect - the COMMIT of a transaction that wrote a debit or
// an order row (PostgreSQL, pg_wire.h), or the +OK of the SET NX that marked a message
// seen in the separate dedup store (Redis, resp_wire.h) - with the order it was for and on
// which connection.

#include <cstdint>
#include <functional>

#include "src/live/fault_proxy.h"

namespace live {

// What the write that the reply confirms wrote.
enum class Wrote : std::uint8_t { kNothing, kDebit, kOrder, kDedupKey };

struct CommitReply {
  ConnectionId id;
  std::int64_t order = 0;
  Wrote wrote = Wrote::kDebit;
};
using CommitJudge = std::function<ProxyAction(const CommitReply&)>;

}  // namespace live
