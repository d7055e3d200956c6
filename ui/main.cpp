// eosim-gui: the window around ui::App. GLFW + OpenGL3 + Dear ImGui, plus two options
// for machines without a person in front: --screenshot (a PNG of one frame, then exit)
// and --bench-frames (frame times, then exit). Both work under `xvfb-run -a`.

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "ui/app.h"
#include "ui/layout.h"
#include "ui/screenshot.h"

namespace {

constexpr const char* kUsage =
    "usage: eosim-gui [FILE.toml] [options]\n"
    "  --step N            start at step N\n"
    "  --mode M            explore (default), compare, generals or lessons\n"
    "  --seed N            replace the file's seed\n"
    "  --strategy S        replace the consumer strategy (eosim list strategies)\n"
    "  --max-steps N       replace the file's step bound (e.g. a 10,000-step poison loop)\n"
    "  --compare A,B       the two strategies of compare mode (default atomic,no-dedup)\n"
    "  --scenarios DIR     the scenario browser's folder (default: FILE's folder)\n"
    "  --size WxH          window size in pixels (default 1600x960)\n"
    "  --font PATH|none    a TrueType font (default DejaVu Sans when installed)\n"
    "  --screenshot PNG    draw until settled, save the frame as PNG, exit\n"
    "  --bench-frames N    draw N frames, print frame times in ms (wall and CPU), exit\n"
    "  --bench-scrub       while benchmarking, drag the scrub slider end to start and back\n"
    "  --layout FILE|none  where panel sizes are remembered (default: the user's config dir,\n"
    "                      ~/.config/eosim/gui-layout.ini; none with --screenshot/--bench)\n"
    "  --check-layout      with --screenshot: exit 1 if a diagram label overlaps another or\n"
    "                      crosses the diagram's edge (the layout test's invariants)\n"
    "Keys: Right = step, Left = step back, Space = play/pause.\n";

struct Options {
  ui::AppOptions app;
  int width = 1600, height = 960;
  std::string font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  std::string screenshot;
  int bench_frames = 0;
  bool bench_scrub = false;
  bool check_layout = false;
  std::string layout;  // "" = the default place (attended runs only), "none" = nowhere
};

bool parse_number(const std::string& text, std::uint64_t& out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  out = std::strtoull(text.c_str(), nullptr, 10);
  return true;
}

// Returns 0 to go on, else the exit code (2 = bad option, 0 after --help).
int parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    std::uint64_t n = 0;
    bool ok = true;
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return -1;
    } else if (arg == "--step") {
      ok = value(v) && parse_number(v, o.app.step);
    } else if (arg == "--mode") {
      ok = value(v) && (v == "explore" || v == "compare" || v == "generals" || v == "lessons");
      o.app.mode = v == "compare"    ? ui::Mode::kCompare
                   : v == "generals" ? ui::Mode::kGenerals
                   : v == "lessons"  ? ui::Mode::kLessons
                                     : ui::Mode::kExplore;
    } else if (arg == "--seed") {
      ok = value(v) && parse_number(v, n);
      o.app.seed = n;
    } else if (arg == "--max-steps") {
      ok = value(v) && parse_number(v, n) && n > 0 && n <= 1000000000;
      o.app.max_steps = static_cast<std::int64_t>(n);
    } else if (arg == "--strategy") {
      ok = value(o.app.strategy);
    } else if (arg == "--compare") {
      ok = value(v) && v.find(',') != std::string::npos;
      if (ok) {
        o.app.compare_left = v.substr(0, v.find(','));
        o.app.compare_right = v.substr(v.find(',') + 1);
      }
    } else if (arg == "--scenarios") {
      ok = value(o.app.scenarios_dir);
    } else if (arg == "--size") {
      ok = value(v) && std::sscanf(v.c_str(), "%dx%d", &o.width, &o.height) == 2 &&
           o.width >= 320 && o.height >= 240;
    } else if (arg == "--font") {
      ok = value(o.font);
    } else if (arg == "--screenshot") {
      ok = value(o.screenshot);
    } else if (arg == "--bench-frames") {
      ok = value(v) && parse_number(v, n) && n > 0;
      o.bench_frames = static_cast<int>(std::min<std::uint64_t>(n, 1000000));
    } else if (arg == "--bench-scrub") {
      o.bench_scrub = true;
    } else if (arg == "--check-layout") {
      o.check_layout = true;
    } else if (arg == "--layout") {
      ok = value(o.layout) && !o.layout.empty();
    } else if (!arg.empty() && arg[0] != '-' && o.app.file.empty()) {
      o.app.file = arg;
    } else {
      std::fprintf(stderr, "eosim-gui: unknown option %s\n%s", arg.c_str(), kUsage);
      return 2;
    }
    if (!ok) {
      std::fprintf(stderr, "eosim-gui: bad or missing value for %s\n%s", arg.c_str(), kUsage);
      return 2;
    }
  }
  return 0;
}

