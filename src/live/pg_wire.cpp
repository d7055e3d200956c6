#include "src/live/pg_wire.h"

#include <cctype>
#include <memory>
#include <string_view>
#include <utility>

namespace live {

namespace {

constexpr std::size_t kTypedHeaderBytes = 5;     // type, int32 length
constexpr std::uint32_t kMessageMax = 1u << 30;  // PostgreSQL's own limit on a message
constexpr std::uint32_t kStartupMax = 10000;     // libpq's startup packets are far smaller

std::uint32_t be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

// The NUL-terminated string at `pos` of body[0, size), moving `pos` past it; "" and pos =
// size when it is not terminated.
std::string_view cstring(const std::uint8_t* body, std::size_t size, std::size_t& pos) {
  const std::size_t start = pos;
  while (pos < size && body[pos] != 0) ++pos;
  if (pos >= size) return {};
  std::string_view text(reinterpret_cast<const char*>(body) + start, pos - start);
  ++pos;
  return text;
}

std::string lowered(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "insert into debits" and "insert into orders" are both 18 characters long.
constexpr std::size_t kInsertIntoChars = 18;

std::int64_t number_at(std::string_view text, std::size_t i) {
  std::int64_t n = 0;
  bool any = false;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0; ++i) {
    if (n > 1000000000000LL) return 0;  // no order number is that long
    n = n * 10 + (text[i] - '0');
    any = true;
  }
  return any ? n : 0;
}

// The first number after VALUES ( in lowered SQL text; 0 if none.
std::int64_t first_value_in_sql(const std::string& text) {
  std::size_t i = text.find("values");
  if (i == std::string::npos) return 0;
  i = text.find('(', i);
  if (i == std::string::npos) return 0;
  ++i;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\'')) ++i;
  return number_at(text, i);
}

class PostgresFramer final : public Framer {
 public:
  PostgresFramer(std::shared_ptr<const CommitJudge> judge, const ConnectionId& id)
      : judge_(std::move(judge)), id_(id) {}

  Cut next(Direction from, const std::uint8_t* data, std::size_t size, std::size_t pos) override {
    Cut cut;
    if (from == Direction::kClientToBroker && startup_) return startup(data, size, pos);
    cut.end = pg_message_end(data, size, pos);
    if (cut.end == 0 || cut.end == kNotFramed) return cut;
    const std::uint8_t type = data[pos];
    const std::uint8_t* body = data + pos + kTypedHeaderBytes;
    const std::size_t length = cut.end - pos - kTypedHeaderBytes;
    if (from == Direction::kClientToBroker) {
      from_client(type, body, length);
    } else {
      cut.action = from_server(type, body, length);
    }
    return cut;
  }

 private:
  // SSLRequest and GSSENCRequest are answered 'N' here; the StartupMessage ends the phase.
  Cut startup(const std::uint8_t* data, std::size_t size, std::size_t pos) {
    Cut cut;
    cut.end = pg_startup_end(data, size, pos);
    if (cut.end == 0 || cut.end == kNotFramed) return cut;
    const auto code = static_cast<std::int32_t>(be32(data + pos + 4));
    if (code == kSslRequestCode || code == kGssEncRequestCode) {
      cut.answer = {'N'};
    } else if (code >> 16 == 3) {  // protocol 3.x: the StartupMessage
      startup_ = false;
    }
    return cut;
  }

  void from_client(std::uint8_t type, const std::uint8_t* body, std::size_t size) {
    std::size_t pos = 0;
    if (type == 'Q') {
      const WrittenOrder w = order_in_sql(cstring(body, size, pos));
      if (w.order != 0) written_ = w;
    } else if (type == 'P') {
      (void)cstring(body, size, pos);  // the statement's name
      parsed_ = insert_kind(cstring(body, size, pos));
    } else if (type == 'B' && parsed_ != Wrote::kNothing) {
      const std::int64_t order = first_bind_value(body, size);
      if (order != 0) written_ = {parsed_, order};
    }
  }

