// Compare: the same scenario and seed under two strategies, side by side and stepped
// together. The traces agree event for event until the strategies make a different
// decision; that event is marked in both diagrams.

#include <string>

#include "src/catalog/catalog.h"
#include "src/orders/order_key.h"
#include "src/report/trace_format.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

void strategy_combo(const char* label, int& index) {
  const auto& all = lab::strategies();
  ImGui::SetNextItemWidth(200);
  if (ImGui::BeginCombo(label, std::string(all[static_cast<std::size_t>(index)].name).c_str())) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (ImGui::Selectable(std::string(all[i].name).c_str(), index == static_cast<int>(i))) {
        index = static_cast<int>(i);
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(all[i].meaning).c_str());
    }
    ImGui::EndCombo();
  }
  probe_last_item(label);
}

void column(const SessionModel& m, ViewState& view, Slot slot, std::size_t divergence) {
  const lab::Report& r = m.view->summary.report;
  const lab::Scenario& s = m.session->scenario();
  heading(s.consumer.strategy.c_str());
  ImGui::SameLine();
  if (m.view->over || view.show_outcome) {
    text_colored(verdict_color(m.end->report.verdict), "  whole run: " + std::string(lab::verdict_name(m.end->report.verdict)));
  } else {
    ImGui::TextDisabled("  in progress");
  }
  ImGui::Text("now: %s   balance", lab::verdict_so_far(r.verdict, m.view->over).c_str());
  ImGui::SameLine(0, ImGui::CalcTextSize(" ").x);  // one word space, as in a sentence
  balance_figures(r.balance_expected, r.balance_actual, m.view->over);
  ImGui::TextUnformatted("debits per order:");
  const std::vector<lab::OrderView> views = lab::order_views(r, m.view->over);
  for (const lab::OrderView& o : views) {
    ImGui::SameLine();
    text_colored(view_color(o.debits_tone), "#" + std::to_string(o.order) + " x" + o.debits);
  }
  if (lab::shows_emails(r)) {
    ImGui::TextUnformatted("emails per order:");
    for (const lab::OrderView& o : views) {
      ImGui::SameLine();
      text_colored(view_color(o.emails_tone), "#" + std::to_string(o.order) + " x" + o.emails);
    }
  }
  ImGui::Separator();
  draw_sequence(m, view, slot, divergence);
}

}  // namespace

void draw_compare(const Model& model, ViewState& view, Commands& commands) {
  strategy_combo("left", view.compare_left);
  ImGui::SameLine();
  strategy_combo("right", view.compare_right);
  ImGui::SameLine();
  if (button("Compare these")) {
    const auto& all = lab::strategies();
    commands.push_back(
        CompareCmd{std::string(all[static_cast<std::size_t>(view.compare_left)].name),
                   std::string(all[static_cast<std::size_t>(view.compare_right)].name)});
  }
  if (!model.compare[0].valid() || !model.compare[1].valid()) return;
  ImGui::SameLine();
  const lab::Divergence& d = model.divergence;
  std::size_t marked = static_cast<std::size_t>(-1);
  if (d.diverged) {
    marked = d.event;
    text_colored(IM_COL32(255, 120, 220, 255), "   identical until step " + std::to_string(d.step) +
                                                   " (event " + std::to_string(d.event + 1) +
                                                   "), where the strategies decide differently");
    const auto& left = model.compare[0].session->world().kernel().trace.events();
    const auto& right = model.compare[1].session->world().kernel().trace.events();
    if (d.event < left.size())
      ImGui::Text("left:  %s", lab::format_trace_line(left[d.event], orders::kKeyNames).c_str());
    if (d.event < right.size())
      ImGui::Text("right: %s", lab::format_trace_line(right[d.event], orders::kKeyNames).c_str());
  } else {
    ImGui::TextDisabled("   identical so far: the strategies have not yet decided differently");
  }
  const float width = ImGui::GetContentRegionAvail().x * 0.5f - 4;
  for (int i = 0; i < 2; ++i) {
    if (i == 1) ImGui::SameLine();
    ImGui::BeginChild(i == 0 ? "left run" : "right run", ImVec2(width, 0), true);
    column(model.compare[i], view, compare_slot(i), marked);
    ImGui::EndChild();
  }
}

}  // namespace ui
