#include "src/live/redis_store.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <fstream>
#include <vector>

#include "src/live/postgres_store.h"  // open_postgres

namespace live {

namespace {

constexpr int kTimeoutS = 10;

using Reply = std::unique_ptr<redisReply, void (*)(void*)>;

// The consumer's statements on its separate store, whitespace folded (redis_store.h).
constexpr const char* kExists = "SELECT 1 FROM seen WHERE message_id = ?1";
constexpr const char* kMark = "INSERT INTO seen(message_id, order_id, tick) VALUES(?1, ?2, ?3)";
constexpr const char* kExpire = "DELETE FROM seen WHERE tick < ?1";

std::string folded(std::string_view sql) {
  std::string out;
  for (const char c : sql) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) {
      out += c;
    } else if (!out.empty() && out.back() != ' ') {
      out += ' ';
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  return out;
}

bool number_of(std::string_view text, std::int64_t& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

// One command, its arguments binary-safe; null when no answer came (the connection broke).
Reply send(redisContext* c, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lens;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  return Reply(static_cast<redisReply*>(
                   redisCommandArgv(c, static_cast<int>(argv.size()), argv.data(), lens.data())),
               freeReplyObject);
}

// Connects, logs in and selects the database; "" or why not (never the password).
std::string connect(const RedisUrl& u, redisContext*& out) {
  const timeval tv{kTimeoutS, 0};
  out = redisConnectWithTimeout(u.host.c_str(), u.port, tv);
  if (out == nullptr) return "cannot allocate a Redis connection";
  if (out->err != 0)
    return "cannot connect to " + u.host + ":" + std::to_string(u.port) + ": " + out->errstr;
  redisSetTimeout(out, tv);
  auto ask = [&](const std::vector<std::string>& args) -> std::string {
    const Reply r = send(out, args);
    if (!r) return std::string("no answer: ") + out->errstr;
    if (r->type == REDIS_REPLY_ERROR) return std::string(r->str, r->len);
    return "";
  };
  if (!u.password.empty()) {
    const std::string why =
        u.user.empty() ? ask({"AUTH", u.password}) : ask({"AUTH", u.user, u.password});
    if (!why.empty()) return "login refused: " + why;
  }
  if (u.db != 0) {
    if (std::string why = ask({"SELECT", std::to_string(u.db)}); !why.empty()) return why;
  }
  return "";
}

class RedisConn final : public store::RemoteConn {
 public:
  RedisConn(RedisUrl url, redisContext* c) : url_(std::move(url)), c_(c) {}
  ~RedisConn() override { redisFree(c_); }
  RedisConn(const RedisConn&) = delete;
  RedisConn& operator=(const RedisConn&) = delete;

  store::Status run(const std::string& sql, const std::vector<store::Value>& params,
                    store::RemoteRows& out) override {
    auto param = [&](std::size_t i) { return i < params.size() && params[i] ? *params[i] : ""; };
    if (sql == kExpire) return store::Status::success();  // the keys' TTL does it
    const std::string key = url_.prefix + "seen:" + param(0);
    if (sql == kExists) {
      Reply r = command({"EXISTS", key});
      if (!r) return lost();
      if (r->type != REDIS_REPLY_INTEGER) return refused(r.get(), "EXISTS");
      if (r->integer > 0) out.rows.push_back({store::Value("1")});
      return store::Status::success();
    }
    if (sql == kMark) {
      std::vector<std::string> args = {"SET", key, param(1) + " " + param(2), "NX"};
      if (url_.ttl_ms > 0) args.insert(args.end(), {"PX", std::to_string(url_.ttl_ms)});
      Reply r = command(args);
      if (!r) return lost();
      if (r->type == REDIS_REPLY_NIL) {
        return store::Status::from_sqlstate("23505", "Redis: SET NX: " + key + " exists");
      }
      if (r->type != REDIS_REPLY_STATUS) return refused(r.get(), "SET");
      out.changes = 1;
      return store::Status::success();
    }
    return unknown(sql);
  }

  store::Status run_script(const std::string& sql) override {
    return sql.empty() ? store::Status::success() : unknown(sql);
  }

  bool in_transaction() const override { return false; }

  // SQLite's text, whitespace folded; "" (nothing to do) for a PRAGMA.
  std::string dialect(std::string_view sqlite_sql) const override {
    std::string sql = folded(sqlite_sql);
    return sql.rfind("PRAGMA", 0) == 0 ? "" : sql;
  }

 private:
  // One command; null when the connection broke (it is opened again next time).
  Reply command(const std::vector<std::string>& args) {
    Reply none(nullptr, freeReplyObject);
    if (c_ == nullptr || c_->err != 0) {
      redisFree(c_);
      c_ = nullptr;
      if (!connect(url_, c_).empty()) return none;
    }
    return send(c_, args);
  }

  store::Status lost() const {
    const std::string why = c_ != nullptr && c_->err != 0 ? c_->errstr : "no connection";
    return store::Status::from_sqlstate("08006", "Redis: connection lost: " + why);
  }

  // An answer Redis should not give here (an error reply): eosim's trouble or the
  // server's (out of memory), never the design's.
  static store::Status refused(const redisReply* r, const char* what) {
    const std::string text =
        r->type == REDIS_REPLY_ERROR ? std::string(r->str, r->len) : "an unexpected reply";
    return store::Status::from_sqlstate("58000", std::string("Redis: ") + what + ": " + text);
  }

  static store::Status unknown(const std::string& sql) {
    return store::Status::from_sqlstate(
        "58000",
        "Redis: the dedup store answers only the separate store's three statements, "
        "not: " +
            sql.substr(0, 80));
  }

  RedisUrl url_;
  redisContext* c_;
};

// redis://[[user]:password@]host[:port][/db] before the query.
Status parse_authority(std::string_view rest, RedisUrl& out) {
  if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
    const std::string_view info = rest.substr(0, at);
    const auto colon = info.find(':');
    out.user = std::string(info.substr(0, colon));
    if (colon != std::string_view::npos) out.password = std::string(info.substr(colon + 1));
    rest.remove_prefix(at + 1);
  }
  if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
    std::int64_t db = 0;
    const std::string_view text = rest.substr(slash + 1);
    if (!text.empty() && !number_of(text, db)) return Status::error("the database is no number");
    out.db = static_cast<int>(db);
    rest = rest.substr(0, slash);
  }
  if (const auto colon = rest.find(':'); colon != std::string_view::npos) {
    std::int64_t port = 0;
    if (!number_of(rest.substr(colon + 1), port) || port < 1 || port > 65535) {
      return Status::error("the port is no number from 1 to 65535");
    }
    out.port = static_cast<int>(port);
    rest = rest.substr(0, colon);
  }
  out.host = std::string(rest);
  if (out.host.empty()) return Status::error("no host");
  return Status::success();
}

Status parse_query(std::string_view query, RedisUrl& out) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const auto eq = pair.find('=');
    const std::string name(pair.substr(0, eq));
    const std::string value(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
    if (name == "prefix") {
      out.prefix = value;
    } else if (name == "ttl_ms") {
      if (!number_of(value, out.ttl_ms)) return Status::error("ttl_ms is no number");
    } else if (name == "passfile") {
      std::ifstream in(value);
      if (!in || !std::getline(in, out.password)) return Status::error("cannot read " + value);
    } else {
      return Status::error("unknown parameter " + name);
    }
  }
  return Status::success();
}

