// Broker state: the ready queue in delivery order, each consumer's unacked deliveries with
// their delivery tags and `redelivered`, dead letters with their x-death reason, and the
// actors' up/down status.

#include <string>

#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

constexpr ImGuiTableFlags kTable =
    ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;

void redelivered_cell(bool redelivered) {
  if (redelivered) {
    text_colored(palette::kWarn, "redelivered=true");
  } else {
    ImGui::TextDisabled("false");
  }
}

void actors(const lab::StepView& v) {
  for (const lab::ActorStatus& a : v.actors) {
    text_colored(a.up ? palette::kGood : palette::kBad, a.up ? "up  " : "DOWN");
    ImGui::SameLine();
    if (a.name == "broker") {
      ImGui::TextUnformatted("broker");
      continue;
    }
    ImGui::TextWrapped("%s: holding %lld, delivered %lld, applied %lld, duplicates %lld, crashes %lld",
                a.name.c_str(), static_cast<long long>(a.holding),
                static_cast<long long>(a.deliveries), static_cast<long long>(a.applied),
                static_cast<long long>(a.duplicates), static_cast<long long>(a.crashes));
  }
}

void ready_table(const lab::StepView& v) {
  ImGui::Text("Ready: %zu message(s), in delivery order", v.ready.size());
  if (v.ready.empty() || !ImGui::BeginTable("ready", 3, kTable)) return;
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn("message");
  ImGui::TableSetupColumn("redelivered");
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(v.ready.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const broker::ReadyView& r = v.ready[static_cast<std::size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(r.seq));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(lab::message_label(r.message).c_str());
      ImGui::TableNextColumn();
      redelivered_cell(r.redelivered);
    }
  }
  ImGui::EndTable();
}

void unacked_tables(const lab::StepView& v) {
  std::size_t total = 0;
  for (const auto& c : v.channels) total += c.unacked.size();
  ImGui::TextWrapped("Unacked: %zu deliver%s (the broker waits for an ack)", total,
                     total == 1 ? "y" : "ies");
  for (const auto& c : v.channels) {
    if (c.unacked.empty()) continue;
    const std::string id = "unacked" + std::to_string(c.ref.conn);
    ImGui::Text("  %s on connection %llu", c.unacked.front().consumer_tag.c_str(),
                static_cast<unsigned long long>(c.ref.conn));
    if (!ImGui::BeginTable(id.c_str(), 3, kTable)) continue;
    ImGui::TableSetupColumn("delivery tag");
    ImGui::TableSetupColumn("message");
    ImGui::TableSetupColumn("redelivered");
    ImGui::TableHeadersRow();
    for (const broker::UnackedView& u : c.unacked) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(u.delivery_tag));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(lab::message_label(u.message).c_str());
      ImGui::TableNextColumn();
      redelivered_cell(u.redelivered);
    }
    ImGui::EndTable();
  }
}

void dead_letters(const lab::StepView& v) {
  ImGui::Text("Dead letters: %zu", v.dead_letters.size());
  if (v.dead_letters.empty() || !ImGui::BeginTable("dead", 2, kTable)) return;
  ImGui::TableSetupColumn("message");
  ImGui::TableSetupColumn("x-death");
  ImGui::TableHeadersRow();
  for (const auto& d : v.dead_letters) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(lab::message_label(d.message).c_str());
    ImGui::TableNextColumn();
    text_colored(palette::kWarn, lab::x_death_text(d.message));
  }
  ImGui::EndTable();
}

}  // namespace

void draw_broker(const SessionModel& m) {
  const lab::StepView& v = *m.view;
  actors(v);
  const broker::Counters& c = v.counters;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "published %llu  delivered %llu  redelivered %llu  acked %llu  requeued %llu",
      static_cast<unsigned long long>(c.published), static_cast<unsigned long long>(c.delivered),
      static_cast<unsigned long long>(c.redelivered), static_cast<unsigned long long>(c.acked),
      static_cast<unsigned long long>(c.requeued));
  ImGui::PopStyleColor();
  ImGui::Separator();
  ready_table(v);
  unacked_tables(v);
  dead_letters(v);
}

}  // namespace ui
