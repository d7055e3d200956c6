#pragma once
// Seeded, integer-only randomness with a recorded choice tape.
//
// Every random decision of a run goes through one Chooser. The Chooser records each
// decision on its tape as (bound, value); a run can later be replayed from that tape, or
// from an edited copy of it (shrinking and exhaustive search drive runs this way).
//
// Invariants:
//  (1) No floating point anywhere: probabilities are Ratios of integers.
//  (2) A draw is always below its bound; chance(r) is one draw of bound r.denominator.
//  (3) Replaying a run's own tape reproduces that run exactly.

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/assert.h"
#include "sim/named.h"
#include "sim/state_hash.h"

namespace sim {

// A probability as a fraction, e.g. Ratio{1, 20}. REQUIRES: numerator <= denominator,
// denominator > 0.
struct Ratio {
  std::uint64_t numerator = 0;
  std::uint64_t denominator = 1;

  static Ratio never() { return {0, 1}; }
  bool is_never() const { return numerator == 0; }
  // Parses "1/20", "0" or "1". Returns false on anything else.
  static bool parse(const std::string& text, Ratio& out);
  std::string to_string() const;
  friend bool operator==(const Ratio&, const Ratio&) = default;
};

// xoshiro256** seeded through splitmix64: fast, well studied, and its output is pinned
// by golden-value tests so that a seed means the same thing in every build.
class Prng {
 public:
  explicit Prng(std::uint64_t seed);
  // Defined here, to be inlined into each decision (Chooser::below): a call cost a third of
  // a draw in saved registers and the state's loads and stores.
  std::uint64_t next_u64() {
    const std::uint64_t result = std::rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = std::rotl(state_[3], 45);
    return result;
  }
  // Uniform in [0, bound) without modulo bias. REQUIRES: bound > 0.
  std::uint64_t below(std::uint64_t bound) {
    EOSIM_ASSERT(bound > 0);
    // Rejection sampling: throw away the top partial block so every value is equally
    // likely, every x >= limit = max - max % bound, i.e. every x with max - x <= max % bound.
    // As max % bound < bound, an x further than `bound` below the top is always kept: the
    // division that finds the limit (a 64-bit division is tens of cycles, and every draw of
    // every run made it) is made only for an x that close to the top, a chance of
    // bound / 2^64.
    constexpr std::uint64_t kMax = ~std::uint64_t{0};
    for (;;) {
      const std::uint64_t x = next_u64();
      if (kMax - x >= bound || kMax - x > kMax % bound) [[likely]]
        return x % bound;
    }
  }
  // The whole generator state: every draw to come follows from it.
  void add_state(StateHash& hash) const {
    for (const std::uint64_t word : state_) hash.add(word);
  }

 private:
  std::uint64_t state_[4];
};

// One recorded decision. On a tape to replay, bound 0 marks a free entry: that decision is
// drawn as if the tape had ended (explore's keyed deviations replay only what they change).
struct Choice {
  std::uint64_t bound = 0;
  std::uint64_t value = 0;
  friend bool operator==(const Choice&, const Choice&) = default;
};

using ChoiceTape = std::vector<Choice>;

// How a decision is drawn when nothing replays it (a free run, or a replay past its tape
// with TapeEnd::kRandom).
enum class Draws {
  kSequence,  // the next value of one generator seeded by the run's seed: what a decision
              // draws depends on how many decisions came before it (every run's default)
  kKeyed,     // a hash of the seed and the decision's identity (what is decided: a frame on
              // its connection, the set of tied events, a sync's batch): runs that reach
              // the same state draw the same values from there on, whatever came before.
              // For explore's state merging (src/search/explore.h); a scenario file names
              // it (`draws = "keyed"`) so that a run of the file is the run explore saw.
};

// What a replay does once the given tape runs out.
enum class TapeEnd {
  kRandom,  // draw from the seeded PRNG (a prefix replay, then free exploration)
  kZero,    // answer 0: "no fault", "first candidate" (what shrinking wants)
};

class Chooser {
 public:
  // Free run: every decision is drawn from Prng(seed) and recorded.
  explicit Chooser(std::uint64_t seed);
  // Replay: decisions are taken from `tape` in order (a value at or above the new bound
  // is reduced modulo the bound), then `end` decides. Everything is recorded again.
  Chooser(std::uint64_t seed, ChoiceTape tape, TapeEnd end);

