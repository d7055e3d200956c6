// lab::check_toml_text keeps toml++ 3.3.0's two bugs out of reach (toml_guard.h), through
// the loader too, without refusing what scenario files legitimately hold.

#include "src/toml/toml_guard.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/scenario/scenario.h"
#include "tests/support/scenario_load.h"

namespace {

struct Verdict {
  bool ok = false;
  std::int64_t line = 0;
  std::string message;
};

Verdict guard(std::string_view text) {
  Verdict v;
  const eosim::Status status = lab::check_toml_text(text, v.line);
  v.ok = status.ok();
  v.message = status.message;
  return v;
}

}  // namespace

TEST_CASE("toml guard: the two toml++ 3.3.0 reproducers are refused with their line",
          "[toml-guard]") {
  // (1) reached __builtin_unreachable in is_non_ascii_horizontal_whitespace.
  const std::string unreachable = "name = \"x\" \xc8\x8b\n";
  // (2) failed an assertion in parse_key.
  const std::string assertion = "name=\"a\"\n[\x1b" "faults.script]]\n";
  const Verdict one = guard(unreachable);
  CHECK_FALSE(one.ok);
  CHECK(one.line == 1);
  CHECK(one.message.find("non-ASCII") != std::string::npos);
  const Verdict two = guard(assertion);
  CHECK_FALSE(two.ok);
  CHECK(two.line == 2);
  CHECK(two.message.find("U+001B") != std::string::npos);
  // Through the loader: exit-2 errors naming the line, never the parser's bugs.
  for (const auto& [text, line] : {std::pair{unreachable, 1}, std::pair{assertion, 2}}) {
    const std::string error = test_support::refused(lab::parse_scenario(text, "fuzz.toml"));
    CHECK(test_support::error_parts(error, "fuzz.toml").line == line);
  }
}

TEST_CASE("toml guard: other ways to reach the same code are refused", "[toml-guard]") {
  const char* bad[] = {
      "\"k\xc8\x8b\" = 1\n",                // non-ASCII in a quoted key
      "k\xc8\x8b = 1\n",                    // ... in a bare key
      "[a]\nb = { \"\xc8\x8b\" = 1 }\n",    // ... in an inline table's key
      "a = t\xc8\x8bue\n",                  // ... inside a boolean
      "a = \"\\\xc8\x8b\"\n",               // a backslash before non-ASCII
      "a = \"\"\"x\\\n  \xc8\x8b\"\"\"\n",  // non-ASCII right after a line-ending backslash
      "[%a]\n",                             // a header that does not start with a key
      "[[ *a]]\n",
      "a = \"\xc3\"\n",                     // invalid UTF-8
      "a = \"\xed\xa0\x80\"\n",             // an encoded surrogate
      "a = \"\xc0\xaf\"\n",                 // an overlong form
      "a = 1\x7f\n",                        // DEL
      "a = \"x\x01\"\n",                    // a control character inside a string
      // A string after an `=` that does not follow a key: toml++ scans it as part of a
      // bare value (the CI fuzzer's find: `drop =2tzz...="Zo!\xc3\xab"`).
      "a = 1=\"\xc3\xab\"\n",
      "a =2t=\"\xc3\xab\"\n",
      "a = [1=\"\xc3\xab\"]\n",
      "a = { b = 1=\"\xc3\xab\" }\n",
      "a = ==\"\xc3\xab\"\n",
      "= \"\xc3\xab\"\n",                    // an `=` with no key before it
      "a = 1, b = \"\xc3\xab\"\n",           // a `,` outside an inline table starts no key
      "a = [\n b = \"\xc3\xab\"]\n",         // nor does a line inside an array
      "[t] b = \"\xc3\xab\"\n",               // nor the rest of a header's line
  };
  for (const char* text : bad) {
    INFO(text);
    CHECK_FALSE(guard(text).ok);
  }
}

