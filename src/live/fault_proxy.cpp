#include "src/live/fault_proxy.h"

// Boost 1.74's Asio needs <utility> before it under GCC 12 in C++20 (std::exchange).
#include <utility>
//
#include <array>
#include <boost/asio.hpp>
#include <chrono>

namespace live {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

void hard_close(tcp::socket& socket) {
  error_code ignored;
  socket.set_option(asio::socket_base::linger(true, 0), ignored);  // close() sends a RST
  socket.close(ignored);
}

constexpr int kClient = 0;  // side index: the actor's socket
constexpr int kBroker = 1;  // the upstream socket

// AMQP 0-9-1 (amqp_wire.h): the client's protocol header passes unjudged, then whole
// commands, each method frame shown to the judge.
class AmqpFramer final : public Framer {
 public:
  AmqpFramer(const Judge& judge, const ConnectionId& id) : judge_(judge), id_(id) {}

  Cut next(Direction from, const std::uint8_t* data, std::size_t size, std::size_t pos) override {
    Cut cut;
    if (from == Direction::kClientToBroker && !header_passed_) {
      if (size - pos < kProtocolHeaderBytes) return cut;
      header_passed_ = true;
      cut.end = pos + kProtocolHeaderBytes;
      return cut;
    }
    cut.end = command_end(data, size, pos);
    if (cut.end == kNotAmqp) cut.end = kNotFramed;
    if (cut.end == 0 || cut.end == kNotFramed) return cut;
    SeenFrame seen;
    if (judge_ && read_command(data + pos, cut.end - pos, seen)) {
      seen.listener = id_.listener;
      seen.connection = id_.connection;
      seen.client_port = id_.client_port;
      seen.direction = from;
      cut.action = judge_(seen);
    }
    return cut;
  }

 private:
  const Judge& judge_;
  ConnectionId id_;
  bool header_passed_ = false;
};

}  // namespace

// One client and its own upstream connection to the broker. Lives on the proxy's thread.
// Side i's socket is read by half i and written by half 1 - i.
class Pipe : public std::enable_shared_from_this<Pipe> {
 public:
  Pipe(FaultProxy& owner, const ProxyOptions& options, int listener, std::uint64_t id,
       tcp::socket client)
      : owner_(owner),
        sockets_{tcp::socket(client.get_executor()), tcp::socket(client.get_executor())},
        timers_{asio::steady_timer(client.get_executor()),
                asio::steady_timer(client.get_executor())} {
    sockets_[kClient] = std::move(client);
    error_code ignored;
    const ConnectionId cid{listener, id, sockets_[kClient].remote_endpoint(ignored).port()};
    framer_ = options.framer ? options.framer(cid)
                             : std::make_unique<AmqpFramer>(options.judge, cid);
    halves_[kClient].direction = Direction::kClientToBroker;
    halves_[kBroker].direction = Direction::kBrokerToClient;
  }

  void start(const tcp::endpoint& upstream) {
    auto self = shared_from_this();
    sockets_[kBroker].async_connect(upstream, [self](const error_code& ec) {
      if (ec) return self->reset();
      self->read(kClient);
      self->read(kBroker);
    });
  }

  // Both sides reset; nothing more is forwarded.
  void reset() {
    silent_ = true;
    for (int side = 0; side < 2; ++side) close_side(side);
  }

  // After a global unfreeze: forward what was held.
  void resume() {
    for (int i = 0; i < 2; ++i) flush(i);
  }

  bool closed() const { return gone_[0] && gone_[1]; }

 private:
  struct Half {
    Direction direction = Direction::kClientToBroker;
    std::array<std::uint8_t, 16384> chunk{};
    std::vector<std::uint8_t> pending;  // read, not yet forwarded (partial commands)
    std::vector<std::uint8_t> out;      // being written
    bool writing = false;
    bool ended = false;  // the sender closed its side cleanly
  };

  void close_side(int side) {
    if (gone_[side]) return;
    gone_[side] = true;
    if (silent_counted_[side]) --owner_.silent_ends_;
    timers_[side].cancel();
    hard_close(sockets_[side]);
  }

