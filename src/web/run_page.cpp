// The HTML page of one run (see run_page.h).
#include "src/web/run_page.h"

#include <algorithm>
#include <sstream>

#include "sim/escape.h"
#include "src/orders/order_key.h"
#include "src/prose/printable.h"

#include "eosim_page_assets.h"  // generated from page.css and page.js (CMakeLists.txt)

namespace web {

namespace {

using lab::xml_escape;

// Nothing may be fetched (invariant 2); the page's own inline script and style run.
constexpr const char* kPolicy =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'";

const char* outcome_class(lab::Outcome outcome) {
  using lab::Outcome;
  if (outcome == Outcome::kDebited) return "good";
  if (outcome == Outcome::kRejected || outcome == Outcome::kDeadLettered) return "info";
  if (outcome == Outcome::kStuck || outcome == Outcome::kUnsettled) return "warn";
  return "bad";
}

const char* verdict_class(lab::Verdict verdict) {
  if (verdict == lab::Verdict::kExactlyOnce) return "good";
  if (verdict == lab::Verdict::kStuck) return "warn";
  return "bad";
}

// An effect count: "1", "0" (missing), "2 DUP".
void effect_cell(std::ostream& out, std::int64_t count) {
  out << "<td class=\"" << (count == 1 ? "good" : count == 0 ? "warn" : "bad") << "\">" << count
      << (count >= 2 ? " <b class=\"dup\">DUP</b>" : "") << "</td>";
}

// The report's static tables (the orders here, the database's in write_tables) are what
// the page shows without script, so they sit in a <noscript>: with script the page builds
// its own tables for each step, and a long run's static rows took seconds to build and lay
// out only to be thrown away. The script replaces the empty table with the id.
void write_orders(std::ostream& out, const lab::Report& report, const std::string& id) {
  out << "<h2 id=\"" << id << "orders-title\">Orders and their effects at the end of the run</h2>\n"
         "<div class=\"scroll\"><table id=\"" << id << "orders\" hidden></table><noscript>"
         "<table class=\"orders\"><thead><tr><th>order</th><th>amount</th>"
         "<th>committed</th><th>debits</th>"
      << (report.effects_checked ? "<th>emails</th>" : "")
      << "<th>rejections</th><th>dead letters</th><th>outcome</th></tr></thead><tbody>\n";
  for (const lab::OrderOutcome& o : report.orders) {
    out << "<tr><td>" << o.order << "</td><td>" << o.amount << "</td><td>"
        << (o.committed ? "yes" : "no") << "</td>";
    effect_cell(out, o.debits);
    if (report.effects_checked) effect_cell(out, o.effects);
    out << "<td>" << o.rejections << "</td><td>" << o.dead_letters << "</td><td class=\""
        << outcome_class(o.outcome) << "\">" << o.outcome << "</td></tr>\n";
  }
  out << "</tbody></table></noscript></div>\n";
}

void write_faults(std::ostream& out, const lab::RunSummary& run) {
  out << "<h2>Faults fired: " << run.faults.size() << "</h2>\n";
  if (run.faults.empty()) return;
  out << "<div class=\"scroll\"><table class=\"faults\"><thead><tr><th>step</th><th>site</th>"
         "<th>action</th><th>order</th><th>attempt</th></tr></thead><tbody>\n";
  for (const sim::FiredFault& f : run.faults) {
    out << "<tr data-step=\"" << f.step << "\"><td><a class=\"step-link\" href=\"#step-" << f.step
        << "\">" << f.step << "</a></td><td>" << xml_escape(f.site) << "</td><td>"
        << xml_escape(std::string(sim::fault_action_name(f.action))) << "</td><td>"
        << (f.key[orders::kOrder] > 0 ? std::to_string(f.key[orders::kOrder]) : "-") << "</td><td>"
        << (f.key[orders::kAttempt] > 0 ? std::to_string(f.key[orders::kAttempt]) : "-")
        << "</td></tr>\n";
  }
  out << "</tbody></table></div>\n";
}

// A long run's tables would make a page of tens of megabytes that a browser takes seconds
// to lay out; past this many rows a table shows its first rows and says where the rest is.
constexpr std::size_t kStaticRows = 500;

void write_tables(std::ostream& out, const std::vector<lab::DbTable>& tables,
                  const std::string& replay, const std::string& id) {
  out << "<h2 id=\"" << id << "tables-title\">Database tables at the end of the run</h2>\n<div id=\""
      << id << "tables\"><noscript>\n";
  for (const lab::DbTable& t : tables) {
    out << "<h3>" << xml_escape(t.database) << " <code>" << xml_escape(t.name) << "</code> ("
        << t.rows.size() << (t.rows.size() == 1 ? " row" : " rows") << ")</h3>\n";
    if (t.rows.empty()) continue;
    out << "<div class=\"scroll\"><table class=\"db\"><tr>";
    for (const std::string& c : t.columns) out << "<th>" << xml_escape(c) << "</th>";
    out << "</tr>";
    const std::size_t shown = std::min(t.rows.size(), kStaticRows);
    for (std::size_t r = 0; r < shown; ++r) {
      out << "<tr>";
      for (const std::string& cell : t.rows[r]) out << "<td>" << xml_escape(cell) << "</td>";
      out << "</tr>";
    }
    out << "</table></div>\n";
    if (shown < t.rows.size()) {
      out << "<p class=\"muted\">the first " << shown << " rows of " << t.rows.size()
          << "; <code>" << xml_escape(replay) << " --keep-db DIR</code> keeps every row</p>\n";
    }
  }
  out << "</noscript></div>\n";
}

// Markup without the line breaks between elements: each would be a text node of its own,
// a third of a long diagram's nodes.
std::string compact(std::string markup) {
  std::string out;
  out.reserve(markup.size());
  for (std::size_t i = 0; i < markup.size(); ++i) {
    if (markup[i] == '\n' && i > 0 && markup[i - 1] == '>' && i + 1 < markup.size() &&
        markup[i + 1] == '<') {
      continue;
    }
    out += markup[i];
  }
  return out;
}

void write_header(std::ostream& out, const lab::RunRecord& record, const RunPart& part) {
  const lab::RunSummary& run = record.run;
  const lab::Report& report = run.report;
  const char* h = part.player ? "h1" : "h2";  // under a comparison's own h1
  out << "<header>\n<" << h << " id=\"" << part.prefix << "scenario-name\">"
      << xml_escape(record.scenario.name) << "</" << h << ">\n";
  out << "<p>seed " << run.seed << " &middot; producer <code>" << xml_escape(run.producer)
      << "</code> &middot; consumer <code>" << xml_escape(run.strategy) << "</code> &middot; "
      << run.steps << " steps &middot; trace <code>" << sim::hash_hex(run.trace_hash)
      << "</code></p>\n";
  if (part.about && !record.scenario.about.empty()) {
    out << "<p class=\"about\">" << xml_escape(record.scenario.about) << "</p>\n";
  }
  out << "<p class=\"verdict " << verdict_class(report.verdict) << "\">verdict: "
      << report.verdict << "</p>\n";
  out << "<p>balance: initial " << report.balance_initial << ", expected "
      << report.balance_expected << ", actual <span class=\""
      << (report.balance_expected == report.balance_actual ? "good" : "bad") << "\">"
      << report.balance_actual << "</span> &middot; redeliveries " << run.redeliveries;
  if (run.republished.value_or(0) > 0) out << " &middot; republished " << *run.republished;
  out << "</p>\n";
  for (const std::string& unmet : record.unmet) {
    out << "<p class=\"bad\">expectation failed: " << xml_escape(unmet) << "</p>\n";
  }
  if (!record.replay.empty()) {
    out << "<p class=\"replay\">replay: <code>" << xml_escape(record.replay) << "</code></p>\n";
  }
  out << "</header>\n";
}

// Where the script finds each step's rows in the diagram: the canvas geometry and the
// first row of every step (steps + 2 entries, so step k's rows are [first[k], first[k+1])).
nlohmann::json diagram_rows(const diagram::SequenceLayout& layout, std::uint64_t steps,
                            const diagram::SvgOptions& svg) {
  diagram::Placement placement;
  placement.update(layout, svg.width, diagram::monospace_metrics(svg.font_px));
  const diagram::Canvas& c = placement.canvas();
  nlohmann::json first = nlohmann::json::array();
  for (std::uint64_t k = 0; k <= steps + 1; ++k) first.push_back(layout.first_row_of_step(k));
  return {{"header", c.header},
          {"gutter", c.gutter},
          {"row", c.row_height},
          {"height", c.height(layout.rows().size()) + c.row_height},
          {"first", std::move(first)}};
}

// The diagram in blocks of kBlockRows rows (svg.h): a browser lays out and paints only the
// blocks near the view (content-visibility). Each block says how tall it is, so the
// scroll height is right before it is drawn. Every block after the first is kept out of
// the document until it is needed: its SVG sits in a <noscript>, which a browser running
// scripts reads as one piece of text instead of thousands of elements, and the page's
// script makes it a picture when it comes near the view (page.js); without script the
// browser shows it as it is. Building those elements was most of what opening a long
// run's page cost (docs/performance.md).
constexpr std::size_t kBlockRows = 150;

void write_diagram(std::ostream& out, const diagram::SequenceLayout& layout,
                   const diagram::SvgOptions& svg, const std::string& id) {
  // A block is as wide as the picture, which is wider than the pane when the lanes need
  // the room: a block only as wide as the pane would clip the lanes beyond its edge (a
  // block's paint is contained), even when the pane is scrolled sideways to them.
  diagram::Placement placement;
  placement.update(layout, svg.width, diagram::monospace_metrics(svg.font_px));
  const std::string width = diagram::num(placement.canvas().width) + "px";
  out << "<div class=\"diagram\" id=\"" << id << "diagram\">\n";
  bool first = true;
  for (const diagram::SvgBlock& block : diagram::sequence_svg_blocks(layout, svg, kBlockRows)) {
    const std::string height = diagram::num(block.height) + "px";
    if (first) {
      out << "<div class=\"block\" style=\"width:" << width << ";contain-intrinsic-size:auto "
          << width << " auto " << height << "\">" << compact(block.svg) << "</div>\n";
    } else {
      out << "<div class=\"block deferred\" data-top=\"" << diagram::num(block.top)
          << "\" style=\"width:" << width << ";height:" << height << "\"><noscript>"
          << compact(block.svg) << "</noscript></div>\n";
    }
    first = false;
  }
  out << "</div>\n";
}

// The diagram's layout of the whole run: the page's blocks and the picture share it.
diagram::SequenceLayout run_layout(const lab::RunRecord& record, const StepStates& steps) {
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(record.scenario));
  layout.update(steps.trace, 1);
  return layout;
}

}  // namespace