TEST_CASE("toml guard: what scenario files hold passes", "[toml-guard]") {
  const char* good[] = {
      "name = \"Zo\xc3\xab \xe2\x82\xac\"  # caf\xc3\xa9\n",
      "about = \"\"\"\nline \xc8\x8b\nmore\"\"\"\"\nname = 'x'\n",  // """...""""" ends in a quote
      "about = '''\xc8\x8b'''\n",
      "a = [1, 2]\n[b]\nc = { d = 1, e = \"\xc8\x8b\" }\n[[faults.script]]\nat = \"x\"\n",
      "a = [\n  [1, 2],\n]\n",
      "\xef\xbb\xbfname = \"bom\"\r\n",
      "a = \"tab\there \\\" quote \xc8\x8b\"\n",
      "a.\"b\".c-d_e = \"\xc3\xab\"\n\"k\" = '\xc3\xab'\n",  // dotted and quoted keys
      "a = { b = { c = \"\xc3\xab\" }, d = 1 }\n",
      "a = [ { b = \"\xc3\xab\" } ]\n",
  };
  for (const char* text : good) {
    INFO(text);
    CHECK(guard(text).ok);
  }
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(EOSIM_SOURCE_DIR) + "/scenarios")) {
    if (entry.path().extension() != ".toml") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const Verdict v = guard(text.str());
    INFO(entry.path().string() << ":" << v.line << ": " << v.message);
    CHECK(v.ok);
  }
}

TEST_CASE("toml guard: what toml++ parses recursively is bounded", "[toml-guard]") {
  const auto repeat = [](const std::string& part, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += part;
    return out;
  };
  struct Case {
    std::string text;
    const char* says;
  };
  // The first two crashed every command (a stack overflow inside toml++, 80 KB of text).
  const Case refused[] = {
      {"name = \"x\"\n" + repeat("a.", 40000) + "a = 1\n", "more than 16 parts"},
      {"name = \"x\"\n[" + repeat("a.", 40000) + "a]\n", "more than 16 parts"},
      {"[" + repeat("a.", 16) + "a]\n", "more than 16 parts"},
      {"\"a\"" + repeat(".\"a\"", 16) + " = 1\n", "more than 16 parts"},
      {"x = { " + repeat("a . ", 16) + "a = 1 }\n", "more than 16 parts"},
      {"x = " + repeat("[", 33) + repeat("]", 33) + "\n", "nested more than 32 deep"},
      {"x = " + repeat("{a=", 33) + "1" + repeat("}", 33) + "\n", "nested more than 32 deep"},
      {"name = \"x\"\n" + repeat("k", 257) + " = 1\n", "more than 256 characters"},
      {"about = \"" + repeat("z", 65537) + "\"\n", "more than 64 KiB"},
      {"about = '''" + repeat("z\n", 40000) + "'''\n", "more than 64 KiB"},
  };
  for (const Case& c : refused) {
    INFO(c.text.substr(0, 60));
    const Verdict v = guard(c.text);
    CHECK_FALSE(v.ok);
    CHECK(v.message.find(c.says) != std::string::npos);
    CHECK_FALSE(lab::parse_scenario(c.text, "bounds.toml").ok());
  }
  // Right at the limits, and what looks alike but is no key.
  const std::string passes[] = {
      "[" + repeat("a.", 15) + "a]\n",
      "x = " + repeat("[", 32) + repeat("]", 32) + "\n",
      repeat("k", 256) + " = 1\n",
      "about = \"" + repeat("z", 65536) + "\"\n",
      "x = [" + repeat("1.5, ", 100) + "2.5]\n",  // floats: two parts each
      "x = \"" + repeat("a.", 1000) + "\"\n",     // dots inside a string
      "# " + repeat("a.", 1000) + "\n",           // and in a comment
  };
  for (const std::string& text : passes) {
    INFO(text.substr(0, 60));
    CHECK(guard(text).ok);
  }
}

TEST_CASE("toml guard: a scenario's `fixed` text goes through the guard too", "[toml-guard]") {
  std::string key = "consumer";
  for (int i = 0; i < 20000; ++i) key += ".a";  // 40 KB: under the string limit
  const std::string text = "name = \"x\"\nfixed = \"" + key + " = 1\"\n";
  // The loader builds the twin.
  const lab::LoadError error = test_support::error_parts(
      test_support::refused(lab::parse_scenario(text, "fixed.toml")), "fixed.toml");
  CHECK(error.key == "fixed");
  CHECK(error.message.find("more than 16 parts") != std::string::npos);
}