  // The connection goes silent both ways; side `now` (if any) is reset at once, the
  // others after notice_ms (or never: their own detection closes them).
  void silence(int now, std::int64_t notice_ms) {
    silent_ = true;
    for (int side = 0; side < 2; ++side) {
      halves_[side].pending.clear();
      if (!gone_[side]) {
        silent_counted_[side] = true;
        ++owner_.silent_ends_;
      }
      if (side == now) {
        close_side(side);
      } else if (notice_ms >= 0) {
        auto self = shared_from_this();
        timers_[side].expires_after(std::chrono::milliseconds(notice_ms));
        timers_[side].async_wait([self, side](const error_code& ec) {
          if (!ec) self->close_side(side);
        });
      }
    }
  }

  void read(int i) {
    auto self = shared_from_this();
    sockets_[i].async_read_some(asio::buffer(halves_[i].chunk),
                                [self, i](const error_code& ec, std::size_t n) {
                                  self->on_read(i, ec, n);
                                });
  }

  void on_read(int i, const error_code& ec, std::size_t n) {
    if (gone_[i]) return;
    Half& h = halves_[i];
    if (silent_) {
      // A silent link hears nothing: an end that gives up closes only its own socket.
      if (ec) return close_side(i);
      return read(i);
    }
    if (ec == asio::error::eof) {
      h.ended = true;
      flush(i);
      return;
    }
    if (ec) return reset();
    h.pending.insert(h.pending.end(), h.chunk.begin(), h.chunk.begin() + static_cast<long>(n));
    flush(i);
    if (!gone_[i]) read(i);
  }

  // Moves every whole unit of `pending` that the judge passes to `out` and writes it.
  void flush(int i) {
    Half& h = halves_[i];
    if (silent_ || h.writing || owner_.frozen_) return;
    std::size_t pos = 0;
    bool freeze_after = false;
    std::int64_t freeze_notice = -1;
    while (!freeze_after) {
      Cut cut = framer_->next(h.direction, h.pending.data(), h.pending.size(), pos);
      if (cut.end == kNotFramed) return reset();  // nothing sensible to forward
      if (cut.end == 0) break;
      if (!cut.answer.empty()) {
        // Answered here, not forwarded; only before anything came the other way.
        if (pos != 0 || halves_[1 - i].writing) return reset();
        h.pending.erase(h.pending.begin(), h.pending.begin() + static_cast<long>(cut.end));
        halves_[1 - i].out = std::move(cut.answer);
        write(1 - i);
        continue;
      }
      if (cut.action.kind == ProxyAction::kDrop) {
        ++owner_.dropped_;
        return silence(i, cut.action.notice_ms);
      }
      if (cut.action.kind == ProxyAction::kFreeze) {
        ++owner_.frozen_connections_;
        freeze_after = true;
        freeze_notice = cut.action.notice_ms;
      }
      pos = cut.end;
    }
    h.out.assign(h.pending.begin(), h.pending.begin() + static_cast<long>(pos));
    h.pending.erase(h.pending.begin(), h.pending.begin() + static_cast<long>(pos));
    if (!h.out.empty()) write(i);
    if (freeze_after) return silence(-1, freeze_notice);
    if (h.out.empty()) finish_if_ended(i);
  }

  void write(int i) {
    Half& h = halves_[i];
    h.writing = true;
    auto self = shared_from_this();
    asio::async_write(sockets_[1 - i], asio::buffer(h.out),
                      [self, i](const error_code& ec, std::size_t) {
                        self->halves_[i].writing = false;
                        if (self->silent_) return;
                        if (ec) return self->reset();
                        self->flush(i);
                      });
  }

  void finish_if_ended(int i) {
    Half& h = halves_[i];
    if (!h.ended || h.writing) return;
    error_code ignored;
    sockets_[1 - i].shutdown(tcp::socket::shutdown_send, ignored);
    if (halves_[1 - i].ended && !halves_[1 - i].writing) {
      for (int side = 0; side < 2; ++side) {
        gone_[side] = true;
        sockets_[side].close(ignored);
      }
    }
  }

