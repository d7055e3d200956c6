#include "src/live/redis_launcher.h"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <thread>

#include "src/live/launcher.h"  // pick_broker_ports, write_secret_file, random_hex, last_lines
#include "src/live/process.h"
#include "src/live/redis_store.h"
#include "src/live/temp_folders.h"

namespace live {

namespace fs = std::filesystem;

namespace {

constexpr int kRedisStopTimeoutMs = 10000;
constexpr int kRedisStartAttempts = 3;

}  // namespace

std::string missing_redis(const RedisOptions& options) {
  if (::access(options.server.c_str(), X_OK) == 0) return "";
  return "Redis is not installed (" + options.server +
         " missing): run `sudo bash scripts/setup.sh` (or `sudo apt-get install redis-server "
         "libhiredis-dev`)";
}

Status PrivateRedis::start(const RedisOptions& options, std::unique_ptr<PrivateRedis>& out) {
  if (std::string missing = missing_redis(options); !missing.empty()) {
    return Status::error(missing);
  }
  // Another server starting at the same moment can take the port picked here before
  // redis-server binds it; the next attempt picks a new one. A failed attempt leaves
  // nothing running and nothing on disk.
  const auto began = std::chrono::steady_clock::now();
  Status last;
  for (int attempt = 1; attempt <= kRedisStartAttempts; ++attempt) {
    std::unique_ptr<PrivateRedis> server(new PrivateRedis());
    server->options_ = options;
    last = server->start_once();
    if (last.ok()) {
      server->start_ms_ = elapsed_ms(began);
      out = std::move(server);
      return last;
    }
    if (interrupted() != 0) return last;
  }
  return Status::error("Redis did not start in " + std::to_string(kRedisStartAttempts) +
                       " attempts; the last: " + last.message);
}

Status PrivateRedis::start_once() {
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "eosim-redis-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return Status::error("mkdtemp failed for " + pattern);
  dir_ = pattern;
  // Removed by the next `eosim live` if this process is SIGKILLed (temp_folders.h).
  if (Status s = claim_folder(dir_); !s.ok()) return s;
  std::array<int, 3> ports{};  // one is needed; the picker hands out three distinct ones
  if (Status s = pick_broker_ports(ports); !s.ok()) return s;
  port_ = ports[0];
  password_ = random_hex(16);
  // logfile "": the log goes to stdout, which is server.log (process.h).
  const std::string conf =
      "port " + std::to_string(port_) + "\nbind 127.0.0.1\nprotected-mode yes\nrequirepass " +
      password_ + "\nsave \"\"\nappendonly no\ndaemonize no\nlogfile \"\"\ndir " + dir_ + "\n";
  if (Status s = write_secret_file(dir_ + "/redis.conf", conf); !s.ok()) return s;
  if (Status s = write_secret_file(dir_ + "/password", password_ + "\n"); !s.ok()) return s;
  ChildSpec spec;
  spec.argv = {options_.server, dir_ + "/redis.conf"};
  spec.output_path = dir_ + "/server.log";
  if (Status s = spawn(spec, pid_); !s.ok()) return s;
  register_group(pid_);
  return wait_ready();
}

Status PrivateRedis::wait_ready() {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.ready_timeout_ms);
  std::string why;
  while (!(why = ping_redis(url())).empty()) {
    if (interrupted() != 0) return Status::error("interrupted while Redis started");
    if (!group_alive(pid_)) {
      return Status::error("Redis exited while starting; its log:\n" + log_tail());
    }
    if (Clock::now() > deadline) {
      return Status::error("Redis did not answer within " +
                           std::to_string(options_.ready_timeout_ms / 1000) + " s (" + why +
                           "); its log:\n" + log_tail());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Status::success();
}

std::string PrivateRedis::url() const {
  return "redis://127.0.0.1:" + std::to_string(port_) + "/0?passfile=" + dir_ + "/password";
}

PrivateRedis::~PrivateRedis() { stop(); }

bool PrivateRedis::stop() {
  // SIGTERM is Redis's shutdown; with no snapshot configured it saves nothing.
  const bool clean = stop_group(pid_, SIGTERM, kRedisStopTimeoutMs);
  if (!dir_.empty()) {
    release_folder(dir_);
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  }
  return clean;
}

std::string PrivateRedis::log_tail() const { return last_lines(dir_ + "/server.log", 20); }

}  // namespace live
