// The verdict: every order with its effect count (0, 1, 2+), the balance expected vs
// actual, the checker's verdict now and at the end of the run, and the faults that fired,
// with the ones that name an order which went wrong pointed out.

#include <algorithm>
#include <string>
#include <vector>

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

// The orders of the verdict (lab::order_views): debits and, for a design with a side
// effect, emails beside them, so a duplicated email shows where the verdict is.
void orders_table(const std::vector<lab::OrderView>& views, bool emails) {
  // Columns as wide as their content, the outcome taking the rest. With emails there is
  // no room for `committed` in a laptop's panel: an uncommitted order's outcome says it.
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
  const float rows = static_cast<float>(std::min<std::size_t>(views.size(), 8) + 1);
  if (!ImGui::BeginTable("orders", 5, flags,
                         ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 6))) {
    return;
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* c : {"order", "amount", emails ? "debits" : "committed",
                        emails ? "emails" : "debits"}) {
    ImGui::TableSetupColumn(c);
  }
  ImGui::TableSetupColumn("outcome", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(views.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const lab::OrderView& o = views[static_cast<std::size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%lld", static_cast<long long>(o.order));
      ImGui::TableNextColumn();
      ImGui::Text("%lld", static_cast<long long>(o.amount));
      if (!emails) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(o.committed ? "yes" : "no");
      }
      ImGui::TableNextColumn();
      text_colored(view_color(o.debits_tone), o.debits);
      if (emails) {
        ImGui::TableNextColumn();
        text_colored(view_color(o.emails_tone), o.emails);
      }
      ImGui::TableNextColumn();
      text_colored(view_color(o.outcome_tone), o.outcome);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", o.outcome.c_str());
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
  const std::string verdict = lab::verdict_so_far(r.verdict, over);
  ImGui::TextUnformatted("At this step:");
  ImGui::SameLine();
  text_colored(lab::verdict_known_so_far(r.verdict, over) ? verdict_color(r.verdict) : palette::kMuted,
               verdict);
  ImGui::SameLine();
  ImGui::TextUnformatted("   whole run:");
  ImGui::SameLine();
  if (over || show_end) {
    text_colored(verdict_color(end.report.verdict), std::string(lab::verdict_name(end.report.verdict)));
  } else {
    ImGui::TextDisabled("hidden");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("hidden until the run ends (or: show the end)");
  }
  help_marker(
      "The checker reads the SQLite tables and the broker's leftovers. Mid-run, "
      "orders still on their way (queued, unacked, unsent) are pending; the whole run "
      "is what `eosim run` reports.");
  // A verdict that comes from the emails says so, where the table shows them.
  if (over || show_end) {
    if (const std::string source = lab::verdict_source(end.report); !source.empty()) {
      text_wrapped_colored(palette::kMuted, "(whole run: " + source + ")");
    }
  }

  ImGui::Text("Balance: initial %lld,", static_cast<long long>(r.balance_initial));
  ImGui::SameLine(0, ImGui::CalcTextSize(" ").x);  // one word space, as in a sentence
  balance_figures(r.balance_expected, r.balance_actual, over);
  long long duplicates = 0;
  for (const auto& a : m.view->actors) duplicates += a.duplicates;
  ImGui::TextWrapped("Redeliveries (redelivered=true): %lld    duplicates detected by consumers: %lld",
              static_cast<long long>(now.redeliveries), duplicates);
  const std::vector<lab::OrderView> views = lab::order_views(r, over);
  orders_table(views, lab::shows_emails(r));

  ImGui::Text("Faults fired: %zu", now.faults.size());
  const auto wrong = [&](std::int64_t order) {
    return std::any_of(views.begin(), views.end(),
                       [&](const lab::OrderView& o) { return o.order == order && o.went_wrong; });
  };
  for (const sim::FiredFault& f : now.faults) {
    const bool blamed = wrong(f.key[orders::kOrder]);
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
  for (const lab::OrderView& o : views) {
    if (!o.went_wrong) continue;
    bool named = false;
    for (const auto& f : now.faults) named = named || f.key[orders::kOrder] == o.order;
    std::string why = "order " + std::to_string(o.order) + " is " + o.outcome + ": ";
    why += named ? "the fault marked > names it" : "no fault names it (see the diagram)";
    text_wrapped_colored(view_color(o.outcome_tone), why);
  }
}

}  // namespace ui
