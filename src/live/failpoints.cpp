#include "src/live/failpoints.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "sim/faults.h"
#include "sim/rng.h"
#include "sim/scheduler.h"
#include "sim/trace.h"
#include "src/catalog/fault_sites.h"
#include "src/live/actor_process.h"
#include "src/live/amqp_transport.h"
#include "src/live/run_rules.h"
#include "src/orders/event_kinds.h"
#include "src/orders/fault_site.h"
#include "src/orders/order_key.h"
#include "src/store/db.h"
#include "src/transport/transport.h"

namespace live {

namespace {

// A listening Unix socket at `path` (a stale file there is replaced), or -1 with `why`.
int listen_at(const std::string& path, std::string& why) {
  sockaddr_un addr{};
  if (path.size() >= sizeof addr.sun_path) {
    why = "the failpoint socket path " + path + " is longer than a Unix socket allows (" +
          std::to_string(sizeof addr.sun_path - 1) + " bytes): use a shorter --keep-db";
    return -1;
  }
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  ::unlink(path.c_str());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd, 16) != 0) {
    why = "cannot listen on the failpoint socket " + path + ": " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return -1;
  }
  return fd;
}

// How long a consumer at before_commit waits for the supervisor's restart of the database.
constexpr std::int64_t kDatabaseRestartWaitMs = 60000;

void send_line(int fd, const char* text) {
  const ssize_t n = ::send(fd, text, std::strlen(text), MSG_NOSIGNAL);
  (void)n;  // a consumer that went away asked nothing more
}

}  // namespace

struct FailpointServer::Impl {
  struct Client {
    int fd = -1;
    int instance = 0;
    std::string pending;  // bytes of a line not yet complete
  };

  FailpointOptions o;
  std::vector<int> listeners;
  std::vector<std::atomic<pid_t>> groups;
  std::vector<Client> clients;
  int wake[2] = {-1, -1};
  sim::Chooser chooser{0};
  sim::Scheduler scheduler{chooser};
  sim::FaultPlan plan{chooser, scheduler};
  store::Db deliveries;
  std::ofstream trace;
  bool restarts_database = false;  // the supervisor restarts the private PostgreSQL

  explicit Impl(std::size_t n) : groups(n) {}
  ~Impl() {
    for (int fd : listeners) ::close(fd);
    for (const Client& c : clients) ::close(c.fd);
    for (int fd : wake) {
      if (fd >= 0) ::close(fd);
    }
    for (const std::string& path : o.sockets) ::unlink(path.c_str());
  }

  // The broker's count of deliveries of `order` so far (the fault proxy's), 0 if none.
  std::int64_t attempt_of(std::int64_t order) {
    if (!deliveries.is_open()) return 0;
    store::Stmt& st =
        deliveries.statement("SELECT COALESCE(MAX(attempt), 0) FROM attempts WHERE order_id = ?1");
    bool row = false;
    const std::int64_t n = st.bind(1, order).step(row).ok() && row ? st.column_int64(0) : 0;
    st.reset();
    return n;
  }

  void record(const sim::FiredFault& fault, int instance, const std::string& what) {
    append_fired(o.run_dir, fault);
    sim::TraceEvent e;
    e.time = fault.time;
    e.actor = "consumer" + std::to_string(instance);
    e.kind = sim::EventKind::kFault;
    e.subject = fault.key[orders::kOrder];
    e.detail = fault.site + " -> " + what;
    trace << sim::format_jsonl(e, orders::kTraceNames) << '\n';
    trace.flush();
  }

  // At before_commit on a run whose supervisor may restart the database (db-restarts.log
  // exists: the private PostgreSQL): a db.restart rule that fires is logged, the
  // supervisor crashes and restarts the server while the consumer waits with its
  // transaction open, and only then is it told "go" - its COMMIT meets the broken
  // connection, as eosim's own consumer's does.
  void restart_database_at(const Client& c, const std::string& site, std::int64_t order) {
    if (orders::site_named(site) != orders::Site::kConsumerBeforeCommit || !restarts_database) {
      return;
    }
    const auto fired = plan.check(
        {plan.sites().id(std::string(orders::site_name(orders::Site::kDbRestart))),
         lab::Action::kRestart, orders::order_key(order, attempt_of(order), c.instance)});
    if (!fired || *fired != lab::Action::kRestart) return;
    sim::FiredFault fault = plan.fired().back();
    fault.time = WallClock(o.origin_ms, o.tick_ms).now();
    record(fault, c.instance,
           "restart (failpoint before_commit: the supervisor restarts the private PostgreSQL)");
    (void)wait_for_database_restart(o.run_dir, kDatabaseRestartWaitMs);
  }

