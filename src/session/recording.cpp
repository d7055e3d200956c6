#include "src/session/recording.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "src/files/input_file.h"
#include "src/orders/event_kinds.h"
#include "src/report/report_format.h"

namespace lab {

namespace {

// One trace event line; an error says what is wrong with it.
eosim::Status event_from_json(const nlohmann::json& j, sim::TraceEvent& e) {
  const auto text = [&](const char* key, std::string& out, bool required) -> std::string {
    const auto it = j.find(key);
    if (it == j.end()) return required ? std::string("key `") + key + "` missing" : "";
    if (!it->is_string()) return std::string("key `") + key + "` is not a string";
    out = it->get<std::string>();
    return "";
  };
  const auto number = [&](const char* key, auto& out, bool required) -> std::string {
    const auto it = j.find(key);
    if (it == j.end()) return required ? std::string("key `") + key + "` missing" : "";
    using T = std::remove_reference_t<decltype(out)>;
    const bool fits = std::is_unsigned_v<T> ? it->is_number_unsigned() : it->is_number_integer();
    if (!fits) return std::string("key `") + key + "` is not a whole number";
    out = it->template get<T>();
    return "";
  };
  std::string kind;
  for (const std::string& problem :
       {number("step", e.step, true), number("time", e.time, true), text("actor", e.actor, true),
        text("kind", kind, true), text("target", e.target, false),
        number("order", e.subject, false), text("detail", e.detail, false)}) {
    if (!problem.empty()) return eosim::Status::error(problem);
  }
  const std::optional<sim::EventKind> parsed = orders::parse_event_kind(kind);
  if (!parsed) return eosim::Status::error("key `kind`: no such event kind '" + kind + "'");
  e.kind = *parsed;
  if (e.actor.empty()) return eosim::Status::error("key `actor` is empty");
  return eosim::Status::success();
}

// Where an actor's lane goes: lab::diagram_lanes' order (producer, orders, relay, broker,
// consumers, dedup, ledger, mail); anything else after them, in order of appearance.
int lane_rank(const std::string& actor) {
  static constexpr const char* kBefore[] = {"producer", "orders", "relay", "broker"};
  for (int i = 0; i < 4; ++i) {
    if (actor == kBefore[i]) return i;
  }
  if (actor.rfind("consumer", 0) == 0) return 4;
  if (actor == "dedup") return 5;
  if (actor == "ledger") return 6;
  if (actor == "mail") return 7;
  return 8;
}

std::vector<std::string> lanes_of(const std::vector<sim::TraceEvent>& events) {
  std::vector<std::string> seen;
  for (const auto& e : events) {
    for (const std::string* name : {&e.actor, &e.target}) {
      if (!name->empty() && std::find(seen.begin(), seen.end(), *name) == seen.end()) {
        seen.push_back(*name);
      }
    }
  }
  // consumer2 before consumer10: by rank, then by the number after the name.
  const auto number = [](const std::string& a) {
    return std::strtoll(a.c_str() + std::min<std::size_t>(a.size(), 8), nullptr, 10);
  };
  std::stable_sort(seen.begin(), seen.end(), [&](const std::string& a, const std::string& b) {
    const int ra = lane_rank(a), rb = lane_rank(b);
    if (ra != rb) return ra < rb;
    return ra == 4 && number(a) < number(b);
  });
  return seen;
}

// A GUI session holds the whole trace in memory; a 10^5-order run's trace is ~500 MB.
constexpr files::InputLimit kTraceFile{"trace", std::int64_t{1} << 30,
                                "eosim-gui replays traces up to that size"};

// `key` of the summary object when it is there: a string, else an error (nlohmann's
// value() threw, and the GUI aborted, on a summary field of another JSON type).
eosim::Status optional_text(const nlohmann::json& summary, const char* key, std::string& out) {
  const auto it = summary.find(key);
  if (it == summary.end() || it->is_null()) return eosim::Status::success();
  if (!it->is_string()) return eosim::Status::error(std::string("key `") + key + "` is not a string");
  out = it->get<std::string>();
  return eosim::Status::success();
}

std::string at_line(const std::string& name, std::size_t line, const std::string& what) {
  return name + ":" + std::to_string(line) + ": " + what;
}

// A trace file's lines: its events and, if there is one, the summary object.
struct TraceLines {
  std::vector<sim::TraceEvent> events;
  std::optional<nlohmann::json> summary;
  std::size_t summary_line = 0;
};

eosim::Status read_lines(std::istream& in, const std::string& name, TraceLines& out) {
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      return eosim::Status::error(
          at_line(name, number,
                  "not a JSON object (cut short?): a trace line is one "
                  "event {\"step\":..,\"time\":..,\"actor\":..,\"kind\":..}"));
    }
    if (out.summary) {
      return eosim::Status::error(
          at_line(name, number,
                  "a line after the summary line (line " + std::to_string(out.summary_line) + ")"));
    }
    if (j.contains("summary")) {
      out.summary = j.at("summary");
      out.summary_line = number;
      continue;
    }
    sim::TraceEvent e;
    if (const eosim::Status read = event_from_json(j, e); !read.ok()) {
      return eosim::Status::error(at_line(name, number, read.message));
    }
    if (!out.events.empty() && e.step < out.events.back().step) {
      return eosim::Status::error(at_line(name, number,
                                          "step " + std::to_string(e.step) + " after step " +
                                              std::to_string(out.events.back().step) +
                                              ": events must be in step order"));
    }
    out.events.push_back(std::move(e));
  }
  return eosim::Status::success();
}

}  // namespace

