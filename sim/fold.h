#pragma once
// Folding a fixed byte string into the trace's FNV-1a 64 hash (sim/trace.h) in one step.
//
// FNV-1a folds a byte b as h <- (h ^ b) * P (mod 2^64). The xor changes only the low byte
// of h, so h ^ b = h + d with d = ((h & 0xff) ^ b) - (h & 0xff): d depends on the low byte
// of h alone. The low byte of a sum or product mod 2^64 depends only on the operands' low
// bytes (carries go up, never down), so the low byte after each step, and with it every
// later d, is a function of the low byte the string starts from. Summing the steps of a
// string s of m bytes:
//     fold(h, s) = h * P^m + sum_i d_i * P^(m-i)        (mod 2^64)
// and the sum is a function of s and h & 0xff only (of h & 0x7f when every byte of s is
// below 0x80, see FoldTable). So a table of 256 values per string (FoldTable) folds s with
// one load, one multiply and one add, whatever its length, and gives exactly the byte
// loop's value (tests/unit/sim/fold_test.cpp checks it).
//
// A trace folds the same few "actor, kind, target" texts in every event; HeadFolds keeps
// a table per such triple, found by the texts themselves (never by address), so a table
// is only ever used for the very bytes it was built from.
//
// Invariants:
//  (1) FoldTable(s).apply(h) == the byte loop over s from h, for every h.
//  (2) HeadFolds::find returns nullptr or the table of exactly "actor\x1f kind\x1f target\x1f";
//      HeadFolds::share returns the same table, or nullptr when find does.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sim {

inline constexpr std::uint64_t kFnvBasis = 0xcbf29ce484222325ULL;
inline constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;

// The plain byte loop: the definition every faster fold is checked against.
constexpr std::uint64_t fnv_fold(std::uint64_t hash, std::string_view bytes) {
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * kFnvPrime;
  return hash;
}

class FoldTable {
 public:
  explicit FoldTable(std::string_view text) {
    std::uint64_t power = 1;
    bool seven_bit = true;
    for (const char c : text) {
      power *= kFnvPrime;
      seven_bit = seven_bit && static_cast<unsigned char>(c) < 0x80;
    }
    power_ = power;
    mask_ = seven_bit ? 0x7f : 0xff;
    for (std::uint64_t low = 0; low <= mask_; ++low) add_[low] = fnv_fold(low, text) - low * power;
  }
  std::uint64_t apply(std::uint64_t hash) const { return hash * power_ + add_[hash & mask_]; }

 private:
  // For text of 7-bit bytes (every name a trace folds) the top bit of the low byte does not
  // matter: flipping it adds +-128 to h and, with b < 0x80, to h ^ b alike, so d is the same,
  // and the next low byte differs in that bit only (128 times an odd P is 128 mod 256). Such
  // a table uses only its first 128 values: half the cache lines.
  std::uint64_t power_ = 1;  // P^m
  std::uint64_t mask_ = 0xff;
  std::array<std::uint64_t, 256> add_{};
};

// The separator that ends each field of an event (sim/trace.cpp's canonical encoding).
inline constexpr char kTraceFieldSep = '\x1f';

// The tables of "actor\x1f kind\x1f target\x1f" by their texts, each text at most kMaxText
// bytes. Not thread-safe: one per thread (sim/trace.cpp keeps a thread_local one).
class HeadFolds {
 public:
  static constexpr std::size_t kMaxText = 16;
  // A few dozen triples in a run of the lab; the slots (64 bytes each) stay within 8 KB so
  // that finding one costs few cache lines, and the tables (2 KB each) are bounded.
  static constexpr std::size_t kSlots = 128;
  static constexpr std::size_t kProbes = 8;
  static constexpr std::size_t kMaxTables = 64;

  HeadFolds() : slots_(kSlots) {}

  // The table of the triple, built at its first use; nullptr when a text is longer than
  // kMaxText or the cache is full (the caller then folds byte by byte).
  const FoldTable* find(std::string_view actor, std::string_view kind, std::string_view target) {
    const Slot* slot = locate(actor, kind, target);
    return slot != nullptr ? slot->table : nullptr;
  }

