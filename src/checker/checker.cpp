#include "src/checker/checker.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "sim/assert.h"

namespace lab {

namespace {

constexpr int64_t kNone = std::numeric_limits<int64_t>::max();  // a stream that has ended

// The checker's queries, numbered (store/sql.h): each is fetched by its number.
const store::Sql kBalance{"SELECT balance FROM accounts WHERE id = ?1"};
const store::Sql kOrders{"SELECT id, amount FROM orders ORDER BY id"};
const store::Sql kUnsent{"SELECT DISTINCT order_id FROM outbox WHERE sent = 0 ORDER BY order_id"};
const store::Sql kDebits{
    "SELECT order_id, count(*), min(amount) FROM debits GROUP BY order_id ORDER BY order_id"};
// The consumer's business rule writes the reason 'insufficient funds'; any other reason (no
// message_id, an unreadable body) sets the order aside for a person. (CASE, not a sum of
// booleans: PostgreSQL has no sum(boolean), and the checker reads its tables with these
// same queries.)
const store::Sql kRejections{
    "SELECT order_id, count(*), "
    "sum(CASE WHEN coalesce(reason, '') <> 'insufficient funds' THEN 1 "
    "ELSE 0 END) FROM rejections GROUP BY order_id ORDER BY order_id"};
const store::Sql kDedupRows{
    "SELECT order_id, count(*) FROM processed_messages GROUP BY order_id ORDER BY order_id"};
const store::Sql kEmails{
    "SELECT order_id, count(*) FROM emails GROUP BY order_id ORDER BY order_id"};
const store::Sql kSeen{"SELECT order_id, count(*) FROM seen GROUP BY order_id ORDER BY order_id"};

// One query's rows, sorted by order number (column 0), read one row at a time. The
// statement stays on its row (holding a read lock) until the stream ends or is destroyed.
class Rows {
 public:
  Rows(store::Db& db, const store::Sql& sql) : st_(&db.statement(sql)) {}
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;
  ~Rows() { st_->reset(); }

  // Moves to the next row; order() is kNone after the last.
  store::Status next() {
    bool has_row = false;
    store::Status s = st_->step(has_row);
    order_ = s.ok() && has_row ? st_->column_int64(0) : kNone;
    return s;
  }
  int64_t order() const { return order_; }
  int64_t value(int column) const { return st_->column_int64(column); }

 private:
  store::Stmt* st_;
  int64_t order_ = kNone;
};

// A sorted list of order numbers (they may repeat), read as counts per order.
class Counts {
 public:
  explicit Counts(std::vector<int64_t> orders) : orders_(std::move(orders)) {
    std::sort(orders_.begin(), orders_.end());
  }
  int64_t order() const { return pos_ < orders_.size() ? orders_[pos_] : kNone; }
  // How many times `order` occurs, moving past it.
  int64_t take(int64_t order) {
    int64_t n = 0;
    for (; pos_ < orders_.size() && orders_[pos_] == order; ++pos_) ++n;
    return n;
  }

