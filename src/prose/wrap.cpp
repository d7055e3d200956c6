#include "src/prose/wrap.h"

#include <vector>

namespace lab {
namespace {

// Splits prose into blocks to fill: consecutive lines join into one paragraph (authors
// break lines at their own width, which would leave ragged lines once indented), while a
// line that starts indented or with a list marker ("- ", "* ") starts a block of its own.
// A blank line is an empty block. Leading and trailing blank lines are dropped.
std::vector<std::string> text_blocks(std::string_view text) {
  std::vector<std::string> blocks;
  bool open = false;  // whether the last block is a paragraph a next line may join
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
      line.remove_suffix(1);
    }
    if (line.empty()) {
      if (!blocks.empty() && !blocks.back().empty()) blocks.emplace_back();
      open = false;
      continue;
    }
    const bool own_line = line.front() == ' ' || line.front() == '\t' ||
                          line.substr(0, 2) == "- " || line.substr(0, 2) == "* ";
    if (open && !own_line) {
      blocks.back() += ' ';
      blocks.back() += line;
    } else {
      blocks.emplace_back(line);
      open = true;
    }
  }
  if (!blocks.empty() && blocks.back().empty()) blocks.pop_back();
  return blocks;
}

}  // namespace

std::string wrap_text(std::string_view text, int width, std::string_view indent) {
  const std::size_t limit = width > 0 ? static_cast<std::size_t>(width) : 1;
  std::string out;
  for (const auto& block : text_blocks(text)) {
    if (block.empty()) {
      out += "\n";  // a paragraph break, without trailing blanks
      continue;
    }
    // The block's own leading blanks (an indented line) stay in front of its first line.
    std::size_t pos = block.find_first_not_of(" \t");
    std::string current = std::string(indent) + block.substr(0, pos);
    bool line_empty = true;
    while (pos < block.size()) {
      std::size_t stop = block.find_first_of(" \t", pos);
      if (stop == std::string::npos) stop = block.size();
      const std::string_view word = std::string_view(block).substr(pos, stop - pos);
      if (!line_empty && current.size() + 1 + word.size() > limit) {
        out += current + "\n";
        current = std::string(indent);
        line_empty = true;
      }
      if (!line_empty) current += ' ';
      current += word;
      line_empty = false;
      pos = block.find_first_not_of(" \t", stop);
      if (pos == std::string::npos) break;
    }
    out += current + "\n";
  }
  return out;
}

}  // namespace lab
