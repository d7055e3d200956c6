// `eosim sweep --plot FILE.svg`: the violation rate of each strategy, against the fault
// ratio (the sweep's fault mix scaled from x1/8 to x2) or against the number of seeds run
// (cumulative, at five points of --seeds). Each point is a full lab::sweep, so the chart
// is as deterministic as the sweeps: same file and options, same bytes.

#include <filesystem>
#include <ostream>

#include "src/cli/commands.h"
#include "src/diagram/chart.h"
#include "src/files/output_file.h"
#include "src/catalog/catalog.h"
#include "src/search/sweep.h"
#include "src/world/world.h"

namespace cli {

namespace {

struct Scale {
  std::uint64_t numerator, denominator;
  const char* tick;
};
constexpr Scale kScales[] = {{1, 8, "x1/8"}, {1, 4, "x1/4"}, {1, 2, "x1/2"}, {1, 1, "x1"},
                             {2, 1, "x2"}};

std::map<std::string, sim::Ratio> scaled(const std::map<std::string, sim::Ratio>& mix,
                                         const Scale& scale) {
  std::map<std::string, sim::Ratio> out;
  for (const auto& [kind, r] : mix) {
    sim::Ratio s{r.numerator * scale.numerator, r.denominator * scale.denominator};
    if (s.numerator > s.denominator) s = {1, 1};
    out[kind] = s;
  }
  return out;
}

std::string mix_text(const std::map<std::string, sim::Ratio>& mix) {
  std::string text;
  for (const auto& [kind, r] : mix) text += (text.empty() ? "" : ",") + kind + "=" + r.to_string();
  return text;
}

eosim::Status rate(const lab::Scenario& scenario, const lab::SweepOptions& options,
                   double& out, std::uint64_t& failing, std::uint64_t& runs) {
  lab::SweepSummary summary;
  if (eosim::Status swept = lab::sweep(scenario, options, summary); !swept.ok()) return swept;
  failing += summary.failing_runs;
  runs += summary.runs;
  out = runs == 0 ? 0.0 : static_cast<double>(failing) / static_cast<double>(runs);
  return eosim::Status::success();
}

// One series: the strategy's violation rate at every x tick. An error is an internal one
// (a world could not be built), but for too few seeds (kTooFewSeeds, bad input).
constexpr std::string_view kTooFewSeeds = "--plot-x seeds needs at least 5 seeds in --seeds";
eosim::Status series_for(const SweepCommandOptions& o, const lab::Scenario& base,
                         const lab::SweepOptions& sweep,
                         const std::map<std::string, sim::Ratio>& mix, diagram::Series& series) {
  const lab::Scenario scenario =
      lab::apply_overrides(base, {.strategy = series.name}).value();  // no rule: cannot fail
  lab::SweepOptions options = sweep;
  options.progress = nullptr;
  options.keep_failures = 0;
  if (o.plot_x == "seeds") {
    options.ratios = mix;
    std::uint64_t failing = 0, runs = 0;
    for (std::uint64_t i = 0; i < 5; ++i) {
      if (!lab::shard_range(sweep.first_seed, sweep.last_seed, i, 5, options.first_seed,
                            options.last_seed)) {
        return eosim::Status::error(std::string(kTooFewSeeds));
      }
      double r = 0;
      if (eosim::Status rated = rate(scenario, options, r, failing, runs); !rated.ok()) {
        return rated;
      }
      series.rates.push_back(r);
    }
    return eosim::Status::success();
  }
  for (const Scale& scale : kScales) {
    options.ratios = scaled(mix, scale);
    std::uint64_t failing = 0, runs = 0;
    double r = 0;
    if (eosim::Status rated = rate(scenario, options, r, failing, runs); !rated.ok()) {
      return rated;
    }
    series.rates.push_back(r);
  }
  return eosim::Status::success();
}

}  // namespace

int write_sweep_plot(const SweepCommandOptions& o, const lab::Scenario& scenario,
                     const lab::SweepOptions& sweep, std::ostream& err) {
  // The mix the sweep itself used: --faults, else the file's, else the default.
  const std::map<std::string, sim::Ratio> mix =
      lab::sweep_scenario(scenario, sweep, sweep.first_seed).random.ratios;
  diagram::Chart chart;
  chart.title = scenario.name + ": violation rate per strategy";
  if (o.plot_x == "seeds") {
    chart.x_label = "seeds run (cumulative), fault mix " + mix_text(mix);
    for (std::uint64_t i = 0; i < 5; ++i) {
      std::uint64_t first = 0, last = 0;
      if (lab::shard_range(sweep.first_seed, sweep.last_seed, i, 5, first, last)) {
        chart.x_ticks.push_back(std::to_string(last - sweep.first_seed + 1));
      }
    }
  } else {
    chart.x_label = "fault ratio: the mix " + mix_text(mix) + " scaled";
    for (const Scale& s : kScales) chart.x_ticks.push_back(s.tick);
  }
  std::vector<std::string> names;
  if (!o.overrides.strategy.empty()) {
    names.push_back(o.overrides.strategy);
  } else {
    for (const auto& s : lab::strategies()) names.emplace_back(s.name);
  }
  for (const std::string& name : names) {
    diagram::Series series{name, {}};
    if (const eosim::Status drawn = series_for(o, scenario, sweep, mix, series); !drawn.ok()) {
      err << "eosim: --plot: " << drawn.message << '\n';
      return drawn.message == kTooFewSeeds ? kExitBadInput : kExitInternal;
    }
    chart.series.push_back(std::move(series));
  }
  chart.caption = "eosim sweep " + o.file + " --seeds " + o.seeds + " --plot-x " + o.plot_x +
                  " (" + std::to_string(sweep.last_seed - sweep.first_seed + 1) +
                  " seeds a point)";
  if (const eosim::Status written =
          files::write_output_file(o.plot, diagram::chart_svg(chart), o.force);
      !written.ok()) {
    err << "eosim: --plot: " << written.message << '\n';
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace cli
