#include "src/prose/printable.h"

#include <cstdio>

#include "sim/escape.h"

namespace lab {
namespace {

void append_escaped(std::string& out, unsigned char byte) {
  char hex[5];
  std::snprintf(hex, sizeof hex, "\\x%02x", byte);
  out += hex;
}

}  // namespace

std::string printable(std::string_view text, bool keep_line_breaks) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const bool line_break = byte == '\n' || byte == '\t';
    if ((byte < 0x20 && !(keep_line_breaks && line_break)) || byte == 0x7F) {
      append_escaped(out, byte);
    } else if (byte == 0xC2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      append_escaped(out, byte);  // U+0080..U+009F in UTF-8
      append_escaped(out, static_cast<unsigned char>(text[++i]));
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string xml_escape(std::string_view text) { return sim::escape(text, sim::escapes::kXml); }

}  // namespace lab