std::string script_json(const nlohmann::json& value) {
  const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 64);
  // U+2028 and U+2029 end a line in older JavaScript; they are three bytes each, so they
  // are found here and every single byte goes through the table.
  constexpr std::string_view kLineSeparator = "\xE2\x80\xA8", kParagraphSeparator = "\xE2\x80\xA9";
  std::size_t from = 0;
  for (std::size_t at = text.find("\xE2\x80"); at != std::string::npos;
       at = text.find("\xE2\x80", at + 1)) {
    const std::string_view rest = std::string_view(text).substr(at);
    const bool line = rest.starts_with(kLineSeparator);
    if (!line && !rest.starts_with(kParagraphSeparator)) continue;
    sim::escape_into(out, std::string_view(text).substr(from, at - from),
                     sim::escapes::kScriptJson);
    out += line ? "\\u2028" : "\\u2029";
    from = at + 3;
    at += 2;
  }
  sim::escape_into(out, std::string_view(text).substr(from), sim::escapes::kScriptJson);
  return out;
}

std::string player_nav(std::uint64_t steps, bool events) {
  std::ostringstream out;
  out << "<nav id=\"player\" hidden>\n<div class=\"controls\">"
         "<button id=\"first\" title=\"first step (Home)\">|&#x25C0;</button>"
         "<button id=\"prev\" title=\"previous step (Left arrow)\">&#x25C0;</button>"
         "<input id=\"slider\" type=\"range\" min=\"0\" max=\"" << steps
      << "\" value=\"0\" aria-label=\"step\">"
         "<button id=\"next\" title=\"next step (Right arrow)\">&#x25B6;</button>"
         "<button id=\"last\" title=\"last step (End)\">&#x25B6;|</button>"
         "<span id=\"where\"></span></div>\n"
      << (events ? "<ol id=\"events\" class=\"events\"></ol>\n" : "") << "</nav>\n";
  return out.str();
}

