#pragma once
// Escaping text for the formats it is written in, one table per format: a byte either
// stands for itself or is replaced by a short text. One loop (escape) serves every format,
// so a format's rules are its table, and every table is here, side by side: JSON (the
// trace's recording format is the kernel's, so the tables live at the bottom of the tree),
// XML, TOML, Mermaid, Markdown, the shell and file: URIs.
//
// Invariants:
//  (1) escape copies every byte whose table entry is empty and writes the entry's text in
//      place of every other byte, in order; nothing else (no look-ahead, no state).
//  (2) A table is built once, at compile time (constexpr): a format's rules cannot change
//      while a program runs.
// Extending: add a table below and build it in escape.cpp from its rules.

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "sim/assert.h"

namespace sim {

class EscapeTable {
 public:
  // `byte` is written as `text` (at most kMaxText bytes).
  struct Rule {
    char byte;
    std::string_view text;
  };
  // How the bytes below 0x20 without a rule of their own are written: as themselves, or
  // as \u00XX with lower- or upper-case hex digits (the latter also for DEL, 0x7F).
  enum class Controls : std::uint8_t { kKept, kUnicodeLowerHex, kUnicodeUpperHexAndDel };

  static constexpr std::size_t kMaxText = 7;

  constexpr EscapeTable(std::initializer_list<Rule> rules, Controls controls = Controls::kKept) {
    if (controls != Controls::kKept) {
      const bool upper = controls == Controls::kUnicodeUpperHexAndDel;
      for (int byte = 0; byte < 0x20; ++byte) set_unicode(byte, upper);
      if (upper) set_unicode(0x7F, upper);
    }
    for (const Rule& rule : rules) set(static_cast<unsigned char>(rule.byte), rule.text);
  }
  // Every byte but ASCII letters and digits written as `text`.
  static constexpr EscapeTable all_but_alphanumeric(std::string_view text) {
    EscapeTable table({});
    for (int byte = 0; byte < 256; ++byte) {
      const bool keep = (byte >= '0' && byte <= '9') || (byte >= 'A' && byte <= 'Z') ||
                        (byte >= 'a' && byte <= 'z');
      if (!keep) table.set(byte, text);
    }
    return table;
  }

  // The text written for `byte`; empty when it stands for itself.
  constexpr std::string_view text_of(unsigned char byte) const {
    return std::string_view(texts_[byte].data(), sizes_[byte]);
  }

 private:
  constexpr void set(int byte, std::string_view text) {
    EOSIM_ASSERT(text.size() <= kMaxText);  // in a constant expression: does not compile
    const auto index = static_cast<std::size_t>(byte);
    for (std::size_t i = 0; i < text.size(); ++i) texts_[index][i] = text[i];
    sizes_[index] = static_cast<std::uint8_t>(text.size());
  }
  constexpr void set_unicode(int byte, bool upper) {
    const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    const char text[] = {'\\', 'u', '0', '0', digits[byte >> 4], digits[byte & 0xF]};
    set(byte, std::string_view(text, sizeof text));
  }

  std::array<std::array<char, kMaxText>, 256> texts_{};
  std::array<std::uint8_t, 256> sizes_{};
};

// `text` with every byte written as `table` says (invariant 1).
std::string escape(std::string_view text, const EscapeTable& table);
// The same, appended to `out`.
void escape_into(std::string& out, std::string_view text, const EscapeTable& table);

namespace escapes {
// A JSON string's body: " and \ escaped, \n \t \r by letter, other control bytes \u00xx.
extern const EscapeTable kJson;
// XML and HTML text and attribute values: & < > " ' as entities.
extern const EscapeTable kXml;
// JSON inside an HTML <script>: < > & as \u escapes, so no text can close the element.
extern const EscapeTable kScriptJson;
// A TOML basic string's body ("..."): " and \ escaped, \n \t \r by letter, other
// control bytes and DEL as \u00XX.
extern const EscapeTable kTomlBasic;
// A TOML multi-line basic string's body ("""..."""): the same, but a newline stays.
extern const EscapeTable kTomlMultiLine;
// A Mermaid message or note: ; # and a newline would end it, so they become spaces.
extern const EscapeTable kMermaidText;
// A Mermaid participant id: a plain word, any other byte an underscore.
extern const EscapeTable kMermaidId;
// A Markdown table cell: | would end the cell.
extern const EscapeTable kMarkdownCell;
// The inside of a shell word in single quotes: a quote closes, escapes and reopens.
extern const EscapeTable kShellSingleQuoted;
// The path in a file: URI: % ? # would start an escape, the query or the fragment.
extern const EscapeTable kFileUriPath;
}  // namespace escapes

}  // namespace sim