  // Answers one question; false when the asking consumer was killed.
  bool answer(const Client& c, const std::string& line) {
    std::istringstream words(line);
    std::string name;
    std::int64_t order = 0;
    words >> name >> order;
    const std::string site = "consumer." + name;
    const lab::FaultSite* info = lab::find_fault_site(site);
    // The supervisor sets the group just after the fork: a consumer that asks at once
    // waits for it (up to 2 s), rather than being told "go" where a rule would kill it.
    pid_t group = groups[static_cast<std::size_t>(c.instance - 1)].load();
    for (int waited = 0; group <= 0 && waited < 100; ++waited) {
      ::usleep(20 * 1000);
      group = groups[static_cast<std::size_t>(c.instance - 1)].load();
    }
    if (info == nullptr || info->is_network() || group <= 0) {
      send_line(c.fd, "go\n");
      return true;
    }
    const auto fired = plan.check({plan.sites().id(site), lab::Action::kCrash,
                                   orders::order_key(order, attempt_of(order), c.instance)});
    if (!fired || *fired != lab::Action::kCrash) {
      restart_database_at(c, site, order);
      send_line(c.fd, "go\n");
      return true;
    }
    sim::FiredFault fault = plan.fired().back();
    fault.time = WallClock(o.origin_ms, o.tick_ms).now();
    record(fault, c.instance, "crash (failpoint: the process group is sent SIGKILL)");
    ::kill(-group, SIGKILL);  // invariant (1): the group eosim started, nothing else
    return false;
  }

  // Reads what a client sent and answers each whole line; false when it is done with.
  bool serve_client(Client& c, std::atomic<int>& questions) {
    char buffer[256];
    const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    c.pending.append(buffer, static_cast<std::size_t>(n));
    if (c.pending.size() > 4096) return false;  // not this protocol
    for (auto end = c.pending.find('\n'); end != std::string::npos; end = c.pending.find('\n')) {
      const std::string line = c.pending.substr(0, end);
      c.pending.erase(0, end + 1);
      ++questions;
      if (!answer(c, line)) return false;
    }
    return true;
  }

  void accept_from(int listener_index) {
    const int fd = ::accept4(listeners[static_cast<std::size_t>(listener_index)], nullptr, nullptr,
                             SOCK_CLOEXEC);
    if (fd >= 0) clients.push_back({fd, listener_index + 1, ""});
  }

  void serve(std::atomic<int>& questions) {
    for (;;) {
      std::vector<pollfd> fds{{wake[0], POLLIN, 0}};
      for (int fd : listeners) fds.push_back({fd, POLLIN, 0});
      for (const Client& c : clients) fds.push_back({c.fd, POLLIN, 0});
      if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) return;
      if (fds[0].revents != 0) return;  // stop()
      const std::size_t first_client = 1 + listeners.size();
      for (std::size_t i = clients.size(); i-- > 0;) {
        if (fds[first_client + i].revents == 0) continue;
        if (!serve_client(clients[i], questions)) {
          ::close(clients[i].fd);
          clients.erase(clients.begin() + static_cast<std::ptrdiff_t>(i));
        }
      }
      for (std::size_t i = 0; i < listeners.size(); ++i) {
        if (fds[1 + i].revents != 0) accept_from(static_cast<int>(i));
      }
    }
  }
};

Status FailpointServer::start(const lab::Scenario& s, FailpointOptions options,
                              std::unique_ptr<FailpointServer>& out) {
  std::unique_ptr<FailpointServer> server(new FailpointServer());
  server->impl_ = std::make_unique<Impl>(options.sockets.size());
  Impl& impl = *server->impl_;
  impl.o = std::move(options);
  transport::name_lab_ids(impl.plan);
  std::vector<sim::FaultRule> rules;
  for (const sim::FaultRule& rule : s.script) {
    if (rule.site.rfind("consumer.", 0) == 0 || is_database_restart(rule.site)) {
      rules.push_back(rule);
    }
  }
  impl.restarts_database = std::filesystem::exists(database_restarts_path(impl.o.run_dir));
  impl.plan.set_rules(std::move(rules));
  for (const std::string& path : impl.o.sockets) {
    std::string why;
    const int fd = listen_at(path, why);
    if (fd < 0) return Status::error(why);
    impl.listeners.push_back(fd);
  }
  if (::pipe2(impl.wake, O_CLOEXEC) != 0) return Status::error("cannot make a pipe");
  if (store::Db::open(impl.o.run_dir + "/deliveries.db", impl.deliveries).ok()) {
    (void)impl.deliveries.exec("PRAGMA busy_timeout=5000");
  }
  impl.trace.open(impl.o.run_dir + "/trace-failpoints.jsonl", std::ios::app);
  FailpointServer* self = server.get();
  server->thread_ = std::thread([self] { self->impl_->serve(self->questions_); });
  out = std::move(server);
  return Status::success();
}

FailpointServer::~FailpointServer() { stop(); }

void FailpointServer::set_group(int instance, pid_t pgid) {
  if (!impl_) return;  // stopped
  if (instance >= 1 && static_cast<std::size_t>(instance) <= impl_->groups.size()) {
    impl_->groups[static_cast<std::size_t>(instance - 1)] = pgid;
  }
}

void FailpointServer::stop() {
  if (!thread_.joinable()) return;
  const char byte = 0;
  const ssize_t n = ::write(impl_->wake[1], &byte, 1);
  (void)n;
  thread_.join();
  impl_.reset();  // invariant (3): sockets closed, their files removed
}

}  // namespace live
