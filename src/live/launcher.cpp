#include "src/live/launcher.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "src/live/amqp_client.h"
#include "src/live/process.h"
#include "src/live/temp_folders.h"

namespace live {

namespace fs = std::filesystem;

namespace {

constexpr int kStopTimeoutMs = 30000;
constexpr int kStartAttempts = 3;
// RabbitMQ's consumer_timeout when rabbitmq.conf does not set it (rabbit.app, 3.8.15 on).
constexpr int kDefaultConsumerTimeoutMs = 1800000;

// The kernel's ephemeral range: the ports it hands to bind(0) and to outgoing connections.
int ephemeral_low() {
  std::ifstream in("/proc/sys/net/ipv4/ip_local_port_range");
  int low = 0;
  int high = 0;
  return (in >> low >> high) && low > 0 ? low : 32768;
}

}  // namespace

Status pick_broker_ports(std::array<int, 3>& ports) {
  constexpr int kLow = 10000;
  const int high = ephemeral_low();
  if (high - kLow < 1000) {
    return Status::error("no loopback port range below the ephemeral range (starts at " +
                         std::to_string(high) + ")");
  }
  std::random_device random;  // live/ only: ports need not repeat from run to run
  std::array<int, 3> fds{-1, -1, -1};
  std::size_t got = 0;
  for (int tries = 0; tries < 1000 && got < fds.size(); ++tries) {
    const int port = kLow + static_cast<int>(random() % static_cast<unsigned>(high - kLow));
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) break;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
      fds[got] = fd;  // stays bound until all are picked: the three are distinct
      ports[got++] = port;
    } else {
      ::close(fd);
    }
  }
  for (int fd : fds) {
    if (fd >= 0) ::close(fd);
  }
  if (got < fds.size()) return Status::error("no free loopback port below " + std::to_string(high));
  return Status::success();
}

bool loopback_port_open(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

Status write_secret_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.close();
  std::error_code ec;
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write, ec);
  if (!out || ec) return Status::error("cannot write " + path);
  return Status::success();
}

std::string random_hex(int bytes) {
  std::random_device random;
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < bytes; ++i) {
    const unsigned byte = random() & 0xffu;
    out += kDigits[byte >> 4];
    out += kDigits[byte & 0xfu];
  }
  return out;
}

std::string missing_rabbitmq(const LaunchOptions& options) {
  const fs::path server = fs::path(options.rabbitmq_bin_dir) / "rabbitmq-server";
  if (::access(server.c_str(), X_OK) == 0) return "";
  return "rabbitmq-server is not installed (" + server.string() +
         " missing): run `sudo bash scripts/setup.sh` (or `sudo apt-get install "
         "rabbitmq-server`), or use a broker of yours (eosim live --broker URL; the tests: "
         "EOSIM_AMQP_URL)";
}

Status PrivateBroker::start(const LaunchOptions& options, std::unique_ptr<PrivateBroker>& out) {
  if (std::string missing = missing_rabbitmq(options); !missing.empty()) {
    return Status::error(missing);
  }
  // Another broker starting at the same moment (a second test run on the machine) can
  // take the ports this one picked before it binds them, and the start fails; the next
  // attempt picks new ports in a new folder. A failed attempt leaves nothing behind (its
  // PrivateBroker is destroyed: processes stopped, folder removed).
  const auto began = std::chrono::steady_clock::now();
  Status last;
  for (int attempt = 1; attempt <= kStartAttempts; ++attempt) {
    last = start_once(options, out);
    if (last.ok()) out->start_ms_ = elapsed_ms(began);
    if (last.ok() || interrupted() != 0) return last;
  }
  return Status::error("rabbitmq-server did not start in " + std::to_string(kStartAttempts) +
                       " attempts; the last: " + last.message);
}