void load_fonts(const std::string& font) {
  ImGuiIO& io = ImGui::GetIO();
  std::error_code ec;
  if (font == "none" || !std::filesystem::exists(font, ec)) return;  // ImGui's own font
  // Glyphs rendered 1:1 and placed on whole pixels, so the atlas can be sampled without
  // filtering (see sharp_font_texture).
  ImFontConfig config;
  config.OversampleH = 1;
  config.PixelSnapH = true;
  io.Fonts->AddFontFromFileTTF(font.c_str(), 15.0f, &config);
  // A bold face second, for headings (ui::heading), when it sits next to the regular one.
  std::string bold = font;
  const std::size_t dot = bold.rfind(".ttf");
  if (dot != std::string::npos) bold.insert(dot, "-Bold");
  if (std::filesystem::exists(bold, ec)) io.Fonts->AddFontFromFileTTF(bold.c_str(), 15.0f, &config);
}

// The font atlas sampled nearest instead of linear. Every glyph sits on whole pixels at
// 1:1 (load_fonts), so the picture is the same, and a software rasteriser (llvmpipe under
// Xvfb) spends about a sixth less CPU per frame: most of what it fills is text.
void sharp_font_texture() {
  if (!ImGui_ImplOpenGL3_CreateDeviceObjects()) return;  // NewFrame will try again
  const auto texture =
      static_cast<GLuint>(reinterpret_cast<std::uintptr_t>(ImGui::GetIO().Fonts->TexID));
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

// CPU time of the whole process in ms: the app and the rasteriser's threads (llvmpipe
// draws on the CPU), not the X server's. Less sensitive than wall time to other work on
// a shared machine.
double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
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

// One diagram's placement as drawn in this window, against placement.h's invariants.
bool check_placement(const ui::App& app, int slot) {
  const diagram::Placement& p = app.placement(slot);
  const std::size_t rows = app.layout(slot).rows().size();
  const auto problems = diagram::placement_problems(p, rows);
  for (const std::string& problem : problems) {
    std::fprintf(stderr, "eosim-gui: layout of diagram %d: %s\n", slot, problem.c_str());
  }
  const bool spaced = p.canvas().spacing >= p.min_spacing();
  if (!spaced) std::fprintf(stderr, "eosim-gui: layout: lanes closer than their minimum\n");
  const bool ok = problems.empty() && spaced && rows > 0;
  std::printf("layout of diagram %d: %zu labels over %zu rows, lanes %.0f px apart, "
              "canvas %.0f px: %s\n",
              slot, p.labels().size(), rows, static_cast<double>(p.canvas().spacing),
              static_cast<double>(p.canvas().width), ok ? "ok" : "BROKEN");
  return ok;
}

// Every diagram drawn in this window (explore: one; compare: two; Two Generals: none).
bool check_layout(const ui::App& app) {
  bool ok = true;
  int drawn = 0;
  for (int slot = 0; slot < 3; ++slot) {
    if (app.placement(slot).canvas().width <= 0) continue;  // never placed: not on screen
    ++drawn;
    ok = check_placement(app, slot) && ok;
  }
  if (drawn == 0) std::printf("layout: no sequence diagram in this view, nothing to check\n");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (const int code = parse(argc, argv, options); code != 0) return code < 0 ? 0 : code;

  glfwSetErrorCallback([](int code, const char* text) {
    std::fprintf(stderr, "eosim-gui: GLFW error %d: %s\n", code, text);
  });
  if (!glfwInit()) {
    std::fprintf(stderr,
                 "eosim-gui: cannot open a window: no display? "
                 "(without one: xvfb-run -a eosim-gui ...)\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  GLFWwindow* window =
      glfwCreateWindow(options.width, options.height, "eosim-gui", nullptr, nullptr);
  if (window == nullptr) {
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  const bool unattended = !options.screenshot.empty() || options.bench_frames > 0;
  // Pictures and benchmarks never depend on (or change) the user's remembered layout.
  if (options.layout.empty() && !unattended) options.app.layout_file = ui::default_layout_path();
  if (!options.layout.empty() && options.layout != "none") options.app.layout_file = options.layout;
  glfwSwapInterval(unattended ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is computed, never saved
  ImGui::StyleColorsDark();
  // The panels tile the window, so their background is the cleared framebuffer instead
  // of a blended quad per panel: under a software rasteriser (Mesa llvmpipe in Xvfb) those
  // quads were ~40% of a frame's CPU time. ImGui skips a background whose alpha is 0; the
  // colour stays for code that paints a band of panel background (the lane titles).
  ImVec4& window_bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  const ImVec4 clear = window_bg;
  window_bg.w = 0.0f;
  ImGui::GetStyle().FrameRounding = 3.0f;
  ImGui::GetStyle().WindowRounding = 0.0f;
  load_fonts(options.font);
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  sharp_font_texture();

  ui::App app;
  std::string error;
  int code = 0;
  if (!app.init(options.app, error)) {
    std::fprintf(stderr, "eosim-gui: %s\n", error.c_str());
    code = 2;
    glfwSetWindowShouldClose(window, 1);
  }

  // Whole frames (wall and CPU time); the UI's own part (no OpenGL).
  std::vector<double> frame_ms, cpu_ms, build_ms;
  // While scrubbing: frames in which the shown step changed, dragging back / forward.
  int changed[2] = {0, 0}, frames[2] = {0, 0};
  std::uint64_t shown = app.session().is_open() ? app.session().step() : 0;
  const std::uint64_t end = app.session().is_open() ? app.session().end().steps : 0;
  for (int frame = 0; !glfwWindowShouldClose(window); ++frame) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = process_cpu_ms();
    glfwPollEvents();
    if (options.bench_scrub && options.bench_frames > 0) {
      // A person dragging the slider from the end to the start and back.
      const auto half = static_cast<std::uint64_t>(std::max(1, options.bench_frames / 2));
      const auto f = static_cast<std::uint64_t>(frame) % (2 * half);
      const std::uint64_t to = f < half ? end - end * f / half : end * (f - half) / half;
      app.apply(ui::SeekCmd{to, true});
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // No pointer hovers anything in a picture or a benchmark (Xvfb parks it mid-screen).
    if (unattended) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    const auto build_start = std::chrono::steady_clock::now();
    app.frame();
    ImGui::Render();
    build_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - build_start)
            .count());
    int width = 0, height = 0;
    glfwGetFramebufferSize(window, &width, &height);
    glViewport(0, 0, width, height);
    glClearColor(clear.x, clear.y, clear.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    // A screenshot waits a few frames for the layout and the diagram's scrolling to settle.
    if (!options.screenshot.empty() && frame >= 6 && !app.busy()) {
      if (!ui::write_screenshot(options.screenshot, width, height, error)) {
        std::fprintf(stderr, "eosim-gui: %s\n", error.c_str());
        code = 1;
      }
      if (options.check_layout && !check_layout(app)) code = 1;
      break;
    }
    glfwSwapBuffers(window);
    app.update(ImGui::GetIO().DeltaTime, 8.0);
    if (options.bench_scrub && app.session().is_open()) {
      const int back = frame % std::max(2, options.bench_frames) < options.bench_frames / 2 ? 0 : 1;
      ++frames[back];
      changed[back] += app.session().step() != shown ? 1 : 0;
      shown = app.session().step();
    }
    frame_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    cpu_ms.push_back(process_cpu_ms() - cpu_start);
    if (options.bench_frames > 0 && frame + 1 >= options.bench_frames) {
      print_bench(frame_ms, options.bench_scrub ? "scrubbing, whole frame" : "whole frame");
      print_bench(cpu_ms, "  CPU time of the process (app + rasteriser threads)");
      print_bench(build_ms, "  of which panels + ImGui (no OpenGL)");
      if (options.bench_scrub) {
        std::printf("the shown step changed in %d of %d frames dragging back, %d of %d forward\n",
                    changed[0], frames[0], changed[1], frames[1]);
      }
      std::printf("run: %llu steps, %llu trace events at step %llu\n",
                  static_cast<unsigned long long>(end),
                  static_cast<unsigned long long>(app.session().world().kernel().trace.size()),
                  static_cast<unsigned long long>(app.session().step()));
      // One step back from the end is the longest replay there is.
      if (end > 0) {
        app.session().seek(end);
        const auto replay_start = std::chrono::steady_clock::now();
        app.session().seek(end - 1);
        std::printf("step back from %llu: a replay of %llu steps took %.1f ms\n",
                    static_cast<unsigned long long>(end), static_cast<unsigned long long>(end - 1),
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                              replay_start)
                        .count());
      }
      break;
    }
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return code;
}
