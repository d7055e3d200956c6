#pragma once
// Redis's protocol (RESP2) as bytes on the wire, as far as the fault proxy needs it to
// carry the separate dedup store's link (fault_proxy.h): where a command and a reply end,
// and which reply answers the SET ... NX that marks an order's message seen.
//
// A reply is one value: +simple\r\n, -error\r\n, :integer\r\n, $length\r\n bytes \r\n
// ($-1: nil), or *count\r\n and that many values (*-1: nil), nested. A command is an array
// of bulk strings (what hiredis and every client library send), or an inline command: one
// line ending in \n (what a person types into telnet). Redis answers every command of at
// least one argument with exactly one reply, in order; an empty one (*0, *-1, an empty
// line) gets none. So the framer pairs replies with commands by counting.
//
// The consumer's mark (redis_store.h) is `SET key "ORDER TICK" NX [PX ms]`; the reply +OK
// means the key is set. That reply is shown to the judge with the order, before it passes;
// a nil reply (the key existed: nothing was written) is not shown, as the model asks
// dedup.mark_reply only after a mark that took effect.
//
// Invariants:
//  (1) resp_reply_end and resp_command_end never read past `size`, never recurse deeper
//      than kRespDepthMax, and return 0 (incomplete), kNotFramed (no RESP2 unit can start
//      so: a bad type byte, a bad number, a length past the limits below, a line without
//      CRLF) or a position > `pos` and <= `size`.
//  (2) A unit is at most kRespUnitMax bytes, a line kRespLineMax, an array kRespCountMax
//      values: what the proxy buffers for one unit is bounded. The dedup store's commands
//      and replies are a few dozen bytes; a larger unit resets the connection.
//  (3) The framer keeps at most kRespPendingMax unanswered commands; past that (a client
//      pipelining without reading) it stops judging that connection and forwards only.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/live/fault_proxy.h"
#include "src/live/store_reply.h"

namespace live {

inline constexpr std::size_t kRespLineMax = std::size_t{64} * 1024;  // Redis's inline limit
inline constexpr std::size_t kRespUnitMax = std::size_t{16} * 1024 * 1024;
inline constexpr std::int64_t kRespCountMax = std::int64_t{1024} * 1024;
inline constexpr int kRespDepthMax = 16;
inline constexpr std::size_t kRespPendingMax = 4096;

// The reply (any RESP2 value) at `pos` of data[0, size).
std::size_t resp_reply_end(const std::uint8_t* data, std::size_t size, std::size_t pos);

// What a command said, as far as the framer reads it: the first kArgsKept arguments (views
// into the bytes it was cut from) and how many it had.
struct RespCommand {
  static constexpr std::size_t kArgsKept = 6;
  std::string_view args[kArgsKept];
  std::int64_t argc = 0;  // 0: an empty command, which Redis does not answer
};
// The command (an array of bulk strings, or an inline line) at `pos`; `out` is filled
// when it is framed (args of an inline command are not split: argc 1 if not blank).
std::size_t resp_command_end(const std::uint8_t* data, std::size_t size, std::size_t pos,
                             RespCommand& out);

// The order a command marks: SET key value NX ... whose value starts with the order's
// number (the consumer's "ORDER TICK"); 0 for any other command.
std::int64_t marked_order(const RespCommand& command);

// The proxy's framer for Redis; `judge` is asked about every +OK answering a mark, with
// Wrote::kDedupKey (null: everything passes).
FramerFactory redis_framing(CommitJudge judge);

}  // namespace live
