#include "src/diagram/text.h"

#include <algorithm>

namespace diagram {
namespace {

// Whether `lane` is down (between a crash and its restart) at `row`.
bool down_at(const SequenceLayout& layout, int lane, std::size_t row) {
  return std::any_of(layout.downtimes().begin(), layout.downtimes().end(),
                     [&](const Downtime& d) {
                       return d.lane == lane && d.from_row < row && row <= d.to_row;
                     });
}

std::string centred(const std::string& text, std::size_t width) {
  if (text.size() >= width) return text.substr(0, width);
  const std::size_t left = (width - text.size()) / 2;
  return std::string(left, ' ') + text + std::string(width - text.size() - left, ' ');
}

// The lane columns of one row: lifelines, and the row's arrow or note mark.
std::string lane_columns(const SequenceLayout& layout, std::size_t row, std::size_t width) {
  const std::size_t lanes = layout.lanes().size();
  std::string line(lanes * width, ' ');
  const auto centre = [width](int lane) { return static_cast<std::size_t>(lane) * width + width / 2; };
  for (std::size_t lane = 0; lane < lanes; ++lane) {
    line[centre(static_cast<int>(lane))] = down_at(layout, static_cast<int>(lane), row) ? ':' : '|';
  }
  const RowLabel& label = layout.rows()[row].label;
  if (label.toward < 0) {
    line[centre(label.lane)] = '*';
    return line;
  }
  const std::size_t from = centre(label.lane), to = centre(label.toward);
  const std::size_t low = std::min(from, to), high = std::max(from, to);
  for (std::size_t x = low + 1; x < high; ++x) line[x] = '-';
  if (label.lost) {
    line[(low + high) / 2] = 'x';
  } else {
    line[to > from ? high - 1 : low + 1] = to > from ? '>' : '<';
  }
  return line;
}


// Characters left of the lanes ("   12  ") and between the lanes and the label.
constexpr std::size_t kStepColumn = 7, kGap = 2;
// A label keeps at least this many characters when the lanes narrow for max_width.
constexpr std::size_t kLabelRoom = 34;

std::size_t lane_width_for(const SequenceLayout& layout, const TextDiagramOptions& options) {
  std::size_t width = std::max<std::size_t>(options.lane_width, 4);
  const std::size_t lanes = std::max<std::size_t>(layout.lanes().size(), 1);
  if (options.max_width > kStepColumn + kGap + kLabelRoom) {
    const std::size_t fits = (options.max_width - kStepColumn - kGap - kLabelRoom) / lanes;
    width = std::max<std::size_t>(std::min(width, fits), 6);
  }
  return width;
}

std::string cut(const std::string& text, std::size_t room) {
  if (room == 0 || text.size() <= room) return text;
  return room <= 3 ? text.substr(0, room) : text.substr(0, room - 3) + "...";
}

}  // namespace

std::string format_text_diagram(const SequenceLayout& layout, const TextDiagramOptions& options) {
  const std::size_t width = lane_width_for(layout, options);
  std::string out = " step  ";
  for (const Lane& lane : layout.lanes()) {
    // A narrow column is headed by the lane's short title ("Cons 1"), never a cut name
    // that two consumers would share.
    out += centred(lane.actor.size() < width ? lane.actor : lane_short_title(lane.actor), width);
  }
  out += "\n";
  const std::size_t lanes_end = kStepColumn + layout.lanes().size() * width + kGap;
  const std::size_t label_room =
      options.max_width > lanes_end ? options.max_width - lanes_end : (options.max_width ? 4 : 0);
  std::size_t shown = 0, left = 0;
  for (std::size_t row = 0; row < layout.rows().size(); ++row) {
    const Row& r = layout.rows()[row];
    if (r.label.text.empty()) continue;
    if (options.max_rows != 0 && shown == options.max_rows) {
      ++left;
      continue;
    }
    ++shown;
    std::string step = r.first_of_step ? std::to_string(r.step) : "";
    step = std::string(step.size() < 5 ? 5 - step.size() : 0, ' ') + step;
    std::string line =
        step + "  " + lane_columns(layout, row, width) + "  " + cut(r.label.text, label_room);
    out += line + "\n";
  }
  if (left > 0) out += "  ... " + std::to_string(left) + " more rows\n";
  return out;
}

}  // namespace diagram
