// Runs a script against a target and writes its log: the one piece of code that judges
// both the model and the real broker (target.h).
#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <sstream>

#include "tests/conformance/target.h"

namespace conformance {

namespace {

constexpr int kDrainBudgetMs = 20000;
// How long the clients may go on receiving after the last step, before what they were
// given and never drained is read (virtual for the model).
constexpr int kUnreadSettleMs = 300;
const char* const kSurvivorClient = "_survivors";

std::string bool_word(bool b) { return b ? "yes" : "no"; }

std::string describe(const broker::Message& m) {
  std::ostringstream out;
  if (m.x_delivery_count) out << " xdc=" << *m.x_delivery_count;
  const broker::DeathHeaders& deaths = m.deaths.get();
  if (!deaths.x_death.empty()) {
    out << " x-death=[";
    for (std::size_t i = 0; i < deaths.x_death.size(); ++i) {
      const broker::XDeath& d = deaths.x_death[i];
      out << (i ? ", " : "") << d.queue << " " << d.reason << " x" << d.count << " exchange='"
          << d.exchange << "' keys=";
      for (const auto& k : d.routing_keys) out << k << (&k == &d.routing_keys.back() ? "" : ",");
      out << (d.time ? " time" : " no-time");
    }
    out << "]";
  }
  if (!deaths.x_first_death_queue.empty() || !deaths.x_first_death_reason.empty()) {
    out << " first=" << deaths.x_first_death_queue << "/" << deaths.x_first_death_reason
        << "/'" << deaths.x_first_death_exchange << "'";
  }
  out << (m.message_id.empty() ? " no-id" : " id=" + m.message_id);
  return out.str();
}

// Confirms of different queues (or a transient next to a persistent message) may come in
// any order: RabbitMQ only promises that each seq is confirmed once. A run of confirm lines
// is therefore compared in seq order.
void sort_confirm_runs(std::vector<std::string>& lines) {
  const auto is_confirm = [](const std::string& l) {
    return l.find(": confirm ") != std::string::npos;
  };
  const auto seq = [](const std::string& l) {
    return std::stoull(l.substr(l.find(": confirm ") + 10));
  };
  for (auto it = lines.begin(); it != lines.end();) {
    auto end = std::find_if_not(it, lines.end(), is_confirm);
    std::sort(it, end, [&](const std::string& a, const std::string& b) { return seq(a) < seq(b); });
    it = end == lines.end() ? end : std::next(end);
  }
}

struct ClientBooks {
  std::map<std::string, std::uint64_t> tag_of;  // body -> its latest delivery tag
  std::map<std::uint64_t, std::pair<std::string, std::string>> published;  // seq -> queue, body
  std::set<std::uint64_t> unconfirmed;
  std::uint64_t last_seq = 0;
  bool confirm_mode = false;
  bool connected = true;
  bool channel_open = true;
  // Open when the broker restarted or was killed: how such a connection ends reaches the
  // client with its library's timing, so what it was given is not read at the end (the
  // cases drain what RabbitMQ guarantees, connection.close 320 after a clean restart).
  // Nor is what a client got before its connection ended (unread()).
  bool through_restart = false;
  std::deque<std::string> pending;  // log lines from events, not yet drained
  std::vector<broker::Delivery> deliveries;  // every delivery seen, for survivors()
};

struct QueueBooks {
  bool quorum = false;
  std::set<std::string> published, confirmed, delivered;
};

class Interpreter {
 public:
  explicit Interpreter(Target& target) : target_(target) {}
  std::vector<std::string> run(const Case& c);

 private:
  void step(const Step& s);
  void act(const Step& s);
  void settle(const Step& s, ClientBooks& books);
  void take(const std::string& client, const live::Event& event);
  bool pull(const std::string& client, std::size_t lines, int budget_ms);
  void drain(const std::string& client, std::size_t lines);
  void survivors(const std::string& queue);
  void unread();
  void log(const std::string& line) { log_.push_back(line); }
  void result(const std::string& who, const std::string& what, const live::Status& s);

