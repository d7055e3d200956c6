#include "sim/rng.h"

#include <charconv>

#include "sim/assert.h"

namespace sim {

namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

bool parse_u64(std::string_view text, std::uint64_t& out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

bool Ratio::parse(const std::string& text, Ratio& out) {
  std::string_view view(text);
  const auto slash = view.find('/');
  Ratio r;
  if (slash == std::string_view::npos) {
    if (!parse_u64(view, r.numerator) || r.numerator > 1) return false;
    r.denominator = 1;
  } else if (!parse_u64(view.substr(0, slash), r.numerator) ||
             !parse_u64(view.substr(slash + 1), r.denominator)) {
    return false;
  }
  if (r.denominator == 0 || r.numerator > r.denominator) return false;
  out = r;
  return true;
}

std::string Ratio::to_string() const {
  if (denominator == 1) return std::to_string(numerator);
  return std::to_string(numerator) + "/" + std::to_string(denominator);
}

Prng::Prng(std::uint64_t seed) {
  std::uint64_t x = seed;
  for (auto& s : state_) s = splitmix64(x);
}

Chooser::Chooser(std::uint64_t seed) : prng_(seed), seed_(seed) {}

Chooser::Chooser(std::uint64_t seed, ChoiceTape tape, TapeEnd end)
    : prng_(seed), seed_(seed), replay_(std::move(tape)), end_(end) {
  plain_ = is_plain();
}

std::uint64_t Chooser::below(std::uint64_t bound) {
  EOSIM_ASSERT(bound > 0);
  EOSIM_ASSERT(draws_ == Draws::kSequence);  // a keyed draw needs its identity
  return below(bound, [] { return std::uint64_t{0}; });
}

std::uint64_t Chooser::keyed(std::uint64_t bound, std::uint64_t identity) const {
  EOSIM_ASSERT(bound > 0);
  StateHash key;
  key.add(seed_);
  key.add(identity);
  Prng draw(key.value());
  return draw.below(bound);
}

void Chooser::add_state(StateHash& hash) const {
  hash.add(static_cast<std::uint64_t>(replay_.size() - replay_pos_));
  for (std::size_t i = replay_pos_; i < replay_.size(); ++i) {
    hash.add(replay_[i].bound);
    hash.add(replay_[i].value);
  }
  hash.add(end_ == TapeEnd::kRandom);
  hash.add(draws_ == Draws::kKeyed);
  // Keyed draws never touch the generator: what they draw follows from the state itself.
  if (draws_ == Draws::kSequence) prng_.add_state(hash);
}

bool Chooser::chance(Ratio ratio) {
  EOSIM_ASSERT(ratio.denominator > 0);
  EOSIM_ASSERT(ratio.numerator <= ratio.denominator);
  EOSIM_ASSERT(draws_ == Draws::kSequence);  // a keyed draw needs its identity
  return chance(ratio, [] { return std::uint64_t{0}; });
}

namespace {
constexpr std::array<Named<Draws>, 2> kDrawNames{{
    {Draws::kSequence, "sequence", "one generator seeded by the seed, drawn in turn"},
    {Draws::kKeyed, "keyed", "each decision hashed from the seed and what it decides"},
}};
static_assert(names_every_value(kDrawNames));
}  // namespace

template <>
std::span<const Named<Draws>> enum_names<Draws>() {
  return kDrawNames;
}

}  // namespace sim
