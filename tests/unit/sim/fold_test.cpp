#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/fold.h"

namespace {

// The plain FNV-1a byte loop, written here again so that the test does not lean on the
// header's own loop.
std::uint64_t byte_loop(std::uint64_t hash, std::string_view text) {
  for (const unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

// A small deterministic generator (splitmix64) for the inputs.
struct Bits {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::string text(std::size_t size) {
    std::string out(size, '\0');
    for (char& c : out) c = static_cast<char>(next() & 0xff);
    return out;
  }
};

std::string joined(std::string_view actor, std::string_view kind, std::string_view target) {
  std::string out;
  for (const std::string_view part : {actor, kind, target}) {
    out.append(part);
    out.push_back('\x1f');
  }
  return out;
}

}  // namespace

TEST_CASE("fold: a fold table gives the byte loop's hash from every low byte, 7-bit text or not",
          "[fold]") {
  Bits bits{1};
  for (std::size_t size = 0; size <= 40; ++size) {
    for (int sample = 0; sample < 8; ++sample) {
      std::string text = bits.text(size);
      if (sample % 2 == 1) {  // 7-bit text, whose table is indexed by the low 7 bits only
        for (char& c : text) c = static_cast<char>(c & 0x7f);
      }
      const sim::FoldTable table(text);
      for (std::uint64_t low = 0; low < 256; ++low) {
        const std::uint64_t hash = (bits.next() & ~std::uint64_t{0xff}) | low;
        REQUIRE(table.apply(hash) == byte_loop(hash, text));
      }
    }
  }
  CHECK(sim::FoldTable("send\x1f").apply(sim::kFnvBasis) == byte_loop(sim::kFnvBasis, "send\x1f"));
}

TEST_CASE("fold: head tables fold exactly the triple asked for, one byte apart or not", "[fold]") {
  sim::HeadFolds folds;
  Bits bits{2};
  std::size_t tabled = 0;
  std::size_t fell_back = 0;
  for (int sample = 0; sample < 300; ++sample) {
    std::string actor = bits.text(bits.next() % 17);
    std::string kind = bits.text(bits.next() % 17);
    std::string target = bits.text(bits.next() % 17);
    // The triple, then the same with one byte of one text changed: two keys that packing
    // must keep apart (the byte may be one of the middle ones of a long text).
    for (int variant = 0; variant < 2; ++variant) {
      const std::uint64_t hash = bits.next();
      const std::string text = joined(actor, kind, target);
      if (const sim::FoldTable* table = folds.find(actor, kind, target)) {
        ++tabled;
        REQUIRE(table->apply(hash) == byte_loop(hash, text));
      } else {
        ++fell_back;
      }
      std::string& changed = sample % 3 == 0 ? actor : sample % 3 == 1 ? kind : target;
      if (!changed.empty())
        changed[bits.next() % changed.size()] ^= static_cast<char>(1 + bits.next() % 255);
    }
  }
  // The cache filled up (600 triples, some repeated when a text is empty), then fell back.
  CHECK(tabled >= sim::HeadFolds::kMaxTables);
  CHECK(fell_back > 0);
  CHECK(folds.find(std::string(17, 'a'), "send", "broker") == nullptr);
}

TEST_CASE("fold: head tables of texts of every size up to the limit", "[fold]") {
  // Texts that share all bytes but one, in each position, for each size: "aaaa", "baaa", ...
  for (std::size_t size = 1; size <= sim::HeadFolds::kMaxText; ++size) {
    sim::HeadFolds folds;
    for (std::size_t at = 0; at < size; ++at) {
      std::string actor(size, 'a');
      actor[at] = 'b';
      const sim::FoldTable* table = folds.find(actor, "recv", "");
      REQUIRE(table != nullptr);
      REQUIRE(table->apply(sim::kFnvBasis) == byte_loop(sim::kFnvBasis, joined(actor, "recv", "")));
    }
  }
}

TEST_CASE("fold: a shared head table is the one find gives, and outlives its cache", "[fold]") {
  std::shared_ptr<const sim::FoldTable> shared;
  {
    sim::HeadFolds folds;
    CHECK(folds.find("broker", "recv", "consumer1") != nullptr);  // another table first
    shared = folds.share("consumer1", "send", "broker");
    REQUIRE(shared != nullptr);
    CHECK(shared.get() == folds.find("consumer1", "send", "broker"));
    CHECK(folds.share(std::string(17, 'a'), "send", "broker") == nullptr);
  }
  // The cache is gone; the table is not (an address sanitizer build would say otherwise).
  const std::string text = joined("consumer1", "send", "broker");
  for (std::uint64_t low = 0; low < 256; ++low) {
    REQUIRE(shared->apply(sim::kFnvBasis + low) == byte_loop(sim::kFnvBasis + low, text));
  }
}