 private:
  std::vector<int64_t> orders_;
  std::size_t pos_ = 0;
};

// Everything the tables and the broker say about one order number.
struct Facts {
  bool committed = false;
  int64_t amount = 0;
  int64_t min_debit_amount = 0;
  int64_t debits = 0;
  int64_t rejections = 0;
  int64_t refusals_not_for_funds = 0;  // rejections whose reason is not insufficient funds
  int64_t dead_letters = 0;
  int64_t dedup_rows = 0;
  int64_t leftovers = 0;  // ready + unacked copies
  bool unsent_outbox = false;
  int64_t emails = 0;
};

// An order handed to a person instead of decided by the business rule (checker.h, Balance):
// dead-lettered or refused for a reason other than the funds, and never debited.
bool set_aside(const Facts& f) {
  return f.debits == 0 && (f.dead_letters > 0 || f.refusals_not_for_funds > 0);
}

// The classification rules of checker.h, for one order.
OrderOutcome classify_order(int64_t order, const Facts& f) {
  OrderOutcome o;
  o.order = order;
  o.committed = f.committed;
  o.amount = f.committed ? f.amount : f.min_debit_amount;
  o.debits = f.debits;
  o.rejections = f.rejections;
  o.dead_letters = f.dead_letters;
  o.dedup_rows = f.dedup_rows;
  o.effects = f.emails;
  o.stuck = f.leftovers > 0 || f.unsent_outbox;
  const int64_t outcomes = f.debits + f.rejections + f.dead_letters;
  const bool duplicated = f.debits >= 2 || (f.debits >= 1 && f.rejections >= 1);
  if (!f.committed && outcomes > 0) {
    o.outcome = Outcome::kPhantom;
  } else if (f.committed && duplicated) {
    o.outcome = Outcome::kDuplicated;
  } else if (o.stuck) {
    o.outcome = Outcome::kStuck;
  } else if (f.debits >= 1) {
    o.outcome = Outcome::kDebited;
  } else if (f.rejections >= 1) {
    o.outcome = Outcome::kRejected;
  } else if (f.dead_letters >= 1) {
    o.outcome = Outcome::kDeadLettered;
  } else {
    o.outcome = Outcome::kLost;
  }
  return o;
}

// Precedence of violations (docs/scenario-format.md): the earlier is the worse.
int severity(Verdict verdict) {
  const Verdict order[] = {Verdict::kDuplicated, Verdict::kLost, Verdict::kPhantom, Verdict::kStuck,
                           Verdict::kBalanceMismatch};
  for (int i = 0; i < 5; ++i) {
    if (verdict == order[i]) return 5 - i;
  }
  EOSIM_ASSERT(verdict == Verdict::kExactlyOnce);
  return 0;
}

Verdict verdict_of(const Report& r) {
  if (!r.duplicated.empty()) return Verdict::kDuplicated;
  if (!r.lost.empty()) return Verdict::kLost;
  if (!r.phantom.empty()) return Verdict::kPhantom;
  if (!r.stuck.empty()) return Verdict::kStuck;
  if (r.balance_actual != r.balance_expected) return Verdict::kBalanceMismatch;
  return Verdict::kExactlyOnce;
}

store::Status read_balance(store::Db& db, const std::string& account, int64_t& balance) {
  store::Stmt& st = db.statement(kBalance);
  st.bind(1, std::string_view(account));
  bool has_row = false;
  store::Status s = st.step(has_row);
  if (!s.ok()) return s;
  if (!has_row) {
    return store::Status::error(SQLITE_ERROR,
                                "account '" + account + "' not found in ledger table accounts");
  }
  balance = st.column_int64(0);
  st.reset();
  return store::Status::success();
}

// Every source of facts, each sorted by order number, merged one order at a time.
class Merge {
 public:
  Merge(store::Db& orders_db, store::Db& ledger_db, store::Db* effects_db,
        store::Db* dedup_store_db, const BrokerLeftovers& leftovers)
      : orders_(orders_db, kOrders),
        unsent_(orders_db, kUnsent),
        debits_(ledger_db, kDebits),
        rejections_(ledger_db, kRejections),
        dedup_(ledger_db, kDedupRows),
        leftovers_(both(leftovers.ready, leftovers.unacked)),
        dead_letters_(leftovers.dead_lettered) {
    if (effects_db != nullptr) {
      emails_.emplace(*effects_db, kEmails);
    }
    if (dedup_store_db != nullptr) {
      seen_.emplace(*dedup_store_db, kSeen);
    }
  }

  store::Status start() {
    for (Rows* r : {&orders_, &unsent_, &debits_, &rejections_, &dedup_}) {
      if (store::Status s = r->next(); !s.ok()) return s;
    }
    for (std::optional<Rows>* r : {&emails_, &seen_}) {
      if (!r->has_value()) continue;
      if (store::Status s = (*r)->next(); !s.ok()) return s;
    }
    return store::Status::success();
  }

  // The next order number any source knows (kNone when all have ended).
  int64_t next_order() const {
    int64_t n = std::min(leftovers_.order(), dead_letters_.order());
    for (const Rows* r : {&orders_, &unsent_, &debits_, &rejections_}) n = std::min(n, r->order());
    if (emails_) n = std::min(n, emails_->order());
    return n;
  }

