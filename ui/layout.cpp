// Panel layout: automatic columns, the user's overrides, and the file they live in.
#include "ui/layout.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ui {

namespace {

float fraction(const std::string& text, float fallback) {
  char* end = nullptr;
  const float value = std::strtof(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(value >= 0.0f && value <= 1.0f)) return fallback;
  return value;
}

}  // namespace

Columns columns(const PanelLayout& layout, float width, float diagram_wants, float left_wants,
                float diagram_needs) {
  Columns c;
  const float automatic =
      std::max(std::clamp(width * 0.23f, 280.0f, kMaxAutoLeft), std::min(left_wants, kMaxAutoLeft));
  c.left = layout.left > 0 ? layout.left * width : automatic;
  if (layout.right > 0) {
    c.right = layout.right * width;
  } else {
    // The diagram first: as wide as its lanes want, up to leaving the right column 360 px.
    const float rest = width - c.left;
    const float center = std::clamp(diagram_wants, rest * 0.55f, rest - 360.0f);
    c.right = rest - center;
  }
  // A laptop's window: the side columns narrow (the automatic ones only) before any
  // lane of the diagram goes off screen.
  float short_by = diagram_needs - (width - c.left - c.right);
  if (short_by > 0 && layout.left <= 0) {
    const float give = std::min(short_by, std::max(0.0f, c.left - kNarrowLeft));
    c.left -= give;
    short_by -= give;
  }
  if (short_by > 0 && layout.right <= 0) c.right -= std::min(short_by, std::max(0.0f, c.right - kNarrowRight));
  if (width >= 3 * kMinColumn) {
    c.left = std::clamp(c.left, kMinColumn, width - 2 * kMinColumn);
    c.right = std::clamp(c.right, kMinColumn, width - c.left - kMinColumn);
  }
  c.center = width - c.left - c.right;
  return c;
}

std::string default_layout_path() {
  namespace fs = std::filesystem;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0') {
    return (fs::path(xdg) / "eosim" / "gui-layout.ini").string();
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return (fs::path(home) / ".config" / "eosim" / "gui-layout.ini").string();
  }
  return "";
}

PanelLayout load_layout(const std::string& path) {
  PanelLayout layout;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "left") layout.left = fraction(value, layout.left);
    if (key == "right") layout.right = fraction(value, layout.right);
    if (key == "browser") layout.browser = fraction(value, layout.browser);
    if (key == "verdict") layout.verdict = fraction(value, layout.verdict);
    if (key == "broker") layout.broker = fraction(value, layout.broker);
  }
  if (layout.verdict + layout.broker > 0.9f) layout = PanelLayout{};
  return layout;
}

eosim::Status save_layout(const std::string& path, const PanelLayout& layout) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::trunc);
  out << "# eosim-gui panel sizes (fractions of the window); delete to start over\n"
      << "left=" << layout.left << "\nright=" << layout.right << "\nbrowser=" << layout.browser
      << "\nverdict=" << layout.verdict << "\nbroker=" << layout.broker << '\n';
  if (!out.flush()) {
    return eosim::Status::error("cannot write the panel layout to " + path);
  }
  return eosim::Status::success();
}

}  // namespace ui
