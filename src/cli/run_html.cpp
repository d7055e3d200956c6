// The HTML page of one run (see run_html.h).
#include "src/cli/run_html.h"

#include <sstream>

#include "src/orders/order_key.h"
#include "src/prose/printable.h"

namespace cli {

namespace {

constexpr const char* kStyle = R"(<style>
body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:24px;color:#1f2430;background:#fff}
h1{font-size:22px;margin:0 0 6px}h2{font-size:17px;margin:22px 0 8px}
p.about{max-width:900px;line-height:1.45}
.verdict{font-size:18px;font-weight:bold}.good{color:#1a7f37}.bad{color:#c62828}
.warn{color:#b26a00}.info{color:#1d5fbf}
table{border-collapse:collapse;margin:4px 0 12px}td,th{border:1px solid #c3c8d2;padding:3px 8px;
font-family:DejaVu Sans Mono,monospace;font-size:12px;text-align:left}th{background:#eef1f6}
code{font-family:DejaVu Sans Mono,monospace;font-size:12px;background:#f3f4f6;padding:1px 4px}
.diagram{overflow-x:auto;border:1px solid #e5e7eb}
</style>
)";

const char* outcome_class(lab::Outcome outcome) {
  using lab::Outcome;
  if (outcome == Outcome::kDebited) return "good";
  if (outcome == Outcome::kRejected || outcome == Outcome::kDeadLettered) return "info";
  if (outcome == Outcome::kStuck) return "warn";
  return "bad";
}

const char* verdict_class(lab::Verdict verdict) {
  if (verdict == lab::Verdict::kExactlyOnce) return "good";
  if (verdict == lab::Verdict::kStuck) return "warn";
  return "bad";
}

void write_orders(std::ostream& out, const lab::Report& report) {
  out << "<h2>Orders</h2>\n<table class=\"orders\"><tr><th>order</th><th>amount</th>"
         "<th>committed</th><th>debits</th><th>rejections</th><th>dead letters</th>"
         "<th>outcome</th></tr>\n";
  for (const lab::OrderOutcome& o : report.orders) {
    out << "<tr><td>" << o.order << "</td><td>" << o.amount << "</td><td>"
        << (o.committed ? "yes" : "no") << "</td><td class=\""
        << (o.debits == 1 ? "good" : o.debits == 0 ? "warn" : "bad") << "\">" << o.debits
        << "</td><td>" << o.rejections << "</td><td>" << o.dead_letters << "</td><td class=\""
        << outcome_class(o.outcome) << "\">" << o.outcome << "</td></tr>\n";
  }
  out << "</table>\n";
}

void write_faults(std::ostream& out, const lab::RunSummary& run) {
  out << "<h2>Faults fired: " << run.faults.size() << "</h2>\n";
  if (run.faults.empty()) return;
  out << "<table class=\"faults\"><tr><th>step</th><th>site</th><th>action</th><th>order</th>"
         "<th>attempt</th></tr>\n";
  for (const sim::FiredFault& f : run.faults) {
    out << "<tr><td>" << f.step << "</td><td>" << lab::xml_escape(f.site) << "</td><td>"
        << lab::xml_escape(std::string(sim::fault_action_name(f.action))) << "</td><td>"
        << (f.key[orders::kOrder] > 0 ? std::to_string(f.key[orders::kOrder]) : "-") << "</td><td>"
        << (f.key[orders::kAttempt] > 0 ? std::to_string(f.key[orders::kAttempt]) : "-")
        << "</td></tr>\n";
  }
  out << "</table>\n";
}

void write_tables(std::ostream& out, const std::vector<lab::DbTable>& tables) {
  out << "<h2>Database tables at the end of the run</h2>\n";
  for (const lab::DbTable& t : tables) {
    out << "<h3>" << lab::xml_escape(t.database) << " <code>" << lab::xml_escape(t.name) << "</code> ("
        << t.rows.size() << (t.rows.size() == 1 ? " row" : " rows") << ")</h3>\n";
    if (t.rows.empty()) continue;
    out << "<table class=\"db\"><tr>";
    for (const std::string& c : t.columns) out << "<th>" << lab::xml_escape(c) << "</th>";
    out << "</tr>\n";
    for (const auto& row : t.rows) {
      out << "<tr>";
      for (const std::string& cell : row) out << "<td>" << lab::xml_escape(cell) << "</td>";
      out << "</tr>\n";
    }
    out << "</table>\n";
  }
}

}  // namespace

std::string run_html(const lab::RunRecord& record, const std::vector<sim::TraceEvent>& trace,
                     const std::vector<lab::DbTable>& tables, const diagram::SvgOptions& svg) {
  const lab::RunSummary& run = record.run;
  const lab::Report& report = run.report;
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>"
      << lab::xml_escape(record.scenario.name) << " - eosim</title>\n" << kStyle << "</head><body>\n";
  out << "<h1>" << lab::xml_escape(record.scenario.name) << "</h1>\n";
  out << "<p>seed " << run.seed << " &middot; producer <code>" << lab::xml_escape(run.producer)
      << "</code> &middot; consumer <code>" << lab::xml_escape(run.strategy) << "</code> &middot; "
      << run.steps << " steps &middot; trace <code>" << sim::hash_hex(run.trace_hash)
      << "</code></p>\n";
  if (!record.scenario.about.empty()) {
    out << "<p class=\"about\">" << lab::xml_escape(record.scenario.about) << "</p>\n";
  }
  out << "<p class=\"verdict " << verdict_class(report.verdict) << "\">verdict: "
      << report.verdict << "</p>\n";
  out << "<p>balance: initial " << report.balance_initial << ", expected "
      << report.balance_expected << ", actual <span class=\""
      << (report.balance_expected == report.balance_actual ? "good" : "bad") << "\">"
      << report.balance_actual << "</span> &middot; redeliveries " << run.redeliveries << "</p>\n";
  for (const std::string& unmet : record.unmet) {
    out << "<p class=\"bad\">expectation failed: " << lab::xml_escape(unmet) << "</p>\n";
  }
  if (!record.replay.empty()) out << "<p>replay: <code>" << lab::xml_escape(record.replay) << "</code></p>\n";
  write_orders(out, report);
  write_faults(out, run);
  out << "<h2>Sequence diagram</h2>\n<div class=\"diagram\">\n"
      << diagram::sequence_svg(trace, lab::diagram_lanes(record.scenario), svg) << "</div>\n";
  write_tables(out, tables);
  out << "</body></html>\n";
  return out.str();
}

}  // namespace cli