eosim::Status Recording::load(const std::string& path) {
  std::string text;
  if (const eosim::Status read = files::read_input_file(path, kTraceFile, text); !read.ok()) {
    return eosim::Status::error(path + ": " + read.message);
  }
  std::istringstream in(std::move(text));
  return parse(in, path);
}

eosim::Status Recording::parse(std::istream& in, const std::string& name) {
  TraceLines lines;
  if (eosim::Status read = read_lines(in, name, lines); !read.ok()) return read;
  std::vector<sim::TraceEvent>& events = lines.events;
  const std::optional<nlohmann::json>& summary = lines.summary;
  const std::size_t summary_line = lines.summary_line;
  if (events.empty()) {
    return eosim::Status::error(name + ": no trace events in it");
  }
  RunSummary end;
  if (summary) {
    if (const eosim::Status read = summary_from_json(*summary, end); !read.ok()) {
      return eosim::Status::error(at_line(name, summary_line, "summary: " + read.message));
    }
  }
  std::string mode, replay, scenario_file, run_dir;
  if (summary) {
    for (const auto& [key, out] : {std::pair{"mode", &mode}, std::pair{"replay", &replay},
                                   std::pair{"file", &scenario_file},
                                   std::pair{"run_dir", &run_dir}}) {
      if (const eosim::Status read = optional_text(*summary, key, *out); !read.ok()) {
        return eosim::Status::error(at_line(name, summary_line, "summary: " + read.message));
      }
    }
  }
  end.steps = std::max(end.steps, events.back().step);
  has_summary_ = summary.has_value();
  live_ = mode == "live";
  replay_ = replay;
  scenario_file_ = scenario_file;
  run_dir_ = run_dir;
  path_ = name;
  all_ = std::move(events);
  lanes_ = lanes_of(all_);
  end_ = std::move(end);
  ++revision_;
  shown_.clear();
  step_ = 0;
  show(0);
  return eosim::Status::success();
}

bool Recording::step_forward() {
  if (over()) return false;
  show(step_ + 1);
  return true;
}

void Recording::step_back() {
  if (step_ > 0) show(step_ - 1);
}

void Recording::seek(std::uint64_t step) { show(std::min(step, end_.steps)); }

void Recording::show(std::uint64_t step) {
  step_ = step;
  while (!shown_.empty() && shown_.back().step > step) shown_.pop_back();
  while (shown_.size() < all_.size() && all_[shown_.size()].step <= step) {
    shown_.push_back(all_[shown_.size()]);
  }
  view_ = StepView{};
  view_.step = step;
  view_.time = shown_.empty() ? 0 : shown_.back().time;
  view_.over = over();
  if (view_.over) view_.summary = end_;
}

}  // namespace lab
