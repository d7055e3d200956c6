// `eosim matrix`: every design (consumer strategy, producer pattern) against every fault
// site that applies, one scripted fault per cell, plus a row of random seeds
// (matrix/matrix.h), printed as text, Markdown, JSON or HTML.

#include <iostream>
#include <utility>
#include <nlohmann/json.hpp>

#include "src/cli/commands.h"
#include "src/catalog/choice_flags.h"
#include "src/matrix/matrix.h"
#include "src/matrix/matrix_format.h"
#include "src/search/sweep.h"

namespace cli {

namespace {

// The matrix with each reproducing command naming the program as invoked (text only: a
// page or Markdown is read elsewhere).
lab::Matrix terminal_commands(lab::Matrix matrix) {
  for (auto& row : matrix.cells) {
    for (lab::MatrixCell& cell : row) cell.command = as_invoked(cell.command);
  }
  for (lab::MatrixCell& cell : matrix.baseline) cell.command = as_invoked(cell.command);
  for (lab::MatrixRandom& random : matrix.random) random.command = as_invoked(random.command);
  return matrix;
}

}  // namespace

int matrix_command(const MatrixCommandOptions& options, std::ostream& out, std::ostream& err) {
  lab::MatrixOptions matrix;
  matrix.path = options.file;
  matrix.jobs = options.jobs;
  std::string error;
  if (options.seeds == "none") {
    matrix.seeds = false;
  } else if (const eosim::Status seeds =
                 parse_seed_range(options.seeds, matrix.first_seed, matrix.last_seed);
             !seeds.ok()) {
    err << "eosim: --seeds: " << seeds.message << '\n';
    return kExitBadInput;
  } else if (matrix.last_seed - matrix.first_seed >= lab::kMatrixMaxSeeds) {
    err << "eosim: --seeds: at most " << lab::kMatrixMaxSeeds
        << " seeds (each design runs every seed; use eosim sweep for more)\n";
    return kExitBadInput;
  }
  lab::Scenario scenario;
  lab::SweepOptions sweep;
  if (!load_for_seeds(options.file, lab::ScenarioOverrides{}, options.faults, scenario, sweep,
                      err)) {
    return kExitBadInput;
  }
  matrix.ratios = sweep.ratios;

  lab::Matrix result;
  if (const eosim::Status built = lab::build_matrix(scenario, matrix, result); !built.ok()) {
    return report_failure(err, built);
  }
  if (options.format == "markdown") {
    out << lab::format_matrix_markdown(result);
  } else if (options.format == "json") {
    out << lab::matrix_json(result).dump(2) << '\n';
  } else if (options.format == "html") {
    out << lab::format_matrix_html(result);
  } else {
    out << lab::format_matrix_text(terminal_commands(std::move(result)));
  }
  out.flush();
  return kExitOk;
}

}  // namespace cli
