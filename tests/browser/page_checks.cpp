// Shared by the browser tests (see page_checks.h).
#include "tests/browser/page_checks.h"

#include <stb_image.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace browser_test {

namespace {
int failed = 0;
}  // namespace

void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  std::fflush(stdout);
  if (!ok) ++failed;
}

int failures() { return failed; }

std::string find_browser() {
  for (const char* path :
       {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"}) {
    if (fs::exists(path)) return path;
  }
  return "";
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

bool eosim(const std::string& binary, const std::string& args, const fs::path& out) {
  const std::string command = "'" + binary + "' " + args + " > '" + out.string() + "'";
  std::printf("running: %s\n", command.c_str());
  const int status = std::system(command.c_str());
  return status != -1 && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1);
}

std::string url_of(const fs::path& page) { return "file://" + fs::absolute(page).string(); }

void click(cdp::Browser& b, const std::string& selector) {
  const json box = b.evaluate(
      "(() => { const r = document.querySelector('" + selector +
      "').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()");
  if (box.is_array() && box.size() == 2) b.click(box[0].get<double>(), box[1].get<double>());
}

void check_fits(cdp::Browser& b, const fs::path& png, const std::string& what) {
  const json fit = b.evaluate(R"JS((() => {
    const width = document.documentElement.clientWidth;
    const laptop = innerWidth >= 1000;  // page.css: side by side from 1000px
    const name = e => e.tagName + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '');
    const inScroller = e => { for (let p = e.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll') return true; }
      return false; };
    const all = [...document.body.querySelectorAll('*')];
    const out = all.filter(e => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && (r.right > width + 0.5 || r.left < -0.5) && !inScroller(e);
    }).map(e => name(e) + ' ' + Math.round(e.getBoundingClientRect().right));
    // A box whose content is wider than the box: cut, or only seen by scrolling sideways.
    // On a laptop nothing may be; on a phone a diagram or a table may scroll in its box.
    const cut = laptop ? all.filter(e => {
      const o = getComputedStyle(e).overflowX;
      return o !== 'visible' && e.checkVisibility() && e.scrollWidth > e.clientWidth + 1;
    }).map(e => name(e) + ' ' + e.scrollWidth + '>' + e.clientWidth + ' "' +
                e.innerText.slice(0, 30).replace(/\s+/g, ' ') + '"') : [];
    // Text an SVG picture cuts off at its own edge (a lane title wider than its picture).
    const clipped = [];
    document.querySelectorAll('svg').forEach(svg => {
      if (svg.ownerSVGElement || !svg.checkVisibility()) return;
      const box = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal
                : { x: 0, width: svg.width.baseVal.value };
      svg.querySelectorAll('text').forEach(t => {
        const r = t.getBBox();
        if (r.width > 0 && (r.x < box.x - 0.5 || r.x + r.width > box.x + box.width + 0.5)) {
          clipped.push(t.textContent.slice(0, 20) + ' ' + Math.round(r.x + r.width) + '>' + Math.round(box.x + box.width));
        }
      });
    });
    return { scrollWidth: document.documentElement.scrollWidth, width, laptop,
             out: out.slice(0, 5), cut: cut.slice(0, 5), clipped: clipped.slice(0, 5) };
  })())JS");
  check(fit.value("scrollWidth", 1 << 20) <= fit.value("width", 0) &&
            fit.value("out", json::array()).empty(),
        what + ": nothing overflows the viewport (" + fit.dump() + ")");
  check(fit.value("cut", json::array({1})).empty(),
        what + ": no box is cut or needs sideways scrolling" +
            (fit.value("laptop", false) ? "" : " (on a phone a diagram or table may)") + " (" +
            fit.value("cut", json::array()).dump() + ")");
  check(
      fit.value("clipped", json::array({1})).empty(),
      what + ": no picture cuts its own text (" + fit.value("clipped", json::array()).dump() + ")");
  const std::string bytes = b.screenshot_png();
  std::ofstream(png, std::ios::binary) << bytes;
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels =
      stbi_load_from_memory(reinterpret_cast<const unsigned char*>(bytes.data()),
                            static_cast<int>(bytes.size()), &w, &h, &channels, 3);
  check(pixels != nullptr, what + ": a screenshot (" + png.string() + ")");
  if (pixels == nullptr) return;
  std::size_t inked = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(w) * static_cast<std::size_t>(h); ++i) {
    const unsigned char* p = pixels + 3 * i;
    if (p[0] < 200 || p[1] < 200 || p[2] < 200) ++inked;
  }
  stbi_image_free(pixels);
  check(inked * 100 > static_cast<std::size_t>(w) * static_cast<std::size_t>(h),
        what + ": the screenshot is drawn, not blank (" + std::to_string(inked) + " dark pixels)");
}

}  // namespace browser_test
