// `eosim list`: every name a scenario file may use, printed from catalog/catalog.h (so the
// listing and the loader cannot disagree), and the scenarios found in a directory.

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "src/consumer/strategy.h"
#include "src/producer/design.h"
#include "src/catalog/catalog.h"
#include "src/prose/printable.h"
#include "src/report/scenario_doc.h"
#include "src/report/report_format.h"
#include "src/scenario/scenario.h"

namespace cli {
namespace {

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

// What a site's rule may match on, and who ever passes it (catalog/fault_sites.h).
std::string site_keys_text(const lab::FaultSite& site) {
  std::vector<std::string_view> keys;
  if (site.takes(lab::kKeyOrder)) keys.push_back("order");
  if (site.takes(lab::kKeyAttempt)) keys.push_back("attempt");
  if (site.takes(lab::kKeyFrame)) keys.push_back("frame");
  if (site.takes(lab::kKeyNth)) keys.push_back("nth");
  if (site.takes(lab::kKeyInstance)) keys.push_back("instance");
  std::string text = "takes " + (keys.empty() ? std::string("no match key") : joined(keys));
  if (site.timed) text += site.moment_only ? "; fires only at `tick` / `step`"
                                           : "; also at `tick` / `step`";
  return text + "; passed by " + lab::passed_by_text(site, nullptr) + ".";
}

void list_faults(std::ostream& out) {
  out << "Fault sites: where a [[faults.script]] rule fires (`at`) and what it may `do`.\n"
         "A rule fires at every opportunity its keys match (up to `times`); `attempt`\n"
         "counts what each site says. Any rule may wait for `after_step = N` (armed once\n"
         "step N is done); timed sites also fire at a virtual time (`tick`) or right after a\n"
         "step (`step`), which is how the GUI's fault buttons are written. A rule that can\n"
         "never match under the scenario's producer and strategy is refused at load; one\n"
         "that could but did not fire is reported (and fails the run unless `optional`).\n"
         "Full reference: docs/scenario-format.md.\n\n";
  std::size_t site_width = 0;
  for (const auto& site : lab::fault_sites()) site_width = std::max(site_width, site.name.size());
  out << "  " << padded("site (at)", site_width) << "  " << padded("do", 12)
      << "  frames\n";
  for (const auto& site : lab::fault_sites()) {
    std::string line = "  " + padded(std::string(site.name), site_width) + "  " +
                       padded(site.allowed_text(), 12);
    if (site.is_network()) line += "  " + joined(site.frame_names());
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n' << lab::wrap_text(site.meaning, kWidth, "      ");
    out << lab::wrap_text(site_keys_text(site), kWidth, "      ");
    if (!site.attempt_means.empty()) {
      out << lab::wrap_text("attempt = " + std::string(site.attempt_means), kWidth, "      ");
    }
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

// The about text's first sentence, over as many lines as it takes (not its first line,
// which may stop mid-sentence).
std::string first_sentence(const std::string& about) {
  std::string text;
  for (const char c : about) text += c == '\n' ? ' ' : c;
  const std::size_t end = text.find(". ");
  text = end == std::string::npos ? text : text.substr(0, end + 1);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

int list_scenarios(const std::string& given, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  std::string dir;
  if (const eosim::Status listed = data_files(given, "", dir, files); !listed.ok()) {
    err << "eosim: " << listed.message << '\n';
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
    const eosim::Result<lab::Scenario> loaded = lab::load_scenario(file);
    if (!loaded.ok()) {
      out << "  " << name << "  (cannot be loaded: see the error)\n";
      err << loaded.message() << '\n';
      exit_code = kExitBadInput;
      continue;
    }
    const lab::Scenario& scenario = loaded.value();
    out << "  " << lab::printable(name) << "  " << lab::printable(scenario.name)
        << (scenario.fixed.empty() ? "" : "  [fixed twin: run --fixed]") << '\n';
    const std::string about = first_sentence(scenario.about);
    if (!about.empty()) out << lab::wrap_text(about, kWidth, "      ");
  }
  return exit_code;
}

}  // namespace

const std::vector<std::string>& list_topics() {
  static const std::vector<std::string> topics = {
      "strategies", "producers", "faults", "scenarios", "frames", "queues", "verdicts",
      "format"};
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
  } else if (topic == "format") {
    // The generated part of docs/scenario-format.md, as Markdown.
    out << lab::scenario_format_reference();
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
