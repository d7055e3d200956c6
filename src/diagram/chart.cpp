// The SVG line chart (see chart.h).
#include "src/diagram/chart.h"

#include <algorithm>
#include <sstream>

#include "src/diagram/svg.h"
#include "src/prose/printable.h"

namespace diagram {

namespace {

constexpr float kWidth = 760, kHeight = 420;
constexpr float kLeft = 70, kRight = 230, kTop = 50, kBottom = 80;  // margins
constexpr const char* kColours[] = {"#1d5fbf", "#c62828", "#1a7f37", "#b26a00",
                                    "#7b3fb0", "#0f766e", "#be185d", "#4b5563"};

float x_of(std::size_t i, std::size_t count) {
  const float plot = kWidth - kLeft - kRight;
  if (count <= 1) return kLeft + plot * 0.5f;
  return kLeft + plot * static_cast<float>(i) / static_cast<float>(count - 1);
}

float y_of(double rate) {
  const float plot = kHeight - kTop - kBottom;
  return kTop + plot * (1.0f - static_cast<float>(std::clamp(rate, 0.0, 1.0)));
}

// A series drawn before k others with the same rates at every point would be hidden under
// them (three designs at 0 % make one line on the axis): it is drawn k steps wider, so each
// shows as a band around the ones above it.
int identical_after(const Chart& chart, std::size_t s) {
  int k = 0;
  for (std::size_t t = s + 1; t < chart.series.size(); ++t) {
    if (chart.series[t].rates == chart.series[s].rates) ++k;
  }
  return k;
}

bool zero_throughout(const Series& series) {
  return std::all_of(series.rates.begin(), series.rates.end(), [](double r) { return r <= 0; });
}

void axes(std::ostream& out, const Chart& chart) {
  for (int pct = 0; pct <= 100; pct += 25) {
    const float y = y_of(pct / 100.0);
    out << "<line x1=\"" << num(kLeft) << "\" y1=\"" << num(y) << "\" x2=\""
        << num(kWidth - kRight) << "\" y2=\"" << num(y) << "\" stroke=\"#e5e7eb\"/>\n"
        << "<text x=\"" << num(kLeft - 8) << "\" y=\"" << num(y + 4)
        << "\" text-anchor=\"end\">" << pct << " %</text>\n";
  }
  for (std::size_t i = 0; i < chart.x_ticks.size(); ++i) {
    const float x = x_of(i, chart.x_ticks.size());
    out << "<line x1=\"" << num(x) << "\" y1=\"" << num(kHeight - kBottom) << "\" x2=\""
        << num(x) << "\" y2=\"" << num(kHeight - kBottom + 5) << "\" stroke=\"#6b7280\"/>\n"
        << "<text class=\"tick\" x=\"" << num(x) << "\" y=\"" << num(kHeight - kBottom + 20)
        << "\" text-anchor=\"middle\">" << lab::xml_escape(chart.x_ticks[i]) << "</text>\n";
  }
  out << "<line x1=\"" << num(kLeft) << "\" y1=\"" << num(kHeight - kBottom) << "\" x2=\""
      << num(kWidth - kRight) << "\" y2=\"" << num(kHeight - kBottom)
      << "\" stroke=\"#374151\"/>\n";
  out << "<text x=\"" << num((kLeft + kWidth - kRight) * 0.5f) << "\" y=\""
      << num(kHeight - kBottom + 44) << "\" text-anchor=\"middle\">"
      << lab::xml_escape(chart.x_label) << "</text>\n";
  out << "<text transform=\"translate(16," << num((kTop + kHeight - kBottom) * 0.5f)
      << ") rotate(-90)\" text-anchor=\"middle\">" << lab::xml_escape(chart.y_label) << "</text>\n";
}

}  // namespace

std::string chart_svg(const Chart& chart) {
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" << num(kWidth)
      << "\" height=\"" << num(kHeight) << "\" viewBox=\"0 0 " << num(kWidth) << ' '
      << num(kHeight) << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
      << "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out << "<text x=\"" << num(kLeft) << "\" y=\"26\" font-size=\"15\" font-weight=\"bold\">"
      << lab::xml_escape(chart.title) << "</text>\n";
  axes(out, chart);
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    const Series& series = chart.series[s];
    const char* colour = kColours[s % (sizeof kColours / sizeof kColours[0])];
    const std::size_t n = std::min(series.rates.size(), chart.x_ticks.size());
    const int under = identical_after(chart, s);
    out << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\""
        << 2 + 3 * under << "\" points=\"";
    for (std::size_t i = 0; i < n; ++i) {
      out << (i ? " " : "") << num(x_of(i, chart.x_ticks.size())) << ','
          << num(y_of(series.rates[i]));
    }
    out << "\"/>\n";
    for (std::size_t i = 0; i < n; ++i) {
      out << "<circle cx=\"" << num(x_of(i, chart.x_ticks.size())) << "\" cy=\""
          << num(y_of(series.rates[i])) << "\" r=\"" << num(3.5f + 1.5f * static_cast<float>(under))
          << "\" fill=\"" << colour << "\"/>\n";
    }
    const float y = kTop + 8 + 20 * static_cast<float>(s);
    out << "<line x1=\"" << num(kWidth - kRight + 16) << "\" y1=\"" << num(y - 4) << "\" x2=\""
        << num(kWidth - kRight + 40) << "\" y2=\"" << num(y - 4) << "\" stroke=\"" << colour
        << "\" stroke-width=\"3\"/>\n<text class=\"legend\" x=\"" << num(kWidth - kRight + 46)
        << "\" y=\"" << num(y) << "\">" << lab::xml_escape(series.name)
        << (zero_throughout(series) && !series.rates.empty() ? "<tspan> (0 %)</tspan>" : "")
        << "</text>\n";
  }
  out << "<text x=\"" << num(kLeft) << "\" y=\"" << num(kHeight - 10)
      << "\" fill=\"#6b7280\" font-size=\"11\">" << lab::xml_escape(chart.caption) << "</text>\n";
  out << "</svg>\n";
  return out.str();
}

}  // namespace diagram
