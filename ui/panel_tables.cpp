// The live database tables, read at the current step. The table that explains the
// scenario comes first (`seen` for a separate dedup store, the outbox for a producer that
// does not use one); then the ledger, where an effect happens or not. A debit row whose
// order was debited before is red. Columns fit their content up to a limit; a cell cut
// short shows its whole text on hover.

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "src/producer/design.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

constexpr float kMaxColumn = 220;  // a wider cell is cut, with its text on hover

std::vector<std::string> table_order(const lab::Scenario& s) {
  std::vector<std::string> order = {"accounts", "debits", "processed_messages", "rejections",
                                    "outbox",   "orders", "seen",  "emails"};
  const auto first = [&order](const std::string& name) {
    order.erase(std::find(order.begin(), order.end(), name));
    order.insert(order.begin(), name);
  };
  const producer::PatternPreset* preset = producer::find_pattern(s.producer.pattern);
  if (preset == nullptr || preset->pattern != producer::Pattern::kOutbox) {
    first("orders");
    first("outbox");
  }
  if (s.consumer.choices().dedup == consumer::Dedup::kSeparateStore) first("seen");
  // The mail server's log holds the effect a ledger cannot roll back.
  if (s.consumer.side_effect != consumer::SideEffect::kNone) first("emails");
  return order;
}

int column_of(const lab::DbTable& t, const char* name) {
  const auto it = std::find(t.columns.begin(), t.columns.end(), name);
  return it == t.columns.end() ? -1 : static_cast<int>(it - t.columns.begin());
}

ImU32 cell_color(const lab::DbTable& t, std::size_t column, const std::string& value,
                 bool repeated_order) {
  const std::string& name = t.columns[column];
  if (t.name == "outbox" && name == "sent") return value == "1" ? palette::kGood : palette::kWarn;
  if (t.name == "accounts" && name == "balance") return palette::kInfo;
  if (repeated_order) return palette::kBad;
  return palette::kText;
}

// Debits (or emails) of an order already debited (or emailed) above: the double effect,
// in red.
std::vector<bool> repeated_orders(const lab::DbTable& t) {
  std::vector<bool> repeated(t.rows.size(), false);
  const int order_column = column_of(t, "order_id");
  if ((t.name != "debits" && t.name != "emails") || order_column < 0) return repeated;
  std::map<std::string, int> seen;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    repeated[r] = seen[t.rows[r][static_cast<std::size_t>(order_column)]]++ > 0;
  }
  return repeated;
}

// Each column as wide as its widest cell or header, at most kMaxColumn.
std::vector<float> column_widths(const lab::DbTable& t) {
  std::vector<float> widths;
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    float w = ImGui::CalcTextSize(t.columns[c].c_str()).x;
    for (const auto& row : t.rows) w = std::max(w, ImGui::CalcTextSize(row[c].c_str()).x);
    widths.push_back(std::min(w, kMaxColumn));
  }
  return widths;
}

void cell(const std::string& text, ImU32 color, float width) {
  text_colored(color, text);
  if (ImGui::CalcTextSize(text.c_str()).x > width && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", text.c_str());
  }
}

void draw_table(const lab::DbTable& t, Slot slot) {
  const std::string title = t.database + "  " + t.name + "  (" + std::to_string(t.rows.size()) +
                            " row" + (t.rows.size() == 1 ? "" : "s") + ")";
  heading(title.c_str());
  if (t.name == "outbox") help_marker("sent=1 only after the broker's confirm");
  if (t.rows.empty()) return;
  const std::vector<bool> repeated = repeated_orders(t);
  const std::vector<float> widths = column_widths(t);
  const std::string id = t.database + t.name + std::to_string(slot_number(slot));
  const float row_height = ImGui::GetTextLineHeightWithSpacing();
  const float height = row_height * static_cast<float>(std::min<std::size_t>(t.rows.size(), 6) + 1) +
                       ImGui::GetStyle().ScrollbarSize + 6;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable(id.c_str(), static_cast<int>(t.columns.size()), flags,
                         ImVec2(0, height))) {
    return;
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    ImGui::TableSetupColumn(t.columns[c].c_str(), ImGuiTableColumnFlags_WidthFixed, widths[c]);
  }
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(t.rows.size()));
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const auto row = static_cast<std::size_t>(r);
      ImGui::TableNextRow();
      for (std::size_t c = 0; c < t.columns.size(); ++c) {
        ImGui::TableNextColumn();
        cell(t.rows[row][c], cell_color(t, c, t.rows[row][c], repeated[row]), widths[c]);
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace

void draw_tables(const SessionModel& m, Slot slot) {
  for (const std::string& name : table_order(m.session->scenario())) {
    for (const lab::DbTable& t : m.view->tables) {
      if (t.name == name) draw_table(t, slot);
    }
  }
}

}  // namespace ui
