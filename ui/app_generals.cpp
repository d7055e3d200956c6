// The App's Two Generals half: building the model from the view's choices and applying
// the mode's commands. The model (src/generals) decides everything; this only routes.

#include <memory>

#include "src/generals/generals.h"
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
    options.loss = sim::Ratio{static_cast<std::uint64_t>(reset->loss_percent), 100};
    options.seed = reset->seed;
    const std::string problem = generals::validate(options);
    if (!problem.empty()) {
      status(problem, true);
      return;
    }
    generals_ = std::make_unique<generals::TwoGenerals>(options);
    return;
  }
  if (!generals_) return;
  if (std::holds_alternative<GeneralsStepCmd>(command)) {
    generals_->step();
  } else if (std::holds_alternative<GeneralsCaptureCmd>(command)) {
    if (!generals_->capture_next()) status("no courier will be sent any more", true);
  } else if (std::holds_alternative<GeneralsRunCmd>(command)) {
    generals_->run();
  }
}

}  // namespace ui
