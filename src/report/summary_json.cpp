// The inverse of report_json for what a recorded run needs back: the summary line at the end
// of a JSON Lines trace (`eosim run|live --format jsonl`), read so that the GUI can show a
// recorded run's verdict. Keys follow report_json; one that is missing or has the wrong
// type is an error naming it, never a default taken silently.

#include <cstdlib>
#include <limits>
#include <optional>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "src/orders/order_key.h"
#include "src/report/report_format.h"

namespace lab {
namespace {

// Reads fields of one JSON object; the first problem is kept with its key's path.
class Reader {
 public:
  Reader(const nlohmann::json& object, std::string path, std::string& error)
      : j_(object), path_(std::move(path)), error_(error) {}

  template <class T>
  void get(const char* key, T& out) {
    if (!error_.empty()) return;
    const auto it = j_.find(key);
    if (it == j_.end()) {
      fail(key, "missing");
      return;
    }
    if (!fits<T>(*it)) {
      fail(key, "has the wrong type");
      return;
    }
    out = it->template get<T>();
  }

  // A number later versions added: a recording made before it has none (nullopt).
  void get_if_present(const char* key, std::optional<std::int64_t>& out) {
    if (!error_.empty() || !j_.contains(key)) return;
    std::int64_t value = 0;
    get(key, value);
    if (error_.empty()) out = value;
  }

  // A name of the checker's vocabulary, turned into its enum by `parse` (verdict.h).
  template <class T, class Parse>
  void name(const char* key, T& out, Parse parse) {
    std::string text;
    get(key, text);
    if (!error_.empty()) return;
    const auto parsed = parse(text);
    if (!parsed) return fail(key, "names no such value");
    out = *parsed;
  }

  // A list of order numbers.
  void orders(const char* key, std::vector<std::int64_t>& out) {
    if (!error_.empty()) return;
    const auto it = j_.find(key);
    if (it == j_.end() || !it->is_array()) return fail(key, "missing or not a list");
    out.clear();
    for (const auto& n : *it) {
      if (!in_range<std::int64_t>(n)) return fail(key, "holds something other than order numbers");
      out.push_back(n.get<std::int64_t>());
    }
  }

  // Each element of the list `key`, handed to `each` with a Reader of its own.
  template <class Each>
  void list(const char* key, Each each) {
    if (!error_.empty()) return;
    const auto it = j_.find(key);
    if (it == j_.end() || !it->is_array()) return fail(key, "missing or not a list");
    for (std::size_t i = 0; i < it->size() && error_.empty(); ++i) {
      const std::string at = path_ + key + "[" + std::to_string(i + 1) + "].";
      if (!(*it)[i].is_object()) return fail(key, "holds something other than objects");
      Reader element((*it)[i], at, error_);
      each(element);
    }
  }

 private:
  template <class T>
  static bool fits(const nlohmann::json& v) {
    if constexpr (std::is_same_v<T, std::string>) return v.is_string();
    else if constexpr (std::is_same_v<T, bool>) return v.is_boolean();
    else return in_range<T>(v);
  }
  // A JSON integer T can hold (nlohmann's get<T> would wrap a larger one silently).
  template <class T>
  static bool in_range(const nlohmann::json& v) {
    using Limits = std::numeric_limits<T>;
    if (v.is_number_unsigned()) {
      return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(Limits::max());
    }
    if (!v.is_number_integer() || std::is_unsigned_v<T>) return false;
    const auto value = v.get<std::int64_t>();
    return value >= static_cast<std::int64_t>(Limits::min()) &&
           value <= static_cast<std::int64_t>(Limits::max());
  }
  void fail(const char* key, const char* what) {
    error_ = "key `" + path_ + key + "` " + what;
  }

  const nlohmann::json& j_;
  std::string path_;
  std::string& error_;
};

}  // namespace

eosim::Status summary_from_json(const nlohmann::json& j, RunSummary& out) {
  if (!j.is_object()) return eosim::Status::error("the summary is not a JSON object");
  std::string error;  // the Reader keeps the first problem here
  RunSummary s;
  Reader r(j, "", error);
  r.get("scenario", s.scenario);
  r.get("seed", s.seed);
  r.get("strategy", s.strategy);
  r.get("producer", s.producer);
  Report& report = s.report;
  r.name("verdict", report.verdict, parse_verdict);
  r.name("ledger_verdict", report.ledger_verdict, parse_verdict);
  r.orders("lost", report.lost);
  r.orders("duplicated", report.duplicated);
  r.orders("phantom", report.phantom);
  r.orders("stuck", report.stuck);
  // Written since the report's Violations carry it: a recording made before has none.
  if (j.contains("effects_duplicated")) r.orders("effects_duplicated", report.effect_duplicated);
  r.orders("dead_lettered", report.dead_lettered);
  r.orders("rejected", report.rejected);
  r.get("balance_initial", report.balance_initial);
  r.get("balance_expected", report.balance_expected);
  r.get("balance_actual", report.balance_actual);
  r.get("balance_negative", report.balance_negative);
  r.get("redeliveries", s.redeliveries);
  r.get_if_present("republished", s.republished);
  r.list("faults_fired", [&](Reader& f) {
    sim::FiredFault fault;
    f.get("step", fault.step);
    f.get("tick", fault.time);
    f.get("site", fault.site);
    f.name("action", fault.action, sim::parse_fault_action);
    f.get("order", fault.key[orders::kOrder]);
    f.get("attempt", fault.key[orders::kAttempt]);
    f.get("frame", fault.frame);
    f.get("nth", fault.nth);
    f.get("instance", fault.key[orders::kInstance]);
    f.get("scripted", fault.scripted);
    s.faults.push_back(std::move(fault));
  });
  r.get("steps", s.steps);
  r.get("time", s.time);
  r.get("step_bound_hit", s.step_bound_hit);
  r.get("trace_events", s.trace_events);
  r.list("orders", [&](Reader& o) {
    OrderOutcome order;
    o.get("order", order.order);
    o.get("amount", order.amount);
    o.get("committed", order.committed);
    o.name("outcome", order.outcome, parse_outcome);
    o.get("debits", order.debits);
    o.get("rejections", order.rejections);
    o.get("dead_letters", order.dead_letters);
    o.get("dedup_rows", order.dedup_rows);
    o.get("effects", order.effects);
    o.get("stuck", order.stuck);
    report.orders.push_back(std::move(order));
  });
  std::string hash;
  r.get("trace_hash", hash);
  if (!error.empty()) return eosim::Status::error(std::move(error));
  char* end = nullptr;
  s.trace_hash = std::strtoull(hash.c_str(), &end, 16);
  if (hash.size() != 16 || end != hash.c_str() + hash.size()) {
    return eosim::Status::error("key `trace_hash` is not 16 hex digits");
  }
  out = std::move(s);
  return eosim::Status::success();
}

}  // namespace lab
