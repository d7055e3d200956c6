#pragma once
// Dear ImGui with no window: a context, a display size, a built font
// atlas, and frames run by hand. Widgets drawn through ui::button & co. record their
// rectangles in an ItemProbe, so a test clicks them with the mouse, as a person would.

#include <imgui.h>

#include <string>

#include "ui/app.h"
#include "ui/widgets.h"

namespace uitest {

class Headless {
 public:
  explicit Headless(float width = 1600, float height = 960) {
    context_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 1.0f / 60.0f;
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    io.UserData = &probe_;
    io.MousePos = ImVec2(-1, -1);
  }
  ~Headless() { ImGui::DestroyContext(context_); }
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;

  // One whole frame of the app: draw, then apply what the panels queued.
  void frame(ui::App& app) {
    probe_.rects.clear();
    ImGui::NewFrame();
    app.frame();
    ImGui::Render();
    app.update(ImGui::GetIO().DeltaTime, 1000.0);
    for (const ui::Command& c : app.last_commands()) commands_.push_back(c);
  }
  // The commands applied since the last click began (a slider acts as the mouse goes
  // down, a button as it comes up).
  const ui::Commands& commands() const { return commands_; }
  // Frames until no replay is under way (bounded, so a bug cannot hang the test).
  void settle(ui::App& app, int max_frames = 2000) {
    for (int i = 0; i < max_frames && app.busy(); ++i) frame(app);
    frame(app);
  }
  bool has(const std::string& label) const { return probe_.rects.count(label) > 0; }
  // The middle of the widget drawn with `label` in the last frame (x), -1 if none was.
  float center_x(const std::string& label) const {
    const auto it = probe_.rects.find(label);
    return it == probe_.rects.end() ? -1.0f : (it->second.x + it->second.z) * 0.5f;
  }
  // Moves the mouse onto the widget drawn with `label` in the last frame, presses and
  // releases it over three frames. `fraction` picks the x position across the widget
  // (a slider's value); 0.5 is the middle.
  bool click(ui::App& app, const std::string& label, float fraction = 0.5f) {
    const auto it = probe_.rects.find(label);
    if (it == probe_.rects.end()) return false;
    const ImVec4 r = it->second;
    commands_.clear();
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(r.x + (r.z - r.x) * fraction, (r.y + r.w) * 0.5f);
    frame(app);
    io.MouseDown[0] = true;
    frame(app);
    io.MouseDown[0] = false;
    frame(app);
    io.MousePos = ImVec2(-1, -1);
    return true;
  }
  // Presses on the widget drawn with `label`, moves the mouse by (dx, dy) over two frames
  // and releases it: a drag, as a person makes one.
  bool drag(ui::App& app, const std::string& label, float dx, float dy) {
    const auto it = probe_.rects.find(label);
    if (it == probe_.rects.end()) return false;
    const ImVec4 r = it->second;
    const ImVec2 start((r.x + r.z) * 0.5f, (r.y + r.w) * 0.5f);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = start;
    frame(app);
    io.MouseDown[0] = true;
    frame(app);
    io.MousePos = ImVec2(start.x + dx * 0.5f, start.y + dy * 0.5f);
    frame(app);
    io.MousePos = ImVec2(start.x + dx, start.y + dy);
    frame(app);
    io.MouseDown[0] = false;
    frame(app);
    io.MousePos = ImVec2(-1, -1);
    frame(app);
    return true;
  }

 private:
  ImGuiContext* context_ = nullptr;
  ui::ItemProbe probe_;
  ui::Commands commands_;
};

inline std::string scenario(const std::string& file) {
  return std::string(EOSIM_SOURCE_DIR) + "/scenarios/" + file;
}

}  // namespace uitest
