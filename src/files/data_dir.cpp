#include "src/files/data_dir.h"

#include <filesystem>
#include <system_error>

namespace files {

namespace fs = std::filesystem;

std::vector<std::string> scenario_dir_candidates(const std::string& program) {
  std::vector<std::string> out = {"scenarios"};
  if (!program.empty()) {
    fs::path dir = fs::path(program).parent_path();
    const fs::path bin = dir;
    for (int up = 0; up < 3 && !dir.empty(); ++up) {
      out.push_back((dir / "scenarios").string());
      if (dir == dir.parent_path()) break;  // the root
      dir = dir.parent_path();
    }
    out.push_back((bin.parent_path() / "share" / "eosim" / "scenarios").string());
  }
#ifdef EOSIM_INSTALL_DATADIR
  out.push_back(std::string(EOSIM_INSTALL_DATADIR) + "/eosim/scenarios");
#endif
  return out;
}

std::string running_program() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : self.string();
}

namespace {

std::string joined(const std::string& dir, const std::string& sub) {
  return sub.empty() ? dir : (fs::path(dir) / sub).string();
}

}  // namespace

std::string find_scenarios_dir(const std::string& sub) {
  for (const std::string& dir : scenario_dir_candidates(running_program())) {
    std::error_code ec;
    if (fs::is_directory(joined(dir, sub), ec)) return joined(dir, sub);
  }
  return "";
}

eosim::Result<std::string> scenarios_dir_or_found(const std::string& given,
                                                  const std::string& sub) {
  if (!given.empty()) return given;
  if (std::string found = find_scenarios_dir(sub); !found.empty()) return found;
  std::string looked;
  for (const std::string& dir : scenario_dir_candidates(running_program())) {
    looked += (looked.empty() ? "" : ", ") + joined(dir, sub);
  }
  return eosim::Status::bad_input_error("found no " + std::string(sub.empty() ? "scenarios" : sub) +
                                        " folder (looked in " + looked +
                                        "): name one with --dir DIR");
}

}  // namespace files
