// Shared input handling for the subcommands: which files a FILE...|DIR argument names,
// and whether a --strategy / --producer override names something that exists.

#include <algorithm>
#include <map>
#include <filesystem>
#include <system_error>

#include "src/cli/commands.h"
#include "src/catalog/catalog.h"
#include "src/scenario/scenario.h"

namespace cli {

namespace fs = std::filesystem;

bool expand_inputs(const std::vector<std::string>& inputs, std::vector<std::string>& files,
                   std::string& error) {
  for (const auto& input : inputs) {
    std::error_code ec;
    if (!fs::is_directory(input, ec)) {
      files.push_back(input);
      continue;
    }
    const std::size_t before = files.size();
    if (!lab::scenario_files_in(input, files, error)) return false;
    if (files.size() == before) {
      error = input + ": the directory holds no *.toml scenario file";
      return false;
    }
  }
  return true;
}

bool check_overrides(const std::string& strategy, const std::string& producer,
                     std::string& error) {
  if (!strategy.empty() && lab::find_strategy(strategy) == nullptr) {
    error = "unknown strategy `" + strategy +
            "`; valid strategies: " + lab::join_names(lab::strategies());
    return false;
  }
  if (!producer.empty() && lab::find_producer(producer) == nullptr) {
    error = "unknown producer `" + producer +
            "`; valid producers: " + lab::join_names(lab::producers());
    return false;
  }
  return true;
}

bool apply_fault_options(const std::vector<std::string>& rules,
                         const std::optional<std::string>& faults, lab::Scenario& scenario,
                         std::string& error) {
  std::vector<sim::FaultRule> script;
  const bool clear = rules.size() == 1 && rules.front() == "none";
  for (std::size_t i = 0; i < rules.size() && !clear; ++i) {
    sim::FaultRule rule;
    if (!lab::parse_fault_rule(rules[i], scenario, rule, error)) return false;
    script.push_back(std::move(rule));
  }
  std::map<std::string, sim::Ratio> ratios;
  if (faults && *faults != "none" && !lab::parse_fault_spec(*faults, ratios, error)) {
    error = "--faults " + *faults + ": " + error;
    return false;
  }
  if (!rules.empty()) scenario.script = std::move(script);
  if (faults) scenario.random.ratios = std::move(ratios);
  return true;
}

std::vector<std::string> fault_option_args(const std::vector<std::string>& rules,
                                           const std::optional<std::string>& faults) {
  std::vector<std::string> args;
  for (const std::string& rule : rules) args.insert(args.end(), {"--fault", rule});
  if (faults) args.insert(args.end(), {"--faults", *faults});
  return args;
}

}  // namespace cli
