// Fault buttons: act on the running world at the current step. Each becomes a scripted
// rule with a step trigger (lab::rule_for), listed here, so the session exports as a
// scenario file that `eosim run` replays to the same trace hash.

#include <algorithm>
#include <string>
#include <vector>

#include "src/catalog/catalog.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

std::vector<const lab::FaultSite*> network_sites() {
  std::vector<const lab::FaultSite*> sites;
  for (const lab::FaultSite& site : lab::fault_sites()) {
    if (site.is_network()) sites.push_back(&site);
  }
  return sites;
}

}  // namespace

void draw_faults(const Model& model, ViewState& view, Commands& commands) {
  if (!model.main.valid()) return;
  const lab::Session& session = *model.main.session;
  const auto instances = static_cast<int>(session.scenario().consumer.instances);
  ImGui::Text("At step %llu:", static_cast<unsigned long long>(session.step()));
  if (instances > 1) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    ImGui::SliderInt("consumer", &view.consumer_instance, 1, instances);
  }
  view.consumer_instance = std::clamp(view.consumer_instance, 1, instances);
  const std::int64_t instance = view.consumer_instance;
  using K = lab::HandFaultKind;
  if (button("Crash consumer now")) commands.push_back(InjectCmd{{K::kCrashNow, "", "", instance}});
  ImGui::SameLine();
  if (button("Crash after next commit")) {
    commands.push_back(InjectCmd{{K::kCrashAfterCommit, "", "", instance}});
  }
  help_marker(
      "Arms a crash at consumer.after_commit: the debit is committed, the ack never "
      "leaves. The broker cannot tell, so it redelivers.");
  if (button("Fail next commit"))
    commands.push_back(InjectCmd{{K::kFailNextCommit, "", "", instance}});
  ImGui::SameLine();
  if (button("Restart broker")) commands.push_back(InjectCmd{{K::kRestartBroker, "", "", 0}});

  const auto sites = network_sites();
  view.link_index = std::clamp(view.link_index, 0, static_cast<int>(sites.size()) - 1);
  const lab::FaultSite& link = *sites[static_cast<std::size_t>(view.link_index)];
  ImGui::SetNextItemWidth(-50);
  if (ImGui::BeginCombo("link", std::string(link.name.substr(4)).c_str())) {
    for (std::size_t i = 0; i < sites.size(); ++i) {
      if (ImGui::Selectable(std::string(sites[i]->name.substr(4)).c_str(),
                            view.link_index == static_cast<int>(i))) {
        view.link_index = static_cast<int>(i);
        view.frame_index = 0;
      }
    }
    ImGui::EndCombo();
  }
  probe_last_item("link");
  view.frame_index = std::clamp(view.frame_index, 0, static_cast<int>(link.frames.size()) - 1);
  const std::string frame(link.frames[static_cast<std::size_t>(view.frame_index)].kind);
  ImGui::SetNextItemWidth(-50);
  if (ImGui::BeginCombo("frame", frame.c_str())) {
    for (std::size_t i = 0; i < link.frames.size(); ++i) {
      if (ImGui::Selectable(std::string(link.frames[i].kind).c_str(),
                            view.frame_index == static_cast<int>(i))) {
        view.frame_index = static_cast<int>(i);
      }
    }
    ImGui::EndCombo();
  }
  probe_last_item("frame");
  const bool consumer_link = link.name.find("consumer") != std::string_view::npos;
  const std::int64_t link_instance = consumer_link && instances > 1 ? instance : 0;
  if (button(("Drop next " + frame).c_str())) {
    commands.push_back(InjectCmd{{K::kDropNext, std::string(link.name), frame, link_instance}});
  }
  probe_last_item("Drop next");
  ImGui::SameLine();
  if (button("Break connection")) {
    commands.push_back(InjectCmd{{K::kBreakConnection, std::string(link.name), "", link_instance}});
  }
  help_marker(
      "A lost frame takes its TCP connection down with everything in flight; the "
      "broker notices after the heartbeat timeout and requeues unacked deliveries.");

  ImGui::Separator();
  ImGui::Text("Made by hand: %zu", session.hand_rules().size());
  for (std::size_t i = 0; i < session.hand_rules().size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (button("x")) commands.push_back(RemoveFaultCmd{i});
    ImGui::PopID();
    ImGui::SameLine();
    ImGui::TextUnformatted(lab::describe_rule(session.hand_rules()[i]).c_str());
  }
  ImGui::Separator();
  // The file name on a line of its own, as wide as the panel: names of scenario files are
  // long, and a field that scrolls its text hides the part that differs.
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText("##export", view.export_path, sizeof view.export_path);
  if (button("Export")) commands.push_back(ExportCmd{view.export_path});
  if (!view.replace_asked.empty() && view.replace_asked == view.export_path) {
    ImGui::TextWrapped("%s exists.", view.replace_asked.c_str());
    if (button("Replace")) commands.push_back(ExportCmd{view.replace_asked, true});
    ImGui::SameLine();
    if (button("Keep it")) view.replace_asked.clear();
  }
  help_marker(
      "Writes the session as a scenario file: the faults made by hand become "
      "[[faults.script]] rules with a step trigger, and [expect] holds this run's "
      "verdict and balance. `eosim run FILE` replays it to the same trace hash.");
}

}  // namespace ui
