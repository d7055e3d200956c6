// The verdict: every order with its effect count (0, 1, 2+), the balance expected vs
// actual, the checker's verdict now and at the end of the run, and the faults that fired,
// with the ones that name an order which went wrong pointed out.

#include <string>

#include "src/catalog/catalog.h"
#include "src/orders/order_key.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

std::string fault_line(const sim::FiredFault& f) {
  std::string line = "step " + std::to_string(f.step) + ": " + f.site + " -> " +
                     std::string(sim::fault_action_name(f.action));
  if (!f.frame.empty()) line += " " + f.frame;
  if (f.key[orders::kOrder] > 0) line += " order " + std::to_string(f.key[orders::kOrder]);
  if (f.key[orders::kAttempt] > 0) line += " attempt " + std::to_string(f.key[orders::kAttempt]);
  if (f.key[orders::kInstance] > 0)
    line += " (instance " + std::to_string(f.key[orders::kInstance]) + ")";
  line += f.scripted ? "" : " [random]";
  return line;
}

ImU32 shown_color(lab::Outcome outcome, bool over) {
  return lab::outcome_pending(outcome, over) ? palette::kMuted : outcome_color(outcome);
}

bool went_wrong(lab::Outcome outcome, bool over) {
  return outcome == lab::Outcome::kDuplicated || outcome == lab::Outcome::kLost ||
         outcome == lab::Outcome::kPhantom || (over && outcome == lab::Outcome::kStuck);
}

void orders_table(const lab::Report& r, bool over) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_ScrollY;
  const float rows = static_cast<float>(std::min<std::size_t>(r.orders.size(), 8) + 1);
  if (!ImGui::BeginTable("orders", 5, flags,
                         ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 6))) {
    return;
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* c : {"order", "amount", "committed", "effects (debits)", "outcome"}) {
    ImGui::TableSetupColumn(c);
  }
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(r.orders.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const lab::OrderOutcome& o = r.orders[static_cast<std::size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%lld", static_cast<long long>(o.order));
      ImGui::TableNextColumn();
      ImGui::Text("%lld", static_cast<long long>(o.amount));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(o.committed ? "yes" : "no");
      ImGui::TableNextColumn();
      std::string effects = std::to_string(o.debits) + (o.debits >= 2 ? "  DOUBLE" : "");
      if (o.rejections > 0) effects += " +" + std::to_string(o.rejections) + " rejected";
      text_colored(o.rejections > 0 && o.debits == 0 ? palette::kInfo : effect_color(o.debits),
                   effects);
      ImGui::TableNextColumn();
      text_colored(shown_color(o.outcome, over), lab::outcome_so_far(o.outcome, over));
    }
  }
  ImGui::EndTable();
}

}  // namespace

void draw_verdict(const SessionModel& m, bool show_end) {
  const lab::RunSummary& now = m.view->summary;
  const lab::Report& r = now.report;
  const lab::RunSummary& end = *m.end;

  const bool over = m.view->over;
  // Until the run has ended the verdict is not known: no vacuous "exactly-once" at step 0.
  const std::string verdict = verdict_so_far(r.verdict, over);
  ImGui::TextUnformatted("At this step:");
  ImGui::SameLine();
  text_colored(verdict_known_so_far(r.verdict, over) ? verdict_color(r.verdict) : palette::kMuted,
               verdict);
  ImGui::SameLine();
  ImGui::TextUnformatted("   whole run:");
  ImGui::SameLine();
  if (over || show_end) {
    text_colored(verdict_color(end.report.verdict), std::string(lab::verdict_name(end.report.verdict)));
  } else {
    ImGui::TextDisabled("hidden until it ends");
  }
  help_marker(
      "The checker reads the SQLite tables and the broker's leftovers. Mid-run, "
      "orders still on their way (queued, unacked, unsent) are pending; the whole run "
      "is what `eosim run` reports.");

  ImGui::Text("Balance: initial %lld,", static_cast<long long>(r.balance_initial));
  ImGui::SameLine(0, ImGui::CalcTextSize(" ").x);  // one word space, as in a sentence
  balance_figures(r.balance_expected, r.balance_actual, over);
  long long duplicates = 0;
  for (const auto& a : m.view->actors) duplicates += a.duplicates;
  ImGui::TextWrapped("Redeliveries (redelivered=true): %lld    duplicates detected by consumers: %lld",
              static_cast<long long>(now.redeliveries), duplicates);
  orders_table(r, over);

  ImGui::Text("Faults fired: %zu", now.faults.size());
  for (const sim::FiredFault& f : now.faults) {
    bool blamed = false;
    for (const auto& o : r.orders) {
      blamed = blamed || (o.order == f.key[orders::kOrder] && went_wrong(o.outcome, over));
    }
    ImGui::PushStyleColor(ImGuiCol_Text, blamed ? palette::kBad : palette::kWarn);
    ImGui::TextWrapped("%s", ((blamed ? "> " : "  ") + fault_line(f)).c_str());
    ImGui::PopStyleColor();
    if (const auto* site = lab::find_fault_site(f.site)) {
      ImGui::SameLine();
      help_marker(std::string(site->meaning).c_str());
    }
  }
  // Whether a rule fires is known once the run is over: the whole run's list.
  for (const lab::UnfiredRule& u : end.unfired) {
    text_colored(palette::kBad, "WARNING: " + lab::unfired_text(u));
  }
  for (const auto& o : r.orders) {
    if (!went_wrong(o.outcome, over)) continue;
    bool named = false;
    for (const auto& f : now.faults) named = named || f.key[orders::kOrder] == o.order;
    std::string why = "order " + std::to_string(o.order) + " is " + std::string(lab::outcome_name(o.outcome)) + ": ";
    why += named ? "the fault marked > names it" : "no fault names it (see the diagram)";
    text_wrapped_colored(outcome_color(o.outcome), why);
  }
}

}  // namespace ui
