#include <catch2/catch.hpp>

#include <string>

#include "sim/escape.h"

// The expected texts are what each format's own escaper wrote before they became tables
// (sim/trace.cpp, src/prose/printable.cpp, src/scenario/scenario.cpp, src/report/...).

using sim::escape;
namespace escapes = sim::escapes;

TEST_CASE("escape: a byte without a rule stands for itself", "[escape]") {
  const std::string plain = "plain text, 0-9 \xC3\xA9";
  CHECK(escape(plain, escapes::kXml) == plain);
  CHECK(escape(plain, escapes::kShellSingleQuoted) == plain);
  CHECK(escape("", escapes::kJson).empty());
}

TEST_CASE("escape: JSON, and JSON inside a script element", "[escape]") {
  CHECK(escape("a\"b\\c\n\t\r\x01\x1f\x7f", escapes::kJson) ==
        "a\\\"b\\\\c\\n\\t\\r\\u0001\\u001f\x7f");
  CHECK(escape("</script>&", escapes::kScriptJson) == "\\u003c/script\\u003e\\u0026");
}

TEST_CASE("escape: XML entities", "[escape]") {
  CHECK(escape("a & <b> \"c\" 'd'", escapes::kXml) ==
        "a &amp; &lt;b&gt; &quot;c&quot; &#39;d&#39;");
}

TEST_CASE("escape: TOML basic and multi-line strings", "[escape]") {
  CHECK(escape("a\"b\\c\n\t\r\x01\x1f\x7f", escapes::kTomlBasic) ==
        "a\\\"b\\\\c\\n\\t\\r\\u0001\\u001F\\u007F");
  CHECK(escape("line 1\nline \"2\"\x1b", escapes::kTomlMultiLine) ==
        "line 1\nline \\\"2\\\"\\u001B");
}

TEST_CASE("escape: Mermaid, Markdown, the shell and file URIs", "[escape]") {
  CHECK(escape("a;b#c\nd", escapes::kMermaidText) == "a b c d");
  CHECK(escape("consumer-1.x \xC3\xA9", escapes::kMermaidId) == "consumer_1_x___");
  CHECK(escape("a|b", escapes::kMarkdownCell) == "a\\|b");
  CHECK(escape("it's", escapes::kShellSingleQuoted) == "it'\\''s");
  CHECK(escape("/tmp/a%b?c#d", escapes::kFileUriPath) == "/tmp/a%25b%3fc%23d");
}

TEST_CASE("escape: a rule overrides the control-byte default, escape_into appends", "[escape]") {
  constexpr sim::EscapeTable table({{'\n', "<nl>"}},
                                   sim::EscapeTable::Controls::kUnicodeUpperHexAndDel);
  CHECK(table.text_of('\n') == "<nl>");
  CHECK(table.text_of('\x02') == "\\u0002");
  CHECK(table.text_of(0x7f) == "\\u007F");
  CHECK(table.text_of('a').empty());
  std::string out = "x=";
  sim::escape_into(out, "1\n2", table);
  CHECK(out == "x=1<nl>2");
}
