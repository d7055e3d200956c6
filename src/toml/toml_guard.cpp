// check_toml_text: two passes over the bytes. The first checks the encoding (UTF-8, no
// control characters); the second follows just enough of TOML's structure - comments,
// strings, bracket depth, where a line starts - to know where non-ASCII text and table
// headers are. It never decides what a valid document is; toml++ does that afterwards.

#include "src/toml/toml_guard.h"

#include <cstdio>
#include <string>

namespace lab {
namespace {

// Bounds on what toml++ parses recursively or copies per key (toml_guard.h, (3)).
constexpr std::size_t kMaxNesting = 32;    // open [ and { of values
constexpr int kMaxKeyParts = 16;           // parts of a dotted key or table header
constexpr std::size_t kMaxBareRun = 256;   // characters of a bare key or bare value
constexpr std::size_t kMaxString = 65536;  // characters of one string, quotes excluded

constexpr const char* kNonAscii =
    "non-ASCII text is allowed only in comments and in a string value after `=`";

bool is_ascii(char c) { return (static_cast<unsigned char>(c) & 0x80) == 0; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool is_bare(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '-' || c == '+' || c == ':';
}
bool starts_key(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '-' || c == '"' || c == '\'';
}

// The length of the well-formed UTF-8 sequence at text[i] (no overlong form, no
// surrogate, at most U+10FFFF), or 0.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&text](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  std::uint32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, code = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, code = lead & 0x0Fu;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, code = lead & 0x07u;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    code = (code << 6) | (byte(i + k) & 0x3Fu);
  }
  if (length == 3 && (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF))) return 0;
  if (length == 4 && (code < 0x10000 || code > 0x10FFFF)) return 0;
  return length;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  eosim::Status run(std::int64_t& line) {
    const bool ok = encoding() && structure();
    line = line_;
    return ok ? eosim::Status::success() : eosim::Status::error(message_);
  }

 private:
  bool fail(std::string message) {
    message_ = std::move(message);
    return false;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  bool next_is(std::string_view what) const { return text_.substr(pos_, what.size()) == what; }

  bool encoding() {
    for (std::size_t i = 0; i < text_.size();) {
      const char c = text_[i];
      const auto byte = static_cast<unsigned char>(c);
      if ((byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7F) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "%04X", byte);
        return fail(std::string("control character U+") + hex +
                    " (TOML allows only tab and line breaks; in a string write \\u" + hex + ")");
      }
      const std::size_t length = utf8_length(text_, i);
      if (length == 0) return fail("invalid UTF-8 (a scenario file must be UTF-8 text)");
      if (c == '\n') ++line_;
      i += length;
    }
    line_ = 1;
    return true;
  }

