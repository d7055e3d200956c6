#include "src/live/fault_proxy.h"

// Boost 1.74's Asio needs <utility> before it under GCC 12 in C++20 (std::exchange).
#include <utility>
//
#include <array>
#include <boost/asio.hpp>
#include <functional>
#include <map>

namespace live {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

constexpr std::size_t kProtocolHeaderBytes = 8;  // "AMQP" 0 0 9 1, client side only
constexpr std::size_t kFrameOverheadBytes = 8;   // type, channel, size, ..., frame-end
constexpr std::uint32_t kFrameSizeMax = 1u << 24;  // far above any frame_max a broker offers
constexpr std::uint8_t kMethodFrame = 1;

std::uint16_t be16(const std::uint8_t* p) {
  return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}
std::uint32_t be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

void hard_close(tcp::socket& socket) {
  error_code ignored;
  socket.set_option(asio::socket_base::linger(true, 0), ignored);  // close() sends a RST
  socket.close(ignored);
}

}  // namespace

bool method_by_name(const std::string& name, MethodId& out) {
  static const std::map<std::string, MethodId> kMethods = {
      {"connection.close", {10, 50}}, {"channel.close", {20, 40}},
      {"queue.declare", {50, 10}},    {"basic.qos", {60, 10}},
      {"basic.consume", {60, 20}},    {"basic.cancel", {60, 30}},
      {"basic.publish", {60, 40}},    {"basic.return", {60, 50}},
      {"basic.deliver", {60, 60}},    {"basic.ack", {60, 80}},
      {"basic.reject", {60, 90}},     {"basic.nack", {60, 120}},
      {"confirm.select", {85, 10}},
  };
  const auto it = kMethods.find(name);
  if (it == kMethods.end()) return false;
  out = it->second;
  return true;
}

// One client and its own upstream connection to the broker. Lives on the proxy's thread.
class Pipe : public std::enable_shared_from_this<Pipe> {
 public:
  Pipe(FaultProxy& owner, const std::atomic<bool>& frozen, tcp::socket client)
      : owner_(owner), frozen_(frozen), client_(std::move(client)), broker_(client_.get_executor()) {
    halves_[0] = {&client_, &broker_, Direction::kClientToBroker};
    halves_[1] = {&broker_, &client_, Direction::kBrokerToClient};
  }

  void start(const tcp::endpoint& upstream) {
    auto self = shared_from_this();
    broker_.async_connect(upstream, [self](const error_code& ec) {
      if (ec) return self->reset();
      self->read(0);
      self->read(1);
    });
  }

  // Both sides reset; nothing more is forwarded.
  void reset() {
    if (closed_) return;
    closed_ = true;
    hard_close(client_);
    hard_close(broker_);
  }

  // After an unfreeze: forward what was held.
  void resume() {
    for (int i = 0; i < 2; ++i) flush(i);
  }

  bool closed() const { return closed_; }

 private:
  struct Half {
    tcp::socket* from = nullptr;
    tcp::socket* to = nullptr;
    Direction direction = Direction::kClientToBroker;
    std::array<std::uint8_t, 16384> chunk{};
    std::vector<std::uint8_t> pending;  // read, not yet forwarded (partial frames, held data)
    std::vector<std::uint8_t> out;      // being written
    bool header_passed = false;
    bool writing = false;
    bool ended = false;  // the sender closed its side cleanly
  };

  void read(int i) {
    Half& h = halves_[i];
    auto self = shared_from_this();
    h.from->async_read_some(asio::buffer(h.chunk), [self, i](const error_code& ec, std::size_t n) {
      self->on_read(i, ec, n);
    });
  }

  void on_read(int i, const error_code& ec, std::size_t n) {
    if (closed_) return;
    Half& h = halves_[i];
    if (ec == asio::error::eof) {
      h.ended = true;
      flush(i);
      return;
    }
    if (ec) return reset();
    h.pending.insert(h.pending.end(), h.chunk.begin(), h.chunk.begin() + static_cast<long>(n));
    flush(i);
    if (!closed_) read(i);
  }

  // Moves every whole frame of `pending` to `out` and writes it, unless frozen or a rule
  // fires (then the connection is reset). A half that has ended and has nothing left to
  // write passes the end on.
  void flush(int i) {
    Half& h = halves_[i];
    if (closed_ || h.writing || frozen_) return;
    std::size_t pos = 0;
    if (h.direction == Direction::kClientToBroker && !h.header_passed) {
      if (h.pending.size() < kProtocolHeaderBytes) return finish_if_ended(i);
      pos = kProtocolHeaderBytes;
      h.header_passed = true;
    }
    while (h.pending.size() - pos >= kFrameOverheadBytes - 1) {
      const std::uint8_t* frame = h.pending.data() + pos;
      const std::uint32_t size = be32(frame + 3);
      if (size > kFrameSizeMax) return reset();  // not AMQP: nothing sensible to forward
      const std::size_t total = size + kFrameOverheadBytes;
      if (h.pending.size() - pos < total) break;
      if (frame[0] == kMethodFrame && size >= 4) {
        const MethodId method{be16(frame + 7), be16(frame + 9)};
        if (owner_.should_drop(h.direction, method)) return reset();
      }
      pos += total;
    }
    h.out.assign(h.pending.begin(), h.pending.begin() + static_cast<long>(pos));
    h.pending.erase(h.pending.begin(), h.pending.begin() + static_cast<long>(pos));
    if (h.out.empty()) return finish_if_ended(i);
    h.writing = true;
    auto self = shared_from_this();
    asio::async_write(*h.to, asio::buffer(h.out), [self, i](const error_code& ec, std::size_t) {
      Half& half = self->halves_[i];
      half.writing = false;
      if (ec) return self->reset();
      self->flush(i);
    });
  }

