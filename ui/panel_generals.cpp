// Two Generals mode: General A and General B exchange couriers that can be captured (by
// the button, or at random), the "who knows what" ladder after each courier, and next to
// it the same shape in broker -> consumer -> ack, read from the explored session's trace.
// Left half: the exchange, its ladder and how it maps onto a broker; right half: one
// delivery of the explored run, step by step.

#include <string>

#include "src/generals/delivery.h"
#include "src/generals/generals.h"
#include "src/generals/mapping.h"
#include "src/generals/report.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

constexpr ImGuiTableFlags kTable =
    ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;

ImU32 status_color(generals::CourierStatus status) {
  switch (status) {
    case generals::CourierStatus::kDelivered:
      return palette::kGood;
    case generals::CourierStatus::kCaptured:
      return palette::kBad;
    case generals::CourierStatus::kInFlight:
      return palette::kWarn;
    case generals::CourierStatus::kNotSent:
      break;
  }
  return palette::kMuted;
}

void controls(const Model& model, ViewState& view, Commands& commands) {
  ImGui::SetNextItemWidth(140);
  ImGui::SliderInt("couriers", &view.generals_couriers, 1, 12);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(140);
  ImGui::SliderInt("loss %", &view.generals_loss_percent, 0, 100);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  ImGui::InputInt("seed", &view.generals_seed);
  ImGui::SameLine();
  if (button("New exchange")) {
    commands.push_back(
        GeneralsResetCmd{view.generals_couriers, view.generals_loss_percent,
                         static_cast<std::uint64_t>(std::max(0, view.generals_seed))});
  }
  const generals::TwoGenerals* g = model.generals;
  const bool live = g != nullptr && !g->done();
  if (button_if(live, "Next event >")) commands.push_back(GeneralsStepCmd{});
  ImGui::SameLine();
  if (button_if(live && !g->capture_armed(), "Capture the next courier")) {
    commands.push_back(GeneralsCaptureCmd{});
  }
  ImGui::SameLine();
  if (button_if(live, "Run to the end")) commands.push_back(GeneralsRunCmd{});
  ImGui::SameLine();
  ImGui::TextDisabled(
      "   each general answers every courier with the next; loss %% captures "
      "couriers at random");
}

// The couriers as arrows between two lanes, one row each.
void courier_diagram(const generals::TwoGenerals& g) {
  const auto couriers = g.couriers();
  const float row = ImGui::GetTextLineHeight() * 2.2f;
  const float width = ImGui::GetContentRegionAvail().x;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float ax = origin.x + 70, bx = origin.x + width - 70;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float height = row * static_cast<float>(couriers.size() + 1);
  for (const auto& [x, name] : {std::pair{ax, "General A"}, std::pair{bx, "General B"}}) {
    const ImVec2 size = ImGui::CalcTextSize(name);
    draw->AddRectFilled(ImVec2(x - size.x / 2 - 6, origin.y),
                        ImVec2(x + size.x / 2 + 6, origin.y + size.y + 6),
                        IM_COL32(45, 60, 90, 255), 4.0f);
    draw->AddText(ImVec2(x - size.x / 2, origin.y + 3), palette::kText, name);
    draw->AddLine(ImVec2(x, origin.y + size.y + 6), ImVec2(x, origin.y + height),
                  IM_COL32(255, 255, 255, 60));
  }
  for (std::size_t i = 0; i < couriers.size(); ++i) {
    const generals::CourierView& c = couriers[i];
    const float y = origin.y + row * (static_cast<float>(i) + 1.3f);
    const bool rightwards = c.from == generals::General::kA;
    const float from = rightwards ? ax : bx, to = rightwards ? bx : ax;
    const ImU32 color = status_color(c.status);
    std::string label = "#" + std::to_string(c.number) + " " + c.text;
    if (c.status == generals::CourierStatus::kNotSent) {
      draw->AddText(ImVec2(ax + 12, y - 8), palette::kMuted, (label + "  (not sent)").c_str());
      continue;
    }
    const float end = c.status == generals::CourierStatus::kDelivered ? to : (from + to) / 2;
    draw->AddLine(ImVec2(from, y), ImVec2(end, y), color, 2.0f);
    if (c.status == generals::CourierStatus::kCaptured) {
      draw->AddLine(ImVec2(end - 6, y - 6), ImVec2(end + 6, y + 6), color, 3.0f);
      draw->AddLine(ImVec2(end - 6, y + 6), ImVec2(end + 6, y - 6), color, 3.0f);
      label += c.scripted ? "  CAPTURED (by hand / script)" : "  CAPTURED (at random)";
    } else if (c.status == generals::CourierStatus::kDelivered) {
      const float d = rightwards ? -8.0f : 8.0f;
      draw->AddTriangleFilled(ImVec2(to, y), ImVec2(to + d, y - 5), ImVec2(to + d, y + 5), color);
      label += c.confirmed ? "  (confirmed by the next courier)" : "  UNCONFIRMED";
    } else {
      label += "  ...in flight";
    }
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    const float lx = std::min(ax, bx) + (std::abs(bx - ax) - size.x) / 2;
    draw->AddText(
        ImVec2(lx, y - size.y - 2),
        c.status == generals::CourierStatus::kDelivered && !c.confirmed ? palette::kWarn : color,
        label.c_str());
  }
  ImGui::Dummy(ImVec2(width, height + 6));
}

