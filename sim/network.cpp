#include "sim/network.h"

#include <array>
#include <cstring>
#include <initializer_list>
#include <string_view>
#include <utility>

#include "sim/assert.h"

namespace sim {

namespace {

// Where the trailing instance number of a node's name starts (its size when none).
std::size_t role_end(std::string_view node) {
  std::size_t end = node.size();
  while (end > 0 && node[end - 1] >= '0' && node[end - 1] <= '9') --end;
  return end;
}

}  // namespace

std::string node_role(std::string_view node) { return std::string(node.substr(0, role_end(node))); }

// Every frame sent asks for it, so it reads the digits in place instead of copying them.
std::int64_t node_instance(std::string_view node) {
  std::int64_t instance = 0;
  for (std::size_t i = role_end(node); i < node.size(); ++i) {
    instance = instance * 10 + (node[i] - '0');
  }
  return instance;
}

std::optional<Tick> LinkOptions::detect_after(bool server) const {
  const std::optional<Tick>& own = server ? server_detect : client_detect;
  if (!own) return heartbeat_timeout;
  if (*own == 0) return std::nullopt;
  return *own;
}

namespace {

// A datagram's event captures its ends and its frame.
std::uint64_t datagram_tag(std::string_view from, std::string_view to, const Frame& frame,
                           const NameTable& kinds) {
  StateHash hash;
  hash.add(from);
  hash.add(to);
  hash.add(kinds.name(frame.kind));
  for (const std::int64_t part : frame.key.parts) hash.add(part);
  if (frame.payload) frame.payload->add_state(hash);
  return hash.value();
}

// Records one event about `frame`: its summary, then up to three pieces of text (why it
// was lost), hashed piece by piece and never joined unless the trace keeps the event.
void record_frame(Trace& trace, std::string_view actor, EventKind kind, std::string_view target,
                  const Frame& frame, std::initializer_list<std::string_view> why = {}) {
  SummaryParts summary = frame.summary_parts();
  for (const std::string_view part : why) summary.add(part);
  trace.record(actor, kind, target, frame.key.subject(), summary.view());
}

// The same for a frame sent or arrived on a connection, under the direction's head.
void record_frame(Trace& trace, const TraceHead& head, const Frame& frame) {
  const SummaryParts summary = frame.summary_parts();
  trace.record(head, frame.key.subject(), summary.view());
}

}  // namespace

SummaryParts Frame::summary_parts() const {
  SummaryParts out;
  if (!summary.empty()) out.add(summary);
  if (payload) payload->describe(out);
  return out;
}

Network::Network(Scheduler& scheduler, Chooser& chooser, FaultPlan& faults, Trace& trace)
    : scheduler_(scheduler), chooser_(chooser), faults_(faults), trace_(trace) {}

const std::pair<const NodeId, std::size_t>& Network::node_entry(const NodeId& node) {
  const auto it = node_index_.find(node);
  if (it != node_index_.end()) return *it;
  nodes_.emplace_back();
  return *node_index_.emplace(node, nodes_.size() - 1).first;
}

const Network::Node* Network::attached(const NodeId& node) const {
  const auto it = node_index_.find(node);
  if (it == node_index_.end() || !nodes_[it->second].attached) return nullptr;
  return &nodes_[it->second];
}

Network::Connection* Network::find(ConnId conn) {
  return conn - 1 < connections_.size() ? connections_[conn - 1].get() : nullptr;
}

const Network::Connection* Network::find(ConnId conn) const {
  return conn - 1 < connections_.size() ? connections_[conn - 1].get() : nullptr;
}

void Network::attach(const NodeId& node, NodeHandlers handlers) {
  Node& slot = nodes_[node_entry(node).second];
  slot.handlers = std::move(handlers);
  slot.attached = true;
}

void Network::detach(const NodeId& node) {
  const auto it = node_index_.find(node);
  if (it == node_index_.end()) return;
  nodes_[it->second].handlers = NodeHandlers{};
  nodes_[it->second].attached = false;
}

template <class Identity>
Tick Network::draw_latency(Tick min, Tick max, const Identity& identity) {
  EOSIM_ASSERT(min <= max);
  if (min == max) return min;  // no decision, nothing on the tape
  return min + chooser_.below(max - min + 1, identity);
}

int Network::side_of(const Connection& c, const NodeId& node) const {
  if (c.dir[0].from == node) return 0;
  EOSIM_ASSERT(c.dir[1].from == node);
  return 1;
}

void Network::set_instance_part(std::size_t part) {
  EOSIM_ASSERT(part < kKeyParts);
  instance_part_ = part;
}

Key Network::opportunity_key(const Frame& frame, const Direction& dir) const {
  Key key = frame.key;
  if (instance_part_) key[*instance_part_] = dir.instance;
  return key;
}

namespace {

// "<prefix><from role>-><to role>" in `buffer` when it fits (the name of a site is looked
// up twice per connection, and most names are longer than a short string holds), else in
// `spill`. The view is valid while both live.
std::string_view site_name(std::string_view from, std::string_view to, std::string_view prefix,
                           std::array<char, 64>& buffer, std::string& spill) {
  const std::string_view parts[] = {prefix, std::string_view(from.data(), role_end(from)), "->",
                                    std::string_view(to.data(), role_end(to))};
  std::size_t size = 0;
  for (const std::string_view part : parts) size += part.size();
  char* out = buffer.data();
  if (size > buffer.size()) {
    spill.resize(size);
    out = spill.data();
  }
  std::size_t at = 0;
  for (const std::string_view part : parts) {
    std::memcpy(out + at, part.data(), part.size());
    at += part.size();
  }
  return std::string_view(out, size);
}

}  // namespace

std::string Network::site_of(const NodeId& from, const NodeId& to, std::string_view prefix) const {
  std::array<char, 64> buffer;
  std::string spill;
  return std::string(site_name(from, to, prefix, buffer, spill));
}

ConnId Network::connect(const NodeId& client, const NodeId& server) {
  const auto found = node_index_.find(server);
  if (found == node_index_.end() || !nodes_[found->second].attached ||
      partitioned(client, server, scheduler_.now())) {
    trace_.record(client, EventKind::kRefused, server, 0, "connection refused");
    return 0;
  }
  const auto& client_entry = node_entry(client);
  const ConnId id = next_conn_++;
  Connection& c = *connections_.emplace_back(std::make_unique<Connection>());
  c.dir[0].from = client_entry.first;
  c.dir[0].to = found->first;
  c.dir[0].to_node = found->second;
  c.dir[1].from = found->first;
  c.dir[1].to = client_entry.first;
  c.dir[1].to_node = client_entry.second;
  for (Direction& dir : c.dir) {
    const std::int64_t own = node_instance(dir.from);
    dir.instance = own != 0 ? own : node_instance(dir.to);
  }
  std::array<char, 64> buffer;
  std::string spill;
  for (Direction& dir : c.dir) {
    dir.site = faults_.sites().id(site_name(dir.from, dir.to, "net.", buffer, spill));
    dir.sent = trace_.head(dir.from, EventKind::kSend, dir.to);
    dir.arrived = trace_.head(dir.to, EventKind::kRecv, dir.from);
  }
  trace_.record(client, EventKind::kConnect, server, 0, {"connection ", id});
  if (const auto& accept = nodes_[c.dir[0].to_node].handlers.on_accept) accept(id, client);
  return id;
}

void Network::add_state(StateHash& hash) const {
  const Tick now = scheduler_.now();
  hash.add(static_cast<std::uint64_t>(next_conn_));
  for (const auto& [node, slot] : node_index_) {
    if (!nodes_[slot].attached) continue;
    const NodeHandlers& handlers = nodes_[slot].handlers;
    hash.add(std::string_view(node));
    hash.add(handlers.on_frame != nullptr);
    hash.add(handlers.on_disconnect != nullptr);
    hash.add(handlers.on_accept != nullptr);
    hash.add(handlers.on_datagram != nullptr);
  }
  for (std::size_t i = 0; i < connections_.size(); ++i) {
    const Connection& c = *connections_[i];
    hash.add(static_cast<std::uint64_t>(i + 1));  // its id
    hash.add(c.frozen);
    hash.add(c.notified[0]);
    hash.add(c.notified[1]);
    for (const Direction& d : c.dir) {
      hash.add(d.from);
      hash.add(d.to);
      hash.add(d.alive);
      // Arrivals are at least last_arrival: only how far ahead of now it lies counts.
      hash.add(static_cast<std::uint64_t>(d.last_arrival > now ? d.last_arrival - now : 0));
      hash.add(static_cast<std::uint64_t>(d.queue.size()));
      for (const InFlight& f : d.queue) {
        hash.add(faults_.frames().name(f.frame.kind));
        for (const std::int64_t part : f.frame.key.parts) hash.add(part);
        hash.add(f.freeze_after);
        if (f.kill_client) hash.add(std::string_view("kill client"));
        hash.add(f.frame.payload != nullptr);
        if (f.frame.payload) f.frame.payload->add_state(hash);
      }
    }
  }
  for (const Window& w : partitions_) {
    if (w.to <= now) continue;  // over: it never cuts anything again
    hash.add(std::string_view(w.a));
    hash.add(std::string_view(w.b));
    hash.add(static_cast<std::uint64_t>(w.from > now ? w.from - now : 0));
    hash.add(static_cast<std::uint64_t>(w.to - now));
  }
}

bool Network::is_open(ConnId conn) const {
  const Connection* c = find(conn);
  return c != nullptr && c->dir[0].alive && c->dir[1].alive;
}

NodeId Network::peer(ConnId conn, const NodeId& self) const {
  const Connection* c = find(conn);
  EOSIM_ASSERT(c != nullptr);
  return NodeId(c->dir[side_of(*c, self)].to);
}

std::vector<ConnId> Network::connections_of(const NodeId& node) const {
  std::vector<ConnId> result;
  for (std::size_t i = 0; i < connections_.size(); ++i) {
    const Connection& c = *connections_[i];
    if ((c.dir[0].from == node || c.dir[1].from == node) && (c.dir[0].alive || c.dir[1].alive)) {
      result.push_back(i + 1);
    }
  }
  return result;
}

bool Network::send(ConnId conn, const NodeId& from, Frame frame) {
  Connection* found = find(conn);
  if (found == nullptr) return false;
  Connection& c = *found;
  const int d = side_of(c, from);
  Direction& dir = c.dir[d];
  if (!dir.alive) return send_on_dead(c, d, frame);
  if (c.frozen) return send_frozen(c, d, frame);
  ++frames_sent_;
  const bool cut = partitioned(from, dir.to, scheduler_.now());
  const auto fault =
      cut ? std::optional<FaultAction>(FaultAction::kDrop)
          : faults_.check({dir.site, FaultAction::kDrop, opportunity_key(frame, dir), frame.kind});
  if (fault == FaultAction::kDrop) {
    drop_sent(conn, from, dir, frame, cut);
    return true;  // the sender cannot tell: TCP accepted the bytes
  }
  record_frame(trace_, dir.sent, frame);
  // Keyed: the frame, its connection and direction, and how many frames are ahead of it.
  const auto identity = [&] {
    return event_tag(datagram_tag(dir.from, dir.to, frame, faults_.frames()), conn, d,
                     dir.queue.size());
  };
  const Tick arrival = std::max(
      scheduler_.now() + draw_latency(options_.latency_min, options_.latency_max, identity),
      dir.last_arrival);
  dir.last_arrival = arrival;
  // Filled in its place in the queue: a frame moved once on its way in, not three times.
  InFlight& item = dir.queue.emplace_back();
  item.frame = std::move(frame);
  item.freeze_after = fault == FaultAction::kFreeze;
  if (fault == FaultAction::kCrash) kill_client_at(conn, c, d, item);
  // Connection and direction in one word: a closure of two words is stored inside the
  // std::function, where three would be allocated on the heap (one per frame sent).
  const std::uint64_t conn_dir = conn * 2 + static_cast<std::uint64_t>(d);
  scheduler_.at(
      arrival, "net.deliver",
      [this, conn_dir] { deliver_head(conn_dir / 2, static_cast<int>(conn_dir % 2)); }, 0,
      event_tag(conn, d));
  return true;
}

void Network::drop_sent(ConnId conn, const NodeId& from, const Direction& dir, const Frame& frame,
                        bool cut) {
  ++frames_lost_;
  record_frame(trace_, from, EventKind::kLost, dir.to, frame,
               {cut ? " (partition)" : " (dropped: connection breaks)"});
  break_connection(conn, from, "frame lost");
}

void Network::deliver_head(ConnId conn, int d) {
  Connection* found = find(conn);
  EOSIM_ASSERT(found != nullptr);
  Connection& c = *found;
  Direction& dir = c.dir[d];
  // One event per frame sent; each delivers the head, so events that tie at the same
  // instant cannot reorder the stream. After a break the queue is empty for good (a dead
  // connection takes no new frames) and the remaining events do nothing.
  if (dir.queue.empty()) return;
  InFlight item = dir.queue.take_front();
  const Node& node = nodes_[dir.to_node];
  if (!node.attached || c.notified[1 - d]) {
    ++frames_lost_;
    record_frame(trace_, dir.from, EventKind::kLost, dir.to, item.frame, {" (receiver gone)"});
    return;
  }
  record_frame(trace_, dir.arrived, item.frame);
  if ((item.freeze_after || item.kill_client) && arrive_faulted(conn, dir, item)) return;
  if (node.handlers.on_frame) node.handlers.on_frame(conn, item.frame);
}

bool Network::arrive_faulted(ConnId conn, const Direction& dir, const InFlight& item) {
  if (item.freeze_after) freeze(conn, "frozen after " + item.frame.summary_text());
  if (!item.kill_client) return false;
  on_kill_(NodeId(dir.to), "killed as " + item.frame.summary_text() + " arrived (a crash rule on " +
                               std::string(faults_.sites().name(dir.site)) + ")");
  return true;
}

void Network::kill_client_at(ConnId conn, const Connection& c, int d, InFlight& item) {
  if (!on_kill_) return;
  if (d == 1) {  // towards the client: killed as it arrives (deliver_head)
    item.kill_client = true;
    return;
  }
  // From the client: killed right after sending, before any other event of this instant
  // (priority -1), so it takes no further step.
  const NodeId client(c.dir[0].from);
  const std::string why = "killed right after sending " + item.frame.summary_text() +
                          " (a crash rule on " + std::string(faults_.sites().name(c.dir[0].site)) +
                          ")";
  scheduler_.at(
      scheduler_.now(), "net.kill", [this, client, why] { on_kill_(client, why); }, -1,
      event_tag(conn));
}

void Network::lose_queue(Direction& dir, const char* why) {
  for (const auto& item : dir.queue) {
    ++frames_lost_;
    record_frame(trace_, dir.from, EventKind::kLost, dir.to, item.frame, {" (", why, ")"});
  }
  dir.queue.clear();
}

void Network::notify(ConnId conn, int side, Tick delay) {
  scheduler_.after(
      delay, "net.closed",
      [this, conn, side, delay] {
        Connection* found = find(conn);
        EOSIM_ASSERT(found != nullptr);
        Connection& c = *found;
        if (c.notified[side]) return;
        c.notified[side] = true;
        const std::string_view self = c.dir[side].from;
        if (c.frozen) {
          // Nothing came through for its whole detection time: it closes its socket, and its
          // own sends fail from now on. The peer, behind the frozen link, sees none of this.
          c.dir[side].alive = false;
          trace_.record(self, EventKind::kSilentPeer, c.dir[side].to, 0,
                        "heard nothing for " + std::to_string(delay) +
                            " ticks (missed heartbeats): closes connection " +
                            std::to_string(conn));
        }
        trace_.record(self, EventKind::kDisconnected, c.dir[side].to, 0, {"connection ", conn});
        const Node& node = nodes_[c.dir[1 - side].to_node];  // the direction towards self
        if (node.attached && node.handlers.on_disconnect) node.handlers.on_disconnect(conn);
      },
      1, event_tag(conn, side, delay));  // priority 1: after frames arriving at the same instant
}

void Network::break_connection(ConnId conn, const NodeId& noticer, const std::string& why) {
  Connection* found = find(conn);
  if (found == nullptr) return;
  Connection& c = *found;
  if (!c.dir[0].alive && !c.dir[1].alive) return;
  c.ended = "connection broken";
  for (auto& dir : c.dir) {
    dir.alive = false;
    lose_queue(dir, "connection broken");
  }
  const int first = side_of(c, noticer);
  trace_.record(noticer, EventKind::kBroken, c.dir[first].to, 0, why);
  notify(conn, first, options_.reset_notice);
  notify_by_detection(conn, 1 - first);
}

void Network::notify_by_detection(ConnId conn, int side) {
  const std::optional<Tick> after = options_.detect_after(side == 1);
  if (!after) return;  // this end never notices: whatever it holds stays held
  notify(conn, side, *after);
}

void Network::freeze(ConnId conn, const std::string& why) {
  Connection* found = find(conn);
  if (found == nullptr) return;
  Connection& c = *found;
  if (c.frozen || !c.dir[0].alive || !c.dir[1].alive) return;
  c.frozen = true;
  trace_.record(c.dir[0].from, EventKind::kFrozen, c.dir[0].to, 0,
                why + ": connection " + std::to_string(conn) + " carries nothing either way");
  for (auto& dir : c.dir) lose_queue(dir, "connection frozen");
  for (int side = 0; side < 2; ++side) notify_by_detection(conn, side);
}

bool Network::is_frozen(ConnId conn) const {
  const Connection* c = find(conn);
  return c != nullptr && c->frozen;
}

bool Network::send_frozen(Connection& c, int d, const Frame& frame) {
  ++frames_sent_;
  ++frames_lost_;
  record_frame(trace_, c.dir[d].from, EventKind::kLost, c.dir[d].to, frame,
               {" (connection frozen)"});
  return true;  // nothing tells the sender: no error, no reset, just silence
}

// The connection is dead. An end that was told sends nothing. An end not told yet writes
// into a socket whose connection is gone: the frame is lost, and the trace says so (before,
// it vanished untraced, and a delivery could be "redelivered" with no first one in the
// trace). The caller is told it did not go either way, so actors act as they always have.
bool Network::send_on_dead(const Connection& c, int d, const Frame& frame) {
  if (c.notified[d]) return false;
  ++frames_sent_;
  ++frames_lost_;
  record_frame(trace_, c.dir[d].from, EventKind::kLost, c.dir[d].to, frame, {" (", c.ended, ")"});
  return false;
}

void Network::abort(ConnId conn, const NodeId& by) {
  Connection* found = find(conn);
  if (found == nullptr) return;
  Connection& c = *found;
  const int mine = side_of(c, by);
  Direction& out = c.dir[mine];
  Direction& in = c.dir[1 - mine];
  if (!out.alive && !in.alive) return;
  c.notified[mine] = true;  // the dead end is never told anything
  if (in.alive) c.ended = c.frozen ? "connection frozen" : "receiver closed the connection";
  in.alive = false;
  lose_queue(in, "receiver crashed");
  if (out.alive) {
    out.alive = false;
    // A frozen link carries no FIN either: the peer notices by its own detection, if ever.
    if (c.frozen) return;
    // The FIN follows what was already sent, so the peer sees those frames first.
    const Tick fin = std::max(scheduler_.now() + options_.latency_min, out.last_arrival);
    notify(conn, 1 - mine, fin - scheduler_.now());
  }
}

void Network::abort_all(const NodeId& node) {
  for (const ConnId conn : connections_of(node)) abort(conn, node);
}

void Network::partition(const NodeId& a, const NodeId& b, Tick from, Tick to) {
  EOSIM_ASSERT(from <= to);
  partitions_.push_back({a, b, from, to});
}

bool Network::in_window(std::string_view a, std::string_view b, Tick at) const {
  for (const auto& w : partitions_) {
    const bool pair = (w.a == a && w.b == b) || (w.a == b && w.b == a);
    if (pair && at >= w.from && at < w.to) return true;
  }
  return false;
}

void Network::send_datagram(const NodeId& from, const NodeId& to, Frame frame,
                            DatagramOptions options) {
  ++frames_sent_;
  const SiteId site = faults_.sites().id(site_of(from, to, options.site_prefix));
  const FaultPoint drop{site, FaultAction::kDrop, frame.key, frame.kind};
  if (partitioned(from, to, scheduler_.now()) || faults_.check(drop)) {
    ++frames_lost_;
    record_frame(trace_, from, EventKind::kLost, to, frame, {" (captured)"});
    return;
  }
  const FaultPoint dup{site, FaultAction::kDuplicate, frame.key, frame.kind};
  const int copies = faults_.check(dup) ? 2 : 1;
  record_frame(trace_, from, EventKind::kSend, to, frame);
  for (int i = 0; i < copies; ++i) {
    const Tick delay = draw_latency(options.latency_min, options.latency_max, [&] {
      // Keyed: the frame and which copy.
      return event_tag(datagram_tag(from, to, frame, faults_.frames()), i);
    });
    scheduler_.after(
        delay, "net.datagram",
        [this, from, to, frame] {
          const Node* node = attached(to);
          if (node == nullptr || !node->handlers.on_datagram) {
            ++frames_lost_;
            record_frame(trace_, from, EventKind::kLost, to, frame, {" (nobody there)"});
            return;
          }
          record_frame(trace_, to, EventKind::kRecv, from, frame);
          node->handlers.on_datagram(from, frame);
        },
        0, datagram_tag(from, to, frame, faults_.frames()));
  }
}

}  // namespace sim
