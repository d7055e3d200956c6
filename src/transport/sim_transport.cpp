#include "src/transport/sim_transport.h"

#include <optional>
#include <utility>

namespace transport {

SimTransport::SimTransport(sim::Network& network, sim::NodeId node, sim::NodeId server)
    : network_(network), node_(std::move(node)), server_(std::move(server)) {}

void SimTransport::set_handlers(Handlers handlers) {
  handlers_ = std::move(handlers);
  sim::NodeHandlers h;
  h.on_frame = [this](sim::ConnId conn, const sim::Frame& frame) {
    if (!handlers_.on_frame) return;
    std::optional<broker::BrokerMethod> spill;
    handlers_.on_frame(conn, broker::method_to_take(frame, spill));
  };
  h.on_disconnect = [this](sim::ConnId conn) {
    if (handlers_.on_disconnect) handlers_.on_disconnect(conn);
  };
  network_.attach(node_, std::move(h));
}

ConnId SimTransport::connect() { return network_.connect(node_, server_); }

bool SimTransport::send(ConnId conn, Outgoing frame) {
  return network_.send(conn, node_,
                       broker::make_frame(std::move(frame.method), frame.order, frame.attempt));
}

void SimTransport::close(ConnId conn) { network_.abort(conn, node_); }

void SimTransport::reset_all() { network_.abort_all(node_); }

bool SimTransport::is_open(ConnId conn) const { return network_.is_open(conn); }

}  // namespace transport