  // A decision among `bound` options. `identity()` says what is decided; it is called only
  // when the draw is keyed (Draws::kKeyed, past the tape), so a sequential run pays nothing
  // for it. It must be a function of the run state World::run_state hashes (and of the
  // decision's place in the step), or merged states would draw differently.
  // REQUIRES: bound > 0.
  template <class Identity>
  std::uint64_t below(std::uint64_t bound, const Identity& identity) {
    // Inlined at every decision (a fault check, a tie): the common case, a free sequential
    // run, is one draw; replays, forces and keyed draws go out of line (below_slow).
    if (!plain_) [[unlikely]]
      return below_slow(bound, identity);
    EOSIM_ASSERT(bound > 0);
    ++in_step_;
    const std::uint64_t value = prng_.below(bound);
    if (recording_) recorded_.push_back({bound, value});
    return value;
  }
  // A decision with no identity. REQUIRES: draws() == Draws::kSequence, bound > 0.
  std::uint64_t below(std::uint64_t bound);
  // REQUIRES: ratio valid.
  template <class Identity>
  bool chance(Ratio ratio, const Identity& identity) {
    if (ratio.numerator == 0) return false;  // not a decision: nothing to record or shrink
    // The top `numerator` values fire, so a zeroed tape entry always means "no".
    return below(ratio.denominator, identity) >= ratio.denominator - ratio.numerator;
  }
  bool chance(Ratio ratio);  // REQUIRES: draws() == Draws::kSequence

  // Explore's schedule changes under keyed draws (src/search/explore.h): the world calls
  // begin_step() before each step, then force(index, value) to make the index-th decision
  // of that step (0-based) take `value` (reduced modulo its bound) instead of its draw.
  // A force is for one step: begin_step() drops any the step did not reach (a fault
  // earlier in the step may end it before).
  void begin_step() {
    in_step_ = 0;
    if (!forced_.empty()) {
      forced_.clear();
      plain_ = is_plain();
    }
  }
  void force(std::size_t index, std::uint64_t value) {
    forced_.push_back({index, value});
    plain_ = false;
  }

  // Set before the first decision.
  void set_draws(Draws draws) {
    draws_ = draws;
    plain_ = is_plain();
  }
  Draws draws() const { return draws_; }

  std::uint64_t seed() const { return seed_; }
  // What decides the decisions still to come, for explore's state merging: the tape
  // entries not yet replayed, what happens after them, and the generator's state. The
  // recorded tape is history and left out.
  void add_state(StateHash& hash) const;
  // Every decision so far, unless recording was turned off.
  const ChoiceTape& tape() const { return recorded_; }
  // A run nobody replays (a long `eosim run`, a sweep) need not keep its tape: 16 bytes
  // per decision, hundreds per run. Only the recording stops; decisions are the same.
  void set_recording(bool on) { recording_ = on; }
  bool recording() const { return recording_; }

 private:
  // What every decision of a free sequential run reads, together (one cache line or two).
  Prng prng_;
  std::size_t in_step_ = 0;  // decisions drawn in this step so far
  // No tape left to replay, no force in this step, draws by the sequence, tape end
  // kRandom: a decision is the generator's next draw (is_plain, kept up to date).
  bool plain_ = true;
  bool recording_ = true;
  ChoiceTape recorded_;
  std::uint64_t seed_;
  ChoiceTape replay_;
  std::size_t replay_pos_ = 0;
  TapeEnd end_ = TapeEnd::kRandom;
  Draws draws_ = Draws::kSequence;
  struct Forced {
    std::size_t index = 0;
    std::uint64_t value = 0;
  };
  std::vector<Forced> forced_;  // this step's forced decisions (begin_step, force)

  bool is_plain() const {
    return replay_pos_ >= replay_.size() && forced_.empty() && end_ == TapeEnd::kRandom &&
           draws_ == Draws::kSequence;
  }
  // Any decision: the tape, a force, the tape's end, keyed or sequential draws.
  template <class Identity>
  [[gnu::noinline]] std::uint64_t below_slow(std::uint64_t bound, const Identity& identity) {
    EOSIM_ASSERT(bound > 0);
    std::uint64_t value = 0;
    const Choice* replayed = replay_pos_ < replay_.size() ? &replay_[replay_pos_++] : nullptr;
    const std::uint64_t* forced = forced_in_step(in_step_++);
    if (forced != nullptr) {
      value = *forced % bound;
    } else if (replayed != nullptr && replayed->bound != 0) {
      value = replayed->value % bound;
    } else if (end_ == TapeEnd::kZero) {
      value = 0;
    } else if (draws_ == Draws::kKeyed) {
      value = keyed(bound, identity());
    } else {
      value = prng_.below(bound);
    }
    if (recording_) recorded_.push_back({bound, value});
    plain_ = is_plain();  // the tape may have run out
    return value;
  }
  const std::uint64_t* forced_in_step(std::size_t index) const {
    for (const Forced& f : forced_) {
      if (f.index == index) return &f.value;
    }
    return nullptr;
  }
  std::uint64_t keyed(std::uint64_t bound, std::uint64_t identity) const;
};

// The scenario file's spelling of each Draws value ("sequence", "keyed").
template <>
std::span<const Named<Draws>> enum_names<Draws>();

}  // namespace sim
