#include "src/store/sql.h"

#include <atomic>

namespace store {

namespace {
constinit std::atomic<std::uint32_t> g_numbers_taken{0};  // Sql objects constructed so far
}  // namespace

Sql::Sql(std::string_view text) noexcept : text_(text) {
  const std::uint32_t taken = g_numbers_taken.fetch_add(1, std::memory_order_relaxed);
  number_ = taken < kNumbered ? taken : kUnnumbered;
}

}  // namespace store
