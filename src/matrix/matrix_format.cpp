// The matrix's four formats. One walk over the rows (row_views) serves all of them, so a
// row cannot appear in one format and not in another.

#include "src/matrix/matrix_format.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/prose/printable.h"
#include "src/report/report_format.h"

namespace lab {
namespace {

// One table row as every format shows it: a label, one text per design, and the cells
// behind them (null for the random row).
struct RowView {
  std::string label;  // "no fault", the --fault spec or site, "random seeds A..B"
  std::vector<std::string> texts;
  std::vector<const MatrixCell*> cells;
  const std::vector<MatrixRandom>* random = nullptr;
};

std::string random_label(const Matrix& m) {
  return "random, seeds " + std::to_string(m.first_seed) + ".." + std::to_string(m.last_seed);
}

std::vector<RowView> row_views(const Matrix& m) {
  std::vector<RowView> rows;
  const auto add_cells = [&rows](std::string label, const std::vector<MatrixCell>& cells) {
    RowView row{std::move(label), {}, {}, nullptr};
    for (const MatrixCell& cell : cells) {
      row.texts.push_back(matrix_cell_text(cell));
      row.cells.push_back(&cell);
    }
    rows.push_back(std::move(row));
  };
  add_cells("no fault", m.baseline);
  for (std::size_t f = 0; f < m.faults.size(); ++f) {
    const std::string spec = matrix_row_spec(m, f);
    add_cells(spec.empty() ? m.faults[f].label : spec, m.cells[f]);
  }
  if (m.last_seed != 0) {
    RowView row{random_label(m), {}, {}, &m.random};
    for (const MatrixRandom& r : m.random) row.texts.push_back(matrix_random_text(r));
    rows.push_back(std::move(row));
  }
  return rows;
}

bool violates(const MatrixCell& cell) {
  return cell.applies && cell.fired && cell.verdict != Verdict::kExactlyOnce;
}

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string intro(const Matrix& m) {
  return "Matrix of \"" + m.scenario + "\" (" + m.path +
         "): one run per cell, the column's design with the row's one fault, placed where "
         "the design's fault-free run first passes that site. The first columns change the "
         "consumer strategy, the last ones the producer pattern. n/a: the design never "
         "passes that site.";
}

}  // namespace

std::string matrix_row_spec(const Matrix& m, std::size_t f) {
  std::string spec;
  for (const MatrixCell& cell : m.cells[f]) {
    if (!cell.applies) continue;
    const std::string mine = fault_rule_text(cell.rule);
    if (!spec.empty() && spec != mine) return "";
    spec = mine;
  }
  return spec;
}

std::string format_matrix_text(const Matrix& m) {
  std::ostringstream out;
  out << wrap_text(intro(m), 88, "") << "\n";
  for (std::size_t d = 0; d < m.designs.size(); ++d) {
    const MatrixDesign& design = m.designs[d];
    out << "  [" << d + 1 << "] " << design.label
        << (design.varies_producer ? " (producer; strategy " + design.strategy + ")"
                                   : " (strategy; producer " + design.producer + ")")
        << "\n";
  }
  const std::vector<RowView> rows = row_views(m);
  std::size_t label_width = 0;
  std::vector<std::size_t> widths(m.designs.size());
  for (std::size_t d = 0; d < widths.size(); ++d) widths[d] = std::to_string(d + 1).size() + 2;
  for (const RowView& row : rows) {
    label_width = std::max(label_width, row.label.size());
    for (std::size_t d = 0; d < row.texts.size(); ++d) {
      widths[d] = std::max(widths[d], row.texts[d].size());
    }
  }
  const auto write_line = [&](const std::string& label, const std::vector<std::string>& texts) {
    std::string line = padded(label, label_width);
    for (std::size_t d = 0; d < texts.size(); ++d) line += "  " + padded(texts[d], widths[d]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  };
  std::vector<std::string> header;
  for (std::size_t d = 0; d < widths.size(); ++d) {
    header.push_back("[" + std::to_string(d + 1) + "]");
  }
  out << "\n";
  write_line("", header);
  for (const RowView& row : rows) write_line(row.label, row.texts);
  out << "\nReproduce a cell that is not exactly-once:\n";
  bool any = false;
  for (const RowView& row : rows) {
    for (std::size_t d = 0; d < row.cells.size(); ++d) {
      if (!violates(*row.cells[d])) continue;
      any = true;
      out << "  [" << d + 1 << "] " << row.texts[d] << ": " << row.cells[d]->command << "\n";
    }
    if (row.random == nullptr) continue;
    for (std::size_t d = 0; d < row.random->size(); ++d) {
      const MatrixRandom& r = (*row.random)[d];
      if (!r.first_failing_seed) continue;
      any = true;
      out << "  [" << d + 1 << "] random " << matrix_random_text(r) << ": " << r.command
          << "\n";
    }
  }
  if (!any) out << "  (every cell is exactly-once)\n";
  out << "\n" << m.runs << " runs\n";
  return out.str();
}

std::string format_matrix_markdown(const Matrix& m) {
  std::ostringstream out;
  out << "| fault (`--fault`) |";
  for (const MatrixDesign& d : m.designs) out << " " << d.label << " |";
  out << "\n|---|";
  for (std::size_t d = 0; d < m.designs.size(); ++d) out << "---|";
  out << "\n";
  for (const RowView& row : row_views(m)) {
    const bool code = row.label.find('.') != std::string::npos && row.random == nullptr;
    out << "| " << (code ? "`" + row.label + "`" : row.label) << " |";
    for (std::size_t d = 0; d < row.texts.size(); ++d) {
      const bool bad = row.cells.empty() ? (*row.random)[d].violations > 0
                                         : violates(*row.cells[d]);
      out << " " << (bad ? "**" + row.texts[d] + "**" : row.texts[d]) << " |";
    }
    out << "\n";
  }
  std::string producers;
  for (const MatrixDesign& d : m.designs) {
    if (d.varies_producer) producers += (producers.empty() ? "" : ", ") + d.label;
  }
  std::string footer = "\nReproduce a cell: `eosim run " + shell_quoted(m.path) +
                       " --strategy COLUMN --fault ROW`";
  if (!producers.empty()) footer += " (`--producer COLUMN` for " + producers + ")";
  footer += ".";
  if (m.last_seed != 0) {
    footer += " The random row counts the runs that were not exactly-once among seeds " +
              std::to_string(m.first_seed) + ".." + std::to_string(m.last_seed) +
              " with `--faults " + m.random_spec + "`; `eosim matrix " + shell_quoted(m.path) +
              "` prints the command of each failing cell.";
  }
  out << wrap_text(footer, 88, "");
  return out.str();
}

namespace {

nlohmann::ordered_json cell_json(const MatrixCell& c) {
  nlohmann::ordered_json j;
  j["applies"] = c.applies;
  if (!c.applies) return j;
  j["fired"] = c.fired;
  put_violations(j, c);
  j["dead_lettered"] = c.dead_lettered;
  j["command"] = c.command;
  return j;
}

}  // namespace

nlohmann::ordered_json matrix_json(const Matrix& m) {
  nlohmann::ordered_json j;
  j["scenario"] = m.scenario;
  j["file"] = m.path;
  j["designs"] = nlohmann::ordered_json::array();
  for (const MatrixDesign& d : m.designs) {
    j["designs"].push_back({{"label", d.label},
                            {"strategy", d.strategy},
                            {"producer", d.producer},
                            {"varies", d.varies_producer ? "producer" : "strategy"}});
  }
  j["baseline"] = nlohmann::ordered_json::array();
  for (const MatrixCell& c : m.baseline) j["baseline"].push_back(cell_json(c));
  j["faults"] = nlohmann::ordered_json::array();
  for (std::size_t f = 0; f < m.faults.size(); ++f) {
    nlohmann::ordered_json row;
    row["site"] = m.faults[f].site;
    row["frame"] = m.faults[f].frame;
    row["label"] = m.faults[f].label;
    row["cells"] = nlohmann::ordered_json::array();
    for (const MatrixCell& c : m.cells[f]) {
      nlohmann::ordered_json cell = cell_json(c);
      if (c.applies) cell["fault"] = fault_rule_text(c.rule);
      row["cells"].push_back(std::move(cell));
    }
    j["faults"].push_back(std::move(row));
  }
  if (m.last_seed != 0) {
    j["random"] = {{"first_seed", m.first_seed}, {"last_seed", m.last_seed},
                   {"faults", m.random_spec}, {"cells", nlohmann::ordered_json::array()}};
    for (const MatrixRandom& r : m.random) {
      nlohmann::ordered_json cell = {{"runs", r.runs}, {"violations", r.violations},
                                     {"verdicts", r.verdicts}, {"command", r.command}};
      if (r.first_failing_seed) {
        cell["first_failing_seed"] = *r.first_failing_seed;
        cell["first_verdict"] = r.first_verdict;
      }
      j["random"]["cells"].push_back(std::move(cell));
    }
  }
  j["runs"] = m.runs;
  return j;
}

namespace {

std::string css_class(const MatrixCell& c) {
  if (!c.applies) return "na";
  if (!c.fired) return "nofire";
  return c.verdict == Verdict::kExactlyOnce ? "ok" : "v-" + std::string(verdict_name(c.verdict));
}

constexpr const char* kHtmlHead = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>eosim matrix</title>
<style>
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #bbb; padding: 4px 6px; text-align: center; }
th.row { text-align: left; font-family: monospace; font-weight: normal; }
td.ok { background: #c8ecc8; } td.na { background: #f2f2f2; color: #999; }
td.v-duplicated { background: #f4a6a6; } td.v-lost { background: #f7c58b; }
td.v-phantom { background: #d7b8f0; } td.v-stuck { background: #c7c7e8; }
td.nofire { background: #fff3a0; }
td.rnd-bad { background: #f4cccc; } td.rnd-ok { background: #ddf2dd; }
details code { display: block; font-size: 11px; text-align: left; white-space: pre-wrap;
  max-width: 28em; }
</style></head><body>
)";

}  // namespace

std::string format_matrix_html(const Matrix& m) {
  std::ostringstream out;
  out << kHtmlHead << "<h1>eosim matrix</h1>\n<p>" << xml_escape(intro(m))
      << " Hover a cell for the command that reproduces it.</p>\n<table>\n<tr><th>fault</th>";
  for (const MatrixDesign& d : m.designs) {
    out << "<th title=\"strategy " << xml_escape(d.strategy) << ", producer "
        << xml_escape(d.producer) << "\">" << xml_escape(d.label) << "</th>";
  }
  out << "</tr>\n";
  for (const RowView& row : row_views(m)) {
    out << "<tr><th class=\"row\">" << xml_escape(row.label) << "</th>";
    for (std::size_t d = 0; d < row.texts.size(); ++d) {
      const std::string command =
          row.cells.empty() ? (*row.random)[d].command : row.cells[d]->command;
      const std::string cls = row.cells.empty()
                                  ? ((*row.random)[d].violations > 0 ? "rnd-bad" : "rnd-ok")
                                  : css_class(*row.cells[d]);
      out << "<td class=\"" << cls << "\" title=\"" << xml_escape(command) << "\">"
          << xml_escape(row.texts[d]);
      if (!command.empty()) {
        out << "<details><summary>run</summary><code>" << xml_escape(command)
            << "</code></details>";
      }
      out << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n<p>" << m.runs << " runs.</p>\n</body></html>\n";
  return out.str();
}

}  // namespace lab
