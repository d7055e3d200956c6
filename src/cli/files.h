#pragma once
// The files the commands write for the user: `-o OUT.toml` (shrink, explore; the rules of
// src/files/output_file.h) and the databases `run --keep-db DIR` leaves behind. One rule for all of them: nothing that is
// already there is replaced or deleted unless the user said --force, the input file is
// never an output, and every problem is found before the work starts and named with the
// operating system's reason (so a long search never ends in "cannot write").
//
// Every function returns a Status whose message is one line a user can act on; the caller
// prints it and exits 2 (bad input: the environment the user pointed us at).

#include <set>
#include <string>
#include <vector>

#include "src/files/output_file.h"
#include "src/status/status.h"

namespace cli {

// -o, --plot and the course's pictures are written with src/files/output_file.h.
using files::check_output_file;
using files::write_output_file;

// Makes `dir` ready to receive the databases `names` (e.g. "orders.db", "ledger.db"):
// creates the folder, refuses (naming them) files it would replace — the databases and
// SQLite's -journal/-wal/-shm files beside them — unless `force`, which removes exactly
// those files; refuses a folder or special file where a database belongs even with
// `force`; and creates each database as an empty file, so an unwritable folder fails here
// with the OS's reason. Other files in `dir` are never touched.
eosim::Status prepare_keep_db_dir(const std::string& dir, const std::vector<std::string>& names,
                                  bool force);

// The name of a file's own folder under a --keep-db DIR of several runs: the file's stem
// ("run" if it has none), or stem-2, stem-3, ... when an earlier file of the command took
// it (`used` holds the names given so far; the one returned is added).
std::string unique_folder_name(const std::string& stem, std::set<std::string>& used);

// The *.toml files of the folder the user named (`given`, from --dir), or else of eosim's
// own scenarios ("") or lessons ("lessons") wherever they are found from this folder
// (src/files/data_dir.h): `dir` says which folder was read, for the messages.
eosim::Status data_files(const std::string& given, const std::string& sub, std::string& dir,
                         std::vector<std::string>& files);

}  // namespace cli
