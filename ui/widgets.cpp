#include "ui/widgets.h"

namespace ui {

ImVec4 to_vec4(ImU32 color) { return ImGui::ColorConvertU32ToFloat4(color); }

ImU32 outcome_color(lab::Outcome outcome) {
  switch (outcome) {
    case lab::Outcome::kDebited:
      return palette::kGood;
    case lab::Outcome::kRejected:
    case lab::Outcome::kDeadLettered:
      return palette::kInfo;
    case lab::Outcome::kStuck:
    case lab::Outcome::kUnsettled:
      return palette::kWarn;
    case lab::Outcome::kDuplicated:
    case lab::Outcome::kLost:
    case lab::Outcome::kPhantom:
      break;
  }
  return palette::kBad;
}

ImU32 verdict_color(lab::Verdict verdict) {
  if (verdict == lab::Verdict::kExactlyOnce) return palette::kGood;
  if (verdict == lab::Verdict::kStuck) return palette::kWarn;
  return palette::kBad;  // duplicated, lost, phantom, incomplete
}

ImU32 effect_color(long long effects) {
  if (effects == 1) return palette::kGood;
  return effects == 0 ? palette::kWarn : palette::kBad;
}

ImU32 view_color(lab::ViewTone tone) {
  switch (tone) {
    case lab::ViewTone::kGood: return palette::kGood;
    case lab::ViewTone::kWarn: return palette::kWarn;
    case lab::ViewTone::kBad: return palette::kBad;
    case lab::ViewTone::kInfo: return palette::kInfo;
    case lab::ViewTone::kMuted: return palette::kMuted;
    case lab::ViewTone::kText: break;
  }
  return palette::kText;
}

diagram::Metrics imgui_metrics() {
  diagram::Metrics m;
  m.text_width = [](std::string_view text) {
    return ImGui::CalcTextSize(text.data(), text.data() + text.size()).x;
  };
  m.line_height = ImGui::GetTextLineHeight();
  m.font_id = reinterpret_cast<std::uintptr_t>(ImGui::GetFont()) ^
              static_cast<std::uint64_t>(ImGui::GetFontSize() * 64);
  return m;
}

std::string fit_text(const std::string& text, float width) {
  return diagram::shorten(text, width, imgui_metrics());
}

void balance_figures(long long expected, long long actual, bool over) {
  // Mid-run the label is long: on a line of its own when the panel is narrow.
  const std::string label = lab::balance_expected_label(over) + " " + std::to_string(expected) +
                            ", " + (over ? "actual" : "now");
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize((label + " 00000").c_str()).x) {
    ImGui::NewLine();
  }
  ImGui::TextUnformatted(label.c_str());
  ImGui::SameLine();
  const bool ok = expected == actual;
  text_colored(ok ? palette::kGood : over ? palette::kBad : palette::kText, std::to_string(actual));
  if (ok || !over) return;
  // On the same line when it fits, else on its own: never cut at the panel's edge.
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(" (MISMATCH)").x) ImGui::NewLine();
  text_colored(palette::kBad, " (MISMATCH)");
}

void probe_last_item(const char* label) {
  auto* probe = static_cast<ItemProbe*>(ImGui::GetIO().UserData);
  if (probe == nullptr) return;
  const ImVec2 min = ImGui::GetItemRectMin();
  const ImVec2 max = ImGui::GetItemRectMax();
  probe->rects[label] = ImVec4(min.x, min.y, max.x, max.y);
}

bool button(const char* label, const ImVec2& size) {
  const bool pressed = ImGui::Button(label, size);
  probe_last_item(label);
  return pressed;
}

bool button_if(bool enabled, const char* label, const ImVec2& size) {
  if (enabled) return button(label, size);
  ImGui::PushStyleVar(ImGuiStyleVar_Alpha, ImGui::GetStyle().Alpha * 0.4f);
  ImGui::Button(label, size);
  ImGui::PopStyleVar();
  probe_last_item(label);
  return false;
}

void begin_panel(const char* title, const ImVec2& pos, const ImVec2& size) {
  ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  ImGui::Begin(title, nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
}

ImVec2 splitter(const char* id, const ImVec2& pos, const ImVec2& size, bool& released) {
  ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::Begin(id, nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoFocusOnAppearing);
  ImGui::InvisibleButton("##bar", size);
  probe_last_item(id);
  const bool active = ImGui::IsItemActive();
  if (ImGui::IsItemHovered() || active) {
    ImGui::SetMouseCursor(size.x < size.y ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
    ImGui::GetWindowDrawList()->AddRectFilled(pos, ImVec2(pos.x + size.x, pos.y + size.y),
                                              IM_COL32(110, 170, 250, 120));
  }
  released = ImGui::IsItemDeactivated();
  const ImVec2 delta = active ? ImGui::GetIO().MouseDelta : ImVec2(0, 0);
  ImGui::End();
  ImGui::PopStyleVar(3);
  return delta;
}

void end_panel() { ImGui::End(); }

void text_colored(ImU32 color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopStyleColor();
}

void text_wrapped_colored(ImU32 color, const std::string& text) {
  ImGui::PushTextWrapPos(0.0f);
  text_colored(color, text);
  ImGui::PopTextWrapPos();
}

void help_marker(const char* text) {
  ImGui::SameLine();
  // On the next line when the rest of this one is too short: never cut at the edge.
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize("(?)").x) ImGui::NewLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void heading(const char* text) {
  ImFontAtlas* fonts = ImGui::GetIO().Fonts;
  if (fonts->Fonts.Size > 1) {  // the app loaded a bold face second
    ImGui::PushFont(fonts->Fonts[1]);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
    return;
  }
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddText(ImVec2(pos.x + 1, pos.y), ImGui::GetColorU32(ImGuiCol_Text), text);
  ImGui::TextUnformatted(text);
}

}  // namespace ui