store::Status open_server(const std::string& url, std::unique_ptr<store::RemoteConn>& out) {
  if (is_redis_url(url)) return open_redis(url, out);
  return open_postgres(url, out);
}

}  // namespace

bool is_redis_url(const std::string& url) { return url.rfind("redis://", 0) == 0; }

Status parse_redis_url(const std::string& url, RedisUrl& out) {
  out = RedisUrl{};
  if (!is_redis_url(url)) return Status::error("not a redis:// URL");
  std::string_view rest(url);
  rest.remove_prefix(8);
  const auto q = rest.find('?');
  Status st = parse_authority(rest.substr(0, q), out);
  if (st.ok() && q != std::string_view::npos) st = parse_query(rest.substr(q + 1), out);
  if (!st.ok()) return Status::error("Redis URL: " + st.message);
  return Status::success();
}

store::Status open_redis(const std::string& url, std::unique_ptr<store::RemoteConn>& out) {
  RedisUrl u;
  if (Status st = parse_redis_url(url, u); !st.ok()) {
    return store::Status::from_sqlstate("08001", st.message);
  }
  redisContext* c = nullptr;
  if (const std::string why = connect(u, c); !why.empty()) {
    redisFree(c);
    return store::Status::from_sqlstate("08001", "Redis: " + why);
  }
  out = std::make_unique<RedisConn>(std::move(u), c);
  return store::Status::success();
}

void install_server_stores() { store::set_remote_opener(&open_server); }

std::string ping_redis(const std::string& url) {
  RedisUrl u;
  if (Status st = parse_redis_url(url, u); !st.ok()) return st.message;
  redisContext* c = nullptr;
  std::string why = connect(u, c);
  if (why.empty()) {
    const Reply r = send(c, {"PING"});
    if (!r || r->type != REDIS_REPLY_STATUS || std::string(r->str, r->len) != "PONG") {
      why = "no PONG";
    }
  }
  redisFree(c);
  return why;
}

std::string redis_via_proxy(const std::string& url, int port) {
  constexpr std::size_t kScheme = 8;  // "redis://", as parse_redis_url reads it
  if (!is_redis_url(url)) return url;
  const std::size_t query = std::min(url.find('?', kScheme), url.size());
  const std::string_view authority(url.data() + kScheme, query - kScheme);
  const std::size_t at = authority.rfind('@');
  const std::size_t host = at == std::string_view::npos ? kScheme : kScheme + at + 1;
  const std::size_t slash = std::min(url.find('/', host), query);
  return url.substr(0, host) + "127.0.0.1:" + std::to_string(port) + url.substr(slash);
}

std::string run_dedup_url(const std::string& base, const std::string& prefix, std::int64_t ttl_ms) {
  std::string url = base + (base.find('?') == std::string::npos ? "?" : "&") + "prefix=" + prefix;
  if (ttl_ms > 0) url += "&ttl_ms=" + std::to_string(ttl_ms);
  return url;
}

std::string new_run_prefix() {
  static std::atomic<int> runs{0};
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  return "eosim-run-" + std::to_string(::getpid()) + "-" + std::to_string(ms) + "-" +
         std::to_string(++runs) + ":";
}

Status count_run_keys(const std::string& url, std::int64_t& count) {
  RedisUrl u;
  if (Status st = parse_redis_url(url, u); !st.ok()) return st;
  redisContext* c = nullptr;
  if (const std::string why = connect(u, c); !why.empty()) {
    redisFree(c);
    return Status::error("Redis: " + why);
  }
  count = 0;
  std::string cursor = "0";
  const std::string match = u.prefix + "*";
  Status result;
  do {
    const Reply r = send(c, {"SCAN", cursor, "MATCH", match, "COUNT", "1000"});
    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2) {
      result = Status::error("Redis: SCAN failed");
      break;
    }
    cursor = std::string(r->element[0]->str, r->element[0]->len);
    count += static_cast<std::int64_t>(r->element[1]->elements);
  } while (cursor != "0");
  redisFree(c);
  return result;
}

}  // namespace live
