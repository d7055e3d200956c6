// The live database tables, read at the current step. The ledger comes first (that is
// where an effect happens or not); a debit row whose order was debited before is red.

#include <algorithm>
#include <map>
#include <string>

#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

constexpr const char* kOrder[] = {
    "accounts", "debits", "processed_messages", "rejections", "outbox", "orders", "seen"};

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

void draw_table(const lab::DbTable& t, int slot) {
  // Debits of an order already debited above: the double effect, in red.
  const int order_column = column_of(t, "order_id");
  std::map<std::string, int> seen;
  std::vector<bool> repeated(t.rows.size(), false);
  if (t.name == "debits" && order_column >= 0) {
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      repeated[r] = seen[t.rows[r][static_cast<std::size_t>(order_column)]]++ > 0;
    }
  }
  const std::string title = t.database + "  " + t.name + "  (" + std::to_string(t.rows.size()) +
                            " row" + (t.rows.size() == 1 ? "" : "s") + ")";
  heading(title.c_str());
  if (t.name == "outbox") {
    ImGui::SameLine();
    ImGui::TextDisabled("sent=1 after the broker's confirm");
  }
  if (t.rows.empty()) return;
  const std::string id = t.database + t.name + std::to_string(slot);
  const float row_height = ImGui::GetTextLineHeightWithSpacing();
  const float height =
      row_height * static_cast<float>(std::min<std::size_t>(t.rows.size(), 6) + 1) + 6;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable(id.c_str(), static_cast<int>(t.columns.size()), flags,
                         ImVec2(0, height))) {
    return;
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const auto& c : t.columns) ImGui::TableSetupColumn(c.c_str());
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(t.rows.size()));
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const auto row = static_cast<std::size_t>(r);
      ImGui::TableNextRow();
      for (std::size_t c = 0; c < t.columns.size(); ++c) {
        ImGui::TableNextColumn();
        text_colored(cell_color(t, c, t.rows[row][c], repeated[row]), t.rows[row][c]);
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace

void draw_tables(const SessionModel& m, int slot) {
  for (const char* name : kOrder) {
    for (const lab::DbTable& t : m.view->tables) {
      if (t.name == name) draw_table(t, slot);
    }
  }
}

}  // namespace ui