  ProxyAction from_server(std::uint8_t type, const std::uint8_t* body, std::size_t size) {
    std::size_t pos = 0;
    if (type == 'Z' && size >= 1 && body[0] == 'I') written_ = {};  // outside a transaction
    if (type != 'C' || written_.order == 0 || cstring(body, size, pos) != "COMMIT") return {};
    const WrittenOrder w = std::exchange(written_, {});
    const CommitReply reply{id_, w.order, w.what};
    return *judge_ ? (*judge_)(reply) : ProxyAction{};
  }

  std::shared_ptr<const CommitJudge> judge_;
  ConnectionId id_;
  bool startup_ = true;             // the client has not sent its StartupMessage yet
  Wrote parsed_ = Wrote::kNothing;  // what the last Parse's statement inserts
  WrittenOrder written_;            // what the open transaction wrote (order 0: nothing)
};

}  // namespace

std::size_t pg_startup_end(const std::uint8_t* data, std::size_t size, std::size_t pos) {
  if (size - pos < 8) return 0;
  const std::uint32_t length = be32(data + pos);
  if (length < 8 || length > kStartupMax) return kNotFramed;
  return size - pos < length ? 0 : pos + length;
}

std::size_t pg_message_end(const std::uint8_t* data, std::size_t size, std::size_t pos) {
  if (size - pos < kTypedHeaderBytes) return 0;
  const std::uint32_t length = be32(data + pos + 1);
  if (length < 4 || length > kMessageMax) return kNotFramed;
  return size - pos < 1 + std::size_t{length} ? 0 : pos + 1 + length;
}

Wrote insert_kind(std::string_view sql) {
  std::size_t i = 0;
  while (i < sql.size() && std::isspace(static_cast<unsigned char>(sql[i])) != 0) ++i;
  const std::string start = lowered(sql.substr(i, kInsertIntoChars));
  if (start == "insert into debits") return Wrote::kDebit;
  if (start == "insert into orders") return Wrote::kOrder;
  return Wrote::kNothing;
}

WrittenOrder order_in_sql(std::string_view sql) {
  const Wrote what = insert_kind(sql);
  if (what == Wrote::kNothing) return {};
  const std::int64_t order = first_value_in_sql(lowered(sql));
  return order == 0 ? WrittenOrder{} : WrittenOrder{what, order};
}

std::int64_t first_bind_value(const std::uint8_t* body, std::size_t size) {
  std::size_t pos = 0;
  (void)cstring(body, size, pos);  // portal
  (void)cstring(body, size, pos);  // statement
  auto int16_at = [&](std::int64_t& out) {
    if (pos > size || size - pos < 2) return false;
    out = (body[pos] << 8) | body[pos + 1];
    pos += 2;
    return true;
  };
  std::int64_t formats = 0;
  if (!int16_at(formats)) return 0;
  for (std::int64_t f = 0, code = 0; f < formats; ++f) {
    if (!int16_at(code)) return 0;
    if (f == 0 && code != 0) return 0;  // binary: not read
  }
  std::int64_t params = 0;
  if (!int16_at(params) || params < 1 || size - pos < 4) return 0;
  const auto length = static_cast<std::int32_t>(be32(body + pos));
  pos += 4;
  if (length <= 0 || size - pos < static_cast<std::size_t>(length)) return 0;
  const std::string_view value(reinterpret_cast<const char*>(body) + pos,
                               static_cast<std::size_t>(length));
  return value.find_first_not_of("0123456789") == std::string_view::npos ? number_at(value, 0) : 0;
}

FramerFactory postgres_framing(CommitJudge judge) {
  auto shared = std::make_shared<const CommitJudge>(std::move(judge));
  return [shared](const ConnectionId& id) -> std::unique_ptr<Framer> {
    return std::make_unique<PostgresFramer>(shared, id);
  };
}

}  // namespace live
