#include "sim/trace.h"

#include <charconv>
#include <cstdio>
#include <ostream>
#include <string_view>

#include "sim/escape.h"

namespace sim {

namespace {

constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;

std::uint64_t fold(std::uint64_t hash, std::string_view bytes) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= kFnvPrime;
  }
  return hash;
}

// The decimal text of a number (what std::to_string gives), without allocating.
template <class Int>
std::string_view decimal(Int value, char (&buffer)[24]) {
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string_view(buffer, static_cast<std::size_t>(end - buffer));
}

std::uint64_t fold_number(std::uint64_t hash, std::int64_t value) {
  char buffer[24];
  return fold(hash, decimal(value, buffer));
}

std::string_view part_text(const DetailPart& part, char (&buffer)[24]) {
  if (!part.is_number) return part.text;
  return part.is_signed ? decimal(static_cast<std::int64_t>(part.number), buffer)
                        : decimal(part.number, buffer);
}

constexpr std::string_view kFieldSep = "\x1f";
constexpr std::string_view kEventSep = "\x1e";

}  // namespace

namespace {

// The canonical encoding of an event up to its detail (which the caller folds in, whole or
// in pieces, before kEventSep).
std::uint64_t hash_head(std::uint64_t hash, std::uint64_t step, Tick time, std::string_view actor,
                        std::string_view kind, std::string_view target, std::int64_t subject) {
  hash = fold_number(hash, static_cast<std::int64_t>(step));
  hash = fold(hash, kFieldSep);
  hash = fold_number(hash, static_cast<std::int64_t>(time));
  for (const std::string_view field : {actor, kind, target}) {
    hash = fold(hash, kFieldSep);
    hash = fold(hash, field);
  }
  hash = fold(hash, kFieldSep);
  hash = fold_number(hash, subject);
  return fold(hash, kFieldSep);
}

}  // namespace

std::uint64_t hash_event(std::uint64_t hash, const TraceEvent& e, const EventKindNames& kinds) {
  hash = hash_head(hash, e.step, e.time, e.actor, kinds.name(e.kind), e.target, e.subject);
  hash = fold(hash, e.detail);
  return fold(hash, kEventSep);
}

std::string concat(std::initializer_list<DetailPart> parts) {
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

void Trace::record(std::string_view actor, EventKind kind, std::string_view target,
                   std::int64_t subject, std::initializer_list<DetailPart> detail) {
  const std::uint64_t step = scheduler_.steps();
  const Tick time = scheduler_.now();
  std::uint64_t hash = hash_head(hash_, step, time, actor, kinds_.name(kind), target, subject);
  char buffer[24];
  for (const DetailPart& part : detail) hash = fold(hash, part_text(part, buffer));
  hash_ = fold(hash, kEventSep);
  ++count_;
  if (!keep_ && sinks_.empty()) return;
  TraceEvent event{step, time, std::string(actor), kind, std::string(target), subject,
                   concat(detail)};
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
