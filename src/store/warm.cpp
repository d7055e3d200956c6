#include "src/store/warm.h"

#include <atomic>

#include "sim/assert.h"

namespace store {

namespace {

thread_local WarmScope* g_current = nullptr;
// Keeps the database names of scopes on different threads apart; never affects a run.
std::atomic<std::uint64_t> g_scopes{0};

}  // namespace

WarmScope::WarmScope()
    : previous_(g_current), prefix_("file:/eosim-warm-" + std::to_string(++g_scopes) + "-") {
  EOSIM_ASSERT(previous_ == nullptr);
  g_current = this;
}

WarmScope::~WarmScope() {
  EOSIM_ASSERT(g_current == this);
  g_current = previous_;
  parked_.clear();  // g_current no longer points here, so these really close
}

WarmScope* WarmScope::current() { return g_current; }

std::string WarmScope::database_uri(const std::string& name, int slot) const {
  EOSIM_ASSERT(slot >= 0);
  EOSIM_ASSERT(slot < kSlots);
  // Slot 0 keeps the name a one-world scope always had.
  return prefix_ + (slot == 0 ? "" : std::to_string(slot) + "-") + name + "?vfs=memdb";
}

bool WarmScope::claim(int& slot) {
  for (int i = 0; i < kSlots; ++i) {
    if (claimed_[i]) continue;
    claimed_[i] = true;
    slot = i;
    return true;
  }
  return false;
}

void WarmScope::release(int slot) {
  EOSIM_ASSERT(slot >= 0);
  EOSIM_ASSERT(slot < kSlots);
  EOSIM_ASSERT(claimed_[slot]);
  claimed_[slot] = false;
}

std::shared_ptr<WarmScope> shared_warm_scope() {
  thread_local std::weak_ptr<WarmScope> shared;
  if (std::shared_ptr<WarmScope> scope = shared.lock()) return scope;
  // A scope someone else owns (a sweep worker's): used, never destroyed, from here.
  if (WarmScope* scope = WarmScope::current())
    return std::shared_ptr<WarmScope>(scope, [](WarmScope*) {});
  auto scope = std::make_shared<WarmScope>();
  shared = scope;
  return scope;
}

bool WarmScope::owns(const std::string& uri) const { return uri.rfind(prefix_, 0) == 0; }

std::unique_ptr<Db::Conn> WarmScope::take(const std::string& uri) {
  auto it = parked_.find(uri);
  if (it == parked_.end() || it->second.empty()) {
    ++opened_;
    return nullptr;
  }
  std::unique_ptr<Db::Conn> conn = std::move(it->second.back());
  it->second.pop_back();
  conn->reused = true;
  ++reused_;
  return conn;
}

void WarmScope::park(std::unique_ptr<Db::Conn> conn) {
  conn->hook = nullptr;
  // Statements first: one left on a row holds a read lock, one halfway through a write
  // would keep the ROLLBACK from finishing.
  for (auto& [sql, stmt] : conn->statements) stmt->reset();
  if (sqlite3_get_autocommit(conn->handle) == 0) {
    const int rc = sqlite3_exec(conn->handle, "ROLLBACK", nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return;  // cannot be made clean: let it close for real
  }
  std::vector<std::unique_ptr<Db::Conn>>& parked = parked_[conn->uri];
  parked.push_back(std::move(conn));
}

}  // namespace store
