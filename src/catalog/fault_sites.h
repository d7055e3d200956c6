#pragma once
// The fault-site catalog: one constexpr table of every place a [[faults.script]] rule may
// fire (`at`), with what it may `do` there, which rule keys can match there, what
// `attempt` counts there, and which producer patterns / consumer strategies pass it at
// all. The scenario loader refuses rules this table says can never match, `eosim list
// faults` prints it, and docs/scenario-format.md is generated from it (a test compares),
// so the three cannot drift apart.
//
// Invariants:
//  (1) kSites holds one entry per Site, in the enum's order (site_info(s).id == s).
//  (2) Network sites (`net.*`) and only they carry frames; a frame of a site names an
//      order only if the actors put the order on it.
//  (3) A site that takes `attempt` takes `order`; a moment-only site takes no match key
//      but `instance` (it has no opportunities of its own to count or match).
//  (4) A null `patterns` / `strategies` test means every pattern / strategy passes.
// Extending: add the enumerator and its name (src/orders/fault_site.h), its row in kSites
// (fault_sites.cpp), and pass the site from the actor that reaches it; the catalog test
// checks each row against runs.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/fault_action.h"
#include "src/orders/fault_site.h"
#include "src/consumer/strategy.h"
#include "src/producer/design.h"

namespace lab {

// The sites are the lab's identities (src/orders/fault_site.h), named there once.
using Site = orders::Site;
inline constexpr std::size_t kSiteCount = orders::kSiteCount;

// What a rule does where it fires; also the random fault kinds of [faults.random]. The
// enum and its names are the fault plan's (sim/fault_action.h); actions() lists those a
// scenario may name (every one but the couriers' duplicate).
using Action = sim::FaultAction;

struct ActionInfo {
  Action id;
  std::string_view name;
  std::string_view meaning;
  // Whether [faults.random] and sweep --faults may draw it. A freeze is scripted only: the
  // network's opportunities draw drops, and drawing a second kind there would change
  // every random run's tape.
  bool random = true;
};
std::span<const ActionInfo> actions();
std::string_view action_name(Action action);
// nullopt for a name actions() does not list.
std::optional<Action> parse_action(std::string_view name);
// Whether [faults.random] and sweep --faults may draw the kind named so (false for an
// unknown name).
bool random_kind(std::string_view name);

// The keys of a rule that can match at a site, as bits.
enum SiteKey : unsigned {
  kKeyOrder = 1u << 0,
  kKeyAttempt = 1u << 1,
  kKeyFrame = 1u << 2,
  kKeyNth = 1u << 3,
  kKeyInstance = 1u << 4,
};

using PatternTest = bool (*)(producer::Pattern);
using StrategyTest = bool (*)(const consumer::Strategy&);

// A frame kind that crosses a network site.
struct SiteFrame {
  std::string_view kind;
  bool names_order = false;    // the frame carries its order's number ...
  bool names_attempt = false;  // ... and the attempt of that order it belongs to
  PatternTest patterns = nullptr;  // who ever sends it (null: every one)
  StrategyTest strategies = nullptr;
  // A rule may `do = "crash"` on it: the consumer (the connection's client) is killed as
  // the frame reaches it (basic.deliver: it dies holding that delivery unacked), or right
  // after it sent the frame (basic.ack: the ack is on its way), as a live run's fault proxy
  // kills the consumer's process at that frame. sim/network.h says how the model does it.
  bool kills = false;
};

struct FaultSite {
  Site id;
  std::string_view name;
  Action action;             // what a rule here may `do`
  std::string_view meaning;  // one line for people
  unsigned keys = 0;         // SiteKey bits a rule here may use
  std::string_view attempt_means = "";  // what `attempt` counts here ("" = takes none)
  std::int64_t max_attempt = 0;         // the highest attempt there can be (0 = no bound)
  PatternTest patterns = nullptr;       // invariant (4)
  StrategyTest strategies = nullptr;
  std::span<const SiteFrame> frames = {};
  // Whether a rule here may fire at a moment: a virtual time (`tick`) or right after a
  // step (`step`, how the GUI's buttons are replayed).
  bool timed = false;
  // No opportunities of its own (a process crash "now"): it fires only at a moment.
  bool moment_only = false;
  // For people, when `strategies` depends on more than a preset's choices: the design
  // variation that decides it ("" = the preset's choices alone).
  std::string_view passed_when = "";
  // Network sites: a rule may also `do = "freeze"`: the connection goes silent both ways
  // as the matched frame arrives (or at `tick`), and each end notices only by its own
  // heartbeats (sim/network.h). `action` stays the default.
  bool freezes = false;

  bool is_network() const { return !frames.empty(); }
  // Whether a rule here may `do = "crash"` on one of its frames (SiteFrame::kills).
  bool kills() const;
  bool takes(SiteKey key) const { return (keys & key) != 0; }
  bool allows(Action a) const;
  std::string allowed_text() const;  // "drop", "drop, freeze" or "drop, freeze, crash"
  bool carries(std::string_view frame) const;
  const SiteFrame* frame(std::string_view kind) const;  // nullptr if not carried
  std::vector<std::string_view> frame_names() const;
};

std::span<const FaultSite> fault_sites();
const FaultSite& site_info(Site site);
const FaultSite* find_fault_site(std::string_view name);  // nullptr for an unknown name
std::string join_names(std::span<const FaultSite> sites);  // "a, b, c"

// Whether a run with this producer pattern / consumer strategy ever reaches the site (and,
// with a frame, sends that frame there). Data decides the rest (which order, which try).
bool site_passed(const FaultSite& site, const SiteFrame* frame, producer::Pattern pattern,
                 const consumer::Strategy& strategy);

// "every producer pattern and consumer strategy", "producer patterns outbox,
// outbox-no-confirm", ...: who passes a site (or that frame at it).
std::string passed_by_text(const FaultSite& site, const SiteFrame* frame);

// Why a rule at `site` (with `frame`, or null) can never fire in a run with this producer
// and consumer design, or "" when it can be passed. The labels name the designs to people
// ("outbox", "atomic + dedup=none (= no-dedup)").
// REQUIRES: `producer_choices` make a valid design (producer::pattern_with finds it).
std::string never_passed(const FaultSite& site, const SiteFrame* frame,
                         const producer::ProducerChoices& producer_choices,
                         std::string_view producer_label, const consumer::Strategy& strategy,
                         std::string_view consumer_label);

}  // namespace lab
