// The walk of a run's steps for the HTML page (see step_states.h).
#include "src/web/step_states.h"

#include <map>
#include <string>

#include "src/orders/order_key.h"
#include "src/report/so_far.h"
#include "src/report/trace_format.h"
#include "src/session/session.h"

namespace web {

namespace {

using nlohmann::json;

json broker_part(const lab::StepView& v) {
  json ready = json::array();
  for (const broker::ReadyView& r : v.ready) ready.push_back({r.seq, lab::message_label(r.message), r.redelivered});
  json unacked = json::array();
  for (const broker::ChannelView& c : v.channels) {
    if (c.unacked.empty()) continue;
    json deliveries = json::array();
    for (const broker::UnackedView& u : c.unacked) {
      deliveries.push_back({u.delivery_tag, lab::message_label(u.message), u.redelivered});
    }
    unacked.push_back({c.unacked.front().consumer_tag, c.ref.conn, std::move(deliveries)});
  }
  json dead = json::array();
  for (const broker::ReadyView& d : v.dead_letters) {
    dead.push_back({lab::message_label(d.message), lab::x_death_text(d.message)});
  }
  return {{"r", std::move(ready)}, {"u", std::move(unacked)}, {"d", std::move(dead)}};
}

json actors_part(const lab::StepView& v) {
  json actors = json::array();
  for (const lab::ActorStatus& a : v.actors) {
    actors.push_back({a.name, a.up, a.holding, a.deliveries, a.applied, a.duplicates, a.crashes});
  }
  return actors;
}

json counters_part(const lab::StepView& v) {
  const broker::Counters& c = v.counters;
  return {c.published, c.delivered, c.redelivered, c.acked, c.requeued};
}

json verdict_part(const lab::StepView& v) {
  const lab::Report& r = v.summary.report;
  return {lab::verdict_so_far(r.verdict, v.over), lab::verdict_known_so_far(r.verdict, v.over),
          r.balance_initial, r.balance_expected, r.balance_actual, v.summary.redeliveries,
          v.summary.faults.size()};
}

json order_part(const lab::OrderOutcome& o, bool over) {
  return {o.order,        o.amount,  o.committed,
          o.debits,       o.rejections, o.dead_letters,
          o.effects,      lab::outcome_so_far(o.outcome, over),
          lab::outcome_pending(o.outcome, over)};
}

// What one step's view changed, against the view before it (`last`, updated).
class Differ {
 public:
  json next(const lab::StepView& v) {
    json d = json::object();
    d["t"] = v.time;
    tables(v, d);
    part(d, "bk", broker_part(v), broker_);
    part(d, "ac", actors_part(v), actors_);
    part(d, "c", counters_part(v), counters_);
    part(d, "v", verdict_part(v), verdict_);
    orders(v, d);
    return d;
  }

 private:
  static void part(json& d, const char* key, json now, json& last) {
    if (now == last) return;
    d[key] = now;
    last = std::move(now);
  }

  void tables(const lab::StepView& v, json& d) {
    if (tables_.size() != v.tables.size()) tables_.assign(v.tables.size(), {});
    json changed = json::array();
    for (std::size_t t = 0; t < v.tables.size(); ++t) {
      const auto& rows = v.tables[t].rows;
      auto& last = tables_[t];
      json rows_changed = json::array();
      for (std::size_t r = 0; r < rows.size(); ++r) {
        if (r < last.size() && last[r] == rows[r]) continue;
        rows_changed.push_back({r, rows[r]});
      }
      if (!rows_changed.empty() || rows.size() != last.size()) {
        changed.push_back({t, rows.size(), std::move(rows_changed)});
        last = rows;
      }
    }
    if (!changed.empty()) d["tb"] = std::move(changed);
  }

  void orders(const lab::StepView& v, json& d) {
    std::map<std::int64_t, json> now;
    for (const lab::OrderOutcome& o : v.summary.report.orders) now[o.order] = order_part(o, v.over);
    bool gone = false;
    for (const auto& entry : orders_) gone = gone || now.count(entry.first) == 0;
    json changed = json::array();
    for (auto& [order, row] : now) {
      const auto last = orders_.find(order);
      if (gone || last == orders_.end() || last->second != row) changed.push_back(row);
    }
    if (!changed.empty()) d[gone ? "O" : "o"] = std::move(changed);
    orders_ = std::move(now);
  }

  std::vector<std::vector<std::vector<std::string>>> tables_;
  json broker_, actors_, counters_, verdict_;
  std::map<std::int64_t, json> orders_;
};

}  // namespace

eosim::Status walk_steps(const lab::Scenario& scenario, StepStates& out) {
  lab::Session session;
  if (eosim::Status opened = session.open(scenario); !opened.ok()) return opened;
  out = StepStates{};
  {
    const lab::StepView& first = session.view();
    for (const lab::DbTable& t : first.tables) out.tables.push_back({t.database, t.name, t.columns});
  }
  Differ differ;
  const std::vector<sim::TraceEvent>& events = session.world().kernel().trace.events();
  std::size_t shown = 0;  // events already given to a step
  while (true) {
    const lab::StepView& view = session.view();
    json state = differ.next(view);
    json lines = json::array();
    for (; shown < events.size() && events[shown].step <= session.step(); ++shown) {
      lines.push_back(lab::format_trace_line(events[shown], orders::kKeyNames));
    }
    if (!lines.empty()) state["e"] = std::move(lines);
    out.states.push_back(std::move(state));
    if (!session.step_forward()) {
      out.final_tables = view.tables;
      break;
    }
  }
  out.steps = session.step();
  out.trace = events;
  return eosim::Status::success();
}

}  // namespace web
