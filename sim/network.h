#pragma once
// The simulated network: TCP-like connections between named nodes, plus a lossy
// datagram channel.
//
// A connection is FIFO in each direction with a latency drawn from [min, max] ticks.
// The protocols above run over TCP, so a frame cannot simply vanish: a dropped frame
// *breaks the connection*, and every frame in flight on it (behind it, and the other way) is lost
// too. The end whose frame was lost notices after `reset_notice` ticks; the other end only when its
// failure detection says so (`detect_after`). A crashed process instead *aborts* its connections:
// frames it already sent still arrive, then the peer sees the close; frames towards it are lost.
// Partitions are windows of virtual time in which frames between two nodes are dropped and new
// connections refused.
//
// A *frozen* connection (a peer gone silent: a stopped process, a stuck proxy) carries
// nothing any more, in either direction, and sends no FIN either; frames sent on it are
// lost, though the sender cannot tell. Each end notices only by its own failure detection
// (heartbeats): the server after `server_detect` ticks, the client after `client_detect`,
// each 0 = never. Without per-side detection both ends use `heartbeat_timeout`. An end
// that notices closes its socket (it is told, and its sends fail from then on); the other
// end, behind the frozen link, learns nothing of it. A frozen connection never thaws.
//
// A crash rule on a frame (FaultAction::kCrash, which the layer above allows on some
// frames only) kills the connection's *client* at that frame, through the on_kill hook: a
// frame towards the client is delivered, and instead of handling it the client is killed
// as it arrives (it dies holding what the frame gave it); a frame from the client goes on
// its way, and the client is killed right after, before any other event of that instant
// runs. Without a hook, or on a frame that never arrives, nothing is killed.
//
// Fault sites are named "net.<role>-><role>" (the fault plan's sites() gives each its id)
// where a node's role is its name without the trailing instance number ("client2" has
// role "client" and instance 2). With set_instance_part(p), a frame's fault opportunity
// on a connection carries in key part p the sender's instance number, or the receiver's
// when the sender has none.
//
// Invariants:
//  (1) Frames on one direction of one connection arrive in the order they were sent.
//  (2) No frame is delivered on a connection after its receiver was told it closed.
//  (3) Every frame sent either arrives once or is traced as "lost".
//  (4) Without a freeze and without per-side detection, nothing differs from the
//      symmetric model (one heartbeat_timeout for the far end of a broken connection).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/assert.h"
#include "sim/faults.h"
#include "sim/fifo.h"
#include "sim/key.h"
#include "sim/rng.h"
#include "sim/scheduler.h"
#include "sim/state_hash.h"
#include "sim/trace.h"

namespace sim {

using NodeId = std::string;
using ConnId = std::uint64_t;

// A frame's summary, what a person reads in the trace ("deliver tag=7 order-3"), in the
// pieces the trace takes (sim/trace.h): static text, views of the frame's own strings or
// its payload's, and numbers. A sweep's trace hashes them one by one and keeps no text,
// so no summary is formatted into a string on its way; parts not added are empty.
class SummaryParts {
 public:
  // Up to 6 of the payload's, and 3 a trace line adds (why the frame was lost).
  static constexpr std::size_t kMax = 10;

  // The parts are made as they are added: a frame event (two per frame) writes the few it
  // has, not all ten (320 bytes) first.
  SummaryParts() {}  // NOLINT(modernize-use-equals-default): storage_ stays unset on purpose
  // In line at every call (a describe function adds a part per call): a copy of its bytes
  // (DetailPart is trivially copyable) into the next place.
  [[gnu::always_inline]] void add(DetailPart part) {
    EOSIM_ASSERT(size_ < kMax);
    std::memcpy(storage_ + size_ * sizeof(DetailPart), &part, sizeof part);
    ++size_;
  }
  std::size_t size() const { return size_; }
  std::span<const DetailPart> view() const {
    return {std::launder(reinterpret_cast<const DetailPart*>(storage_)), size_};
  }
  std::string joined() const { return concat(view()); }  // the summary's text

 private:
  static_assert(std::is_trivially_copyable_v<DetailPart> &&
                std::is_trivially_destructible_v<DetailPart>);
  alignas(DetailPart) unsigned char storage_[kMax * sizeof(DetailPart)];
  std::size_t size_ = 0;
};

// What a protocol puts in a frame. The network moves it and never looks inside; each
// protocol boxes one message type of its own (say, a std::variant of its methods) and
// reads it back with payload_as, so its receivers can handle
// every method with std::visit.
struct Payload {
  virtual ~Payload() = default;
  // Everything the receiver can read from it, for explore's state merging.
  virtual void add_state(StateHash& hash) const = 0;
  // Its part of the frame's summary (Frame::summary_parts); nothing unless its protocol
  // describes its messages.
  virtual void describe(SummaryParts& /*out*/) const {}
  // Which Boxed<T> this is (the address of its tag): payload_as compares it, where a
  // dynamic_cast walked the type information of every frame read.
  const void* type() const { return type_; }

