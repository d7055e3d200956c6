#include "src/cli/progress_line.h"

#include <ostream>

namespace cli {

ProgressLine::ProgressLine(std::ostream& err, const std::string& when, bool terminal)
    : err_(err),
      mode_(when == "off"                  ? Mode::kOff
            : when == "lines" || !terminal ? Mode::kLines
                                           : Mode::kRedraw),
      every_(when == "lines" ? 2000 : 10000),
      next_(std::chrono::steady_clock::now() +
            (when == "lines" ? std::chrono::milliseconds(0) : every_)) {}

void ProgressLine::show(const std::string& text) {
  if (mode_ == Mode::kRedraw) {
    err_ << '\r' << text;
    if (text.size() < drawn_) err_ << std::string(drawn_ - text.size(), ' ') << '\r' << text;
    err_ << std::flush;
    drawn_ = text.size();
    return;
  }
  if (mode_ != Mode::kLines) return;
  const auto now = std::chrono::steady_clock::now();
  if (now < next_) return;
  next_ = now + every_;
  err_ << text << '\n' << std::flush;
}

void ProgressLine::clear() {
  if (mode_ != Mode::kRedraw || drawn_ == 0) return;
  err_ << '\r' << std::string(drawn_, ' ') << '\r' << std::flush;
  drawn_ = 0;
}

}  // namespace cli
