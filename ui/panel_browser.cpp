// The scenario browser: every scenario file with its name, the loaded one's `about`
// text, and the overrides (seed, strategy, producer pattern) that start the run over.

#include <algorithm>
#include <cstdlib>
#include <string>

#include "src/catalog/catalog.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

// A combo whose first item keeps the file's value; index i > 0 picks entries[i - 1].
void override_combo(const char* label, int& index, const std::vector<lab::CatalogEntry>& entries,
                    const std::string& file_value) {
  const std::string first = "as in the file (" + file_value + ")";
  const std::string preview =
      index == 0 ? first : std::string(entries[static_cast<std::size_t>(index - 1)].name);
  ImGui::SetNextItemWidth(-70);
  if (ImGui::BeginCombo(label, preview.c_str())) {
    if (ImGui::Selectable(first.c_str(), index == 0)) index = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const std::string name(entries[i].name);
      if (ImGui::Selectable(name.c_str(), index == static_cast<int>(i + 1))) {
        index = static_cast<int>(i + 1);
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(entries[i].meaning).c_str());
    }
    ImGui::EndCombo();
  }
  probe_last_item(label);
}

// The files wrap `about` at ~90 columns; the panel wraps to its own width, so single
// newlines become spaces and only blank lines stay paragraph breaks.
std::string reflowed(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool lone_newline = text[i] == '\n' && (i + 1 >= text.size() || text[i + 1] != '\n') &&
                              (i == 0 || text[i - 1] != '\n');
    out += lone_newline ? ' ' : text[i];
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '\n')) out.pop_back();
  return out;
}

std::string picked(int index, const std::vector<lab::CatalogEntry>& entries) {
  return index == 0 ? std::string()
                    : std::string(entries[static_cast<std::size_t>(index - 1)].name);
}

// A recorded run's trace (`eosim live --format jsonl`, or DIR/trace.jsonl of a kept live
// run), opened read-only in place of the scenario.
void open_trace_row(ViewState& view, Commands& commands) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float after = ImGui::CalcTextSize("Open trace").x + 2 * style.FramePadding.x +
                      ImGui::CalcTextSize("(?)").x + 2 * style.ItemSpacing.x + 2;
  ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - after));
  ImGui::InputTextWithHint("##trace", "a recorded run: DIR/trace.jsonl", view.trace_path,
                           sizeof view.trace_path);
  probe_last_item("trace path");
  ImGui::SameLine();
  if (button_if(view.trace_path[0] != '\0', "Open trace")) {
    commands.push_back(LoadCmd{view.trace_path});
  }
  help_marker(
      "Opens a run's JSON Lines trace to step through, read-only: eosim live FILE "
      "--keep-db DIR writes DIR/trace.jsonl, --format jsonl prints one.");
}

// Seed, strategy and producer over the file's values, and the button that starts over
// with them.
void draw_overrides(const lab::Scenario& base, ViewState& view, Commands& commands) {
  ImGui::Separator();
  ImGui::InputTextWithHint("seed", ("as in the file (" + std::to_string(base.seed) + ")").c_str(),
                           view.seed_text, sizeof view.seed_text, ImGuiInputTextFlags_CharsDecimal);
  override_combo("strategy", view.strategy_index, lab::strategies(), base.consumer.strategy);
  override_combo("producer", view.producer_index, lab::producers(), base.producer.pattern);
  if (button("Apply and reset")) {
    ConfigureCmd c;
    if (view.seed_text[0] != '\0') c.overrides.seed = std::strtoull(view.seed_text, nullptr, 10);
    c.overrides.strategy = picked(view.strategy_index, lab::strategies());
    c.overrides.producer = picked(view.producer_index, lab::producers());
    commands.push_back(c);
  }
  help_marker(
      "Starts the run over at step 0 with these choices. Faults made by hand "
      "belong to the old run and are dropped.");
}

}  // namespace

void draw_browser(const Model& model, ViewState& view, Commands& commands) {
  const auto& scenarios = *model.scenarios;
  const float list_height =
      std::min(ImGui::GetContentRegionAvail().y * 0.45f,
               ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(scenarios.size() + 1));
  ImGui::BeginChild("scenario list", ImVec2(0, list_height), true);
  const bool recorded = model.recorded.valid();
  const std::string loaded =
      model.main.valid() && !recorded ? model.main.session->base().path : "";
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    const ScenarioEntry& e = scenarios[i];
    const std::string label = e.error.empty() ? e.name : e.file + " (does not load)";
    const bool selected = e.path == loaded;
    // A name wider than the list is cut with "..." (the tooltip has all of it).
    const std::string shown = fit_text(label, ImGui::GetContentRegionAvail().x);
    if (ImGui::Selectable((shown + "##" + e.file).c_str(), selected)) {
      view.selected_scenario = static_cast<int>(i);
      commands.push_back(LoadCmd{e.path});
    }
    probe_last_item(e.file.c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36.0f);
      ImGui::TextUnformatted(label.c_str());  // the whole name, when the list cuts it
      ImGui::TextDisabled("%s", e.file.c_str());
      ImGui::TextUnformatted((e.error.empty() ? reflowed(e.about) : e.error).c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  ImGui::EndChild();
  open_trace_row(view, commands);
  if (recorded || !model.main.valid()) return;

  const lab::Scenario& base = model.main.session->base();
  draw_overrides(base, view, commands);

  const lab::Scenario& s = model.main.session->scenario();
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);
  if (const std::string meaning = s.consumer.meaning(); !meaning.empty()) {
    const std::string line = s.consumer.strategy + ": " + meaning;
    text_colored(palette::kInfo, line);
    probe_last_item(line.c_str());  // a headless test reads the line it shows
  }
  ImGui::Spacing();
  ImGui::TextUnformatted(reflowed(base.about).c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace ui
