#pragma once
// A gate in front of toml++. Debian 12's toml++ 3.3.0 has two bugs (fixed upstream after
// that release) that bad input reaches:
//   (1) a non-ASCII character where the parser checks for whitespace (after a value, in a
//       key, after a backslash in a string) reaches __builtin_unreachable in
//       is_non_ascii_horizontal_whitespace: undefined behaviour in every build;
//   (2) a table header whose first character is neither a key character nor a quote
//       ("[\x1bfaults.script]]") fails an assertion in parse_key (an assumption, so
//       again undefined behaviour, in release builds).
// check_toml_text rejects, with a line number, every input that could reach either, and
// what TOML forbids anyway: invalid UTF-8 and control characters other than tab, LF, CR.
// (3) It also bounds what toml++ parses recursively or holds per key, which no scenario
// comes near: a dotted key or table header of ~40,000 parts (80 KB) overflowed the stack
// inside toml++ 3.3.0. Limits: 16 parts per dotted key or header, arrays and inline
// tables nested 32 deep, 256 characters per bare key or value, 64 KiB per string.
// Non-ASCII text stays allowed where a scenario needs it: comments and string values
// written right after the `=` of a key (name = "Zoë"). After any other `=` (a = 1="é")
// toml++ scans the quote and the text after it as one bare value and reaches (1).
//
// What reaches toml++ after a pass: valid UTF-8; non-ASCII bytes only inside comments or
// inside a string that directly follows the `=` of a key, never right after a backslash
// in it; every table header starts with a key character, a quote or `]`; the limits of (3)
// hold.

#include <cstdint>
#include <string>
#include <string_view>

#include "src/status/status.h"

namespace lab {

// ok() when `text` is safe to parse. Otherwise an error for the user (no file name; the
// caller adds it) and the 1-based `line` of the first problem.
eosim::Status check_toml_text(std::string_view text, std::int64_t& line);

}  // namespace lab
