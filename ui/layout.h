#pragma once
// Where the explore view's panels go: three columns (scenarios and faults | diagram |
// verdict, broker and tables) whose widths and splits the user drags with splitters, and
// which are remembered in the user's config dir (never in the repository). What was
// never dragged stays automatic: the diagram gets the width its lanes need.
//
// Invariants:
//  (1) columns() always returns widths >= kMinColumn that add up to the window's width
//      (when the window is at least 3 * kMinColumn wide).
//  (2) A saved layout read back gives the same PanelLayout; a missing or damaged file
//      gives the defaults (a layout is a preference, never a reason to fail).

#include <string>

#include "src/status/status.h"

namespace ui {

constexpr float kMinColumn = 200;

struct PanelLayout {
  float left = 0;    // left column, fraction of the window's width; 0 = automatic
  float right = 0;   // right column, fraction of the window's width; 0 = automatic
  float browser = 0.56f;  // the scenario browser's share of the left column
  float verdict = 0.34f;  // the verdict's share of the right column
  float broker = 0.26f;   // the broker's share of the right column
  friend bool operator==(const PanelLayout&, const PanelLayout&) = default;
};

struct Columns {
  float left = 0, center = 0, right = 0;
};

// `diagram_wants`: the width that shows every lane of the diagram with its whole title
// (0 = unknown); `left_wants`: the width the left column's longest line needs (0 =
// unknown), given up to kMaxAutoLeft when the layout is automatic; `diagram_needs`: the
// narrowest diagram that still shows every lane: automatic side columns narrow, down to
// kNarrowLeft and kNarrowRight, to give it that.
constexpr float kMaxAutoLeft = 420;
constexpr float kNarrowLeft = 230;
constexpr float kNarrowRight = 300;
Columns columns(const PanelLayout& layout, float width, float diagram_wants,
                float left_wants = 0, float diagram_needs = 0);

// $XDG_CONFIG_HOME/eosim/gui-layout.ini, else $HOME/.config/eosim/gui-layout.ini; "" when
// neither variable is set.
std::string default_layout_path();
PanelLayout load_layout(const std::string& path);
eosim::Status save_layout(const std::string& path, const PanelLayout& layout);

}  // namespace ui
