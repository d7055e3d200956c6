#!/usr/bin/env bash
# A small mutation run of our own: how we know the tests have teeth. Each mutation below is
# a one-line change (a unified diff) of the kind a real bug would be, in code a test should
# guard. The script applies it to a copy of the tree, builds what its tests need, runs
# those tests and the scenario suite, and reports the mutation KILLED (some test failed)
# or SURVIVED (everything passed: the tests have a gap there). It runs by hand, not in
# ctest; docs/testing.md records the last result.
#   scripts/mutate.sh              every mutation
#   scripts/mutate.sh NAME...      those mutations
#   scripts/mutate.sh --list       their names and what they break
# The copy (the committed tree, git archive HEAD) and its build directory live in
# $EOSIM_MUTATE_DIR (default /tmp/eosim-mutate-$USER) and are reused from run to run, so
# only the first run builds from scratch (-DEOSIM_UNITY=OFF: a mutation recompiles its one
# file). `conformance` tests start a private RabbitMQ (as ctest -L conformance does).
# Exit 0 when every mutation was killed, 1 when one survived, 2 on trouble (a patch that
# does not apply, a build that fails, a test that fails before any mutation).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${EOSIM_MUTATE_DIR:-/tmp/eosim-mutate-${USER:-$(id -un)}}
copy=$work/tree
build=$work/build
jobs=${EOSIM_MUTATE_JOBS:-2}

names=()
declare -A about targets tests patches
# mutation NAME ABOUT TARGETS TESTS <<PATCH: TESTS holds one test a line (run_test below).
mutation() {
  names+=("$1"); about[$1]=$2; targets[$1]=$3; tests[$1]=$4; patches[$1]=$(cat)
}

mutation consumer-exact-drain-refused \
  "an order that empties the account exactly is refused for want of funds" \
  "eosim eosim_core_tests eosim_property_tests" \
  "core [consumer]
property atomic + outbox: exactly-once when the orders drain the account exactly
suite" <<'PATCH'
--- a/src/consumer/consumer_work.cpp
+++ b/src/consumer/consumer_work.cpp
@@ -206,3 +206,3 @@ bool Consumer::debit(store::Txn& txn, const orders::OrderMessage& body, const st
                          .statement("UPDATE accounts SET balance = balance - ?1 "
-                                    "WHERE id = ?2 AND balance >= ?1")
+                                    "WHERE id = ?2 AND balance > ?1")
                          .bind(1, body.amount)
PATCH

mutation broker-delivery-limit-off-by-one \
  "a quorum queue dead-letters one delivery later than x-delivery-limit says" \
  "eosim eosim_core_tests eosim_conformance_tests" \
  "core-files broker_test broker_queue_test broker_publish_test amqp_items_test
