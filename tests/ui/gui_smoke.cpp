// Smoke test of the real window: under Xvfb, `eosim-gui --screenshot OUT --step 20 FILE`
// must exit 0 and write a PNG of the window's size that is not blank. Where xvfb-run is
// missing it says so and exits 77, which ctest reports as skipped.
//
// usage: eosim_gui_smoke EOSIM_GUI SCENARIO.toml|--lesson=N OUT.png
// With --lesson=N the GUI opens lesson N in lessons mode from the system's temporary
// folder, where no scenarios are: it must find its own (src/files/data_dir.h).

#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

namespace {

constexpr int kSkipped = 77;
constexpr int kWidth = 1280, kHeight = 800;

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::filesystem::path candidate =
        std::filesystem::path(dirs.substr(start, end - start)) / program;
    std::error_code ec;
    if (std::filesystem::exists(candidate, ec)) return true;
    start = end + 1;
  }
  return false;
}

int fail(const std::string& why) {
  std::fprintf(stderr, "gui smoke test FAILED: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return fail("usage: eosim_gui_smoke EOSIM_GUI SCENARIO.toml OUT.png");
  const std::string gui = argv[1], scenario = argv[2], out = argv[3];
  if (!on_path("xvfb-run") || !on_path("xauth")) {
    std::printf(
        "SKIPPED: xvfb-run or xauth is not installed, so eosim-gui cannot open a "
        "window here (apt-get install xvfb xauth libgl1-mesa-dri; .ci/run does)\n");
    return kSkipped;
  }
  std::error_code ec;
  std::filesystem::remove(out, ec);
  const std::string size = std::to_string(kWidth) + "x" + std::to_string(kHeight);
  const std::string lesson = "--lesson=";
  std::string what = " --step 20 '" + scenario + "'";
  if (scenario.compare(0, lesson.size(), lesson) == 0) {
    what = " --lesson '" + scenario.substr(lesson.size()) + "'";
    std::filesystem::current_path(std::filesystem::temp_directory_path());
  }
  const std::string command = "xvfb-run -a -s '-screen 0 " + size + "x24' '" + gui + "' --size " +
                              size + " --screenshot '" + out + "'" + what;
  std::printf("running: %s\n", command.c_str());
  const int rc = std::system(command.c_str());
  if (rc != 0) return fail("eosim-gui exited with status " + std::to_string(rc));
  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(out.c_str(), &width, &height, &channels, 3);
  if (pixels == nullptr) return fail("no readable PNG at " + out);
  // Not blank: the panels, text and diagram give many distinct colours.
  std::set<unsigned> colours;
  for (int i = 0; i < width * height; ++i) {
    const unsigned char* p = pixels + 3 * i;
    colours.insert(static_cast<unsigned>(p[0] << 16 | p[1] << 8 | p[2]));
  }
  stbi_image_free(pixels);
  if (width != kWidth || height != kHeight) {
    return fail("PNG is " + std::to_string(width) + "x" + std::to_string(height) + ", expected " +
                size);
  }
  if (colours.size() < 50) {
    return fail("PNG looks blank: only " + std::to_string(colours.size()) + " colours");
  }
  std::printf("ok: %s is %dx%d with %zu colours\n", out.c_str(), width, height, colours.size());
  return 0;
}
