#include "sim/trace.h"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <string_view>

#include "sim/escape.h"
#include "sim/fold.h"

namespace sim {

namespace {

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// FNV-1a 64, fed piece by piece: the hash of the pieces is the hash of their concatenation.
// A trace hashes every event of every run (a sweep hashes hundreds per run and keeps none),
// so the bytes are folded where they are, four a turn, and numbers written two digits a turn
// into a small buffer: nothing is copied or allocated; the value is FNV-1a over the same bytes.
class Fnv {
 public:
  explicit Fnv(std::uint64_t hash) : hash_(hash) {}

  void byte(unsigned char c) { hash_ = (hash_ ^ c) * kFnvPrime; }
  void table(const FoldTable& fold) { hash_ = fold.apply(hash_); }
  void bytes(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    std::size_t n = text.size();
    std::uint64_t h = hash_;
    for (; n >= 4; n -= 4, p += 4) {
      h = (h ^ p[0]) * kFnvPrime;
      h = (h ^ p[1]) * kFnvPrime;
      h = (h ^ p[2]) * kFnvPrime;
      h = (h ^ p[3]) * kFnvPrime;
    }
    for (; n > 0; --n, ++p) h = (h ^ *p) * kFnvPrime;
    hash_ = h;
  }
  // The decimal text of a number, as std::to_string writes it, two digits a turn. Most
  // numbers of a trace (steps, times, subjects) have one or two digits. Out of line: one
  // copy serves the step, time, subject and detail numbers (fewer code lines to fetch).
  [[gnu::noinline]] void number(std::uint64_t value) {
    if (value < 10) {
      byte(static_cast<unsigned char>('0' + value));
    } else if (value < 100) {
      pair(value);
    } else {
      wide_number(value);
    }
  }
  // REQUIRES: value >= 100. Out of line, so that number() stays small.
  [[gnu::noinline]] void wide_number(std::uint64_t value) {
    if (value < 10000) {  // the later steps and times of a run of the lab: no buffer either
      const std::uint64_t high = value / 100;
      if (high < 10) {
        byte(static_cast<unsigned char>('0' + high));
      } else {
        pair(high);
      }
      pair(value % 100);
      return;
    }
    char digits[20];
    std::size_t at = sizeof digits;
    for (; value >= 100; value /= 100) {
      at -= 2;
      std::memcpy(digits + at, kDigitPairs + 2 * (value % 100), 2);
    }
    if (value >= 10) {
      at -= 2;
      std::memcpy(digits + at, kDigitPairs + 2 * value, 2);
    } else {
      digits[--at] = static_cast<char>('0' + value);
    }
    bytes(std::string_view(digits + at, sizeof digits - at));
  }
  void pair(std::uint64_t value) {  // two digits, a leading zero below 10 (REQUIRES: < 100)
    byte(static_cast<unsigned char>(kDigitPairs[2 * value]));
    byte(static_cast<unsigned char>(kDigitPairs[2 * value + 1]));
  }
  void signed_number(std::int64_t value) {
    if (value >= 0) {
      number(static_cast<std::uint64_t>(value));
      return;
    }
    byte('-');
    number(~static_cast<std::uint64_t>(value) + 1);  // |value|, INT64_MIN included
  }
  void part(const DetailPart& part) {
    if (!part.is_number) {
      bytes(part.text);
    } else if (part.is_signed) {
      signed_number(static_cast<std::int64_t>(part.number));
    } else {
      number(part.number);
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_;
};

// The decimal text of a number (what std::to_string gives), without allocating.
template <class Int>
std::string_view decimal(Int value, char (&buffer)[24]) {
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string_view(buffer, static_cast<std::size_t>(end - buffer));
}

std::string_view part_text(const DetailPart& part, char (&buffer)[24]) {
  if (!part.is_number) return part.text;
  return part.is_signed ? decimal(static_cast<std::int64_t>(part.number), buffer)
                        : decimal(part.number, buffer);
}

constexpr unsigned char kFieldSep = kTraceFieldSep;  // sim/fold.h tables it too
constexpr unsigned char kEventSep = 0x1e;

// The canonical encoding of an event up to its detail (which the caller folds in, whole or
// in pieces, before kEventSep), in three parts: its stamp, its fixed middle (who, what, to
// whom) and its subject.
void hash_stamp(Fnv& fnv, std::uint64_t step, Tick time) {
  // Step and time as signed numbers, as they always were (both stay far below 2^63).
  fnv.signed_number(static_cast<std::int64_t>(step));
  fnv.byte(kFieldSep);
  fnv.signed_number(static_cast<std::int64_t>(time));
  fnv.byte(kFieldSep);
}

void hash_middle(Fnv& fnv, std::string_view actor, std::string_view kind, std::string_view target) {
  fnv.bytes(actor);
  fnv.byte(kFieldSep);
  fnv.bytes(kind);
  fnv.byte(kFieldSep);
  fnv.bytes(target);
  fnv.byte(kFieldSep);
}

void hash_subject(Fnv& fnv, std::int64_t subject) {
  fnv.signed_number(subject);
  fnv.byte(kFieldSep);
}

// A trace records a few dozen (actor, kind, target) triples over and over: their folds are
// tabled once per thread (sim/fold.h) and serve every trace the thread records.
HeadFolds& head_folds() {
  thread_local HeadFolds folds;
  return folds;
}

}  // namespace

std::uint64_t hash_event(std::uint64_t hash, const TraceEvent& e, const EventKindNames& kinds) {
  Fnv fnv(hash);
  hash_stamp(fnv, e.step, e.time);
  hash_middle(fnv, e.actor, kinds.name(e.kind), e.target);
  hash_subject(fnv, e.subject);
  fnv.bytes(e.detail);
  fnv.byte(kEventSep);
  return fnv.value();
}

std::string concat(std::span<const DetailPart> parts) {
  char buffer[24];
  std::size_t size = 0;
  for (const DetailPart& part : parts) size += part_text(part, buffer).size();
  std::string text;
  text.reserve(size);
  for (const DetailPart& part : parts) text += part_text(part, buffer);
  return text;
}

std::string hash_hex(std::uint64_t hash) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
  return buffer;
}

TraceHead Trace::head(std::string_view actor, EventKind kind, std::string_view target) const {
  return {actor, kind, target, head_folds().share(actor, kinds_.name(kind), target)};
}

void Trace::record(std::string_view actor, EventKind kind, std::string_view target,
                   std::int64_t subject, std::span<const DetailPart> detail) {
  record_with(actor, kind, target, head_folds().find(actor, kinds_.name(kind), target), subject,
              detail);
}

void Trace::record(const TraceHead& head, std::int64_t subject,
                   std::span<const DetailPart> detail) {
  record_with(head.actor, head.kind, head.target, head.fold.get(), subject, detail);
}

void Trace::record_with(std::string_view actor, EventKind kind, std::string_view target,
                        const FoldTable* fold, std::int64_t subject,
                        std::span<const DetailPart> detail) {
  const std::uint64_t step = scheduler_.steps();
  const Tick time = scheduler_.now();
  Fnv fnv(hash_);
  hash_stamp(fnv, step, time);
  if (fold != nullptr) {
    fnv.table(*fold);
  } else {
    hash_middle(fnv, actor, kinds_.name(kind), target);
  }
  hash_subject(fnv, subject);
  for (const DetailPart& part : detail) fnv.part(part);
  fnv.byte(kEventSep);
  hash_ = fnv.value();
  ++count_;
  if (!keep_ && sinks_.empty()) return;
  keep_event(step, time, actor, kind, target, subject, detail);
}

void Trace::keep_event(std::uint64_t step, Tick time, std::string_view actor, EventKind kind,
                       std::string_view target, std::int64_t subject,
                       std::span<const DetailPart> detail) {
  TraceEvent event{step,    time,          std::string(actor), kind, std::string(target),
                   subject, concat(detail)};
  for (const auto& sink : sinks_) sink(event);
  if (keep_) events_.push_back(std::move(event));
}

std::string json_escape(const std::string& text) { return escape(text, escapes::kJson); }

std::string format_jsonl(const TraceEvent& e, const TraceNames& names) {
  std::string line = "{\"step\":" + std::to_string(e.step) + ",\"time\":" + std::to_string(e.time) +
                     ",\"actor\":\"" + json_escape(e.actor) + "\",\"kind\":\"" +
                     std::string(names.kinds.name(e.kind)) + "\"";
  if (!e.target.empty()) line += ",\"target\":\"" + json_escape(e.target) + "\"";
  if (e.subject != 0) {
    line += ",\"";
    line += names.key.subject();
    line += "\":" + std::to_string(e.subject);
  }
  line += ",\"detail\":\"" + json_escape(e.detail) + "\"}";
  return line;
}

void write_jsonl(std::ostream& out, const std::vector<TraceEvent>& events,
                 const TraceNames& names) {
  for (const auto& e : events) out << format_jsonl(e, names) << '\n';
}

}  // namespace sim
