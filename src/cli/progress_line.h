#pragma once
// Progress on stderr for work a user waits on (sweep, explore). On a terminal it is one
// line redrawn in place and wiped at the end. Elsewhere (a log file, a CI job, a pipe) it
// is a plain line every 10 s, so a long run shows that it is alive without filling the
// log, and a short one prints nothing. --progress lines asks for a line at once and then
// every 2 s wherever stderr goes; --progress off for none.

#include <chrono>
#include <iosfwd>
#include <string>

namespace cli {

// The help of --progress WHEN; its values are kProgressValues.
inline constexpr const char* kProgressHelp =
    "Progress on stderr: auto (a line redrawn on a terminal, else a line every 10 s), "
    "lines (at once, then every 2 s) or off";
inline constexpr const char* kProgressValues[] = {"auto", "lines", "off"};

class ProgressLine {
 public:
  // `when` is --progress's value; `terminal` says whether stderr is a terminal.
  ProgressLine(std::ostream& err, const std::string& when, bool terminal);
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { clear(); }

  bool on() const { return mode_ != Mode::kOff; }
  // Shows `text`: redrawn at once, or as a line when the interval has passed.
  void show(const std::string& text);
  // Wipes a redrawn line, so what follows starts at the left edge.
  void clear();

 private:
  enum class Mode { kOff, kRedraw, kLines };

  std::ostream& err_;
  Mode mode_;
  std::chrono::milliseconds every_;
  std::chrono::steady_clock::time_point next_;  // the earliest time of the next line
  std::size_t drawn_ = 0;                       // characters of the redrawn line on screen
};

}  // namespace cli
