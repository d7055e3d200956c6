// What the subcommands' options share: the validators, the consumer's choice flags, and
// whether stdout / stderr is a terminal.

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "src/cli/options.h"
#include "src/search/parallel.h"

namespace cli {

CLI::Validator unsigned_integer(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, ec] = std::from_chars(text.data(), end, value);
        const bool ok =
            !text.empty() && ec == std::errc() && stop == end && value >= min && value <= max;
        return ok ? ""
                  : "must be an integer from " + std::to_string(min) + " to " +
                        std::to_string(max) + ", got " + text;
      },
      "");
}

CLI::Validator job_count() { return unsigned_integer(0, lab::kMaxJobs); }

void add_design_options(CLI::App* app, lab::ScenarioOverrides& o, const DesignHelp& help) {
  const char* group = "Design";
  app->add_option("--strategy", o.strategy, help.strategy)->type_name("S")->group(group);
  app->add_option("--producer", o.producer, help.producer)->type_name("P")->group(group);
  if (!help.choices) return;
  lab::ChoiceFlags& flags = o.choices;
  app->add_option("--ack", flags.ack, "Consumer choice: after-commit, before-commit, auto")
      ->type_name("A")
      ->group(group);
  app->add_option("--dedup", flags.dedup,
                  "Consumer choice: same-transaction, separate-store, check-then-act, none")
      ->type_name("D")
      ->group(group);
  app->add_option("--errors", flags.errors, "Consumer choice: classify, all-duplicate")
      ->type_name("E")
      ->group(group);
  app->add_option("--poison", flags.poison, "Consumer choice: dead-letter, record, requeue")
      ->type_name("P")
      ->group(group);
}

void add_fault_options(CLI::App* app, lab::ScenarioOverrides& o) {
  app->add_option("--fault", o.fault_rules,
                  "Replace the file's scripted faults with RULE (repeatable; none = no "
                  "rule), e.g. consumer.after_commit:order=2,attempt=1")
      ->type_name("RULE")
      ->group("Faults");
  app->add_option("--faults", o.faults,
                  "Replace the file's random fault ratios (none = no random fault)")
      ->type_name("SPEC")
      ->group("Faults");
}

bool colour_wanted() {
  // ANSI colours only on a terminal; NO_COLOR (https://no-color.org) turns them off.
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && no_colour[0] != '\0') return false;
  return isatty(fileno(stdout)) != 0;
}

bool progress_wanted() { return isatty(fileno(stderr)) != 0; }

}  // namespace cli