  FaultProxy& owner_;
  std::unique_ptr<Framer> framer_;
  std::array<tcp::socket, 2> sockets_;
  std::array<asio::steady_timer, 2> timers_;
  std::array<Half, 2> halves_;
  bool silent_ = false;  // nothing is forwarded any more, either way
  bool gone_[2] = {false, false};
  bool silent_counted_[2] = {false, false};  // counted in the owner's silent_ends_
};

struct FaultProxy::Impl {
  asio::io_context io;
  std::vector<std::unique_ptr<tcp::acceptor>> acceptors;
  tcp::endpoint upstream;
  ProxyOptions options;
  std::uint64_t next_connection = 1;
  std::vector<std::weak_ptr<Pipe>> pipes;  // touched on the proxy's thread only
  asio::executor_work_guard<asio::io_context::executor_type> work{io.get_executor()};

  void for_each_pipe(void (Pipe::*f)()) {
    std::vector<std::weak_ptr<Pipe>> alive;
    for (auto& weak : pipes) {
      if (auto pipe = weak.lock(); pipe && !pipe->closed()) {
        ((*pipe).*f)();
        alive.push_back(weak);
      }
    }
    pipes = std::move(alive);
  }

  void accept_next(FaultProxy& proxy, int listener) {
    acceptors[listener]->async_accept([this, &proxy, listener](const error_code& ec,
                                                               tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;  // stopping
      if (!ec) {
        ++proxy.accepted_;
        if (proxy.refusing_) {
          hard_close(socket);
        } else {
          auto pipe = std::make_shared<Pipe>(proxy, options, listener, next_connection++,
                                             std::move(socket));
          pipes.push_back(pipe);
          pipe->start(upstream);
        }
      }
      accept_next(proxy, listener);
    });
  }
};

Status FaultProxy::start(const Endpoint& upstream, const ProxyOptions& options,
                         std::unique_ptr<FaultProxy>& out) {
  std::unique_ptr<FaultProxy> proxy(new FaultProxy());
  proxy->impl_ = std::make_unique<Impl>();
  Impl& impl = *proxy->impl_;
  impl.options = options;
  error_code ec;
  tcp::resolver resolver(impl.io);
  const auto found = resolver.resolve(upstream.host, std::to_string(upstream.port), ec);
  if (ec || found.empty()) {
    return Status::error("fault proxy: cannot resolve the broker's host " + upstream.host);
  }
  impl.upstream = *found.begin();
  const tcp::endpoint local(asio::ip::make_address("127.0.0.1"), 0);  // 0: a free port
  for (int i = 0; i < options.listeners; ++i) {
    auto acceptor = std::make_unique<tcp::acceptor>(impl.io);
    acceptor->open(local.protocol(), ec);
    if (!ec) acceptor->bind(local, ec);
    if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return Status::error("fault proxy: cannot listen on 127.0.0.1: " + ec.message());
    Endpoint at = upstream;
    at.host = "127.0.0.1";
    at.port = acceptor->local_endpoint().port();
    proxy->endpoints_.push_back(at);
    impl.acceptors.push_back(std::move(acceptor));
  }
  for (int i = 0; i < options.listeners; ++i) impl.accept_next(*proxy, i);
  proxy->thread_ = std::thread([&impl] { impl.io.run(); });
  out = std::move(proxy);
  return Status::success();
}

FaultProxy::~FaultProxy() { stop(); }

void FaultProxy::stop() {
  if (!impl_ || !thread_.joinable()) return;
  Impl& impl = *impl_;
  asio::post(impl.io, [&impl] {
    error_code ignored;
    for (auto& acceptor : impl.acceptors) acceptor->close(ignored);
    impl.for_each_pipe(&Pipe::reset);
    impl.work.reset();
  });
  thread_.join();
}

void FaultProxy::reset_all() {
  if (!impl_ || !thread_.joinable()) return;
  Impl& impl = *impl_;
  asio::post(impl.io, [&impl] { impl.for_each_pipe(&Pipe::reset); });
}

void FaultProxy::freeze(bool on) {
  frozen_ = on;
  if (on || !impl_ || !thread_.joinable()) return;
  Impl& impl = *impl_;
  asio::post(impl.io, [&impl] { impl.for_each_pipe(&Pipe::resume); });
}

}  // namespace live
