#pragma once
// eosim-gui's --bench-frames and --bench-scrub: frame times taken around the window's frame
// loop (main.cpp), printed after the last frame, with the longest replay there is (one step
// back from the end). Only a window's loop uses it; nothing here draws.
//
// A frame is timed in three marks: frame_started() before events are polled, panels_started()
// and panels_done() around the panels and ImGui (no OpenGL), frame_done() after the commands
// are applied. Wall time, and the CPU time of the whole process (the app and a software
// rasteriser's threads), which a shared machine disturbs less.

#include <chrono>
#include <cstdint>
#include <vector>

#include "ui/app.h"

namespace ui {

struct BenchOptions {
  int frames = 0;      // 0 = no benchmark: nothing is measured or printed
  bool scrub = false;  // drag the scrub slider from the end to the start and back
};

class FrameBench {
 public:
  FrameBench(const BenchOptions& options, App& app);

  void frame_started();
  // --bench-scrub: the slider where a person dragging it would have it at `frame`.
  void scrub(int frame);
  void panels_started();
  void panels_done();
  // Records the frame; true when it was the last one (the report is printed then).
  bool frame_done(int frame);

 private:
  void report();
  void report_rewinds(lab::Session& session);

  BenchOptions options_;
  App& app_;
  std::chrono::steady_clock::time_point start_, panels_start_;
  double cpu_start_ = 0;
  // Whole frames (wall and CPU time); the UI's own part (no OpenGL).
  std::vector<double> frame_ms_, cpu_ms_, panels_ms_;
  // While scrubbing: frames in which the shown step changed, dragging back / forward.
  int changed_[2] = {0, 0}, frames_[2] = {0, 0};
  std::uint64_t shown_ = 0;  // the step shown after the last frame
  std::uint64_t end_ = 0;    // the run's last step
};

}  // namespace ui