void ladder(const generals::TwoGenerals& g) {
  heading("Who knows what");
  if (!ImGui::BeginTable("ladder", 4, kTable)) return;
  // The long columns wrap, so a narrow half never cuts them.
  ImGui::TableSetupColumn("level", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("fact", ImGuiTableColumnFlags_WidthStretch, 1.6f);
  ImGui::TableSetupColumn("holds?", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("taught by", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableHeadersRow();
  for (const generals::Rung& r : g.ladder()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d", r.level);
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", r.text.c_str());
    ImGui::TableNextColumn();
    text_colored(r.known ? palette::kGood : palette::kMuted, r.known ? "yes" : "no");
    ImGui::TableNextColumn();
    if (r.level == 0) {
      ImGui::TextUnformatted("A's own plan");
    } else {
      std::string text =
          "courier " + std::to_string(r.courier) + ": " + std::string(sim::name_of(r.status));
      if (r.known) text += r.confirmed ? ", confirmed" : ", not confirmed";
      ImGui::PushStyleColor(ImGuiCol_Text,
                            r.known && !r.confirmed ? palette::kWarn : status_color(r.status));
      ImGui::TextWrapped("%s", text.c_str());
      ImGui::PopStyleColor();
    }
  }
  ImGui::EndTable();
}

// A delivery of the explored run read as couriers: deliver, ack, and no third. The one
// that went wrong is shown first (src/generals/delivery.h); the combo picks another.
void broker_shape(const Model& model, ViewState& view) {
  heading("The same shape: broker -> consumer -> ack");
  const SessionModel& m = model.main;
  if (!m.valid()) return;
  const auto& list = model.deliveries;
  if (list.empty()) {
    ImGui::TextDisabled("(no delivery yet at step %llu of the explored run)",
                        static_cast<unsigned long long>(m.view->step));
    return;
  }
  const std::size_t automatic = generals::default_delivery(list);
  const std::size_t chosen = view.generals_delivery >= 0 &&
                                     static_cast<std::size_t>(view.generals_delivery) < list.size()
                                 ? static_cast<std::size_t>(view.generals_delivery)
                                 : automatic;
  const generals::Delivery& d = list[chosen];
  // The label says why the delivery went wrong and can be longer than the half is wide:
  // cut to fit (never clipped mid-glyph), whole on hover and in the list.
  const float width = ImGui::GetContentRegionAvail().x - 90;
  const std::string preview =
      fit_text(d.label(), width - ImGui::GetFrameHeight() - 2 * ImGui::GetStyle().FramePadding.x);
  ImGui::SetNextItemWidth(width);
  const bool open = ImGui::BeginCombo("delivery", preview.c_str());
  if (!open && preview != d.label() && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", d.label().c_str());
  }
  if (open) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (ImGui::Selectable(list[i].label().c_str(), i == chosen)) {
        view.generals_delivery = static_cast<int>(i);
      }
    }
    ImGui::EndCombo();
  }
  probe_last_item("delivery");
  if (chosen == automatic) {
    ImGui::TextWrapped("Shown: %s, of \"%s\".", generals::why_chosen(d).c_str(),
                       m.session->scenario().name.c_str());
  }
  const auto rungs = generals::delivery_ladder(m.session->world().kernel().trace.events(), d);
  bool ack_sent = false, ack_arrived = false;
  for (const generals::DeliveryStep& r : rungs) {
    ack_sent = ack_sent || (r.actor == d.consumer && r.event.rfind("send: ack", 0) == 0);
    ack_arrived = ack_arrived || (r.actor == "broker" && r.event.rfind("recv: ack", 0) == 0);
  }
  ImGui::BulletText("courier 1 = %s (broker -> %s) at step %llu", d.detail.c_str(),
                    d.consumer.c_str(), static_cast<unsigned long long>(d.step));
  ImGui::Bullet();
  text_colored(ack_arrived ? palette::kGood : palette::kBad,
               std::string("courier 2 = basic.ack: ") +
                   (ack_arrived ? "reached the broker"
                    : ack_sent  ? "sent, never reached the broker"
                                : "never sent"));
  ImGui::Bullet();
  ImGui::PushStyleColor(ImGuiCol_Text, palette::kWarn);
  ImGui::TextWrapped(
      "courier 3 = none: AMQP has no ack of the ack, so the consumer never knows "
      "its ack arrived. A redelivery must be harmless: dedup in the same "
      "transaction as the effect.");
  ImGui::PopStyleColor();
  ImGui::Spacing();
  heading("Step by step: this delivery");
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("delivery ladder", 4, flags)) {
    ImGui::TableSetupColumn("step", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("who", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("what happened", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn("who knows what", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    for (const generals::DeliveryStep& r : rungs) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(r.step));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.actor.c_str());
      ImGui::TableNextColumn();
      ImGui::PushStyleColor(ImGuiCol_Text, r.trouble ? palette::kBad : palette::kText);
      ImGui::TextWrapped("%s", r.event.c_str());
      ImGui::PopStyleColor();
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", r.knows.c_str());
    }
    ImGui::EndTable();
  }
}

// How the exchange on the left reads in a broker: under the ladder, so the left half
// carries the general story and the right half the one delivery.
void mapping_table() {
  heading("The same two generals: a broker and its consumer");
  if (!ImGui::BeginTable("mapping", 3, kTable)) return;
  // Weights by how much each column says, so that the rows wrap as little as they can.
  ImGui::TableSetupColumn("Two Generals", ImGuiTableColumnFlags_WidthStretch, 0.8f);
  ImGui::TableSetupColumn("broker and consumer", ImGuiTableColumnFlags_WidthStretch, 1.1f);
  ImGui::TableSetupColumn("why it matters", ImGuiTableColumnFlags_WidthStretch, 1.9f);
  ImGui::TableHeadersRow();
  for (const generals::MappingRow& row : generals::broker_mapping()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", row.generals.c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", row.broker.c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", row.note.c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void draw_generals(const Model& model, ViewState& view, Commands& commands) {
  controls(model, view, commands);
  const generals::TwoGenerals* g = model.generals;
  if (g == nullptr) return;
  // The left half holds more (exchange, ladder, mapping), so it gets a little more width.
  const float half = ImGui::GetContentRegionAvail().x * 0.56f - 4;
  ImGui::BeginChild("exchange", ImVec2(half, 0), true);
  courier_diagram(*g);
  const bool unconfirmed = g->last_courier_unconfirmed();
  ImGui::PushStyleColor(ImGuiCol_Text, unconfirmed ? palette::kWarn : palette::kGood);
  ImGui::TextWrapped("%s", generals::last_courier_sentence(*g).c_str());
  ImGui::PopStyleColor();
  ImGui::PushStyleColor(ImGuiCol_Text, palette::kBad);
  ImGui::TextWrapped("%s", model.generals_split.c_str());
  ImGui::PopStyleColor();
  for (const generals::General who : {generals::General::kA, generals::General::kB}) {
    ImGui::TextWrapped("%s", generals::decision_sentence(g->decision(who)).c_str());
  }
  text_colored(
      g->outcome() == generals::Outcome::kOnlyA || g->outcome() == generals::Outcome::kOnlyB
          ? palette::kBad
          : palette::kInfo,
      std::string("Outcome so far: ") + std::string(sim::name_of(g->outcome())));
  ImGui::TextDisabled("replay: %s", model.generals_replay.c_str());
  ImGui::Spacing();
  ladder(*g);
  ImGui::Spacing();
  mapping_table();
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("broker shape", ImVec2(0, 0), true);
  broker_shape(model, view);
  ImGui::EndChild();
}

}  // namespace ui
