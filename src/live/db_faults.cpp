#include "src/live/db_faults.h"

#include "sim/network.h"
#include "sim/trace.h"
#include "src/live/actor_process.h"
#include "src/live/amqp_transport.h"
#include "src/orders/fault_site.h"
#include "src/orders/order_key.h"

namespace live {

DbFaults::DbFaults(const lab::Scenario& s, DbFaultsOptions options) : options_(std::move(options)) {
  std::vector<sim::FaultRule> rules;
  for (const sim::FaultRule& rule : s.script) {
    if (is_wire_database_rule(rule)) rules.push_back(rule);
  }
  plan_.set_rules(std::move(rules));
  trace_.open(options_.run_dir + "/trace-dbproxy.jsonl", std::ios::app);
}

ProxyAction DbFaults::judge(const CommitReply& reply) {
  if (reply.id.listener < 0 ||
      static_cast<std::size_t>(reply.id.listener) >= options_.nodes.size()) {
    return {};
  }
  // A consumer's debit or the order service's order row: each has its own site.
  const bool debit = reply.wrote == Wrote::kDebit;
  const orders::Site site =
      debit ? orders::Site::kDbCommitReply : orders::Site::kDbProducerCommitReply;
  const std::string& node = options_.nodes[static_cast<std::size_t>(reply.id.listener)];
  if (sim::node_role(node) != orders::site_row(site).actor) return {};
  // The consumer's attempt is the delivery's; the order service makes one try per order
  // (OrderService::fault).
  std::int64_t attempt = 1;
  if (debit) attempt = options_.attempt_of ? options_.attempt_of(reply.order) : 0;
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
  e.actor = "database";
  e.target = node;
  e.subject = fault.key[orders::kOrder];
  e.kind = sim::EventKind::kFault;
  e.detail = fault.site + " -> " + std::string(sim::fault_action_name(fault.action)) +
             " (fault proxy, database connection " + std::to_string(reply.id.connection) + ")";
  trace_ << sim::format_jsonl(e, orders::kTraceNames) << '\n';
  e.kind = sim::EventKind::kLost;
  e.detail = "the reply to COMMIT dropped: the transaction committed, the connection is reset";
  if (reply.wrote == Wrote::kOrder)
    e.detail += " (the order service does not know it wrote the order)";
  trace_ << sim::format_jsonl(e, orders::kTraceNames) << '\n';
  trace_.flush();
}

}  // namespace live
