#pragma once
// Scenarios the property tests sweep, built in code so that a test says exactly what it
// runs. Every one is a small workload with the defaults of docs/scenario-format.md.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "src/scenario/scenario.h"
#include "src/search/sweep.h"

namespace property {

// `orders` orders of 150 against a balance that covers them all, atomic + outbox.
inline lab::Scenario workload(std::int64_t orders, const std::string& strategy = "atomic",
                              const std::string& producer = "outbox") {
  lab::Scenario s;
  s.name = "property: " + strategy + " + " + producer;
  s.workload.orders = orders;
  s.workload.amount = 150;
  s.workload.initial_balance = 150 * orders + 100;
  s.producer.pattern = producer;
  s.consumer.strategy = strategy;
  return s;
}

// Random faults of every kind the world offers, drawn per opportunity from the seed.
inline std::map<std::string, sim::Ratio> every_fault_kind() {
  std::map<std::string, sim::Ratio> ratios;
  REQUIRE(lab::parse_fault_spec("drop=1/15,crash=1/15,fail=1/15,reorder=1/8,restart=1/60", ratios)
              .ok());
  return ratios;
}

inline lab::SweepSummary sweep(const lab::Scenario& s, std::uint64_t first,
                               std::uint64_t last, unsigned jobs = 0,
                               std::size_t keep_failures = 10) {
  lab::SweepOptions options;
  options.first_seed = first;
  options.last_seed = last;
  options.jobs = jobs;
  options.keep_failures = keep_failures;
  lab::SweepSummary summary;
  const eosim::Status swept = lab::sweep(s, options, summary);
  INFO(swept.message);
  REQUIRE(swept.ok());
  return summary;
}

}  // namespace property
