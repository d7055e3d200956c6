#include "sim/escape.h"

namespace sim {

void escape_into(std::string& out, std::string_view text, const EscapeTable& table) {
  for (const char c : text) {
    const std::string_view replacement = table.text_of(static_cast<unsigned char>(c));
    if (replacement.empty()) {
      out += c;
    } else {
      out += replacement;
    }
  }
}

std::string escape(std::string_view text, const EscapeTable& table) {
  std::string out;
  out.reserve(text.size() + 2);
  escape_into(out, text, table);
  return out;
}

namespace escapes {

using Controls = EscapeTable::Controls;

constexpr EscapeTable kJson(
    {{'"', "\\\""}, {'\\', "\\\\"}, {'\n', "\\n"}, {'\t', "\\t"}, {'\r', "\\r"}},
    Controls::kUnicodeLowerHex);
constexpr EscapeTable kXml(
    {{'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}});
constexpr EscapeTable kScriptJson({{'<', "\\u003c"}, {'>', "\\u003e"}, {'&', "\\u0026"}});
constexpr EscapeTable kTomlBasic(
    {{'"', "\\\""}, {'\\', "\\\\"}, {'\t', "\\t"}, {'\r', "\\r"}, {'\n', "\\n"}},
    Controls::kUnicodeUpperHexAndDel);
constexpr EscapeTable kTomlMultiLine(
    {{'"', "\\\""}, {'\\', "\\\\"}, {'\t', "\\t"}, {'\r', "\\r"}, {'\n', "\n"}},
    Controls::kUnicodeUpperHexAndDel);
constexpr EscapeTable kMermaidText({{';', " "}, {'#', " "}, {'\n', " "}});
constexpr EscapeTable kMermaidId = EscapeTable::all_but_alphanumeric("_");
constexpr EscapeTable kMarkdownCell({{'|', "\\|"}});
constexpr EscapeTable kShellSingleQuoted({{'\'', "'\\''"}});
constexpr EscapeTable kFileUriPath({{'%', "%25"}, {'?', "%3f"}, {'#', "%23"}});

}  // namespace escapes

}  // namespace sim