 protected:
  explicit Payload(const void* type) : type_(type) {}

 private:
  const void* type_;
};

// The one box of a protocol's message type T, built from a T or in place (emplace_payload).
// T needs `add_payload_state(StateHash&, const T&)` beside it (found by argument-dependent
// lookup); integers (tests, synthetic workloads) are hashed as they are. A protocol may
// put `describe_payload(SummaryParts&, const T&)` beside it too: the frame's summary is
// then made from the message when the trace reads it, never beforehand. A box is never
// built const: its frame's receiver may take the value when that frame is its only owner
// (payload_to_take).
template <class T>
struct Boxed final : Payload {
  // Its address names Boxed<T>: one object per T in the program.
  static constexpr char kType = 0;

  // By reference: a protocol message can be large (a publish may hold a whole message),
  // and each by-value hop on its way into the box would move it once more.
  explicit Boxed(T&& v) : Payload(&kType), value(std::move(v)) {}
  explicit Boxed(const T& v) : Payload(&kType), value(v) {}
  template <class... Args>
  explicit Boxed(std::in_place_t, Args&&... args)
      : Payload(&kType), value(std::forward<Args>(args)...) {}
  void add_state(StateHash& hash) const override {
    if constexpr (std::is_integral_v<T>) {
      hash.add(static_cast<std::uint64_t>(value));
    } else {
      add_payload_state(hash, value);
    }
  }
  void describe(SummaryParts& out) const override {
    if constexpr (requires { describe_payload(out, value); }) describe_payload(out, value);
  }
  T value;
};

struct Frame {
  FrameKind kind = 0;  // named by FaultPlan::frames() (the protocol's method names)
  Key key;             // what the frame is about: fault rules, traces (sim/key.h)
  // What a person reads in the trace, "request 3 retried", for a payload that does not
  // describe itself ("" for one that does: Payload::describe).
  std::string summary;
  std::shared_ptr<const Payload> payload;  // the protocol's message (not changed in flight)

  Frame() = default;
  Frame(const Frame&) = default;
  Frame& operator=(const Frame&) = default;
  // A move leaves `summary` alone when it is empty, as it is in most frames (their payload
  // describes itself): moving an empty std::string is still an out-of-line call and a
  // memcpy, twice per frame on its way through the network. Both name every member: a
  // member added to Frame must be added to them.
  Frame(Frame&& other) noexcept
      : kind(other.kind), key(other.key), payload(std::move(other.payload)) {
    if (!other.summary.empty()) summary = std::move(other.summary);
  }
  Frame& operator=(Frame&& other) noexcept {
    kind = other.kind;
    key = other.key;
    payload = std::move(other.payload);
    if (!other.summary.empty() || !summary.empty()) summary = std::move(other.summary);
    return *this;
  }
  ~Frame() = default;

  // The whole summary as the network traces it: `summary`, then what the payload says.
  SummaryParts summary_parts() const;
  std::string summary_text() const { return summary_parts().joined(); }
};

template <class T>
void set_payload(Frame& frame, T&& value) {
  using Value = std::remove_cvref_t<T>;
  frame.payload = std::make_shared<Boxed<Value>>(std::forward<T>(value));
}

// Boxes a T built from `args` as the frame's payload and returns it, for the sender to
// fill in its place (a large message moved once, straight into the box).
template <class T, class... Args>
T& emplace_payload(Frame& frame, Args&&... args) {
  auto box = std::make_shared<Boxed<T>>(std::in_place, std::forward<Args>(args)...);
  T& value = box->value;
  frame.payload = std::move(box);
  return value;
}

// The frame's payload if it holds a T, else nullptr.
template <class T>
const T* payload_as(const Frame& frame) {
  const Payload* payload = frame.payload.get();
  if (payload == nullptr || payload->type() != &Boxed<T>::kType) return nullptr;
  return &static_cast<const Boxed<T>*>(payload)->value;
}

// The frame's T for its receiver to move from, or nullptr if it holds no T: the frame's
// own when the frame is its payload's only owner (a frame delivered once: the network
// hands its receiver the frame it took off its queue, and drops it after), else a copy in
// `spill`. Nothing reads a frame's payload after its receiver, so moving from it changes
// nothing any trace or state hash sees.
template <class T>
T* payload_to_take(const Frame& frame, std::optional<T>& spill) {
  const T* value = payload_as<T>(frame);
  if (value == nullptr) return nullptr;
  if (frame.payload.use_count() != 1) return &spill.emplace(*value);
  // Every Boxed is built non-const (set_payload, emplace_payload), and nobody else holds
  // this one: no const object changes.
  return const_cast<T*>(value);
}

struct LinkOptions {
  Tick latency_min = 1;
  Tick latency_max = 3;
  Tick heartbeat_timeout = 30;  // the far end of a broken connection notices after this
  Tick reset_notice = 1;        // the end whose frame was lost notices after this
  // Failure detection per side (heartbeats), replacing heartbeat_timeout for that side;
  // 0 = that side never notices a silent peer. Unset = heartbeat_timeout for both.
  std::optional<Tick> server_detect;
  std::optional<Tick> client_detect;