conformance
suite" <<'PATCH'
--- a/src/broker/broker_publish.cpp
+++ b/src/broker/broker_publish.cpp
@@ -86,3 +86,3 @@ void Broker::return_to_queue(const std::string& queue_name, QueuedMessage messag
     const int64_t limit = q->options().delivery_limit;
-    if (limit > 0 && count > limit) {
+    if (limit > 0 && count > limit + 1) {
       // Item 10: with limit N the (N+1)th return means N+1 deliveries happened already.
PATCH

mutation checker-duplicate-per-consumer \
  "the checker counts debits per consumer instance: two instances debiting one order is no duplicate" \
  "eosim eosim_core_tests" \
  "core [checker]
suite" <<'PATCH'
--- a/src/checker/checker.cpp
+++ b/src/checker/checker.cpp
@@ -155,3 +155,3 @@ class Merge {
         debits_(ledger_db,
-                "SELECT order_id, count(*), min(amount) FROM debits GROUP BY order_id "
+                "SELECT order_id, max(n), min(a) FROM (SELECT order_id, count(*) AS n, min(amount) AS a FROM debits GROUP BY order_id, consumer) GROUP BY order_id "
                 "ORDER BY order_id"),
PATCH

mutation checker-debit-and-reject-not-duplicated \
  "a debit and a rejection of the same order is no duplicate" \
  "eosim eosim_core_tests" \
  "core [checker]
suite" <<'PATCH'
--- a/src/checker/checker.cpp
+++ b/src/checker/checker.cpp
@@ -92,3 +92,3 @@ OrderOutcome classify_order(int64_t order, const Facts& f) {
   const int64_t outcomes = f.debits + f.rejections + f.dead_letters;
-  const bool duplicated = f.debits >= 2 || (f.debits >= 1 && f.rejections >= 1);
+  const bool duplicated = f.debits >= 2;
   if (!f.committed && outcomes > 0) {
PATCH

mutation scheduler-ignores-seed-for-ties \
  "the scheduler takes the first of tied events whatever the seed" \
  "eosim eosim_property_tests" \
  "property determinism: different seeds give different schedules
suite" <<'PATCH'
--- a/sim/scheduler.cpp
+++ b/sim/scheduler.cpp
@@ -69,3 +69,3 @@ Scheduler::Key Scheduler::pop_next() {
   const Key first = pop();
-  if (tie_break_ == TieBreak::kFifo || heap_.empty() || heap_.front().time != first.time ||
+  if (true || heap_.empty() || heap_.front().time != first.time ||
       heap_.front().priority != first.priority) {
PATCH

mutation consumer-key-committed-apart \
  "the dedup key is committed in a transaction of its own, before the debit" \
  "eosim eosim_core_tests eosim_property_tests" \
  "core [consumer]
property atomic + outbox: exactly-once over 1,000 seeds, one consumer
suite" <<'PATCH'
--- a/src/consumer/consumer_work.cpp
+++ b/src/consumer/consumer_work.cpp
@@ -181,2 +181,3 @@ void Consumer::transact() {
     if (!insert_key(txn, id, body->order)) return;
+    (void)ledger_.exec("COMMIT; BEGIN");
     key_written = true;
PATCH

mutation checker-balance-rule-strict \
  "the expected balance refuses an order equal to the running balance" \
  "eosim eosim_core_tests" \
  "core [checker]
suite" <<'PATCH'
--- a/src/checker/checker.cpp
+++ b/src/checker/checker.cpp
@@ -327,3 +327,3 @@ store::Status check(store::Db& orders_db, store::Db& ledger_db, const BrokerLeft
       }
-      if (f.committed && !set_aside(f) && f.amount <= intended) intended -= f.amount;
+      if (f.committed && !set_aside(f) && f.amount < intended) intended -= f.amount;
       filing.add(f, classify_order(order, f));
PATCH

mutation checker-unsent-outbox-not-stuck \
  "an unsent outbox row does not make its order stuck" \
  "eosim eosim_core_tests" \
  "core [checker]
suite" <<'PATCH'
--- a/src/checker/checker.cpp
+++ b/src/checker/checker.cpp
@@ -90,3 +90,3 @@ OrderOutcome classify_order(int64_t order, const Facts& f) {
   o.effects = f.emails;
-  o.stuck = f.leftovers > 0 || f.unsent_outbox;
+  o.stuck = f.leftovers > 0;
   const int64_t outcomes = f.debits + f.rejections + f.dead_letters;
PATCH

mutation broker-requeue-not-redelivered \
  "a requeued message is delivered again with redelivered=false" \
  "eosim eosim_core_tests" \
  "core-files broker_test broker_queue_test broker_publish_test amqp_items_test
suite" <<'PATCH'
--- a/src/broker/broker_publish.cpp
+++ b/src/broker/broker_publish.cpp
@@ -81,3 +81,3 @@ void Broker::return_to_queue(const std::string& queue_name, QueuedMessage messag
   EOSIM_ASSERT(q != nullptr);  // queues are only deleted by restart, which drops channels first
-  message.redelivered = true;  // item 4
+  message.redelivered = false;  // item 4
   if (q->is_quorum()) {
PATCH

mutation relay-marks-sent-at-publish \
  "the outbox relay marks a row sent when it publishes, not when the broker confirms" \
  "eosim eosim_core_tests eosim_property_tests" \
  "core [producer]
property atomic + outbox: exactly-once over 1,000 seeds, one consumer
suite" <<'PATCH'
--- a/src/producer/relay.cpp
+++ b/src/producer/relay.cpp
@@ -107,3 +107,3 @@ void Relay::pump() {
     if (fault("relay.after_publish", row.order, attempt)) return;
-    if (options_.pattern == Pattern::kOutboxNoConfirm) {
+    if (options_.pattern != Pattern::kDualWrite) {
       mark_sent(row.id);
PATCH

mutation consumer-acks-before-commit \
  "the atomic preset acks before its commit" \
  "eosim eosim_core_tests eosim_property_tests" \
  "core [consumer]
property atomic + outbox: exactly-once over 1,000 seeds, one consumer
suite" <<'PATCH'
--- a/src/consumer/strategy.cpp
+++ b/src/consumer/strategy.cpp
@@ -12,3 +12,3 @@ using P = PoisonPolicy;
 constexpr std::array<Preset, 8> kPresets{{
-    {PresetId::kAtomic, "atomic", {A::kAfterCommit, D::kSameTxn, E::kClassify, P::kDeadLetter},
+    {PresetId::kAtomic, "atomic", {A::kBeforeCommit, D::kSameTxn, E::kClassify, P::kDeadLetter},
      "ack after commit, dedup key in the same transaction as the debit, business errors "
PATCH

mutation broker-nack-to-tail \
  "a quorum queue with a delivery limit puts a nacked message at the tail" \
  "eosim eosim_core_tests eosim_conformance_tests" \
  "core-files broker_test broker_queue_test broker_publish_test amqp_items_test
conformance
suite" <<'PATCH'
--- a/src/broker/broker_publish.cpp
+++ b/src/broker/broker_publish.cpp
@@ -98,3 +98,3 @@ void Broker::return_to_queue(const std::string& queue_name, QueuedMessage messag
   // died returns its messages to the head all the same.
-  const bool to_tail = q->is_quorum() && q->options().delivery_limit == 0 &&
+  const bool to_tail = q->is_quorum() &&
                        why == RequeueReason::kNack;
PATCH

log=$work/mutate.log
say() { echo "$*" | tee -a "$log"; }

# One test line: "core TESTSPEC", "core-files FILE...", "property TESTSPEC", "conformance"
# or "suite". Its output goes to the log; the status says whether it passed.
run_test() {
  local kind=${1%% *} rest=${1#* }
  case $kind in
    core) "$build/tests/eosim_core_tests" -w NoTests "$rest" ;;
    core-files)
      local spec="" f
      for f in $rest; do spec+="${spec:+,}[#$f]"; done
      "$build/tests/eosim_core_tests" -w NoTests -# "$spec" ;;
    # A test name is a Catch2 test spec: a comma there would separate two names.
    property) "$build/tests/eosim_property_tests" -w NoTests "${rest//,/\\,}" ;;
    conformance) "$build/tests/eosim_conformance_tests" -w NoTests "[conformance]" ;;
    suite) "$build/eosim" run "$copy/scenarios/" --format text ;;
    *) echo "mutate: unknown test kind '$kind'"; return 2 ;;
  esac
}

build_targets() {  # $@: targets
  cmake --build "$build" -j "$jobs" --target "$@" >>"$log" 2>&1
}

# Runs every test of mutation $1; prints the ones that failed.
failing_tests() {
  local line failed=()
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    if ! run_test "$line" >>"$log" 2>&1; then failed+=("$line"); fi
  done <<<"${tests[$1]}"
  printf '%s\n' "${failed[@]+"${failed[@]}"}"
}

if [ "${1:-}" = --list ]; then
  for n in "${names[@]}"; do printf '%-42s %s\n' "$n" "${about[$n]}"; done
  exit 0
fi
chosen=("${@:-${names[@]}}")
for n in "${chosen[@]}"; do
  [ -n "${about[$n]+x}" ] || { echo "mutate: no mutation named '$n' (see --list)"; exit 2; }
done

mkdir -p "$copy" "$build"
: >"$log"
say "mutate: $(git -C "$root" rev-parse --short HEAD), ${#chosen[@]} mutations, copy in $work"
# The committed tree, unpacked beside the copy; only files that differ are copied over
# (with a new time), so the build of a past run is reused where nothing changed.
rm -rf "$work/head" && mkdir -p "$work/head"
git -C "$root" archive HEAD | tar -x -C "$work/head"
(cd "$work/head" && find . -type f) | while IFS= read -r f; do
  cmp -s "$work/head/$f" "$copy/$f" || { mkdir -p "$(dirname "$copy/$f")"; cp "$work/head/$f" "$copy/$f"; }
done
(cd "$copy" && find . -type f) | while IFS= read -r f; do
  [ -e "$work/head/$f" ] || rm -f "$copy/$f"
done
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$copy" -B "$build" -DCMAKE_BUILD_TYPE=Release -DEOSIM_GUI=OFF -DEOSIM_UNITY=OFF \
    >>"$log" 2>&1
fi
all_targets=$(for n in "${chosen[@]}"; do echo "${targets[$n]}"; done | tr ' ' '\n' | sort -u)
start=$SECONDS
# shellcheck disable=SC2086
build_targets $all_targets || { say "mutate: the unmutated copy does not build (see $log)"; exit 2; }
baseline=$(for n in "${chosen[@]}"; do echo "${tests[$n]}"; done | sort -u)
while IFS= read -r line; do
  if ! run_test "$line" >>"$log" 2>&1; then
    say "mutate: without any mutation, this test fails: $line (see $log)"; exit 2
  fi
done <<<"$baseline"
say "mutate: unmutated copy built and its tests pass ($((SECONDS - start)) s)"

survivors=()
for n in "${chosen[@]}"; do
  t0=$SECONDS
  if ! patch -d "$copy" -p1 --quiet <<<"${patches[$n]}" >>"$log" 2>&1; then
    say "mutate: $n: the patch no longer applies (update it in scripts/mutate.sh)"; exit 2
  fi
  # shellcheck disable=SC2086
  if ! build_targets ${targets[$n]}; then
    verdict="KILLED by the build"
  else
    broken=$(failing_tests "$n")
    if [ -n "$broken" ]; then
      verdict="KILLED by: $(echo "$broken" | paste -sd ';' | sed 's/;/; /g')"
    else
      verdict="SURVIVED"; survivors+=("$n")
    fi
  fi
  patch -d "$copy" -p1 -R --quiet <<<"${patches[$n]}" >>"$log" 2>&1
  say "$n ($((SECONDS - t0)) s): $verdict"
done
say "mutate: ${#chosen[@]} mutations, $(( ${#chosen[@]} - ${#survivors[@]} )) killed, ${#survivors[@]} survived${survivors[*]:+: ${survivors[*]}} ($((SECONDS - start)) s)"
[ ${#survivors[@]} -eq 0 ]
