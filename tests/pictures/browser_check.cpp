// The pictures eosim writes, opened in a real browser: headless Chromium loads
// `eosim run --format html`, `--format svg` and `eosim sweep --plot`, dumps the DOM it
// built and takes a screenshot. Each must show every lane (or every strategy's legend),
// its labels, and a screenshot that is not blank. Where Chromium is missing it says how
// to install it and exits 77 (ctest: skipped); under CI (the CI variable set) that is a
// failure instead, since .ci/run installs it.
//
// usage: eosim_browser_check EOSIM SOURCE_DIR OUT_DIR

#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
constexpr int kSkipped = 77;
int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  if (!ok) ++failures;
}

std::string find_browser() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    const std::string probe = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return name;
  }
  return "";
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

int sh(const std::string& command) {
  std::printf("running: %s\n", command.c_str());
  return std::system(command.c_str());
}

// Runs the browser on `page`: its DOM into DOM, a screenshot into PNG. A fresh profile
// each time, nothing fetched from the network.
bool browse(const std::string& browser, const fs::path& page, const fs::path& dir,
            const std::string& stem, std::string& dom, fs::path& png) {
  const fs::path profile = dir / (stem + "-profile");
  png = dir / (stem + ".png");
  std::error_code ec;
  fs::remove(png, ec);
  const std::string flags = " --headless --no-sandbox --disable-gpu --disable-background-networking"
                            " --disable-component-update --disable-sync --no-first-run"
                            " --user-data-dir='" + profile.string() + "' --window-size=1400,1000 ";
  const std::string url = "'file://" + fs::absolute(page).string() + "'";
  const fs::path dom_file = dir / (stem + ".dom");
  const bool ok = sh(browser + flags + "--dump-dom " + url + " > '" + dom_file.string() +
                     "' 2>/dev/null") == 0 &&
                  sh(browser + flags + "--screenshot='" + png.string() + "' " + url +
                     " >/dev/null 2>&1") == 0;
  dom = slurp(dom_file);
  fs::remove_all(profile, ec);
  return ok;
}

// Not blank: enough pixels away from the page's white, in several colours.
void check_not_blank(const fs::path& png, const std::string& what) {
  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(png.string().c_str(), &width, &height, &channels, 3);
  check(pixels != nullptr && width > 0 && height > 0, what + ": the screenshot is a PNG");
  if (pixels == nullptr) return;
  std::size_t inked = 0;
  std::set<unsigned> colours;
  const std::size_t count = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned char* p = pixels + 3 * i;
    if (p[0] < 235 || p[1] < 235 || p[2] < 235) ++inked;
    colours.insert((p[0] >> 4) << 8 | (p[1] >> 4) << 4 | (p[2] >> 4));
  }
  stbi_image_free(pixels);
  check(inked * 200 > count, what + ": at least 0.5% of the screenshot is drawn (" +
                                 std::to_string(inked) + " of " + std::to_string(count) + ")");
  check(colours.size() >= 6, what + ": the screenshot has colours (" +
                                 std::to_string(colours.size()) + ")");
}

void check_page(const std::string& browser, const fs::path& page, const fs::path& dir,
                const std::string& stem, const std::vector<std::string>& must_show) {
  std::string dom;
  fs::path png;
  check(browse(browser, page, dir, stem, dom, png), stem + ": the browser ran");
  for (const std::string& text : must_show) {
    check(dom.find(">" + text + "<") != std::string::npos, stem + ": shows \"" + text + "\"");
  }
  check_not_blank(png, stem);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: eosim_browser_check EOSIM SOURCE_DIR OUT_DIR\n");
    return 2;
  }
  const std::string eosim = argv[1];
  const fs::path source = argv[2], dir = argv[3];
  const std::string browser = find_browser();
  if (browser.empty()) {
    std::printf("Chromium is not installed, so the HTML/SVG pictures cannot be checked in a "
                "browser: apt-get install chromium (scripts/setup.sh installs it)\n");
    return std::getenv("CI") != nullptr ? 1 : kSkipped;
  }
  fs::create_directories(dir);
  const fs::path scenarios = source / "scenarios";
  const auto run = [&](const std::string& args, const fs::path& out) {
    check(sh("'" + eosim + "' " + args + " > '" + out.string() + "'") == 0, "eosim " + args);
  };
  run("run '" + (scenarios / "16-competing-consumers-check-then-act.toml").string() +
          "' --format html",
      dir / "16.html");
  check_page(browser, dir / "16.html", dir, "html-16",
             {"Producer", "orders DB", "Relay", "Broker", "Consumer 1", "Consumer 2",
              "ledger DB", "verdict: duplicated", "publish order-1 seq=1", "debits"});
  run("run '" + (scenarios / "07-separate-dedup-store.toml").string() + "' --format svg",
      dir / "07.svg");
  check_page(browser, dir / "07.svg", dir, "svg-07",
             {"Producer", "Broker", "Consumer 1", "dedup store", "ledger DB",
              "mark seen: order-2"});
  const fs::path plot = dir / "plot.svg";
  std::error_code ec;
  fs::remove(plot, ec);
  check(sh("'" + eosim + "' sweep '" + (scenarios / "01-happy-path.toml").string() +
           "' --seeds 1..20 --jobs 2 --plot '" + plot.string() + "' > /dev/null") == 0,
        "eosim sweep --plot");
  check_page(browser, plot, dir, "plot", {"atomic", "no-dedup", "auto-ack", "x1/8", "x2"});
  std::printf("%s\n", failures == 0 ? "all pictures check out" : "some pictures FAILED");
  return failures == 0 ? 0 : 1;
}