  // After how many ticks of silence the server (server = true) or the client end notices
  // its peer is gone; nullopt = never.
  std::optional<Tick> detect_after(bool server) const;
};

struct NodeHandlers {
  std::function<void(ConnId, const Frame&)> on_frame;
  std::function<void(ConnId)> on_disconnect;             // this end learned the connection died
  std::function<void(ConnId, const NodeId&)> on_accept;  // servers: a client connected
  std::function<void(const NodeId&, const Frame&)> on_datagram;
};

struct DatagramOptions {
  Tick latency_min = 1;
  Tick latency_max = 10;  // a wide range reorders datagrams
  // Fault sites are named "<site_prefix><role>-><role>"; the layer above names its channel.
  std::string_view site_prefix = "datagram.";
};

std::string node_role(std::string_view node);
std::int64_t node_instance(std::string_view node);

class Network {
 public:
  Network(Scheduler& scheduler, Chooser& chooser, FaultPlan& faults, Trace& trace);

  void set_options(LinkOptions options) { options_ = options; }
  // Kills `node` (a crash rule's client, see the header comment): `why` says at which frame.
  using KillHook = std::function<void(const NodeId& node, const std::string& why)>;
  void set_on_kill(KillHook hook) { on_kill_ = std::move(hook); }
  // The key part that carries a node's instance number at a connection's fault
  // opportunities (see the header comment); unset, the frame's key goes as it is.
  void set_instance_part(std::size_t part);
  const LinkOptions& options() const { return options_; }
  void attach(const NodeId& node, NodeHandlers handlers);
  void detach(const NodeId& node);  // its handlers are gone; frames to it are lost

  // Opens a connection from client to server; the server's on_accept runs now.
  // Returns 0 (refused) while the two are partitioned or the server is not attached.
  ConnId connect(const NodeId& client, const NodeId& server);
  // Queues a frame from `from` on `conn`. Returns false if the connection is dead (the
  // frame goes nowhere); when the sender has not noticed that yet, the frame is traced as
  // lost (invariant 3). A drop fault breaks the connection.
  bool send(ConnId conn, const NodeId& from, Frame frame);
  // `by` crashed or closed the socket: what it sent still arrives, then the peer is told.
  void abort(ConnId conn, const NodeId& by);
  // Every connection of `node` is aborted by it (a process crash).
  void abort_all(const NodeId& node);
  // Breaks a connection as if a frame from `noticer` was lost (a fault button).
  void break_connection(ConnId conn, const NodeId& noticer, const std::string& why);
  // The connection goes silent both ways (see the header comment); each end notices by
  // its own detection, or never. Frames in flight on it are lost.
  void freeze(ConnId conn, const std::string& why);
  bool is_frozen(ConnId conn) const;

  bool is_open(ConnId conn) const;
  NodeId peer(ConnId conn, const NodeId& self) const;
  std::vector<ConnId> connections_of(const NodeId& node) const;

  void partition(const NodeId& a, const NodeId& b, Tick from, Tick to);
  // In line for the common case of no windows at all (every frame sent asks).
  bool partitioned(std::string_view a, std::string_view b, Tick at) const {
    return !partitions_.empty() && in_window(a, b, at);
  }

  // Datagrams: each message independently may be dropped or duplicated (fault kinds
  // "drop" and "duplicate" at site "<site_prefix><role>-><role>"), and arrives after a
  // random delay, so datagrams can overtake each other.
  void send_datagram(const NodeId& from, const NodeId& to, Frame frame,
                     DatagramOptions options = {});

  // For explore's state merging: every connection (its id, ends, liveness, who was told,
  // whether frozen) with its frames in flight (kind, key, payload), the nodes
  // attached and the partition windows. Counters and frame summaries are not read by
  // anything that decides and are left out.
  void add_state(StateHash& hash) const;

  std::uint64_t frames_sent() const { return frames_sent_; }
  std::uint64_t frames_lost() const { return frames_lost_; }

