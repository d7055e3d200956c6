#pragma once
// The design x fault matrix: which consumer strategy and producer pattern survives which
// single fault. Every column is a design (each consumer strategy with the file's producer,
// then each other producer pattern with the file's strategy); every row is a fault site
// (network sites once per frame kind); each cell is one run of the file with that design
// and exactly one scripted fault, placed at the first opportunity of the site in that
// design's fault-free run. A last row runs a range of seeds with random faults instead.
//
// Where a site applies is not a list kept by hand: the design's fault-free run logs every
// fault opportunity it passes (FaultPlan::log_opportunities), and a site applies to the
// design when that run passed it. A cell whose design never passes the site is "n/a".
//
// Invariants of a Matrix filled by build_matrix:
//  (1) cells.size() == faults.size() and each row has designs.size() cells; random has
//      designs.size() entries (all empty when no seeds were asked for).
//  (2) Every cell and random entry names an `eosim run` command that reproduces it: the
//      file, its seed, the design (as --strategy/--producer where it differs from the
//      file's) and the faults (--fault / --faults; `none` clears the file's own).
//  (3) Everything is a function of (scenario, options minus jobs): workers write into
//      their own slots, so the thread count never changes a cell.
// REQUIRES: when options.seeds, first_seed <= last_seed and fewer than kMatrixMaxSeeds
//   seeds (each design runs every seed).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/faults.h"
#include "sim/rng.h"
#include "src/checker/violations.h"
#include "src/scenario/scenario.h"

namespace lab {

constexpr std::uint64_t kMatrixMaxSeeds = 100000;

struct MatrixDesign {
  std::string strategy;
  std::string producer;
  std::string label;  // the strategy, or the producer for the producer columns
  bool varies_producer = false;
};

struct MatrixFault {
  std::string site;
  std::string frame;  // network sites only
  std::string label;  // "consumer.after_commit", "net.consumer->broker basic.ack"
};

// One design against one fault: the run's Violations, and what else the cell shows.
struct MatrixCell : Violations {
  bool applies = false;  // the design's fault-free run passes the site
  bool fired = false;    // the scripted fault fired (false only for a bug or a race)
  sim::FaultRule rule;   // the fault injected
  // The Violations are meaningful only when the cell applies.
  std::vector<std::int64_t> dead_lettered;
  std::string command;   // the `eosim run` line that reproduces the cell
};

struct MatrixRandom {
  std::uint64_t runs = 0;
  std::uint64_t violations = 0;  // runs not exactly-once
  std::map<std::string, std::uint64_t> verdicts;
  std::optional<std::uint64_t> first_failing_seed;
  Verdict first_verdict = Verdict::kExactlyOnce;  // with first_failing_seed
  std::string command;  // replays the first failing seed (or the first seed)
};

struct MatrixOptions {
  std::string path;  // the file, as the commands should name it
  bool seeds = true; // add the random row
  std::uint64_t first_seed = 1;
  std::uint64_t last_seed = 20;
  // The random row's ratios; none = the file's [faults.random], else the sweep's default.
  std::optional<std::map<std::string, sim::Ratio>> ratios;
  unsigned jobs = 0;  // worker threads; 0 = every hardware thread
};

struct Matrix {
  std::string scenario;  // its name
  std::string path;
  std::vector<MatrixDesign> designs;
  std::vector<MatrixCell> baseline;          // per design: the run with no fault at all
  std::vector<MatrixFault> faults;
  std::vector<std::vector<MatrixCell>> cells;  // [fault][design]
  std::vector<MatrixRandom> random;            // per design
  std::string random_spec;                     // the ratios used, "drop=1/20,..."
  std::uint64_t first_seed = 0, last_seed = 0;
  std::uint64_t runs = 0;                      // worlds run in all
};

// The designs a matrix of `scenario` has by default (see the header comment).
std::vector<MatrixDesign> matrix_designs(const Scenario& scenario);

// Runs every cell. An error only when a world could not be built.
eosim::Status build_matrix(const Scenario& scenario, const MatrixOptions& options, Matrix& out);

// "ok" for exactly-once, "DUP" for duplicated, any other verdict in capitals.
std::string matrix_verdict_word(Verdict verdict);
// "ok", "DUP 2", "LOST 1, 3", "n/a": what a table shows in a cell.
std::string matrix_cell_text(const MatrixCell& cell);
// "3/20 DUP" or "0/20": the random row's entry.
std::string matrix_random_text(const MatrixRandom& random);

}  // namespace lab
