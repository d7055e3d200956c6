// The real window under Xvfb, every scenario and every lesson at 1280x800 (a laptop) and
// 1600x960: eosim-gui draws the run's last step (a lesson: its question) with the real
// font, checks the diagram against the layout test's invariants and against what its
// panel shows (--check-layout: no label overlaps another or crosses the diagram's edge,
// lanes keep their minimum spacing, every lane's title and the current event are inside
// the panel) and saves a screenshot. One Xvfb server runs the whole loop. Where xvfb-run
// is missing it says so and exits 77 (skipped).
//
// usage: eosim_gui_layout EOSIM_GUI SCENARIO_DIR OUT_DIR

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

bool have(const char* program) {
  return std::system((std::string("command -v ") + program + " >/dev/null 2>&1").c_str()) == 0;
}

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: eosim_gui_layout EOSIM_GUI SCENARIO_DIR OUT_DIR\n");
    return 2;
  }
  if (!have("xvfb-run") || !have("xauth")) {
    std::printf("SKIPPED: xvfb-run or xauth is missing (apt-get install xvfb xauth "
                "libgl1-mesa-dri; scripts/setup.sh does)\n");
    return 77;
  }
  const std::string gui = argv[1];
  const fs::path dir = argv[2], out = argv[3];
  fs::create_directories(out);
  // A scenario opens as FILE; a lesson (scenarios/lessons/) as --lesson FILE.
  std::vector<std::pair<fs::path, std::string>> files;
  for (const auto& [folder, option] : {std::pair{dir, std::string()},
                                       std::pair{dir / "lessons", std::string("--lesson ")}}) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      if (e.path().extension() == ".toml") files.emplace_back(e.path(), option);
    }
  }
  const auto lessons = std::count_if(files.begin(), files.end(),
                                     [](const auto& f) { return !f.second.empty(); });
  if (files.empty() || lessons == 0) {
    std::printf("FAILED: no scenario or no lesson in %s\n", dir.string().c_str());
    return 1;
  }
  // One shell loop under one server; each failing run prints its name, the script
  // counts them into its exit status.
  std::string script = "failed=0; ";
  for (const char* size : {"1280x800", "1600x960"}) {
    for (const auto& [file, option] : files) {
      const std::string stem = (option.empty() ? "" : "lesson-") + file.stem().string();
      const std::string png = (out / (stem + "-" + size + ".png")).string();
      const std::string run = shell_quoted(gui) + " --size " + size +
                              " --layout none --check-layout --step 100000 --force --screenshot " +
                              shell_quoted(png) + " " + option + shell_quoted(file.string());
      // A second try only absorbs a lost X connection (other Xvfb servers come and go on a
      // shared machine): a broken layout is deterministic and fails both times.
      script += run + " || " + run + " || { echo " +
                shell_quoted("BROKEN: " + file.filename().string() + " at " + size) +
                "; failed=$((failed+1)); }; ";
    }
  }
  script += "echo \"$failed broken\"; [ $failed -eq 0 ]";
  const std::string command =
      "xvfb-run -a -s '-screen 0 1600x960x24' sh -c " + shell_quoted(script);
  const int rc = std::system(command.c_str());
  std::printf("%zu scenarios and lessons at 1280x800 and 1600x960: %s\n", files.size(),
              rc == 0 ? "every layout holds" : "FAILED");
  return rc == 0 ? 0 : 1;
}
