// The kernel's event kinds and the names a layer above hands in for its own.

#include <catch2/catch.hpp>

#include <array>
#include <set>
#include <string>
#include <string_view>

#include "sim/event_kind.h"

namespace {

constexpr std::array<std::string_view, 2> kAbove = {"alpha", "beta"};
constexpr auto kAll = sim::names_above_kernel(kAbove);

}  // namespace

TEST_CASE("event kinds: the kernel's names, then the names handed in", "[trace]") {
  const sim::EventKindNames names{kAll};
  std::set<std::string> seen;
  const std::size_t count = sim::kKernelEventKindNames.size() + kAbove.size();
  for (std::size_t i = 0; i < count; ++i) {
    const auto kind = static_cast<sim::EventKind>(i);
    const std::string name(names.name(kind));
    CHECK_FALSE(name.empty());
    CHECK(names.parse(name) == kind);
    seen.insert(name);
  }
  CHECK(seen.size() == count);
  CHECK(names.name(sim::EventKind::kRecv) == "recv");
  CHECK(names.name(sim::kind_above(1)) == "beta");
  CHECK(names.parse("alpha") == sim::kind_above(0));
  // Without names from above, only the kernel's own kinds are known.
  const sim::EventKindNames kernel_only;
  CHECK(kernel_only.parse("fault") == sim::EventKind::kFault);
  CHECK_FALSE(kernel_only.parse("alpha"));
  CHECK_FALSE(names.parse("Recv"));
  CHECK_FALSE(names.parse(""));
}
