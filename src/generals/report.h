#pragma once
// Renderings of a Two Generals run for `eosim generals` and for the GUI's captions: an
// ASCII courier diagram, the "who knows what" ladder, each general's decision, the
// unconfirmed last courier, the broker/consumer mapping, as text, JSON or Mermaid.
//
// Invariants:
//  (1) Rendering only reads the model: the same model state always gives the same bytes.
//  (2) The text report carries `SEED=<n>`, the trace hash and a command that replays the
//      run (scripted captures included), so any run shown to a person can be reproduced.
//  (3) Everything works mid-run too (the GUI shows the sentences while stepping); they
//      then describe the state so far.

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>  // the full header only where JSON is built or read

#include "src/generals/generals.h"

namespace generals {

// `eosim generals --couriers N --loss R --seed S`, plus --attack-level and --capture
// when they differ from the defaults.
std::string replay_command(const GeneralsOptions& options);

// One line each, for the CLI and the GUI.
std::string decision_sentence(const Decision& decision);
std::string last_courier_sentence(const TwoGenerals& model);
std::string split_sentence(const GeneralsOptions& options, const std::optional<Split>& split);

// The whole text report, ending with a newline.
std::string format_text(const TwoGenerals& model);
// One JSON object: options, couriers, ladder, decisions, outcome, the theorem's facts,
// the mapping table and the trace hash. Keys keep a fixed order.
nlohmann::ordered_json report_json(const TwoGenerals& model);
// A Mermaid sequenceDiagram: couriers as arrows (captured ones crossed), learning as notes.
std::string format_mermaid(const TwoGenerals& model);

}  // namespace generals
