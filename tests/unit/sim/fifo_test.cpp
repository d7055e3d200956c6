#include <catch2/catch.hpp>

#include <deque>
#include <string>
#include <vector>

#include "sim/fifo.h"
#include "sim/rng.h"

namespace {

std::vector<std::string> contents(const sim::Fifo<std::string>& fifo) {
  return {fifo.begin(), fifo.end()};
}

}  // namespace

TEST_CASE("fifo: items leave in the order they came", "[fifo]") {
  sim::Fifo<std::string> fifo;
  CHECK(fifo.empty());
  fifo.push_back("a");
  fifo.push_back("b");
  fifo.push_back("c");
  CHECK(fifo.size() == 3);
  CHECK(fifo.front() == "a");
  CHECK(fifo.take_front() == "a");
  CHECK(contents(fifo) == std::vector<std::string>{"b", "c"});
  fifo.push_back("d");
  CHECK(fifo.take_front() == "b");
  CHECK(fifo.take_front() == "c");
  CHECK(fifo.take_front() == "d");
  CHECK(fifo.empty());
  CHECK(fifo.size() == 0);
  fifo.push_back("e");
  CHECK(contents(fifo) == std::vector<std::string>{"e"});
  fifo.clear();
  CHECK(fifo.empty());
}

TEST_CASE("fifo: agrees with std::deque over random pushes and takes", "[fifo]") {
  // Long runs of pushes with few takes make the taken prefix outgrow the waiting items,
  // which is when the vector is compacted.
  sim::Prng prng(7);
  sim::Fifo<std::string> fifo;
  std::deque<std::string> model;
  for (int i = 0; i < 20000; ++i) {
    const bool push = model.empty() || prng.below(i % 1000 < 500 ? 4 : 2) != 0;
    if (push) {
      fifo.push_back("item " + std::to_string(i));
      model.push_back("item " + std::to_string(i));
    } else {
      REQUIRE(fifo.take_front() == model.front());
      model.pop_front();
    }
    REQUIRE(fifo.size() == model.size());
    REQUIRE(fifo.empty() == model.empty());
    if (!model.empty()) REQUIRE(fifo.front() == model.front());
  }
  CHECK(std::vector<std::string>(fifo.begin(), fifo.end()) ==
        std::vector<std::string>(model.begin(), model.end()));
}
