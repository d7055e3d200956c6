#include "src/live/resp_wire.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <deque>
#include <memory>
#include <utility>

namespace live {

namespace {

constexpr std::size_t kIncomplete = 0;

// One past the CRLF ending the line that starts at `pos`; 0 while no CR came within the
// line limit; kNotFramed for a line longer than that, a bare LF, or a CR not before LF.
std::size_t line_end(const std::uint8_t* data, std::size_t size, std::size_t pos) {
  const std::size_t limit = std::min(size, pos + kRespLineMax);
  for (std::size_t i = pos; i < limit; ++i) {
    if (data[i] == '\n') return kNotFramed;
    if (data[i] != '\r') continue;
    if (i + 1 >= size) return kIncomplete;
    return data[i + 1] == '\n' ? i + 2 : kNotFramed;
  }
  return size - pos >= kRespLineMax ? kNotFramed : kIncomplete;
}

// The number in data[from, to): an optional '-' and 1 to 18 digits, nothing else.
bool number_in(const std::uint8_t* data, std::size_t from, std::size_t to, std::int64_t& out) {
  const auto* first = reinterpret_cast<const char*>(data + from);
  const auto* last = reinterpret_cast<const char*>(data + to);
  const std::size_t digits = to - from - (from < to && data[from] == '-' ? 1 : 0);
  if (digits == 0 || digits > 18) return false;
  if (data[to - digits] == '-' || data[to - digits] == '+') return false;  // "--1", "-+1"
  const auto [end, ec] = std::from_chars(first, last, out);
  return ec == std::errc() && end == last;
}

// A header line (`$n`, `*n`, `:n`) at `pos`: its end, and its number in `n`.
std::size_t header(const std::uint8_t* data, std::size_t size, std::size_t pos, std::int64_t& n) {
  const std::size_t end = line_end(data, size, pos);
  if (end == kIncomplete || end == kNotFramed) return end;
  return number_in(data, pos + 1, end - 2, n) ? end : kNotFramed;
}

// A bulk string at `pos` (its '$' already seen); `nil_ok`: $-1 is a value (a reply's nil).
std::size_t bulk_end(const std::uint8_t* data, std::size_t size, std::size_t pos, std::size_t limit,
                     bool nil_ok) {
  std::int64_t n = 0;
  const std::size_t head = header(data, size, pos, n);
  if (head == kIncomplete || head == kNotFramed) return head;
  if (n == -1 && nil_ok) return head;
  if (n < 0 || static_cast<std::uint64_t>(n) > kRespUnitMax) return kNotFramed;
  const std::size_t end = head + static_cast<std::size_t>(n) + 2;
  if (end > limit) return kNotFramed;
  if (end > size) return kIncomplete;
  return data[end - 2] == '\r' && data[end - 1] == '\n' ? end : kNotFramed;
}

// The value at `pos`, `depth` arrays deep, ending at or before `limit` (the unit's bound).
std::size_t value_end(const std::uint8_t* data, std::size_t size, std::size_t pos,
                      std::size_t limit, int depth) {
  if (pos >= size) return kIncomplete;
  std::int64_t n = 0;
  std::size_t end = kNotFramed;
  switch (data[pos]) {
    case '+':
    case '-': end = line_end(data, size, pos); break;
    case ':': end = header(data, size, pos, n); break;
    case '$': return bulk_end(data, size, pos, limit, true);
    case '*': {
      end = header(data, size, pos, n);
      if (end == kIncomplete || end == kNotFramed || n == -1) break;
      if (n < 0 || n > kRespCountMax || depth >= kRespDepthMax) return kNotFramed;
      for (std::int64_t i = 0; i < n && end != kIncomplete && end != kNotFramed; ++i) {
        end = value_end(data, size, end, limit, depth + 1);
      }
      break;
    }
    default: return kNotFramed;
  }
  if (end != kIncomplete && end != kNotFramed && end > limit) return kNotFramed;
  return end;
}

// An inline command: a line up to \n (Redis drops a CR before it), of printable text.
std::size_t inline_end(const std::uint8_t* data, std::size_t size, std::size_t pos,
                       RespCommand& out) {
  const std::size_t limit = std::min(size, pos + kRespLineMax);
  const auto* at = std::find(data + pos, data + limit, std::uint8_t{'\n'});
  if (at == data + limit) return size - pos >= kRespLineMax ? kNotFramed : kIncomplete;
  const std::string_view line(reinterpret_cast<const char*>(data + pos),
                              static_cast<std::size_t>(at - (data + pos)));
  const bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
  out = RespCommand{};
  out.argc = blank ? 0 : 1;
  if (!blank) out.args[0] = line;
  return static_cast<std::size_t>(at - data) + 1;
}

bool same_word(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) ==
                  std::toupper(static_cast<unsigned char>(y));
         });
}

