// `eosim list`: every name a scenario file may use, printed from lab/catalog.h (so the
// listing and the loader cannot disagree), and the scenarios found in a directory.

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "src/cli/commands.h"
#include "src/lab/catalog.h"
#include "src/lab/report_format.h"
#include "src/lab/scenario.h"

namespace cli {
namespace {

constexpr int kWidth = 88;

// "  name    meaning wrapped under its own column".
void print_entries(const std::vector<lab::CatalogEntry>& entries, std::ostream& out) {
  std::size_t column = 0;
  for (const auto& e : entries) column = std::max(column, e.name.size());
  column += 4;  // two spaces before the name, two after
  for (const auto& e : entries) {
    std::string text = lab::wrap_text(e.meaning, kWidth, std::string(column, ' '));
    const std::string head = "  " + std::string(e.name);
    text.replace(0, head.size(), head);
    out << text;
  }
}

std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string joined(const std::vector<std::string_view>& names) {
  return lab::join_names(names);
}

void list_faults(std::ostream& out) {
  out << "Fault sites: where a [[faults.script]] rule fires (`at`) and what it may `do`.\n"
         "Network sites also take `frame` (and `nth`); a rule with `order`/`attempt` fires\n"
         "for that order's delivery attempt. Any rule may wait for `after_step = N` (armed\n"
         "once step N is done); sites marked below also fire at a virtual time (`tick`) or\n"
         "right after a step (`step`), which is how the GUI's fault buttons are written.\n\n";
  std::size_t site_width = 0, action_width = 0;
  for (const auto& site : lab::fault_sites()) {
    site_width = std::max(site_width, site.name.size());
    action_width = std::max(action_width, joined(site.actions).size());
  }
  out << "  " << padded("site (at)", site_width) << "  " << padded("do", action_width)
      << "  frames / when\n";
  for (const auto& site : lab::fault_sites()) {
    std::string line = "  " + padded(std::string(site.name), site_width) + "  " +
                       padded(joined(site.actions), action_width);
    if (site.is_network()) line += "  " + joined(site.frames);
    if (site.timed) line += "  also at `tick` / `step`";
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n' << lab::wrap_text(site.meaning, kWidth, "      ");
  }
  out << "\nRandom fault kinds: [faults.random] ratios such as drop = \"1/20\" (also sweep "
         "--faults).\n\n";
  print_entries(lab::fault_kinds(), out);
}

int list_scenarios(const std::string& dir, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  std::string error;
  if (!scenario_files_in(dir, files, error)) {
    err << "eosim: " << error << '\n';
    return kExitBadInput;
  }
  int exit_code = kExitOk;
  out << files.size() << " scenario file" << (files.size() == 1 ? "" : "s") << " in " << dir
      << ":\n";
  std::size_t width = 0;
  for (const auto& file : files) {
    width = std::max(width, std::filesystem::path(file).filename().string().size());
  }
  for (const auto& file : files) {
    const std::string name = padded(std::filesystem::path(file).filename().string(), width);
    lab::Scenario scenario;
    lab::LoadError load_error;
    if (!lab::load_scenario(file, scenario, load_error)) {
      out << "  " << name << "  (cannot be loaded: see the error)\n";
      err << load_error.to_string() << '\n';
      exit_code = kExitBadInput;
      continue;
    }
    out << "  " << name << "  " << scenario.name << '\n';
    const std::string about = scenario.about.substr(0, scenario.about.find('\n'));
    if (!about.empty()) out << lab::wrap_text(about, kWidth, "      ");
  }
  return exit_code;
}

}  // namespace

const std::vector<std::string>& list_topics() {
  static const std::vector<std::string> topics = {
      "strategies", "producers", "faults", "scenarios", "frames", "queues", "verdicts"};
  return topics;
}

int list_command(const ListOptions& options, std::ostream& out, std::ostream& err) {
  const std::string& topic = options.topic;
  if (topic == "strategies") {
    out << "Consumer strategies ([consumer] strategy, run --strategy):\n";
    print_entries(lab::strategies(), out);
  } else if (topic == "producers") {
    out << "Producer patterns ([producer] pattern, run --producer):\n";
    print_entries(lab::producers(), out);
  } else if (topic == "faults") {
    list_faults(out);
  } else if (topic == "scenarios") {
    return list_scenarios(options.dir, out, err);
  } else if (topic == "frames") {
    out << "Network frame kinds (`frame` of a net.* rule):\n";
    print_entries(lab::frame_kinds(), out);
  } else if (topic == "queues") {
    out << "Queue types ([broker] queue):\n";
    print_entries(lab::queue_types(), out);
  } else if (topic == "verdicts") {
    out << "Verdicts ([expect] verdict), in order of precedence after exactly-once:\n";
    print_entries(lab::verdicts(), out);
  } else {
    err << "eosim: nothing called `" << topic << "` to list; choose one of: "
        << lab::join_names(std::vector<std::string_view>(list_topics().begin(),
                                                         list_topics().end()))
        << '\n';
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace cli
