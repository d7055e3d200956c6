#pragma once
// Text on its way out. To a terminal: text from users' files (scenario names, about
// texts, paths, values quoted in error messages). A control character in it would be obeyed by the
// terminal - an ESC sequence can recolour, move the cursor or retitle the window - so text
// output shows it escaped instead: `\x1b`, `\r`, ... JSON output needs none of this (its
// encoder escapes control characters itself).

#include <string>
#include <string_view>

namespace lab {

// `text` with every C0 control character, DEL and C1 control (U+0080..U+009F, which some
// terminals also obey) written as `\xNN` (`\xc2\x9b` for C1), and a backslash before
// such an escape left as it is. `keep_line_breaks` keeps '\n' and '\t' (prose); without
// it they are escaped too (names and one-line messages stay on one line).
std::string printable(std::string_view text, bool keep_line_breaks = false);

// To XML and HTML (the SVG diagram, the HTML pages, the matrix's HTML): `text` with
// & < > " ' written as entities, safe in element content and in attribute values.
std::string xml_escape(std::string_view text);

// `text` between double quotes, as error messages quote a value from the user's file.
inline std::string in_quotes(std::string_view text) { return "\"" + std::string(text) + "\""; }

}  // namespace lab
