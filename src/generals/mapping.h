#pragma once
// The Two Generals exchange read as a broker delivering to a consumer (the
// classic parallel): General A is the broker, General B the consumer, courier 1 is basic.deliver,
// courier 2 is basic.ack. Kept as data so the CLI and the GUI print the same table.
//
// Invariants:
//  (1) The table is fixed at compile time and ordered as it should be read: the parties,
//      the couriers, then what a lost courier means on each side.

#include <string>
#include <vector>

namespace generals {

struct MappingRow {
  std::string generals;  // the Two Generals side: "courier 2 (the ack)"
  std::string broker;    // its AMQP counterpart: "basic.ack"
  std::string note;      // why the parallel matters
};

const std::vector<MappingRow>& broker_mapping();

}  // namespace generals
