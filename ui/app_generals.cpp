// The App's Two Generals half: building the model from the view's choices and applying
// the mode's commands. The model (src/generals) decides everything; this only routes.

#include <algorithm>
#include <memory>
#include <numeric>

#include "src/generals/generals.h"
#include "src/generals/report.h"
#include "ui/app.h"

namespace ui {

void App::ensure_generals() {
  if (generals_) return;
  apply_generals(GeneralsResetCmd{view_.generals_couriers, view_.generals_loss_percent,
                                  static_cast<std::uint64_t>(std::max(0, view_.generals_seed))});
}

void App::apply_generals(const Command& command) {
  if (const auto* reset = std::get_if<GeneralsResetCmd>(&command)) {
    generals::GeneralsOptions options;
    options.couriers = reset->couriers;
    // 25% is written 1/4, as `eosim generals --loss 1/4` takes it: the same seed then
    // draws the same captures in both.
    const auto percent = static_cast<std::uint64_t>(std::clamp(reset->loss_percent, 0, 100));
    const std::uint64_t divisor = percent == 0 ? 100 : std::gcd(percent, std::uint64_t{100});
    options.loss = sim::Ratio{percent / divisor, 100 / divisor};
    options.seed = reset->seed;
    if (const eosim::Status valid = generals::validate(options); !valid.ok()) {
      status(valid.message, true);
      return;
    }
    generals_ = std::make_unique<generals::TwoGenerals>(options);
    generals_captures_.clear();
    return;
  }
  if (!generals_) return;
  if (std::holds_alternative<GeneralsStepCmd>(command)) {
    generals_->step();
  } else if (std::holds_alternative<GeneralsCaptureCmd>(command)) {
    // The courier taken is the next one sent; as a --capture it replays from the CLI.
    const int next = generals_->last_sent() + 1;
    if (generals_->capture_next()) {
      generals_captures_.push_back(next);
    } else {
      status("no courier will be sent any more", true);
    }
  } else if (std::holds_alternative<GeneralsRunCmd>(command)) {
    generals_->run();
  }
}

std::string App::generals_replay() const {
  if (!generals_) return "";
  generals::GeneralsOptions options = generals_->options();
  for (const int c : generals_captures_) options.capture.push_back(c);
  return generals::replay_command(options);
}

}  // namespace ui
