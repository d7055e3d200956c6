#pragma once
// Everything the GUI remembers that the model never reads: which mode is shown, what is
// selected or typed, whether it plays and how fast, how the diagram scrolls. Changing
// any of it changes what is drawn, never what a run does.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/named.h"
#include "ui/layout.h"

namespace diagram {
class Placement;
}

namespace ui {

// Named (sim::name_of) as `eosim-gui --mode` takes it.
enum class Mode { kExplore, kCompare, kGenerals, kLessons };
inline constexpr std::array<sim::Named<Mode>, 4> kModeNames{{
    {Mode::kExplore, "explore", ""},
    {Mode::kCompare, "compare", ""},
    {Mode::kGenerals, "generals", ""},
    {Mode::kLessons, "lessons", ""},
}};
static_assert(sim::names_every_value(kModeNames));

}  // namespace ui

namespace sim {
template <>
constexpr std::span<const Named<ui::Mode>> enum_names<ui::Mode>() {
  return ui::kModeNames;
}
}  // namespace sim

namespace ui {

// The sequence diagrams the GUI keeps apart, each with its own layout, placement, scroll
// and follow state: explore's, compare's two sides, and a recording's.
enum class Slot { kExplore, kCompareLeft, kCompareRight, kRecording };
inline constexpr std::size_t kSlotCount = 4;
inline constexpr std::array<Slot, kSlotCount> kSlots = {Slot::kExplore, Slot::kCompareLeft,
                                                        Slot::kCompareRight, Slot::kRecording};
// 0..3, for ImGui ids and messages.
inline constexpr int slot_number(Slot slot) { return static_cast<int>(slot); }
// Compare side 0 (left) or 1 (right).
inline constexpr Slot compare_slot(int side) {
  return side == 0 ? Slot::kCompareLeft : Slot::kCompareRight;
}

// One T per diagram, indexed by Slot only.
template <class T>
struct PerSlot {
  std::array<T, kSlotCount> items{};
  T& operator[](Slot slot) { return items[static_cast<std::size_t>(slot)]; }
  const T& operator[](Slot slot) const { return items[static_cast<std::size_t>(slot)]; }
};

// What one sequence diagram showed in the last frame, as its panel clipped it: what
// --check-layout checks (every lane's title, and the current event, inside the panel).
struct DiagramSeen {
  bool drawn = false;  // drawn in the last frame
  const diagram::Placement* placement = nullptr;
  std::size_t rows = 0;
  std::size_t lanes = 0;
  std::vector<std::string> hidden_lanes;  // titles not wholly inside the panel
  bool has_current = false;               // the current step has a row
  bool current_in_view = false;           // its last row and its lanes are inside the panel
  std::string current;                    // that row's label (for the message)
};

struct ViewState {
  Mode mode = Mode::kExplore;

  // Transport.
  bool playing = false;
  float steps_per_second = 4.0f;
  double play_credit = 0.0;     // steps owed to the play clock (fractions carry over)
  std::int64_t scrub_step = 0;  // the slider's value while dragging
  bool scrubbing = false;       // the slider is held

  // Scenario browser and overrides (the text fields as typed).
  int selected_scenario = -1;
  char seed_text[24] = "";
  int strategy_index = 0;  // into lab::strategies()
  int producer_index = 0;  // into lab::producers()

  // Fault buttons.
  int link_index = 0;   // into the network fault sites
  int frame_index = 0;  // into that site's frames
  int consumer_instance = 1;
  char export_path[512] = "session.toml";
  // A file Export found there: the Faults panel asks whether to replace it ("" = nothing
  // asked).
  std::string replace_asked;
  char trace_path[512] = "";  // the browser's "Open a trace" field

  // Sequence diagram.
  bool follow = true;  // keep the current step in view
  // The step each diagram last scrolled to.
  PerSlot<std::uint64_t> followed_step{{UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX}};
  PerSlot<int> follow_frames;  // frames left to repeat that scroll
  PerSlot<DiagramSeen> seen;   // what each diagram showed in the last frame

  // Compare mode: the two strategies, as indexes into lab::strategies().
  int compare_left = 0;   // atomic
  int compare_right = 3;  // no-dedup

  // Two Generals mode.
  int generals_couriers = 4;
  int generals_loss_percent = 25;
  int generals_seed = 1;

  // The explore view's panel sizes (ui/layout.h), dragged with the splitters.
  PanelLayout panels;
  // Teachers: show how the run ends before it has ended (hidden by default, so a learner
  // predicts first).
  bool show_outcome = false;
  // Two Generals: the delivery of the explored run read as couriers; -1 = the one that
  // went wrong (generals::default_delivery).
  int generals_delivery = -1;

  // One line of feedback (an error, "exported to ...").
  std::string status;
  bool status_is_error = false;
};

}  // namespace ui