  Target& target_;
  std::map<std::string, ClientBooks> clients_;
  std::map<std::string, QueueBooks> queues_;
  std::vector<std::string> log_;
};

std::vector<std::string> Interpreter::run(const Case& c) {
  for (const Step& s : c.steps) step(s);
  unread();
  return log_;
}

// Every event a client was given is part of the log, drained or not: a delivery the script
// never reads (the extra one a delivery limit off by one hands out) must still show, and
// with it any difference between the model and RabbitMQ after the last drain. Each line is
// the drain's, after "unread ".
void Interpreter::unread() {
  target_.pause(kUnreadSettleMs);
  for (auto& [client, books] : clients_) {
    // The survivors client drains its queue to the end (survivors()). A client whose
    // connection the script closed or reset, or that lost it, is left out too: how much
    // reached it before (confirms of 300 publishes, row 9) is timing.
    if (client == kSurvivorClient || books.through_restart || !books.connected) continue;
    for (const live::Event& e : target_.arrived(client)) take(client, e);
    std::vector<std::string> lines(books.pending.begin(), books.pending.end());
    books.pending.clear();
    sort_confirm_runs(lines);
    for (const std::string& line : lines) log("unread " + line);
  }
}

void Interpreter::result(const std::string& who, const std::string& what, const live::Status& s) {
  if (s.ok()) return;
  if (s.reply_code != 0) {
    log(who + ": " + what + ": error " + std::to_string(s.reply_code));
    if (clients_.count(who)) clients_[who].channel_open = false;
  } else {
    log(who + ": " + what + ": failed: " + s.message);
  }
}

void Interpreter::step(const Step& s) {
  switch (s.op) {
    case Op::kDeclare:
      queues_[s.queue].quorum = s.queue_options.type == broker::QueueType::kQuorum;
      result("admin", "declare " + s.queue, target_.declare(s.queue_options));
      return;
    case Op::kOpen:
      clients_[s.client] = ClientBooks{};
      result(s.client, "open", target_.open(s.client, static_cast<int>(s.number)));
      return;
    case Op::kRestart:
      result("broker", s.flag ? "kill" : "restart", target_.restart(s.flag));
      for (auto& [name, q] : queues_) q.delivered.clear();
      for (auto& [name, books] : clients_) books.through_restart = true;
      return;
    case Op::kDrain:
      drain(s.client, static_cast<std::size_t>(s.number));
      return;
    case Op::kCount: {
      std::uint32_t ready = 0;
      const live::Status st = target_.ready_count(s.queue, ready);
      log("count " + s.queue + ": " +
          (st.ok() ? std::to_string(ready) : "error " + std::to_string(st.reply_code)));
      return;
    }
    case Op::kSurvivors:
      survivors(s.queue);
      return;
    case Op::kPause:
      target_.pause(static_cast<int>(s.number));
      return;
    case Op::kPeek: {
      std::size_t n = 0;
      for (const live::Event& e : target_.arrived(s.client)) {
        take(s.client, e);
        ++n;
      }
      if (!s.flag) log(s.client + ": " + std::to_string(n) + " events waiting");
      // A quiet peek takes what arrived so far, which varies with timing: not compared,
      // so not left for the unread lines either.
      if (s.flag) clients_[s.client].pending.clear();
      return;
    }
    default:
      act(s);
  }
}

// Client actions. A client library refuses an action on a connection or channel it knows
// is closed; the log says so instead of sending anything.
void Interpreter::act(const Step& s) {
  ClientBooks& books = clients_[s.client];
  const bool needs_channel = s.op != Op::kClose && s.op != Op::kReset && s.op != Op::kFreeze;
  if (needs_channel && (!books.connected || !books.channel_open)) {
    log(s.client + ": action refused: " + (books.connected ? "channel" : "connection") +
        " closed");
    return;
  }
  switch (s.op) {
    case Op::kConfirmSelect:
      books.confirm_mode = true;
      result(s.client, "confirm.select", target_.confirm_select(s.client));
      return;
    case Op::kQos:
      result(s.client, "qos", target_.qos(s.client, static_cast<std::uint16_t>(s.number)));
      return;
    case Op::kConsume:
      result(s.client, "consume " + s.queue,
             target_.consume(s.client, s.queue, s.tag, s.flag));
      return;
    case Op::kCancel:
      result(s.client, "cancel", target_.cancel(s.client, s.tag));
      return;
    case Op::kPublish: {
      const live::Status st = target_.publish(s.client, s.exchange, s.queue, s.message, s.flag);
      if (st.ok() && books.confirm_mode) {
        books.published[++books.last_seq] = {s.queue, s.message.body};
        books.unconfirmed.insert(books.last_seq);
      }
      if (st.ok()) queues_[s.queue].published.insert(s.message.body);
      result(s.client, "publish " + s.message.body, st);
      return;
    }
    case Op::kClose:
      target_.close(s.client);
      books.connected = false;
      return;
    case Op::kReset:
      target_.reset(s.client);
      books.connected = false;
      return;
    case Op::kFreeze:
      target_.freeze(s.client);
      return;
    default:
      settle(s, books);
  }
}

void Interpreter::settle(const Step& s, ClientBooks& books) {
  std::uint64_t tag = static_cast<std::uint64_t>(s.number);
  if (!s.message.body.empty()) {
    auto it = books.tag_of.find(s.message.body);
    if (it == books.tag_of.end()) {
      log(s.client + ": settle " + s.message.body + ": never delivered here (script error)");
      return;
    }
    tag = it->second;
  }
  const std::string what = s.message.body.empty() ? "tag " + std::to_string(tag) : s.message.body;
  if (s.op == Op::kAck) result(s.client, "ack " + what, target_.ack(s.client, tag, s.multiple));
  if (s.op == Op::kNack) {
    result(s.client, "nack " + what, target_.nack(s.client, tag, s.multiple, s.flag));
  }
  if (s.op == Op::kReject) result(s.client, "reject " + what, target_.reject(s.client, tag, s.flag));
}

// Turns one event into log lines, kept until a drain of that client shows them.
void Interpreter::take(const std::string& client, const live::Event& event) {
  ClientBooks& books = clients_[client];
  const std::string who = client + ": ";
  if (const auto* d = std::get_if<broker::Delivery>(&event)) {
    books.tag_of[d->message.body] = d->delivery_tag;
    books.deliveries.push_back(*d);
    queues_[d->queue].delivered.insert(d->message.body);
    books.pending.push_back(who + "deliver " + d->message.body + " tag=" +
                            std::to_string(d->delivery_tag) +
                            " redelivered=" + (d->redelivered ? "1" : "0") + describe(d->message));
  } else if (const auto* c = std::get_if<broker::Confirm>(&event)) {
    // One line per seq: RabbitMQ batches confirms differently from run to run (row 8).
    std::vector<std::uint64_t> seqs;
    for (std::uint64_t seq : books.unconfirmed) {
      if (seq == c->seq || (c->multiple && seq < c->seq)) seqs.push_back(seq);
    }
    for (std::uint64_t seq : seqs) {
      books.unconfirmed.erase(seq);
      const auto& [queue, body] = books.published[seq];
      if (c->ack) queues_[queue].confirmed.insert(body);
      books.pending.push_back(who + "confirm " + std::to_string(seq) + (c->ack ? " ack" : " nack"));
    }
  } else if (const auto* r = std::get_if<broker::Returned>(&event)) {
    // With the seq of the publish it returns: a relay that cannot tell which publish came
    // back takes the ack that follows for "enqueued" (the live client matches it itself).
    books.pending.push_back(who + "return " + std::to_string(r->reply_code) + " seq " +
                            std::to_string(r->seq) + " " + r->message.body);
  } else if (const auto* cc = std::get_if<broker::ChannelClosed>(&event)) {
    books.channel_open = false;
    books.pending.push_back(who + "channel.close " + std::to_string(cc->code));
  } else if (const auto* lost = std::get_if<live::ConnectionLost>(&event)) {
    books.connected = false;
    books.channel_open = false;
    books.pending.push_back(who + "connection lost " +
                            (lost->code ? std::to_string(lost->code) : "(no close)"));
  }
}

bool Interpreter::pull(const std::string& client, std::size_t lines, int budget_ms) {
  ClientBooks& books = clients_[client];
  while (books.pending.size() < lines) {
    auto event = target_.next_event(client, budget_ms);
    if (!event) return false;
    take(client, *event);
  }
  return true;
}

void Interpreter::drain(const std::string& client, std::size_t lines) {
  const bool complete = pull(client, lines, kDrainBudgetMs);
  ClientBooks& books = clients_[client];
  const std::size_t got = std::min(lines, books.pending.size());
  std::vector<std::string> chunk(books.pending.begin(), books.pending.begin() + got);
  books.pending.erase(books.pending.begin(), books.pending.begin() + got);
  sort_confirm_runs(chunk);
  for (std::string& line : chunk) log(std::move(line));
  if (!complete) {
    log(client + ": only " + std::to_string(got) + " of " + std::to_string(lines) +
        " events within the deadline");
  }
}

// After a restart: drain what came back in `queue` and compare it with the books.
void Interpreter::survivors(const std::string& queue) {
  std::uint32_t ready = 0;
  if (const live::Status st = target_.ready_count(queue, ready); !st.ok()) {
    log("survivors " + queue + ": error " + std::to_string(st.reply_code) + " " + st.message);
    return;
  }
  const QueueBooks before = queues_[queue];
  clients_[kSurvivorClient] = ClientBooks{};
  result(kSurvivorClient, "open", target_.open(kSurvivorClient, 0));
  result(kSurvivorClient, "consume", target_.consume(kSurvivorClient, queue, "survivors", false));
  const bool complete = pull(kSurvivorClient, ready, kDrainBudgetMs);
  std::set<std::string> back;
  std::size_t redelivered = 0;
  for (const broker::Delivery& d : clients_[kSurvivorClient].deliveries) {
    back.insert(d.message.body);
    if (d.redelivered) ++redelivered;
  }
  target_.close(kSurvivorClient);
  const auto covers = [](const std::set<std::string>& big, const std::set<std::string>& small) {
    return std::includes(big.begin(), big.end(), small.begin(), small.end());
  };
  const std::string head = "survivors " + queue + ": ";
  log(head + "all drained: " + bool_word(complete));
  log(head + "every confirmed message came back: " + bool_word(covers(back, before.confirmed)));
  log(head + "nothing came back that was not published: " +
      bool_word(covers(before.published, back)));
  if (before.quorum) {
    log(head + "every message delivered before came back: " +
        bool_word(covers(back, before.delivered)));
  }
  // Only a classic queue says anything about the flag after a crash (row 12); a quorum
  // message is redelivered when it was delivered before, which varies with timing.
  if (before.quorum) return;
  log(head + "redelivered=1 on " +
      (back.empty() ? "none (nothing came back)"
                    : redelivered == back.size() ? "all" : redelivered == 0 ? "none" : "some"));
}

}  // namespace

std::vector<std::string> run_case(const Case& c, Target& target) {
  return Interpreter(target).run(c);
}

}  // namespace conformance
