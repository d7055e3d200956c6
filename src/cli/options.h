#pragma once
// The command line's side of the subcommands: each add_<name>_command registers one
// subcommand and its options with CLI11 and returns a Command whose `run` carries it out
// through the function of src/cli/commands.h, so the logic never depends on the parser.
// Only main.cpp and the options*.cpp files include CLI11.
//
// A new subcommand gets an options struct and a `<name>_command` function in commands.h,
// an `add_<name>_command` in the options file of its kind (options_run.cpp: one run and
// what reads it; options_search.cpp: many seeds; options_course.cpp: the course;
// options_live.cpp: the real broker), declared here and registered in main.cpp.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "src/world/overrides.h"

namespace cli {

// A registered subcommand: `run` is called when `app` was parsed and returns the exit code.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// Registers a subcommand whose options struct lives as long as its Command: `add` declares
// the subcommand and binds its options to the struct, `run` carries the command out.
template <class Options, class Add, class Run>
Command make_command(CLI::App& app, Add add, Run run) {
  auto options = std::make_shared<Options>();
  CLI::App* sub = add(app, *options);
  return {sub, [options, run] { return run(*options); }};
}

// An option that sets `target` only when it is given (left out, it stays nullopt).
template <class T>
CLI::Option* add_optional(CLI::App* app, const std::string& name, std::optional<T>& target,
                          const std::string& help) {
  return app->add_option_function<T>(
      name, [&target](const T& value) { target = value; }, help);
}

// A decimal unsigned integer from `min` to `max`. CLI11 alone would wrap "-1" to the
// largest value and saturate a number that is too large, silently running something else.
CLI::Validator unsigned_integer(std::uint64_t min,
                                std::uint64_t max = std::numeric_limits<std::uint64_t>::max());
// --jobs: 0 (every core) up to lab::kMaxJobs threads.
CLI::Validator job_count();

// How a command reads --strategy and --producer, for their help lines.
struct DesignHelp {
  const char* strategy = "Replace the consumer strategy (eosim list strategies)";
  const char* producer = "Replace the producer pattern (eosim list producers)";
  bool choices = true;  // also --ack, --dedup, --errors, --poison
};
// The help group "Design" into `o`: --strategy, --producer and the consumer's four
// choices, each replacing the preset's (the file's, or --strategy's). Values are checked
// by lab::check_overrides, which lists the valid ones (eosim list strategies shows them all).
void add_design_options(CLI::App* app, lab::ScenarioOverrides& o, const DesignHelp& help = {});
// The help group "Faults" into `o`: --fault RULE (repeatable) and --faults SPEC, replacing
// the file's scripted rules and random ratios.
void add_fault_options(CLI::App* app, lab::ScenarioOverrides& o);

// ANSI colours on stdout: only on a terminal, and not when NO_COLOR is set.
bool colour_wanted();
// A progress line on stderr: only on a terminal.
bool progress_wanted();

Command add_run_command(CLI::App& app);
Command add_list_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_generals_command(CLI::App& app);
Command add_compare_command(CLI::App& app);
Command add_sweep_command(CLI::App& app);
Command add_merge_command(CLI::App& app);
Command add_shrink_command(CLI::App& app);
Command add_explore_command(CLI::App& app);
Command add_matrix_command(CLI::App& app);
Command add_lesson_command(CLI::App& app);
Command add_course_command(CLI::App& app);
Command add_live_command(CLI::App& app);

}  // namespace cli