  void finish_if_ended(int i) {
    Half& h = halves_[i];
    if (!h.ended || h.writing) return;
    error_code ignored;
    h.to->shutdown(tcp::socket::shutdown_send, ignored);
    if (halves_[1 - i].ended && !halves_[1 - i].writing) {
      closed_ = true;
      client_.close(ignored);
      broker_.close(ignored);
    }
  }

  FaultProxy& owner_;
  const std::atomic<bool>& frozen_;
  tcp::socket client_;
  tcp::socket broker_;
  std::array<Half, 2> halves_;
  bool closed_ = false;
};

struct FaultProxy::Impl {
  asio::io_context io;
  tcp::acceptor acceptor{io};
  tcp::endpoint upstream;
  std::vector<std::weak_ptr<Pipe>> pipes;  // touched on the proxy's thread only
  asio::executor_work_guard<asio::io_context::executor_type> work{io.get_executor()};

  void for_each_pipe(const std::function<void(Pipe&)>& f) {
    std::vector<std::weak_ptr<Pipe>> alive;
    for (auto& weak : pipes) {
      if (auto pipe = weak.lock(); pipe && !pipe->closed()) {
        f(*pipe);
        alive.push_back(weak);
      }
    }
    pipes = std::move(alive);
  }
};

namespace {

void accept_next(FaultProxy& proxy, FaultProxy::Impl& impl, const std::atomic<bool>& frozen,
                 const std::atomic<bool>& refusing, std::atomic<int>& accepted) {
  impl.acceptor.async_accept([&](const error_code& ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;  // stopping
    if (!ec) {
      ++accepted;
      if (refusing) {
        hard_close(socket);
      } else {
        auto pipe = std::make_shared<Pipe>(proxy, frozen, std::move(socket));
        impl.pipes.push_back(pipe);
        pipe->start(impl.upstream);
      }
    }
    accept_next(proxy, impl, frozen, refusing, accepted);
  });
}

}  // namespace

Status FaultProxy::start(const Endpoint& upstream, std::unique_ptr<FaultProxy>& out) {
  std::unique_ptr<FaultProxy> proxy(new FaultProxy());
  proxy->impl_ = std::make_unique<Impl>();
  Impl& impl = *proxy->impl_;
  error_code ec;
  const auto address = asio::ip::make_address(upstream.host, ec);
  if (ec) return Status::error("fault proxy: broker host must be an IP address: " + upstream.host);
  impl.upstream = tcp::endpoint(address, static_cast<unsigned short>(upstream.port));
  const tcp::endpoint local(asio::ip::make_address("127.0.0.1"), 0);  // 0: a free port
  impl.acceptor.open(local.protocol(), ec);
  if (!ec) impl.acceptor.bind(local, ec);
  if (!ec) impl.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Status::error("fault proxy: cannot listen on 127.0.0.1: " + ec.message());
  proxy->endpoint_ = upstream;
  proxy->endpoint_.host = "127.0.0.1";
  proxy->endpoint_.port = impl.acceptor.local_endpoint().port();
  FaultProxy& p = *proxy;
  accept_next(p, impl, p.frozen_, p.refusing_, p.accepted_);
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
    impl.acceptor.close(ignored);
    impl.for_each_pipe([](Pipe& pipe) { pipe.reset(); });
    impl.work.reset();
  });
  thread_.join();
}

void FaultProxy::add_rule(const FrameRule& rule) {
  std::lock_guard<std::mutex> lock(rules_mutex_);
  rules_.push_back({rule});
}

bool FaultProxy::should_drop(Direction direction, const MethodId& method) {
  std::lock_guard<std::mutex> lock(rules_mutex_);
  bool drop = false;
  for (Armed& armed : rules_) {
    if (armed.fired || armed.rule.direction != direction || !(armed.rule.method == method)) {
      continue;
    }
    if (++armed.seen == armed.rule.nth && !drop) {
      armed.fired = true;
      drop = true;
      ++rules_fired_;
    }
  }
  return drop;
}

void FaultProxy::reset_all() {
  if (!impl_ || !thread_.joinable()) return;
  Impl& impl = *impl_;
  asio::post(impl.io, [&impl] { impl.for_each_pipe([](Pipe& pipe) { pipe.reset(); }); });
}

void FaultProxy::freeze(bool on) {
  frozen_ = on;
  if (on || !impl_ || !thread_.joinable()) return;
  Impl& impl = *impl_;
  asio::post(impl.io, [&impl] { impl.for_each_pipe([](Pipe& pipe) { pipe.resume(); }); });
}

}  // namespace live
