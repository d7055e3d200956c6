// sim/names.h: a NameTable views the constant table it is first handed and copies only
// the names that come after it; ids stay dense and in order of first naming.
#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "sim/names.h"

namespace {

constexpr std::array<std::string_view, 3> kLayer{"net.a->b", "net.b->a", "db.commit"};
constexpr std::array<std::string_view, 2> kShorter{"net.a->b", "net.b->a"};
constexpr std::array<std::string_view, 3> kLayerNames{{"none", "publish", "deliver"}};

}  // namespace

TEST_CASE("names: a table handed whole gives each name its index, later names come after") {
  sim::NameTable t;
  t.name_all(kLayer);
  CHECK(t.size() == 3);
  CHECK(t.id("net.b->a") == 1);
  CHECK(t.find("db.commit") == sim::NameId{2});
  CHECK_FALSE(t.find("net.a->c").has_value());
  std::string later = "net.a->c";  // named from a buffer the caller then reuses
  CHECK(t.id(later) == 3);
  later = "overwritten";
  CHECK(t.name(3) == "net.a->c");
  CHECK(t.id("net.a->c") == 3);
  CHECK(t.name(0) == "net.a->b");
  t.name_all(kLayer);  // the same table again: named already
  CHECK(t.size() == 4);
  CHECK(t.id("net.a->b") == 0);
}

TEST_CASE("names: a longer table over a shorter one extends it, in either order") {
  sim::NameTable grown;
  grown.name_all(std::span<const std::string_view>(kLayer).first(2));
  grown.name_all(kLayer);
  CHECK(grown.size() == 3);
  CHECK(grown.id("db.commit") == 2);

  sim::NameTable copied;  // a different array holding the prefix
  copied.name_all(kShorter);
  CHECK(copied.id("extra") == 2);
  sim::NameTable other;
  other.name_all(kShorter);
  other.name_all(kLayer);
  CHECK(other.size() == 3);
  CHECK(other.name(2) == "db.commit");
  CHECK(other.id("db.commit") == 2);
  CHECK(other.id("net.a->b") == 0);
}

TEST_CASE("names: name_all keeps views of the layer's table and copies no text", "[names]") {
  sim::NameTable table;
  table.name_all(kLayerNames);
  REQUIRE(table.size() == kLayerNames.size());
  for (std::size_t i = 0; i < kLayerNames.size(); ++i) {
    const auto id = static_cast<sim::NameId>(i);
    CHECK(table.name(id) == kLayerNames[i]);
    CHECK(table.name(id).data() == kLayerNames[i].data());  // the same bytes, not a copy
    CHECK(table.find(kLayerNames[i]) == id);
  }
}

TEST_CASE("names: a name given by id is kept by the table, and a copy keeps its own", "[names]") {
  auto table = std::make_unique<sim::NameTable>();
  table->name_all(kLayerNames);
  sim::NameId extra = 0;
  {
    std::string text = "consumer.before_ack";  // gone before the table is read
    extra = table->id(text);
    text.assign(text.size(), 'x');
  }
  CHECK(extra == kLayerNames.size());
  CHECK(table->id("consumer.before_ack") == extra);  // known: no second id
  CHECK(table->name(extra) == "consumer.before_ack");
  const sim::NameTable copy = *table;
  sim::NameTable assigned;
  assigned = *table;
  sim::NameTable moved = std::move(*table);
  table.reset();  // the original's texts are gone
  for (const sim::NameTable* t : std::array<const sim::NameTable*, 3>{&copy, &assigned, &moved}) {
    REQUIRE(t->size() == kLayerNames.size() + 1);
    CHECK(t->name(extra) == "consumer.before_ack");
    CHECK(t->name(1) == "publish");
    CHECK(t->find("deliver") == sim::NameId{2});
  }
}

TEST_CASE("names: a constant table that extends the one viewed is viewed instead, not copied",
          "[names]") {
  // As a fault plan names frame kind 0 and its layer then hands in the whole table.
  static constexpr std::array<std::string_view, 1> kFirst{"none"};
  sim::NameTable table;
  table.name_all(kFirst);
  const std::string_view none = table.name(0);
  table.name_all(kLayerNames);
  REQUIRE(table.size() == kLayerNames.size());
  for (std::size_t i = 0; i < kLayerNames.size(); ++i) {
    const auto id = static_cast<sim::NameId>(i);
    CHECK(table.name(id).data() == kLayerNames[i].data());  // the same bytes, not a copy
  }
  CHECK(none == "none");        // a view taken before stays valid
  table.name_all(kLayerNames);  // the same table again: named already
  CHECK(table.size() == kLayerNames.size());
  CHECK(table.id("later") == kLayerNames.size());
}
