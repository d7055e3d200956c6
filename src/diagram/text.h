#pragma once
// The sequence diagram as plain text, for a terminal (`eosim lesson`): a third renderer of
// the one SequenceLayout, beside the GUI's draw list and the SVG writer.
//
// One line per row that has a label: every lane is a column ('|' alive, ':' while the
// actor is down), the row's arrow is drawn between its two lanes ('>' or '<' at the
// receiving end, 'x' where a frame was lost), a note is a '*' on its lane, and the label
// follows the lanes. Rows without a label (a frame's arrival) are left out: the arrow was
// drawn where the frame was sent.
//
// Invariants: every line of the output has the same columns for the lanes, so the lanes
// read as vertical lines; the output ends with a newline.

#include <cstddef>
#include <string>

#include "src/diagram/sequence.h"

namespace diagram {

struct TextDiagramOptions {
  std::size_t lane_width = 11;  // characters per lane column (at least 4)
  std::size_t max_rows = 0;     // 0 = every row; else the first rows, then a "more" line
  // 0 = no limit; else no line is longer: lanes narrow (to 6 characters, a lane's short
  // title heading it) and labels are cut with "...".
  std::size_t max_width = 0;
};

std::string format_text_diagram(const SequenceLayout& layout, const TextDiagramOptions& options);

}  // namespace diagram