  bool structure() {
    if (next_is("\xEF\xBB\xBF")) pos_ = 3;  // a byte order mark, which toml++ skips
    int parts = 1;         // parts of the dotted key (or value) being read
    std::size_t bare = 0;  // length of the bare run being read
    bool line_start = true;
    while (!at_end()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_, ++pos_, line_start = true;
        parts = 1, bare = 0;
        place_ = open_.empty() ? Place::kKey : Place::kOther, key_seen_ = false;
        continue;
      }
      if (is_blank(c)) {
        ++pos_;
        bare = 0;
        continue;
      }
      if (c == '#') {
        while (!at_end() && text_[pos_] != '\n') ++pos_;
        continue;
      }
      const bool first_on_line = line_start;
      line_start = false;
      if (c == '"' || c == '\'') {
        const bool value = place_ == Place::kAfterEquals;
        step_place(c, true);
        if (!string(value)) return false;
        continue;
      }
      if (!is_ascii(c)) return fail(kNonAscii);
      if (!bounded(c, parts, bare)) return false;
      step_place(c, false);
      if (c == '[' && first_on_line && open_.empty()) {
        if (!header()) return false;
      } else if (!bracket(c)) {
        return false;
      }
    }
    return true;
  }

  // Where toml++ starts a value: right after the `=` that follows a key, and a key starts
  // a line outside brackets, or follows `{` or `,` in an inline table. Only a quote there
  // opens a string for toml++ too: after any other `=` (`a = 1="\u00e9"`) toml++ scans the
  // quote and what follows as part of a bare value, and non-ASCII text there reaches (1).
  void step_place(char c, bool quote) {
    const bool key_char = quote || c == '.' || c == '_' || c == '-' ||
                          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9');
    if (place_ == Place::kKey && key_char) {
      key_seen_ = true;
      return;
    }
    if (place_ == Place::kKey && c == '=' && key_seen_) {
      place_ = Place::kAfterEquals;
      return;
    }
    const bool opens_key = c == '{' || (c == ',' && !open_.empty() && open_.back() == '{');
    place_ = opens_key ? Place::kKey : Place::kOther;
    key_seen_ = false;
  }

  // Keeps the stack of open [ and { of values, at `c` outside strings and comments.
  bool bracket(char c) {
    if (c == '[' || c == '{') open_.push_back(c);
    if ((c == ']' || c == '}') && !open_.empty()) open_.pop_back();
    if (open_.size() > kMaxNesting) {
      return fail("arrays and inline tables nested more than " + std::to_string(kMaxNesting) +
                  " deep");
    }
    ++pos_;
    return true;
  }

  // Counts the parts of a dotted key ("a.b.c", '"a"."b"', a table header) and the length
  // of a bare run at `c`, which is outside strings and comments. Anything but key
  // characters, blanks, quotes and dots ends a key. A float ("1.5") counts two parts.
  bool bounded(char c, int& parts, std::size_t& bare) {
    if (c == '.') {
      bare = 0;
      if (++parts > kMaxKeyParts) {
        return fail("a dotted key or table header of more than " + std::to_string(kMaxKeyParts) +
                    " parts");
      }
      return true;
    }
    if (!is_bare(c)) {
      parts = 1, bare = 0;
      return true;
    }
    if (++bare > kMaxBareRun) {
      return fail("a key or value of more than " + std::to_string(kMaxBareRun) +
                  " characters");
    }
    return true;
  }

  // At the `[` of a table header: its key must start right (toml++ 3.3.0 assumes so).
  bool header() {
    pos_ += next_is("[[") ? 2 : 1;
    std::size_t at = pos_;
    while (at < text_.size() && (text_[at] == ' ' || text_[at] == '\t')) ++at;
    if (at < text_.size() && !starts_key(text_[at]) && text_[at] != ']') {
      return fail("a table header must start with a key, e.g. [faults.random]");
    }
    return true;
  }

  // At an opening quote; ends after the closing one (or at the end of the text or line,
  // which toml++ then reports as an unterminated string).
  bool string(bool value) {
    const char quote = text_[pos_];
    const bool multi_line = next_is(std::string(3, quote));
    const bool basic = quote == '"';
    pos_ += multi_line ? 3 : 1;
    bool after_line_escape = false;  // after `\` at the end of a line of a """ string
    const std::size_t start = pos_;
    while (!at_end()) {
      if (pos_ - start > kMaxString) {
        return fail("a string of more than " + std::to_string(kMaxString / 1024) + " KiB");
      }
      const char c = text_[pos_];
      if (c == '\n') {
        if (!multi_line) return true;
        ++line_, ++pos_;
        continue;
      }
      if (after_line_escape && is_blank(c)) {
        ++pos_;
        continue;
      }
      if (after_line_escape && !is_ascii(c)) {
        return fail("non-ASCII text right after a line-ending backslash");
      }
      after_line_escape = false;
      if (basic && c == '\\') {
        const char escaped = pos_ + 1 < text_.size() ? text_[pos_ + 1] : ' ';
        if (!is_ascii(escaped)) return fail("a backslash before non-ASCII text is no escape");
        if (multi_line && (is_blank(escaped) || escaped == '\n')) {
          after_line_escape = true;
          ++pos_;
        } else {
          if (escaped == '\n') ++line_;
          pos_ += 2;
        }
        continue;
      }
      if (c == quote && (!multi_line || next_is(std::string(3, quote)))) {
        pos_ += multi_line ? 3 : 1;
        // """a"""" is `a"`: up to two more quotes still belong to the string.
        for (int extra = 0; multi_line && extra < 2 && !at_end() && text_[pos_] == quote; ++extra) {
          ++pos_;
        }
        return true;
      }
      if (!is_ascii(c) && !value) return fail(kNonAscii);
      ++pos_;
    }
    return true;
  }

  enum class Place { kKey, kAfterEquals, kOther };

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string open_;  // the open [ and { of values, innermost last
  Place place_ = Place::kKey;
  bool key_seen_ = false;  // a key character or quoted part since the key began
  std::int64_t line_ = 1;
  std::string message_;
};

}  // namespace

eosim::Status check_toml_text(std::string_view text, std::int64_t& line) {
  return Lexer(text).run(line);
}

}  // namespace lab
