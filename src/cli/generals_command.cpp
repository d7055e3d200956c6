// `eosim generals`: run the Two Generals model once and print the courier exchange, the
// "who knows what" ladder, each general's decision, the unconfirmed last courier and the
// broker/consumer parallel (src/generals), as text, JSON or Mermaid.

#include <iostream>
#include <nlohmann/json.hpp>

#include "src/cli/commands.h"
#include "src/generals/generals.h"
#include "src/generals/report.h"

namespace cli {

int generals_command(const GeneralsCommandOptions& options, std::ostream& out,
                     std::ostream& err) {
  generals::GeneralsOptions model_options;
  model_options.couriers = options.couriers;
  model_options.seed = options.seed;
  model_options.attack_level = options.attack_level;
  model_options.capture = options.capture;
  if (!sim::Ratio::parse(options.loss, model_options.loss)) {
    err << "eosim generals: --loss must be a ratio such as 1/4, or 0 or 1, got '"
        << options.loss << "'\n";
    return kExitBadInput;
  }
  if (const eosim::Status valid = generals::validate(model_options); !valid.ok()) {
    err << "eosim generals: " << valid.message << '\n';
    return kExitBadInput;
  }

  generals::TwoGenerals model(model_options);
  model.run();
  if (options.format == "json") {
    out << generals::report_json(model).dump() << '\n';
  } else if (options.format == "mermaid") {
    out << generals::format_mermaid(model);
  } else {
    // The last line replays the run: with the program as invoked, as every text report.
    std::string text = generals::format_text(model);
    const std::string::size_type replay = text.rfind("replay: ");
    if (replay != std::string::npos) {
      text.replace(replay + 8, std::string::npos, as_invoked(text.substr(replay + 8)));
    }
    out << text;
  }
  out.flush();
  return kExitOk;
}

}  // namespace cli