class RedisFramer final : public Framer {
 public:
  RedisFramer(std::shared_ptr<const CommitJudge> judge, const ConnectionId& id)
      : judge_(std::move(judge)), id_(id) {}

  Cut next(Direction from, const std::uint8_t* data, std::size_t size, std::size_t pos) override {
    Cut cut;
    if (from == Direction::kClientToBroker) {
      RespCommand command;
      cut.end = resp_command_end(data, size, pos, command);
      if (cut.end != kIncomplete && cut.end != kNotFramed) asked(command);
      return cut;
    }
    cut.end = resp_reply_end(data, size, pos);
    if (cut.end == kIncomplete || cut.end == kNotFramed) return cut;
    const std::string_view reply(reinterpret_cast<const char*>(data + pos), cut.end - pos);
    cut.action = answered(reply);
    return cut;
  }

 private:
  // Each command that Redis answers waits for its reply: the order it marks, or 0.
  void asked(const RespCommand& command) {
    if (command.argc == 0 || lost_track_) return;
    if (pending_.size() >= kRespPendingMax) {
      lost_track_ = true;  // invariant (3)
      pending_.clear();
      return;
    }
    pending_.push_back(marked_order(command));
  }

  ProxyAction answered(std::string_view reply) {
    if (pending_.empty()) return {};  // lost track, or a reply to no command: not judged
    const std::int64_t order = pending_.front();
    pending_.pop_front();
    if (order == 0 || reply != "+OK\r\n" || !*judge_) return {};
    return (*judge_)(CommitReply{id_, order, Wrote::kDedupKey});
  }

  std::shared_ptr<const CommitJudge> judge_;
  ConnectionId id_;
  std::deque<std::int64_t> pending_;  // per command awaiting its reply: its mark's order
  bool lost_track_ = false;
};

}  // namespace

std::size_t resp_reply_end(const std::uint8_t* data, std::size_t size, std::size_t pos) {
  if (pos >= size) return kIncomplete;
  const std::size_t limit = pos + std::min(kRespUnitMax, static_cast<std::size_t>(-1) - pos);
  return value_end(data, size, pos, limit, 0);
}

std::size_t resp_command_end(const std::uint8_t* data, std::size_t size, std::size_t pos,
                             RespCommand& out) {
  if (pos >= size) return kIncomplete;
  if (data[pos] != '*') return inline_end(data, size, pos, out);
  std::int64_t n = 0;
  std::size_t end = header(data, size, pos, n);
  if (end == kIncomplete || end == kNotFramed) return end;
  if (n > kRespCountMax) return kNotFramed;
  const std::size_t limit = pos + std::min(kRespUnitMax, static_cast<std::size_t>(-1) - pos);
  RespCommand command;
  command.argc = std::max<std::int64_t>(n, 0);  // *0 and *-1: empty, as Redis reads them
  for (std::int64_t i = 0; i < n; ++i) {
    if (end >= size) return kIncomplete;
    if (data[end] != '$') return kNotFramed;  // a command's arguments are bulk strings
    const std::size_t next = bulk_end(data, size, end, limit, false);
    if (next == kIncomplete || next == kNotFramed) return next;
    if (static_cast<std::size_t>(i) < RespCommand::kArgsKept) {
      const std::size_t body = line_end(data, size, end);  // framed above: a whole line
      command.args[i] =
          std::string_view(reinterpret_cast<const char*>(data + body), next - 2 - body);
    }
    end = next;
  }
  out = command;
  return end;
}

std::int64_t marked_order(const RespCommand& c) {
  if (c.argc < 4 || !same_word(c.args[0], "SET")) return 0;
  const std::int64_t kept = std::min<std::int64_t>(c.argc, RespCommand::kArgsKept);
  bool nx = false;
  for (std::int64_t i = 3; i < kept; ++i) nx = nx || same_word(c.args[i], "NX");
  if (!nx) return 0;
  const std::string_view value = c.args[2];
  std::int64_t order = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), order);
  if (ec != std::errc() || order <= 0) return 0;
  return end == value.data() + value.size() || *end == ' ' ? order : 0;
}

FramerFactory redis_framing(CommitJudge judge) {
  auto shared = std::make_shared<const CommitJudge>(std::move(judge));
  return [shared](const ConnectionId& id) -> std::unique_ptr<Framer> {
    return std::make_unique<RedisFramer>(shared, id);
  };
}

}  // namespace live