  // The same table as find, shared: it outlives this cache (a trace head holds it). Its
  // owner is found by the slot's index, where a scan of the tables cost ~1M instructions
  // per 300 runs of the lab (four heads per connection).
  std::shared_ptr<const FoldTable> share(std::string_view actor, std::string_view kind,
                                         std::string_view target) {
    const Slot* slot = locate(actor, kind, target);
    if (slot == nullptr) return nullptr;
    return tables_[owner_[static_cast<std::size_t>(slot - slots_.data())]];
  }

 private:
  // Up to 16 bytes as two words, exact for a given size: bytes [0, 8) and [n-8, n) when
  // n >= 8, [0, 4) and [n-4, n) when n >= 4, else bytes 0, n/2 and n-1 (all of them).
  struct Packed {
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    bool operator==(const Packed&) const = default;
  };
  static Packed pack(std::string_view text) {
    const char* p = text.data();
    const std::size_t n = text.size();
    Packed out;
    if (n >= 8) {
      std::memcpy(&out.first, p, 8);
      std::memcpy(&out.last, p + n - 8, 8);
    } else if (n >= 4) {
      std::uint32_t first = 0;
      std::uint32_t last = 0;
      std::memcpy(&first, p, 4);
      std::memcpy(&last, p + n - 4, 4);
      out = {first, last};
    } else if (n > 0) {
      out.first = std::uint64_t{static_cast<unsigned char>(p[0])} |
                  std::uint64_t{static_cast<unsigned char>(p[n / 2])} << 8 |
                  std::uint64_t{static_cast<unsigned char>(p[n - 1])} << 16;
    }
    return out;
  }
  struct Key {
    std::uint64_t sizes = 0;
    Packed actor, kind, target;
    bool operator==(const Key&) const = default;
    std::size_t slot() const {
      const std::uint64_t mixed = sizes ^ actor.first ^ std::rotl(actor.last, 8) ^
                                  std::rotl(kind.first, 16) ^ std::rotl(kind.last, 24) ^
                                  std::rotl(target.first, 32) ^ std::rotl(target.last, 40);
      return static_cast<std::size_t>((mixed ^ (mixed >> 31)) * 0x9e3779b97f4a7c15ULL >> 57);
    }
  };
  struct Slot {
    Key key;
    const FoldTable* table = nullptr;
  };

  // The slot of the triple's table, added at its first use; nullptr as find says.
  const Slot* locate(std::string_view actor, std::string_view kind, std::string_view target) {
    if (actor.size() > kMaxText || kind.size() > kMaxText || target.size() > kMaxText) {
      return nullptr;
    }
    const Key key{actor.size() | kind.size() << 8 | target.size() << 16, pack(actor), pack(kind),
                  pack(target)};
    std::size_t at = key.slot();
    for (std::size_t probe = 0; probe < kProbes; ++probe, at = (at + 1) % kSlots) {
      Slot& slot = slots_[at];
      if (slot.table == nullptr) return add(slot, key, actor, kind, target);
      if (slot.key == key) return &slot;
    }
    return nullptr;
  }

  // Out of line: a few dozen times per thread, against hundreds of finds per run.
  [[gnu::cold, gnu::noinline]] const Slot* add(Slot& slot, const Key& key, std::string_view actor,
                                               std::string_view kind, std::string_view target) {
    if (tables_.size() >= kMaxTables) return nullptr;
    std::string text;
    text.reserve(actor.size() + kind.size() + target.size() + 3);
    text.append(actor).push_back(kTraceFieldSep);
    text.append(kind).push_back(kTraceFieldSep);
    text.append(target).push_back(kTraceFieldSep);
    tables_.push_back(std::make_shared<const FoldTable>(text));
    slot = {key, tables_.back().get()};
    owner_[static_cast<std::size_t>(&slot - slots_.data())] =
        static_cast<std::uint8_t>(tables_.size() - 1);
    return &slot;
  }

  std::vector<Slot> slots_;
  std::vector<std::shared_ptr<const FoldTable>> tables_;
  std::array<std::uint8_t, kSlots> owner_{};  // slots_[i].table is tables_[owner_[i]].get()
  static_assert(kMaxTables <= 256, "owner_ holds a table's index in a byte");
};

}  // namespace sim
