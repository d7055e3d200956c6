#include "src/report/scenario_doc.h"

#include <sstream>

#include "sim/escape.h"
#include "src/catalog/catalog.h"
#include "src/catalog/fault_sites.h"
#include "src/scenario/scenario_keys.h"

namespace lab {

namespace {

// A table cell: `|` would end the cell, so it is escaped.
std::string cell(std::string_view text) {
  return text.empty() ? "-" : sim::escape(text, sim::escapes::kMarkdownCell);
}

std::string table_title(std::string_view table) {
  if (table.empty()) return "Top level";
  if (table == "faults.script") return "[[faults.script]] (one table per rule)";
  return "[" + std::string(table) + "]";
}

void write_keys(std::ostringstream& out) {
  std::string_view current = "(none)";
  for (const ScenarioKey& k : scenario_keys()) {
    if (k.table != current) {
      current = k.table;
      out << "\n#### " << table_title(current) << "\n\n";
      out << "| key | type | default | range | meaning |\n|---|---|---|---|---|\n";
    }
    out << "| `" << k.key << "` | " << cell(k.type) << " | "
        << cell(k.default_value.empty() ? "required" : k.default_value) << " | "
        << cell(range_text(k)) << " | " << cell(k.meaning) << " |\n";
  }
  out << "\n#### [faults.random]\n\nOne key per fault kind, each a ratio string such as "
         "`\"1/20\"` (`\"N/D\"` with N <= D, or `\"0\"`, `\"1\"`): the chance per "
         "opportunity.\n\n| kind | meaning |\n|---|---|\n";
  for (const CatalogEntry& kind : fault_kinds()) {
    out << "| `" << kind.name << "` | " << cell(kind.meaning) << " |\n";
  }
}

std::string keys_text(const FaultSite& site) {
  std::string out;
  const std::pair<SiteKey, const char*> keys[] = {{kKeyOrder, "order"},
                                                  {kKeyAttempt, "attempt"},
                                                  {kKeyFrame, "frame"},
                                                  {kKeyNth, "nth"},
                                                  {kKeyInstance, "instance"}};
  for (const auto& [key, name] : keys) {
    if (site.takes(key)) out += (out.empty() ? "" : ", ") + std::string(name);
  }
  if (site.timed) out += site.moment_only ? "; only `tick` / `step`" : "; or `tick` / `step`";
  return out;
}

void write_sites(std::ostringstream& out) {
  out << "\n### Fault sites\n\n"
         "| site (`at`) | `do` | takes | `attempt` counts | passed by | meaning |\n"
         "|---|---|---|---|---|---|\n";
  for (const FaultSite& site : fault_sites()) {
    out << "| `" << site.name << "` | " << site.allowed_text() << " | "
        << cell(keys_text(site)) << " | " << cell(site.attempt_means) << " | "
        << cell(passed_by_text(site, nullptr)) << " | " << cell(site.meaning) << " |\n";
  }
  out << "\n### Frames on each link\n\n"
         "| link (`at`) | `frame` | names `order` | names `attempt` | sent under |\n"
         "|---|---|---|---|---|\n";
  for (const FaultSite& site : fault_sites()) {
    for (const SiteFrame& f : site.frames) {
      out << "| `" << site.name << "` | `" << f.kind << "` | " << (f.names_order ? "yes" : "no")
          << " | " << (f.names_attempt ? "yes" : "no") << " | "
          << cell(passed_by_text(site, &f)) << " |\n";
    }
  }
}

}  // namespace

std::string scenario_format_reference() {
  std::ostringstream out;
  out << "### Keys\n";
  write_keys(out);
  write_sites(out);
  return out.str();
}

}  // namespace lab