  // Collects the facts about `order` and moves every source past it. `known` says whether
  // anything but the emails mentions it (dedup rows alone never make an order appear).
  store::Status take(int64_t order, Facts& f, bool& known) {
    // On an error the caller drops the facts and the merge: return at once.
    if (orders_.order() == order) {
      f.committed = true;
      f.amount = orders_.value(1);
      if (store::Status s = orders_.next(); !s.ok()) return s;
    }
    if (unsent_.order() == order) {
      f.unsent_outbox = true;
      if (store::Status s = unsent_.next(); !s.ok()) return s;
    }
    if (debits_.order() == order) {
      f.debits = debits_.value(1);
      f.min_debit_amount = debits_.value(2);
      if (store::Status s = debits_.next(); !s.ok()) return s;
    }
    if (rejections_.order() == order) {
      f.rejections = rejections_.value(1);
      f.refusals_not_for_funds = rejections_.value(2);
      if (store::Status s = rejections_.next(); !s.ok()) return s;
    }
    f.leftovers = leftovers_.take(order);
    f.dead_letters = dead_letters_.take(order);
    if (store::Status s = add_dedup_rows(dedup_, order, f.dedup_rows); !s.ok()) return s;
    if (seen_) {
      if (store::Status s = add_dedup_rows(*seen_, order, f.dedup_rows); !s.ok()) return s;
    }
    if (emails_ && emails_->order() == order) {
      f.emails = emails_->value(1);
      if (store::Status s = emails_->next(); !s.ok()) return s;
    }
    known = f.committed || f.unsent_outbox || f.debits > 0 || f.rejections > 0 || f.leftovers > 0 ||
            f.dead_letters > 0;
    return store::Status::success();
  }

 private:
  // Adds the dedup record's count for `order` to `n` and moves past it; the rows of order
  // numbers nothing else mentions are passed over.
  static store::Status add_dedup_rows(Rows& rows, int64_t order, int64_t& n) {
    while (rows.order() < order) {
      if (store::Status s = rows.next(); !s.ok()) return s;
    }
    if (rows.order() != order) return store::Status::success();
    n += rows.value(1);
    return rows.next();
  }
  static std::vector<int64_t> both(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    std::vector<int64_t> out = a;
    out.insert(out.end(), b.begin(), b.end());
    return out;
  }

  Rows orders_, unsent_, debits_, rejections_, dedup_;
  std::optional<Rows> emails_, seen_;
  Counts leftovers_, dead_letters_;
};

// Which of the effect lists an order belongs in (checker.h); nullptr for none.
std::vector<int64_t>* effect_list(const OrderOutcome& o, Report& r) {
  if (!r.effects_checked) return nullptr;
  if (o.effects >= 2) return &r.effect_duplicated;
  if (o.debits >= 1 && o.effects == 0 && !o.stuck) return &r.effect_lost;
  if (o.debits == 0 && o.effects >= 1) return &r.effect_phantom;
  return nullptr;
}

bool went_wrong(const OrderOutcome& o, Report& r) {
  return o.stuck || o.outcome == Outcome::kPhantom || o.outcome == Outcome::kDuplicated ||
         o.outcome == Outcome::kLost || effect_list(o, r) != nullptr;
}

// Fills a report one classified order at a time, in ascending order number, so every list
// comes out sorted and unique.
class Filing {
 public:
  explicit Filing(Report& out) : out_(out) {}

  void add(const Facts& f, OrderOutcome o) {
    // Uncommitted numbers enter only through an outcome or a leftover.
    EOSIM_ASSERT(f.committed || o.outcome == Outcome::kPhantom || o.outcome == Outcome::kStuck);
    const int64_t order = o.order;
    if (o.outcome == Outcome::kPhantom) out_.phantom.push_back(order);
    if (o.outcome == Outcome::kDuplicated) out_.duplicated.push_back(order);
    if (o.outcome == Outcome::kLost) out_.lost.push_back(order);
    if (o.stuck) out_.stuck.push_back(order);
    if (f.rejections > 0) out_.rejected.push_back(order);
    if (f.dead_letters > 0) out_.dead_lettered.push_back(order);
    if (auto* list = effect_list(o, out_)) list->push_back(order);
    if (!listing_all_ && !went_wrong(o, out_)) {
      ++out_.orders_unlisted;
      return;
    }
    out_.orders.push_back(o);  // trivially copyable: a move would be a copy
    if (listing_all_ && out_.orders.size() > kListAllOrders) stop_listing_all();
  }

