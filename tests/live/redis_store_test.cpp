// The private Redis (src/live/redis_launcher.h) and the separate dedup store on it
// (src/live/redis_store.h): the server on loopback only, with a password nobody else
// knows; the consumer's three statements as Redis commands (a key marked twice is a unique
// violation, as the table's primary key makes it); dedup_retention as the key's TTL; a
// server that died is a lost connection, never an answer; a stop leaves no process and no
// folder; its owner SIGKILLed, the server goes too; a missing package is one line saying
// what to install. Outcomes only: no test here measures how long anything took.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "src/live/process.h"
#include "src/live/redis_launcher.h"
#include "src/live/redis_store.h"
#include "src/store/db.h"
#include "tests/live/owner_killed.h"

namespace {

namespace fs = std::filesystem;

constexpr const char* kRedisExists = "SELECT 1 FROM seen WHERE message_id = ?1";
constexpr const char* kRedisMark =
    "INSERT INTO seen(message_id, order_id, tick) VALUES(?1, ?2, ?3)";

bool redis_gone(pid_t pid) { return live_test::process_gone(pid); }

bool redis_seen(store::Db& db, const std::string& id) {
  store::Stmt& st = db.statement(kRedisExists).bind(1, id);
  bool row = false;
  const store::Status s = st.step(row);
  st.reset();
  INFO(s.to_string());
  CHECK(s.ok());
  return row;
}

store::Status redis_mark(store::Db& db, const std::string& id) {
  return db.statement(kRedisMark)
      .bind(1, id)
      .bind(2, std::int64_t{2})
      .bind(3, std::int64_t{40})
      .exec();
}

std::int64_t redis_keys(const std::string& url) {
  std::int64_t n = -1;
  REQUIRE(live::count_run_keys(url, n).ok());
  return n;
}

}  // namespace

