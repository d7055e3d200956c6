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

void add_choice_options(CLI::App* app, lab::ChoiceFlags& flags) {
  app->add_option("--ack", flags.ack, "Consumer choice: after-commit, before-commit, auto")
      ->type_name("A");
  app->add_option("--dedup", flags.dedup,
                  "Consumer choice: same-transaction, separate-store, check-then-act, none")
      ->type_name("D");
  app->add_option("--errors", flags.errors, "Consumer choice: classify, all-duplicate")
      ->type_name("E");
  app->add_option("--poison", flags.poison, "Consumer choice: dead-letter, record, requeue")
      ->type_name("P");
}

bool colour_wanted() {
  // ANSI colours only on a terminal; NO_COLOR (https://no-color.org) turns them off.
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && no_colour[0] != '\0') return false;
  return isatty(fileno(stdout)) != 0;
}

bool progress_wanted() { return isatty(fileno(stderr)) != 0; }

}  // namespace cli
