#include "src/live/db_faults.h"

#include "sim/network.h"
#include "sim/trace.h"
#include "src/live/actor_process.h"
#include "src/live/amqp_transport.h"
#include "src/orders/fault_site.h"
#include "src/orders/order_key.h"

namespace live {

namespace {

orders::Site reply_site(Wrote wrote) {
  if (wrote == Wrote::kOrder) return orders::Site::kDbProducerCommitReply;
  if (wrote == Wrote::kDedupKey) return orders::Site::kDedupMarkReply;
  return orders::Site::kDbCommitReply;
}

// What the client lost, for the trace.
std::string lost_text(Wrote wrote) {
  if (wrote == Wrote::kDedupKey) {
    return "the reply to SET NX dropped: the key is set, the connection is reset (the "
           "consumer does not know its key is there)";
  }
  std::string text =
      "the reply to COMMIT dropped: the transaction committed, the connection is reset";
  if (wrote == Wrote::kOrder) text += " (the order service does not know it wrote the order)";
  return text;
}

}  // namespace

DbFaults::DbFaults(const lab::Scenario& s, DbFaultsOptions options) : options_(std::move(options)) {
  std::vector<sim::FaultRule> rules;
  for (const sim::FaultRule& rule : s.script) {
    if (is_wire_database_rule(rule) || is_wire_dedup_rule(rule)) rules.push_back(rule);
  }
  plan_.set_rules(std::move(rules));
  trace_.open(options_.run_dir + "/" + options_.trace_file, std::ios::app);
}

ProxyAction DbFaults::judge(const CommitReply& reply) {
  if (reply.id.listener < 0 ||
      static_cast<std::size_t>(reply.id.listener) >= options_.nodes.size()) {
    return {};
  }
  // A consumer's debit, the order service's order row, a consumer's mark in the separate
  // store: each has its own site.
  const orders::Site site = reply_site(reply.wrote);
  const std::string& node = options_.nodes[static_cast<std::size_t>(reply.id.listener)];
  if (sim::node_role(node) != orders::site_row(site).actor) return {};
  // The consumer's attempt is the delivery's; the order service makes one try per order
  // (OrderService::fault).
  std::int64_t attempt = 1;
  if (reply.wrote != Wrote::kOrder) {
    attempt = options_.attempt_of ? options_.attempt_of(reply.order) : 0;
  }
  const std::optional<sim::FaultAction> fired =
      plan_.check({plan_.sites().id(orders::site_name(site)), sim::FaultAction::kDrop,
                   orders::order_key(reply.order, attempt, sim::node_instance(node)), 0,
                   orders::scripted_only(site)});
  if (!fired) return {};
  ++dropped_;
  on_fired(plan_.fired().back(), reply, node);
  // The COMMIT took effect; its reply goes nowhere, and the client hears at once that its
  // connection broke: it cannot tell whether it committed.
  ProxyAction action;
  action.kind = ProxyAction::kDrop;
  action.notice_ms = 0;
  return action;
}

void DbFaults::on_fired(sim::FiredFault fault, const CommitReply& reply, const std::string& node) {
  const WallClock clock(options_.origin_ms, options_.tick_ms);
  fault.time = clock.now();
  append_fired(options_.run_dir, fault);
  sim::TraceEvent e;
  e.time = fault.time;
  e.target = node;
  e.subject = fault.key[orders::kOrder];
  e.kind = sim::EventKind::kFault;
  const bool dedup = reply.wrote == Wrote::kDedupKey;
  e.actor = dedup ? "dedup" : "database";  // "dedup": the separate store's lane
  e.detail = fault.site + " -> " + std::string(sim::fault_action_name(fault.action)) +
             " (fault proxy, " + (dedup ? "dedup store" : "database") + " connection " +
             std::to_string(reply.id.connection) + ")";
  trace_ << sim::format_jsonl(e, orders::kTraceNames) << '\n';
  e.kind = sim::EventKind::kLost;
  e.detail = lost_text(reply.wrote);
  trace_ << sim::format_jsonl(e, orders::kTraceNames) << '\n';
  trace_.flush();
}

}  // namespace live