 private:
  void stop_listing_all() {
    listing_all_ = false;
    auto& orders = out_.orders;
    const auto right = [this](const OrderOutcome& o) { return !went_wrong(o, out_); };
    const auto kept = std::remove_if(orders.begin(), orders.end(), right);
    out_.orders_unlisted += orders.end() - kept;
    orders.erase(kept, orders.end());
  }

  Report& out_;
  bool listing_all_ = true;
};

}  // namespace

store::Status check(store::Db& orders_db, store::Db& ledger_db, const BrokerLeftovers& leftovers,
                    const std::string& account, int64_t initial_balance, Report& out,
                    store::Db* effects_db, store::Db* dedup_store_db) {
  out = Report{};
  out.balance_initial = initial_balance;
  out.effects_checked = effects_db != nullptr;
  out.dedup_store_read = dedup_store_db != nullptr;
  store::Status s = read_balance(ledger_db, account, out.balance_actual);
  if (!s.ok()) return s;

  int64_t intended = initial_balance;  // the business rule over the committed orders
  {
    Filing filing(out);
    Merge merge(orders_db, ledger_db, effects_db, dedup_store_db, leftovers);
    s = merge.start();
    // Order numbers come out ascending, so every list below is sorted and unique.
    for (int64_t order = merge.next_order(); s.ok() && order != kNone; order = merge.next_order()) {
      Facts f;
      bool known = false;
      s = merge.take(order, f, known);
      if (!s.ok()) break;
      if (!known) {
        // An email for an order number the ledger never heard of is a phantom effect.
        out.effect_phantom.push_back(order);
        continue;
      }
      if (f.committed && !set_aside(f) && f.amount <= intended) intended -= f.amount;
      filing.add(f, classify_order(order, f));
    }
  }
  if (!s.ok()) return s;
  out.balance_expected = intended;
  out.balance_negative = out.balance_actual < 0;
  out.verdict = verdict_of(out);
  out.ledger_verdict = out.verdict;
  if (out.effects_checked) {
    out.effect_verdict = !out.effect_duplicated.empty() ? Verdict::kDuplicated
                         : !out.effect_lost.empty()     ? Verdict::kLost
                         : !out.effect_phantom.empty()  ? Verdict::kPhantom
                                                        : Verdict::kExactlyOnce;
    if (severity(out.effect_verdict) > severity(out.verdict)) out.verdict = out.effect_verdict;
  }
  return store::Status::success();
}

void cut_short(Report& report) {
  std::vector<int64_t> unsettled = report.lost;
  unsettled.insert(unsettled.end(), report.effect_lost.begin(), report.effect_lost.end());
  std::sort(unsettled.begin(), unsettled.end());
  unsettled.erase(std::unique(unsettled.begin(), unsettled.end()), unsettled.end());
  for (OrderOutcome& o : report.orders) {
    if (o.outcome == Outcome::kLost) o.outcome = Outcome::kUnsettled;
  }
  report.unsettled = std::move(unsettled);
  report.lost.clear();
  report.effect_lost.clear();
  // What more time cannot undo stands; nothing else is judged.
  auto judged = [](bool duplicated, bool phantom) {
    return duplicated ? Verdict::kDuplicated : phantom ? Verdict::kPhantom : Verdict::kIncomplete;
  };
  report.ledger_verdict = judged(!report.duplicated.empty(), !report.phantom.empty());
  if (report.effects_checked) {
    report.effect_verdict =
        judged(!report.effect_duplicated.empty(), !report.effect_phantom.empty());
  }
  report.verdict = judged(!report.duplicated.empty() || !report.effect_duplicated.empty(),
                          !report.phantom.empty() || !report.effect_phantom.empty());
}

}  // namespace lab
