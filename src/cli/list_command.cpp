// `eosim list`: every name a scenario file may use, printed from lab/catalog.h (so the
// listing and the loader cannot disagree), and the scenarios found in a directory.

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "src/cli/commands.h"
#include "src/consumer/strategy.h"
#include "src/producer/design.h"
#include "src/lab/catalog.h"
#include "src/lab/printable.h"
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

// Every value of one choice, "    name  meaning".
template <class E>
void print_choice(const char* key, std::ostream& out) {
  std::vector<lab::CatalogEntry> entries;
  for (const auto& entry : sim::enum_names<E>()) entries.push_back({entry.name, entry.meaning});
  out << "\n  " << key << " =\n";
  std::ostringstream body;
  print_entries(entries, body);
  std::istringstream lines(body.str());
  for (std::string line; std::getline(lines, line);) out << "  " << line << '\n';
}

void list_strategies(std::ostream& out) {
  out << "Consumer strategies ([consumer] strategy, run --strategy). Each is a preset of four\n"
         "choices; a choice given beside the preset ([consumer] ack = ..., or --ack ...)\n"
         "replaces the preset's, and the report says so.\n\n";
  std::size_t width = 0;
  for (const auto& preset : consumer::presets()) width = std::max(width, preset.name.size());
  for (const auto& preset : consumer::presets()) {
    out << "  " << padded(std::string(preset.name), width) << "  "
        << consumer::describe(preset.choices) << '\n'
        << lab::wrap_text(preset.meaning, kWidth, std::string(width + 4, ' '));
  }
  out << "\nThe choices:\n";
  print_choice<consumer::AckTiming>("ack", out);
  print_choice<consumer::Dedup>("dedup", out);
  print_choice<consumer::ErrorPolicy>("errors", out);
  print_choice<consumer::PoisonPolicy>("poison", out);
}

void list_producers(std::ostream& out) {
  out << "Producer patterns ([producer] pattern, run --producer). Each is a preset of the\n"
         "choices below; a choice given beside the preset replaces the preset's.\n\n";
  std::size_t width = 0;
  for (const auto& preset : producer::patterns()) width = std::max(width, preset.name.size());
  for (const auto& preset : producer::patterns()) {
    out << "  " << padded(std::string(preset.name), width) << "  "
        << producer::describe(preset.choices) << '\n'
        << lab::wrap_text(preset.meaning, kWidth, std::string(width + 4, ' '));
  }
  out << "\nThe choices:\n";
  print_choice<producer::Delivery>("delivery", out);
  out << "\n  confirms = true | false  (outbox: the relay waits for publisher confirms)\n";
  print_choice<producer::PublishOrder>("order", out);
  print_choice<producer::MessageIdSource>("message_id", out);
}

int list_scenarios(const std::string& dir, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  std::string error;
  if (!lab::scenario_files_in(dir, files, error)) {
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
    out << "  " << lab::printable(name) << "  " << lab::printable(scenario.name)
        << (scenario.fixed.empty() ? "" : "  [fixed twin: run --fixed]") << '\n';
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
    list_strategies(out);
  } else if (topic == "producers") {
    list_producers(out);
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