TEST_CASE("private Redis: loopback, a secret password, stop leaves nothing", "[live-redis]") {
  std::unique_ptr<live::PrivateRedis> redis;
  const live::Status st = live::PrivateRedis::start({}, redis);
  INFO(st.message);
  REQUIRE(st.ok());
  const std::string dir = redis->dir();
  const pid_t pid = redis->pid();
  CHECK(pid > 0);
  CHECK(live::ping_redis(redis->url()).empty());
  for (const char* secret : {"/redis.conf", "/password"}) {
    struct stat info {};
    REQUIRE(::stat((dir + secret).c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);
  }
  // Without the password the server answers nothing but NOAUTH; a wrong one is refused.
  const std::string port = std::to_string(redis->port());
  CHECK_FALSE(live::ping_redis("redis://127.0.0.1:" + port + "/0").empty());
  CHECK(live::ping_redis("redis://:wrong@127.0.0.1:" + port + "/0").find("login refused") !=
        std::string::npos);
  live::RedisUrl parsed;
  REQUIRE(live::parse_redis_url(redis->url(), parsed).ok());
  CHECK(parsed.host == "127.0.0.1");  // loopback only: bind 127.0.0.1 in its redis.conf
  CHECK(redis->url().find(parsed.password) == std::string::npos);  // the password is in a file

  CHECK(redis->stop());
  CHECK(redis_gone(pid));
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("Redis dedup store: SET NX marks once, a second mark is a unique violation",
          "[live-redis]") {
  std::unique_ptr<live::PrivateRedis> redis;
  REQUIRE(live::PrivateRedis::start({}, redis).ok());
  live::install_server_stores();
  const std::string url = live::run_dedup_url(redis->url(), live::new_run_prefix(), 0);
  store::Db db;
  const store::Status opened = store::Db::open(url, db);
  INFO(opened.to_string());
  REQUIRE(opened.ok());
  CHECK(db.exec("PRAGMA journal_mode=WAL").ok());  // means nothing to Redis: nothing done
  CHECK_FALSE(redis_seen(db, "order-2"));
  const store::Status first = redis_mark(db, "order-2");
  INFO(first.to_string());
  CHECK(first.ok());
  CHECK(db.changes() == 1);
  CHECK(redis_seen(db, "order-2"));
  CHECK_FALSE(redis_seen(db, "order-3"));
  const store::Status again = redis_mark(db, "order-2");
  CHECK(again.is_unique_violation());
  CHECK(again.sqlstate == "23505");
  // The model's cleanup job: nothing to do on Redis, whose keys expire by their TTL.
  CHECK(db.statement("DELETE FROM seen WHERE tick < ?1").bind(1, std::int64_t{100}).exec().ok());
  CHECK(redis_seen(db, "order-2"));
  CHECK(redis_keys(url) == 1);
  // Another run's prefix sees none of this run's keys.
  CHECK(redis_keys(live::run_dedup_url(redis->url(), live::new_run_prefix(), 0)) == 0);
  // A statement the dedup store does not know ends the run: eosim's trouble, no answer.
  const store::Status unknown = db.exec("CREATE TABLE other(x INTEGER)");
  CHECK(unknown.kind == store::ErrorKind::kEnvironment);

  // The server gone: a lost connection (the consumer nacks), never "not seen".
  const pid_t pid = redis->pid();
  ::kill(pid, SIGKILL);
  REQUIRE(redis_gone(pid));
  store::Stmt& check = db.statement(kRedisExists).bind(1, "order-2");
  bool row = false;
  const store::Status lost = check.step(row);
  check.reset();
  CHECK(lost.kind == store::ErrorKind::kConnectionLost);
  CHECK_FALSE(row);
  db.close();
  redis->stop();
}

TEST_CASE("Redis dedup store: dedup_retention is the key's TTL", "[live-redis]") {
  std::unique_ptr<live::PrivateRedis> redis;
  REQUIRE(live::PrivateRedis::start({}, redis).ok());
  live::install_server_stores();
  const std::string expiring = live::run_dedup_url(redis->url(), live::new_run_prefix(), 200);
  const std::string kept = live::run_dedup_url(redis->url(), live::new_run_prefix(), 0);
  store::Db a;
  store::Db b;
  REQUIRE(store::Db::open(expiring, a).ok());
  REQUIRE(store::Db::open(kept, b).ok());
  REQUIRE(redis_mark(a, "order-2").ok());
  REQUIRE(redis_mark(b, "order-2").ok());
  // Redis expires the key itself; waited for (up to 20 s), never timed.
  bool expired = false;
  for (int waited = 0; waited < 20000 && !expired; waited += 50) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    expired = !redis_seen(a, "order-2");
  }
  CHECK(expired);
  CHECK(redis_keys(expiring) == 0);
  CHECK(redis_mark(a, "order-2").ok());  // marked again, as a redelivery would
  CHECK(redis_seen(b, "order-2"));       // without a TTL the key stays
  CHECK(redis_keys(kept) == 1);
  a.close();
  b.close();
  redis->stop();
}

TEST_CASE("private Redis: its owner SIGKILLed, the server goes too", "[live-redis]") {
  // The child's server object is never destroyed: the child dies by SIGKILL.
  static std::unique_ptr<live::PrivateRedis> redis;
  CHECK(live_test::server_dies_with_owner([](pid_t& pid, char* dir) {
    if (!live::PrivateRedis::start({}, redis).ok()) return;
    pid = redis->pid();
    redis->dir().copy(dir, 255);
  }));
}

TEST_CASE("private Redis: without the package, one line saying what to install", "[live-redis]") {
  live::RedisOptions options;
  options.server = "/nonexistent/redis-server";
  std::unique_ptr<live::PrivateRedis> redis;
  const live::Status st = live::PrivateRedis::start(options, redis);
  CHECK_FALSE(st.ok());
  CHECK(st.message.find("apt-get install redis-server libhiredis-dev") != std::string::npos);
  CHECK(st.message.find('\n') == std::string::npos);
  CHECK(redis == nullptr);
}

TEST_CASE("Redis URLs: host, port, database, password file, prefix and TTL", "[live-redis]") {
  live::RedisUrl u;
  REQUIRE(live::parse_redis_url("redis://:pw@db.example:6380/2?prefix=run-1:&ttl_ms=50", u).ok());
  CHECK(u.host == "db.example");
  CHECK(u.port == 6380);
  CHECK(u.db == 2);
  CHECK(u.password == "pw");
  CHECK(u.user.empty());
  CHECK(u.prefix == "run-1:");
  CHECK(u.ttl_ms == 50);
  REQUIRE(live::parse_redis_url("redis://me:pw@h", u).ok());
  CHECK(u.user == "me");
  CHECK(u.port == 6379);
  CHECK_FALSE(live::parse_redis_url("redis://h:99999", u).ok());
  CHECK_FALSE(live::parse_redis_url("redis://h?ttl_ms=soon", u).ok());
  CHECK_FALSE(live::parse_redis_url("redis://h?passfile=/nonexistent/pw", u).ok());
  CHECK_FALSE(live::parse_redis_url("redis://h?colour=red", u).ok());
  CHECK(live::run_dedup_url("redis://h/0?passfile=/p", "x:", 30) ==
        "redis://h/0?passfile=/p&prefix=x:&ttl_ms=30");
  CHECK(live::run_dedup_url("redis://h", "x:", 0) == "redis://h?prefix=x:");
}
