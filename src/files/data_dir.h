#pragma once
// Where eosim's own scenarios and lessons are when the user names no folder, so that
// `eosim lesson`, `eosim list scenarios` and the GUI work from any folder, in a checkout,
// a build tree or an installed tree alike.
//
// The first of these that is a folder holding `sub` (e.g. "lessons"; "" for the folder
// itself) wins:
//   1. ./scenarios                      the current folder (a checkout, or the user's own)
//   2. scenarios beside the program, or one or two folders up (build/eosim and
//      build/ui/eosim-gui of a checkout, a copied binary next to its scenarios)
//   3. ../share/eosim/scenarios from the program's folder (bin/ of an installed prefix,
//      wherever it was moved)
//   4. the configured install prefix's DATADIR/eosim/scenarios
// The program's own path comes from the OS (/proc/self/exe), never from argv[0], which
// may be a bare name found through $PATH.
// Invariant: the answer is one of the candidates above, or "" when none exists.

#include <string>
#include <vector>

#include "src/status/status.h"

namespace files {

// The candidates in the order above (they need not exist); `program` is the path of the
// running program ("" when unknown: the candidates that depend on it are left out).
std::vector<std::string> scenario_dir_candidates(const std::string& program);

// The first candidate whose `sub` folder exists, joined with `sub`; "" when none.
std::string find_scenarios_dir(const std::string& sub = "");

// The path of the running program, "" when the OS does not say.
std::string running_program();

// `given` when the user named a folder (--dir), else find_scenarios_dir(sub); when none
// is found, an error that names every folder it looked in and says to use --dir.
eosim::Result<std::string> scenarios_dir_or_found(const std::string& given,
                                                  const std::string& sub = "");

}  // namespace files
