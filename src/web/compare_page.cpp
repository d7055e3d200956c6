// Two runs side by side on one page (see compare_page.h).
#include "src/web/compare_page.h"

#include <algorithm>
#include <sstream>

#include "src/orders/order_key.h"
#include "src/prose/printable.h"
#include "src/report/trace_format.h"
#include "src/web/run_page.h"

namespace web {

namespace {

using lab::xml_escape;

// "scenario name, consumer no-dedup" (or the name alone when it names the strategy
// already, as run_name's do): what tells the two runs apart at a glance.
std::string side_label(const lab::RunRecord& record) {
  const std::string& name = record.scenario.name;
  const auto ends_with = [&name](const std::string& tail) {
    return name.size() >= tail.size() &&
           name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  const std::string& strategy = record.run.strategy;
  if (ends_with("(" + strategy + ")") || ends_with(", consumer " + strategy)) return name;
  return name + ", consumer " + strategy;
}

// `text` with '-' as ' ': a strategy as a name spells it ("no-dedup" as "no dedup").
std::string spaced(std::string text) {
  std::replace(text.begin(), text.end(), '-', ' ');
  return text;
}

void write_parting(std::ostream& out, const lab::Divergence& d,
                   const std::vector<sim::TraceEvent>& left,
                   const std::vector<sim::TraceEvent>& right) {
  out << "<p id=\"parting\" class=\"verdict " << (d.diverged ? "info" : "good") << "\">"
      << xml_escape(parting_text(d));
  if (d.diverged) {
    out << " &middot; <a class=\"step-link\" href=\"#step-" << d.step << "\">" << d.step << "</a>";
  }
  out << "</p>\n";
  if (!d.diverged) return;
  out << "<div class=\"scroll\"><table id=\"parting-events\"><tr><th>left</th><td>"
      << xml_escape(parting_event(d, left)) << "</td></tr><tr><th>right</th><td>"
      << xml_escape(parting_event(d, right)) << "</td></tr></table></div>\n";
}

}  // namespace

std::string run_name(const std::string& name, const std::string& file_strategy,
                     const std::string& strategy) {
  if (strategy == file_strategy) return name;
  const std::size_t open = name.rfind(" (");
  const bool names_file =
      open != std::string::npos && name.back() == ')' &&
      spaced(name.substr(open + 2, name.size() - open - 3)) == spaced(file_strategy);
  return names_file ? name.substr(0, open) + " (" + strategy + ")"
                    : name + ", consumer " + strategy;
}

std::string parting_text(const lab::Divergence& d) {
  if (!d.diverged) return "identical: the two runs are the same, step for step";
  return "identical until step " + std::to_string(d.step) + " (event " +
         std::to_string(d.event + 1) + "), where the runs part";
}

std::string parting_event(const lab::Divergence& d, const std::vector<sim::TraceEvent>& trace) {
  if (!d.diverged || d.event >= trace.size()) return d.diverged ? "(the run has ended)" : "";
  const std::string text =
      lab::printable(lab::format_trace_line(trace[d.event], orders::kKeyNames));
  return text.substr(std::min(text.size(), text.find_first_not_of(' ')));  // no column padding
}

std::string compare_page(const CompareSide& left, const CompareSide& right,
                         const diagram::SvgOptions& svg) {
  const lab::Divergence d = lab::first_divergence(left.steps.trace, right.steps.trace);
  const std::string title = side_label(left.record) + " vs " + side_label(right.record);
  std::ostringstream out;
  out << page_head(title + " - eosim compare");
  out << "<header>\n<h1 id=\"compare-title\">" << xml_escape(title) << "</h1>\n";
  write_parting(out, d, left.steps.trace, right.steps.trace);
  out << "</header>\n";
  out << player_nav(std::max(left.steps.steps, right.steps.steps), false);
  out << "<div class=\"compare\">\n";
  const CompareSide* sides[] = {&left, &right};
  const char* prefixes[] = {"L-", "R-"};
  for (int i = 0; i < 2; ++i) {
    RunPart part;
    part.prefix = prefixes[i];
    part.player = false;
    part.about = false;
    if (d.diverged) part.mark = d.step;
    out << "<section class=\"side\" id=\"" << prefixes[i] << "side\">\n"
        << run_sections(sides[i]->record, sides[i]->steps, svg, part) << "</section>\n";
  }
  out << "</div>\n" << page_tail();
  return out.str();
}

}  // namespace web
