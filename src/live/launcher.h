#pragma once
// A private RabbitMQ on loopback for tests and tools: Debian's rabbitmq-server (3.10),
// started as a child of this process with its own data folder, ports and epmd, so several
// can run at once on one machine and none touches a system broker.
// Why this way: the /usr/sbin wrappers switch user and use /var/lib/rabbitmq, so the
// scripts in /usr/lib/rabbitmq/bin are run directly, with HOME (where Erlang writes its
// cookie), config, data and log folders and every port private and on 127.0.0.1. epmd is
// started first, on loopback and a port of its own, and the Erlang VMs are told not to
// start one: one they start by themselves lingers after the broker.
//
// Contract:
//  - start() returns only when the broker answers (AMQP port open and a login with the
//    node's user succeeds), or with an error; a failed start is tried
//    again (3 attempts in all), each attempt on new ports in a new folder and bounded by
//    ready_timeout_ms. Without rabbitmq-server installed the error is one line saying how to
//    install it.
//  - restart(kClean) stops the node with SIGTERM (clients see connection.close 320) and
//    starts it again; restart(kKill) SIGKILLs it (clients see a reset, nothing unsynced is
//    kept). Same data folder, same ports: durable state survives.
//  - stop() (and the destructor) end the node and its epmd by PID and wait until their
//    process groups are empty; the data folder is removed. Also on a failed test or an
//    interruption: see process.h (process groups, PDEATHSIG, signal handlers).
//
//  - The node is private: it has no `guest` account, only a user whose name and password
//    are made at random for it (endpoint() holds them), written to its rabbitmq.conf (mode
//    0600 in a 0700 folder); another user of the machine can neither log in to it nor,
//    through a fault proxy in front of it, get past the AMQP login.
//
// Invariants: while a PrivateBroker exists (and is not stopped), exactly one node and one
// epmd run for it, both registered for cleanup on a fatal signal.

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/live/endpoint.h"
#include "src/live/status.h"

namespace live {

struct LaunchOptions {
  // rabbitmq.conf `consumer_timeout` in ms; 0 = the broker's default (30 minutes).
  int consumer_timeout_ms = 0;
  // How often a channel checks consumer_timeout (RabbitMQ's channel_tick_interval, default
  // 60 s). A short tick makes a timeout show up within a second or two of expiring.
  int channel_tick_ms = 0;
  int ready_timeout_ms = 90000;  // start (and each restart) gives up after this
  std::string rabbitmq_bin_dir = "/usr/lib/rabbitmq/bin";
};

// Three distinct free loopback ports for a broker (AMQP, distribution, epmd), chosen at
// random BELOW the kernel's ephemeral range. They are released before the broker binds
// them; in the ephemeral range, another process's bind(0) or outgoing connection could
// take one meanwhile (a fault proxy of a test running beside this one did: the readiness
// check then reached the proxy, not the node). Below it only another picker can, which is
// rare, and such a start fails and is tried again on new ports.
Status pick_broker_ports(std::array<int, 3>& ports);

// The last `count` lines of a log file ("" when it cannot be read), to explain a failed start.
std::string last_lines(const std::string& path, std::size_t count);

// True when something accepts a TCP connection on 127.0.0.1:port now.
bool loopback_port_open(int port);

// Writes `text` to `path`, mode 0600: a private server's configuration holds its password
// (rabbitmq.conf, redis.conf).
Status write_secret_file(const std::string& path, const std::string& text);

// `bytes` random bytes from the kernel as hex (std::random_device reads /dev/urandom or
// uses RDRAND; either is unpredictable to another user of the machine): passwords.
std::string random_hex(int bytes);

enum class RestartKind { kClean, kKill };

class PrivateBroker {
 public:
  static Status start(const LaunchOptions& options, std::unique_ptr<PrivateBroker>& out);
  ~PrivateBroker();
  PrivateBroker(const PrivateBroker&) = delete;
  PrivateBroker& operator=(const PrivateBroker&) = delete;

  const Endpoint& endpoint() const { return endpoint_; }
  // How long start() took, every attempt included (ms).
  std::int64_t start_ms() const { return start_ms_; }
  Status restart(RestartKind kind);
  // Sets the node's consumer_timeout (ms; 0 = RabbitMQ's default, 30 minutes) for the
  // channels opened from now on: `rabbitmqctl eval` with application:set_env, the runtime
  // form of rabbitmq.conf's key (a channel reads it when it opens; RabbitMQ 3.10 has no
  // per-queue argument for it). rabbitmq.conf is rewritten too, so a restart keeps it.
  // A no-op when the value is already set.
  Status set_consumer_timeout(int ms);
  int consumer_timeout_ms() const { return options_.consumer_timeout_ms; }
  // Writes the node's definitions (queues declared so far) to disk now: `rabbitmqctl
  // eval` with mnesia:sync_log(). RabbitMQ answers queue.declare-ok before Mnesia's log
  // holds the declaration on disk, so a node SIGKILLed shortly after comes back without
  // the queue - and without the confirmed persistent messages it held.
  Status sync_definitions();
  // A user of the node's own database, with no permissions yet: for tests of a broker that
  // refuses a user (one who may not use the vhost, or may not declare queues). The
  // password is on rabbitmqctl's command line, which every local user can read: only for
  // a throwaway test user, never the node's own.
  Status add_user(const std::string& user, const std::string& password);
  // The user's configure, write and read permissions on the vhost "/" (regular
  // expressions; "" = none).
  Status set_permissions(const std::string& user, const std::string& configure,
                         const std::string& write, const std::string& read);
  // Idempotent. Returns false if a process group could not be emptied (it was SIGKILLed).
  bool stop();

  pid_t node_pid() const { return node_pid_; }  // 0 while down
  pid_t epmd_pid() const { return epmd_pid_; }
  const std::string& data_dir() const { return dir_; }
  // The last lines of the node's log, to explain a failed start.
  std::string log_tail() const;

 private:
  PrivateBroker() = default;
  static Status start_once(const LaunchOptions& options, std::unique_ptr<PrivateBroker>& out);
  Status write_config() const;
  std::vector<std::string> environment() const;
  Status start_epmd();
  Status start_node();
  Status wait_ready();
  // Runs `rabbitmqctl eval EXPR` against the node; an error unless it exits 0.
  Status eval(const std::string& expr);
  // Runs `rabbitmqctl ARGS...` against the node; an error unless it exits 0.
  Status ctl(const std::vector<std::string>& args);
  void stop_node(int signal);

  LaunchOptions options_;
  Endpoint endpoint_;
  std::string dir_;
  int dist_port_ = 0;
  int epmd_port_ = 0;
  pid_t node_pid_ = 0;
  std::int64_t start_ms_ = 0;
  pid_t epmd_pid_ = 0;
};

// "" if rabbitmq-server is installed; otherwise the one line saying how to install it.
std::string missing_rabbitmq(const LaunchOptions& options);

}  // namespace live
