// Shared input handling for the subcommands: which files a FILE...|DIR argument names,
// and whether a --strategy / --producer override names something that exists.

#include <algorithm>
#include <ostream>
#include <map>
#include <filesystem>
#include <system_error>

#include "src/cli/commands.h"
#include "src/catalog/catalog.h"
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

int report_failure(std::ostream& err, const eosim::Status& status) {
  err << (status.machine ? "eosim: " : "eosim: internal error: ") << status.message << '\n';
  return status.machine ? kExitBadInput : kExitInternal;
}

eosim::Status check_overrides(const std::string& strategy, const std::string& producer) {
  if (!strategy.empty() && lab::find_strategy(strategy) == nullptr) {
    return eosim::Status::error("unknown strategy `" + strategy +
                                "`; valid strategies: " + lab::join_names(lab::strategies()));
  }
  if (!producer.empty() && lab::find_producer(producer) == nullptr) {
    return eosim::Status::error("unknown producer `" + producer +
                                "`; valid producers: " + lab::join_names(lab::producers()));
  }
  return eosim::Status::success();
}

eosim::Status apply_fault_options(const std::vector<std::string>& rules,
                                  const std::optional<std::string>& faults,
                                  lab::Scenario& scenario) {
  std::vector<sim::FaultRule> script;
  const bool clear = rules.size() == 1 && rules.front() == "none";
  for (std::size_t i = 0; i < rules.size() && !clear; ++i) {
    sim::FaultRule rule;
    if (eosim::Status parsed = lab::parse_fault_rule(rules[i], scenario, rule); !parsed.ok()) {
      return parsed;
    }
    script.push_back(std::move(rule));
  }
  std::map<std::string, sim::Ratio> ratios;
  if (faults && *faults != "none") {
    if (const eosim::Status parsed = lab::parse_fault_spec(*faults, ratios); !parsed.ok()) {
      return eosim::Status::error("--faults " + *faults + ": " + parsed.message);
    }
  }
  if (!rules.empty()) scenario.script = std::move(script);
  if (faults) scenario.random.ratios = std::move(ratios);
  return eosim::Status::success();
}

std::vector<std::string> fault_option_args(const std::vector<std::string>& rules,
                                           const std::optional<std::string>& faults) {
  std::vector<std::string> args;
  for (const std::string& rule : rules) args.insert(args.end(), {"--fault", rule});
  if (faults) args.insert(args.end(), {"--faults", *faults});
  return args;
}

}  // namespace cli
