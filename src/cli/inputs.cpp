// Shared input handling for the subcommands: which files a FILE...|DIR argument names, and
// how a failure that is not the user's input is reported.

#include <algorithm>
#include <ostream>
#include <filesystem>
#include <system_error>

#include "src/cli/commands.h"
#include "src/report/report_format.h"
#include "src/scenario/scenario.h"

namespace cli {

namespace fs = std::filesystem;

eosim::Status expand_inputs(const std::vector<std::string>& inputs,
                            std::vector<std::string>& files) {
  for (const auto& input : inputs) {
    std::error_code ec;
    if (!fs::is_directory(input, ec)) {
      files.push_back(input);
      continue;
    }
    const std::size_t before = files.size();
    if (eosim::Status listed = lab::scenario_files_in(input, files); !listed.ok()) return listed;
    if (files.size() == before) {
      return eosim::Status::error(input + ": the directory holds no *.toml scenario file");
    }
  }
  return eosim::Status::success();
}

namespace {

// Written once by main before any command runs, read by the commands' text output.
std::string& invoked_program() {
  static std::string program = "eosim";
  return program;
}

}  // namespace

void set_invoked_as(const std::string& program) {
  if (!program.empty()) invoked_program() = program;
}

std::string as_invoked(const std::string& command) {
  constexpr std::string_view kProgram = "eosim ";
  if (command.compare(0, kProgram.size(), kProgram) != 0) return command;
  return lab::shell_quoted(invoked_program()) + command.substr(kProgram.size() - 1);
}

int report_failure(std::ostream& err, const eosim::Status& status) {
  err << (status.machine ? "eosim: " : "eosim: internal error: ") << status.message << '\n';
  return status.machine ? kExitBadInput : kExitInternal;
}

}  // namespace cli