std::string page_head(const std::string& title) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"" << kPolicy << "\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
      << xml_escape(title) << "</title>\n<style>\n" << kPageStyle << "</style>\n</head><body>\n";
  return out.str();
}

std::string page_tail() {
  return std::string("<script>\n") + kPageScript + "</script>\n</body></html>\n";
}

std::string run_picture(const lab::RunRecord& record, const StepStates& steps,
                        const diagram::SvgOptions& svg) {
  return diagram::sequence_svg(run_layout(record, steps), svg);
}

std::string run_sections(const lab::RunRecord& record, const StepStates& steps,
                         const diagram::SvgOptions& svg, const RunPart& part) {
  const lab::RunSummary& run = record.run;
  const std::string& id = part.prefix;
  std::ostringstream out;
  write_header(out, record, part);
  if (part.player) out << player_nav(steps.steps, true);
  const diagram::SequenceLayout layout = run_layout(record, steps);
  out << "<div class=\"run\" id=\"" << id << "run\">\n<section class=\"pane diagram-pane\">\n"
      << "<h2>Sequence diagram</h2>\n";
  if (!part.player) out << "<ol id=\"" << id << "events\" class=\"events\"></ol>\n";
  write_diagram(out, layout, svg, id);
  out << "</section>\n<section class=\"pane state-pane\">\n<div id=\"" << id << "now\" hidden></div>\n";
  write_orders(out, run.report, id);
  write_faults(out, run);
  write_tables(out, steps.final_tables, record.replay, id);
  out << "</section>\n</div>\n";
  nlohmann::json data = {{"steps", steps.steps},
                         {"effects", run.report.effects_checked},
                         {"tables", steps.tables},
                         {"diagram", diagram_rows(layout, steps.steps, svg)},
                         {"states", steps.states}};
  if (part.mark) data["mark"] = *part.mark;
  out << "<script type=\"application/json\" id=\"" << id << "run-data\">" << script_json(data)
      << "</script>\n";
  return out.str();
}

std::string run_sections(const lab::RunRecord& record, const StepStates& steps,
                         const diagram::SvgOptions& svg) {
  return run_sections(record, steps, svg, RunPart{});
}

std::string run_page(const lab::RunRecord& record, const StepStates& steps,
                     const diagram::SvgOptions& svg) {
  return page_head(record.scenario.name + " - eosim") + run_sections(record, steps, svg) +
         page_tail();
}

}  // namespace web