 private:
  struct InFlight {
    Frame frame;
    bool freeze_after = false;  // a freeze rule matched it: the link freezes as it arrives
    bool kill_client = false;   // a crash rule matched it: the client is killed as it arrives
  };
  struct Direction {
    // The ends' names as node_index_ keeps them (its keys never move nor go): a connection
    // copies no name, and the trace heads below view the same text.
    std::string_view from;
    std::string_view to;
    std::size_t to_node = 0;  // nodes_[to_node] is `to`
    // What its fault opportunities carry in the instance part (set_instance_part): the
    // sender's instance number, or the receiver's when the sender has none. Read at connect.
    std::int64_t instance = 0;
    SiteId site = 0;  // its fault site, "net.<from role>-><to role>" (named once)
    Fifo<InFlight> queue;
    Tick last_arrival = 0;
    bool alive = true;
    // The trace's heads of its frames sent (from, send, to) and arrived (to, recv, from),
    // made at connect, when from and to are set for good.
    TraceHead sent;
    TraceHead arrived;
  };
  struct Connection {
    Direction dir[2];                   // [0] client->server, [1] server->client
    bool notified[2] = {false, false};  // [0] client told, [1] server told
    bool frozen = false;
    // Why a frame sent on it after it died, by an end not yet told, is lost. Not in the
    // state hash: it changes a trace line's words, never what happens next.
    const char* ended = "connection broken";
  };
  struct Window {
    NodeId a;
    NodeId b;
    Tick from;
    Tick to;
  };

  // A frame's time in flight, in [min, max]. `identity` names the draw for keyed draws
  // (Chooser::below): a function of the frame and where it goes, all in the run state.
  template <class Identity>
  Tick draw_latency(Tick min, Tick max, const Identity& identity);
  int side_of(const Connection& c, const NodeId& node) const;
  void deliver_head(ConnId conn, int d);
  // A frame that arrived with a freeze or crash rule on it (`item`'s flags): freezes the
  // link, or kills its receiver. True when the frame is not to be handed on.
  [[gnu::cold, gnu::noinline]] bool arrive_faulted(ConnId conn, const Direction& dir,
                                                   const InFlight& item);
  // The frame `conn` drops by a fault or a partition (`cut`) as `from` sends it.
  [[gnu::cold, gnu::noinline]] void drop_sent(ConnId conn, const NodeId& from, const Direction& dir,
                                              const Frame& frame, bool cut);
  void lose_queue(Direction& dir, const char* why);
  // A crash rule matched `item`, sent on `conn` in direction `d` (see the header comment).
  void kill_client_at(ConnId conn, const Connection& c, int d, InFlight& item);
  void notify(ConnId conn, int side, Tick delay);
  // The far end of a dead or frozen connection: told after its detection time, if ever.
  void notify_by_detection(ConnId conn, int side);
  bool send_frozen(Connection& c, int d, const Frame& frame);
  bool send_on_dead(const Connection& c, int d, const Frame& frame);
  std::string site_of(const NodeId& from, const NodeId& to, std::string_view prefix) const;
  // Whether a partition window between a and b holds `at` (partitioned(), past its check).
  bool in_window(std::string_view a, std::string_view b, Tick at) const;
  Key opportunity_key(const Frame& frame, const Direction& dir) const;

  Scheduler& scheduler_;
  Chooser& chooser_;
  FaultPlan& faults_;
  Trace& trace_;
  LinkOptions options_;
  KillHook on_kill_;
  std::optional<std::size_t> instance_part_;
  // A node ever attached or connected keeps its place in nodes_ (a deque: what a handler
  // running from it does never moves it), so a connection's direction finds its receiver
  // by index; node_index_ finds a place by name and orders the nodes for add_state.
  struct Node {
    NodeHandlers handlers;
    bool attached = false;
  };
  // The entry of `node` in node_index_, made (with its place in nodes_) at its first sight.
  const std::pair<const NodeId, std::size_t>& node_entry(const NodeId& node);
  const Node* attached(const NodeId& node) const;
  // The connection with this id, or nullptr. Ids are handed out from 1 and never reused,
  // so connections_[id - 1] is connection `id` (each boxed: references stay valid, and
  // finding one is an index, where a deque of such large elements took a division).
  Connection* find(ConnId conn);
  const Connection* find(ConnId conn) const;

  std::deque<Node> nodes_;
  std::map<NodeId, std::size_t, std::less<>> node_index_;
  std::vector<std::unique_ptr<Connection>> connections_;
  std::vector<Window> partitions_;
  ConnId next_conn_ = 1;
  std::uint64_t frames_sent_ = 0;
  std::uint64_t frames_lost_ = 0;
};

}  // namespace sim
