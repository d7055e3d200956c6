#pragma once
// Text filling for what a person reads in a terminal: reports, the Two Generals exchange,
// the CLI's lists and lessons all fill prose with this one function, so it lives in
// src/prose, below every one of them. Uses only the standard library.

#include <string>
#include <string_view>

namespace lab {

// Prose filled to `width` columns, each line prefixed by `indent`. Consecutive lines form
// one paragraph; blank lines (paragraph breaks) are kept, and a line that starts indented
// or with "- " / "* " starts a new line. A word longer than the line stands alone.
std::string wrap_text(std::string_view text, int width, std::string_view indent);

}  // namespace lab
