#include "ui/frame_bench.h"

#include <time.h>

#include <algorithm>
#include <cstdio>

namespace ui {

namespace {

// CPU time of the whole process in ms: the app and the rasteriser's threads (llvmpipe
// draws on the CPU), not the X server's. Less sensitive than wall time to other work on
// a shared machine.
double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void print_bench(std::vector<double> ms, const char* what) {
  if (ms.empty()) return;
  double sum = 0;
  for (double m : ms) sum += m;
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) {
    return ms[static_cast<std::size_t>(q * static_cast<double>(ms.size() - 1))];
  };
  std::printf("%s: %zu frames, mean %.2f ms, median %.2f ms, p95 %.2f ms, max %.2f ms\n", what,
              ms.size(), sum / static_cast<double>(ms.size()), at(0.5), at(0.95), ms.back());
}

}  // namespace

FrameBench::FrameBench(const BenchOptions& options, App& app) : options_(options), app_(app) {
  if (app.session().is_open()) {
    shown_ = app.session().step();
    end_ = app.session().end().steps;
  }
}

void FrameBench::frame_started() {
  if (options_.frames <= 0) return;
  start_ = std::chrono::steady_clock::now();
  cpu_start_ = process_cpu_ms();
}

void FrameBench::scrub(int frame) {
  if (!options_.scrub || options_.frames <= 0) return;
  // A person dragging the slider from the end to the start and back.
  const auto half = static_cast<std::uint64_t>(std::max(1, options_.frames / 2));
  const auto f = static_cast<std::uint64_t>(frame) % (2 * half);
  const std::uint64_t to = f < half ? end_ - end_ * f / half : end_ * (f - half) / half;
  app_.apply(SeekCmd{to, true});
}

void FrameBench::panels_started() {
  if (options_.frames > 0) panels_start_ = std::chrono::steady_clock::now();
}

void FrameBench::panels_done() {
  if (options_.frames > 0) panels_ms_.push_back(ms_since(panels_start_));
}

bool FrameBench::frame_done(int frame) {
  if (options_.frames <= 0) return false;
  if (options_.scrub && app_.session().is_open()) {
    const int back = frame % std::max(2, options_.frames) < options_.frames / 2 ? 0 : 1;
    ++frames_[back];
    changed_[back] += app_.session().step() != shown_ ? 1 : 0;
    shown_ = app_.session().step();
  }
  frame_ms_.push_back(ms_since(start_));
  cpu_ms_.push_back(process_cpu_ms() - cpu_start_);
  if (frame + 1 < options_.frames) return false;
  report();
  return true;
}

void FrameBench::report() {
  print_bench(frame_ms_, options_.scrub ? "scrubbing, whole frame" : "whole frame");
  print_bench(cpu_ms_, "  CPU time of the process (app + rasteriser threads)");
  print_bench(panels_ms_, "  of which panels + ImGui (no OpenGL)");
  if (options_.scrub) {
    std::printf("the shown step changed in %d of %d frames dragging back, %d of %d forward\n",
                changed_[0], frames_[0], changed_[1], frames_[1]);
  }
  lab::Session& session = app_.session();
  if (app_.recorded() || !session.is_open()) return;  // a recording: nothing is replayed
  std::printf("run: %llu steps, %llu trace events at step %llu\n",
              static_cast<unsigned long long>(end_),
              static_cast<unsigned long long>(session.world().kernel().trace.size()),
              static_cast<unsigned long long>(session.step()));
  if (end_ == 0) return;
  // One step back from the end is the longest replay there is.
  session.seek(end_);
  const auto replay_start = std::chrono::steady_clock::now();
  session.seek(end_ - 1);
  std::printf("step back from %llu: a replay of %llu steps took %.1f ms\n",
              static_cast<unsigned long long>(end_), static_cast<unsigned long long>(end_ - 1),
              ms_since(replay_start));
  report_rewinds(session);
}

// Rewinds and re-runs repeated, as a person clicking Back at the end or Apply and reset
// does: the medians (a shared machine disturbs single figures).
void FrameBench::report_rewinds(lab::Session& session) {
  constexpr int kTimes = 9;
  std::vector<double> back, rerun;
  const lab::Scenario s = session.scenario();
  for (int i = 0; i < kTimes; ++i) {
    session.seek(end_);
    const auto back_start = std::chrono::steady_clock::now();
    session.seek(end_ - 1);
    back.push_back(ms_since(back_start));
    // The same choices applied again: a new world at step 0, and the whole run's end.
    const auto rerun_start = std::chrono::steady_clock::now();
    const lab::ScenarioOverrides same{
        .seed = s.seed, .strategy = s.consumer.strategy, .producer = s.producer.pattern};
    if (!session.configure(same).ok()) return;
    (void)session.end();
    rerun.push_back(ms_since(rerun_start));
  }
  std::sort(back.begin(), back.end());
  std::sort(rerun.begin(), rerun.end());
  std::printf(
      "median of %d: step back from the end %.2f ms, re-run (new world + the whole "
      "run's end) %.2f ms\n",
      kTimes, back[kTimes / 2], rerun[kTimes / 2]);
}

}  // namespace ui
