// EOSIM_TEST_SEED_DIVISOR (tests/support/seed_budget.h): the sanitizer pass walks a
// quarter of the heaviest tests' seeds, every other run all of them, and a value that is
// not a whole number from 1 to 1000 fails the test rather than being read as something.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include "tests/support/seed_budget.h"

namespace {

// Sets (or, with nullopt, unsets) the divisor for one scope and puts the old one back.
class DivisorScope {
 public:
  explicit DivisorScope(const std::optional<std::string>& value) {
    if (const char* old = std::getenv(kName)) saved_ = old;
    if (value) {
      ::setenv(kName, value->c_str(), 1);
    } else {
      ::unsetenv(kName);
    }
  }
  ~DivisorScope() {
    if (saved_) {
      ::setenv(kName, saved_->c_str(), 1);
    } else {
      ::unsetenv(kName);
    }
  }
  DivisorScope(const DivisorScope&) = delete;
  DivisorScope& operator=(const DivisorScope&) = delete;

 private:
  static constexpr const char* kName = "EOSIM_TEST_SEED_DIVISOR";
  std::optional<std::string> saved_;
};

}  // namespace

TEST_CASE("seed budget: all seeds unless EOSIM_TEST_SEED_DIVISOR divides them", "[property]") {
  {
    const DivisorScope unset(std::nullopt);
    CHECK(test_support::last_seed(40) == 40);
    CHECK(test_support::last_seed(200) == 200);
  }
  {
    const DivisorScope empty(std::string(""));
    CHECK(test_support::last_seed(40) == 40);
  }
  {
    const DivisorScope quarter(std::string("4"));
    CHECK(test_support::last_seed(40) == 10);
    CHECK(test_support::last_seed(200) == 50);
    CHECK(test_support::last_seed(3) == 1);  // never no seed at all
  }
  for (const char* bad : {"0", "-4", "4x", "1001", "99999999999999999999999"}) {
    INFO(bad);
    const DivisorScope wrong{std::string(bad)};
    CHECK_THROWS_AS(test_support::last_seed(40), std::invalid_argument);
  }
}