Status PrivateBroker::start_once(const LaunchOptions& options,
                                 std::unique_ptr<PrivateBroker>& out) {
  std::unique_ptr<PrivateBroker> broker(new PrivateBroker());
  broker->options_ = options;
  std::string tmpl = (fs::temp_directory_path() / "eosim-rabbit-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) return Status::error("mkdtemp failed for " + tmpl);
  broker->dir_ = tmpl;
  // Removed by the next `eosim live` if this process is SIGKILLed (temp_folders.h).
  if (Status s = claim_folder(tmpl); !s.ok()) return s;
  std::array<int, 3> ports{};
  if (Status s = pick_broker_ports(ports); !s.ok()) return s;
  broker->endpoint_.port = ports[0];
  // The node's only user, made at its first start in place of RabbitMQ's `guest`/`guest`
  // (which any local user could log in with): a name and password of this run's own.
  broker->endpoint_.user = "eosim-" + random_hex(4);
  broker->endpoint_.password = random_hex(16);
  broker->dist_port_ = ports[1];
  broker->epmd_port_ = ports[2];
  if (Status s = broker->write_config(); !s.ok()) return s;
  if (Status s = broker->start_epmd(); !s.ok()) return s;
  if (Status s = broker->start_node(); !s.ok()) return s;
  out = std::move(broker);
  return Status::success();
}

PrivateBroker::~PrivateBroker() { stop(); }

Status PrivateBroker::write_config() const {
  const fs::path dir(dir_);
  std::error_code ec;
  for (const char* sub : {"home", "mnesia", "log"}) fs::create_directories(dir / sub, ec);
  std::ostringstream conf;
  conf << "listeners.tcp.1 = 127.0.0.1:" << endpoint_.port << "\n";
  conf << "default_user = " << endpoint_.user << "\n";
  conf << "default_pass = " << endpoint_.password << "\n";
  if (options_.consumer_timeout_ms > 0) {
    conf << "consumer_timeout = " << options_.consumer_timeout_ms << "\n";
  }
  std::string advanced = "[].\n";
  if (options_.channel_tick_ms > 0) {
    advanced = "[{rabbit, [{channel_tick_interval, " + std::to_string(options_.channel_tick_ms) +
               "}]}].\n";
  }
  for (Status s : {write_secret_file(dir / "rabbitmq.conf", conf.str()),
                   write_secret_file(dir / "advanced.config", advanced),
                   write_secret_file(dir / "enabled_plugins", "[].\n"),
                   write_secret_file(dir / "rabbitmq-env.conf", "")}) {
    if (!s.ok()) return s;
  }
  return Status::success();
}

std::vector<std::string> PrivateBroker::environment() const {
  const std::string dir = dir_;
  // -start_epmd false: we run epmd ourselves; otherwise every VM, the CLI's included, forks
  // an `epmd -daemon` of its own (which fails on our port and lingers as a zombie).
  const std::string loopback = "-kernel inet_dist_use_interface {127,0,0,1} -start_epmd false";
  // No busy waiting: an idle scheduler of the VM spins before it sleeps, by default, and a
  // private broker that waits for the lab's few messages would burn a core doing it.
  const std::string no_spin = " +sbwt none +sbwtdcpu none +sbwtdio none";
  return {
      "HOME=" + dir + "/home",
      "RABBITMQ_CONFIG_FILE=" + dir + "/rabbitmq.conf",
      "RABBITMQ_ADVANCED_CONFIG_FILE=" + dir + "/advanced.config",
      "RABBITMQ_CONF_ENV_FILE=" + dir + "/rabbitmq-env.conf",
      "RABBITMQ_ENABLED_PLUGINS_FILE=" + dir + "/enabled_plugins",
      "RABBITMQ_MNESIA_BASE=" + dir + "/mnesia",
      "RABBITMQ_LOG_BASE=" + dir + "/log",
      "RABBITMQ_NODENAME=rabbit@localhost",
      "RABBITMQ_NODE_IP_ADDRESS=127.0.0.1",
      "RABBITMQ_NODE_PORT=" + std::to_string(endpoint_.port),
      "RABBITMQ_DIST_PORT=" + std::to_string(dist_port_),
      "ERL_EPMD_ADDRESS=127.0.0.1",
      "ERL_EPMD_PORT=" + std::to_string(epmd_port_),
      "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=" + loopback + no_spin,
      "RABBITMQ_CTL_ERL_ARGS=" + loopback + no_spin,
      // The script then execs the VM instead of wrapping it in a shell: the PID we hold is
      // the node itself, and PDEATHSIG reaches it.
      "RUNNING_UNDER_SYSTEMD=true",
  };
}

Status PrivateBroker::start_epmd() {
  ChildSpec spec;
  spec.argv = {"/usr/bin/epmd", "-address", "127.0.0.1", "-port", std::to_string(epmd_port_)};
  if (::access(spec.argv[0].c_str(), X_OK) != 0) spec.argv[0] = "/usr/lib/erlang/bin/epmd";
  spec.env = environment();
  spec.output_path = dir_ + "/log/epmd.out";
  if (Status s = spawn(spec, epmd_pid_); !s.ok()) return s;
  register_group(epmd_pid_);
  for (int waited = 0; waited < 10000; waited += 50) {
    if (loopback_port_open(epmd_port_)) return Status::success();
    if (!group_alive(epmd_pid_)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Status::error("epmd did not listen on 127.0.0.1:" + std::to_string(epmd_port_));
}

Status PrivateBroker::start_node() {
  ChildSpec spec;
  spec.argv = {options_.rabbitmq_bin_dir + "/rabbitmq-server"};
  spec.env = environment();
  spec.output_path = dir_ + "/log/server.out";
  if (Status s = spawn(spec, node_pid_); !s.ok()) return s;
  register_group(node_pid_);
  return wait_ready();
}

Status PrivateBroker::wait_ready() {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.ready_timeout_ms);
  while (!loopback_port_open(endpoint_.port)) {
    if (interrupted() != 0) return Status::error("interrupted while rabbitmq-server started");
    if (!group_alive(node_pid_)) {
      return Status::error("rabbitmq-server exited while starting; its log:\n" + log_tail());
    }
    if (Clock::now() > deadline) {
      return Status::error("rabbitmq-server did not open its port within " +
                           std::to_string(options_.ready_timeout_ms / 1000) + " s; its log:\n" +
                           log_tail());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  // Ready when it takes a login: RabbitMQ opens its listener only after the boot steps that
  // recover the queues and make the vhost and the user, so a login that succeeds means a
  // broker that serves. (`rabbitmq-diagnostics ping` started an Erlang VM of its own at
  // every start and restart: 1.2-1.7 CPU-s and 3-13 s on a loaded machine.)
  for (;;) {
    std::unique_ptr<AmqpClient> client;
    const Status login = AmqpClient::connect(endpoint_, ClientOptions{}, client);
    if (login.ok()) return Status::success();
    if (interrupted() != 0) return Status::error("interrupted while rabbitmq-server started");
    if (!group_alive(node_pid_)) {
      return Status::error("rabbitmq-server exited while starting; its log:\n" + log_tail());
    }
    if (Clock::now() > deadline) {
      return Status::error("rabbitmq-server took no login within " +
                           std::to_string(options_.ready_timeout_ms / 1000) +
                           " s (the last attempt: " + login.message + "); its log:\n" +
                           log_tail());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void PrivateBroker::stop_node(int sig) { stop_group(node_pid_, sig, kStopTimeoutMs); }

Status PrivateBroker::eval(const std::string& expr) { return ctl({"eval", expr}); }

Status PrivateBroker::ctl(const std::vector<std::string>& args) {
  ChildSpec ctl;
  ctl.argv = {options_.rabbitmq_bin_dir + "/rabbitmqctl", "-q"};
  ctl.argv.insert(ctl.argv.end(), args.begin(), args.end());
  ctl.env = environment();
  ctl.output_path = dir_ + "/log/ctl.out";
  int code = 0;
  if (Status s = run_to_end(ctl, 30000, code); !s.ok()) return s;
  if (code != 0) {
    return Status::error("rabbitmqctl " + args.front() + " failed (exit " +
                         std::to_string(code) + "), see " + ctl.output_path);
  }
  return Status::success();
}

Status PrivateBroker::add_user(const std::string& user, const std::string& password) {
  return ctl({"add_user", user, password});
}

Status PrivateBroker::set_permissions(const std::string& user, const std::string& configure,
                                      const std::string& write, const std::string& read) {
  return ctl({"set_permissions", "-p", "/", user, configure, write, read});
}

Status PrivateBroker::set_consumer_timeout(int ms) {
  if (ms == options_.consumer_timeout_ms) return Status::success();
  options_.consumer_timeout_ms = ms;
  if (Status s = write_config(); !s.ok()) return s;
  const int value = ms > 0 ? ms : kDefaultConsumerTimeoutMs;
  return eval("application:set_env(rabbit, consumer_timeout, " + std::to_string(value) + ").");
}

Status PrivateBroker::sync_definitions() { return eval("mnesia:sync_log()."); }

Status PrivateBroker::restart(RestartKind kind) {
  stop_node(kind == RestartKind::kClean ? SIGTERM : SIGKILL);
  return start_node();
}

bool PrivateBroker::stop() {
  bool clean = true;
  for (pid_t* pid : {&node_pid_, &epmd_pid_}) {
    if (!stop_group(*pid, SIGTERM, kStopTimeoutMs)) clean = false;
  }
  if (!dir_.empty()) {
    release_folder(dir_);
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  }
  return clean;
}

std::string PrivateBroker::log_tail() const { return last_lines(dir_ + "/log/server.out", 20); }

std::string last_lines(const std::string& path, std::size_t count) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::string out;
  for (std::size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i) {
    out += lines[i] + "\n";
  }
  return out;
}

}  // namespace live
