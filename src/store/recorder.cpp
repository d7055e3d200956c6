#include "src/store/recorder.h"

#include <atomic>

namespace store {

namespace {
// Relaxed: installed only while no other thread uses the store (see the header), so the
// store's hot paths pay one plain load for it.
std::atomic<Recorder*> g_recorder{nullptr};
}  // namespace

Recorder* Recorder::install(Recorder* recorder) { return g_recorder.exchange(recorder); }

Recorder* Recorder::current() { return g_recorder.load(std::memory_order_relaxed); }

std::size_t Recorder::count(Kind kind) const {
  std::size_t n = 0;
  for (const Call& c : calls_) n += c.kind == kind ? 1 : 0;
  return n;
}

std::int32_t Recorder::intern(std::string_view text) {
  auto it = text_ids_.find(text);
  if (it != text_ids_.end()) return it->second;
  const auto id = static_cast<std::int32_t>(texts_.size());
  texts_.emplace_back(text);
  text_ids_.emplace(std::string(text), id);
  return id;
}

std::int32_t Recorder::open(std::string_view uri) {
  const std::int32_t conn = next_conn_++;
  add(Kind::kOpen, conn, uri);
  return conn;
}

void Recorder::add(Kind kind, std::int32_t conn, std::string_view text, std::int32_t index,
                   std::int32_t result, std::int64_t value) {
  calls_.push_back(Call{kind, conn, intern(text), index, result, value});
}

void Recorder::bind_text(std::int32_t conn, std::string_view sql, std::int32_t index,
                         std::string_view value) {
  add(Kind::kBindText, conn, sql, index, 0, intern(value));
}

}  // namespace store
