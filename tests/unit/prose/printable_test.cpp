#include "src/prose/printable.h"

#include <catch2/catch.hpp>

TEST_CASE("printable: control characters are shown, never sent to the terminal",
          "[printable]") {
  CHECK(lab::printable("plain Zo\xc3\xab") == "plain Zo\xc3\xab");
  CHECK(lab::printable("a\x1b[31mb") == "a\\x1b[31mb");
  CHECK(lab::printable("one\ntwo\tthree\r") == "one\\x0atwo\\x09three\\x0d");
  CHECK(lab::printable("one\ntwo\tthree\r", true) == "one\ntwo\tthree\\x0d");
  CHECK(lab::printable("del\x7f") == "del\\x7f");
  CHECK(lab::printable("csi\xc2\x9b" "2J") == "csi\\xc2\\x9b2J");  // a C1 control
  CHECK(lab::printable("nbsp\xc2\xa0") == "nbsp\xc2\xa0");          // not a control
}

TEST_CASE("xml_escape: markup characters become entities, the rest stays", "[printable]") {
  CHECK(lab::xml_escape("a < b && c > \"d\" 'e'") ==
        "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;");
  CHECK(lab::xml_escape("plain Zo\xc3\xab") == "plain Zo\xc3\xab");
  CHECK(lab::xml_escape("").empty());
}
