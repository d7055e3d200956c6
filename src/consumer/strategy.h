#pragma once
// A consumer strategy is a set of design knobs; each knob is one decision from the
// article. The presets are the rows of DESIGN.md's strategy table.

#include <string>
#include <string_view>

namespace consumer {

enum class AckTiming {
  kAfterCommit,   // ack only once the effect is durable (correct)
  kBeforeCommit,  // ack, then do the work: a crash in between loses the effect
  kAuto,          // basic.consume no-ack: counted as acked when sent
};

enum class Dedup {
  kSameTxn,        // dedup row inserted in the business transaction, unique key (correct)
  kNone,           // no dedup at all: every redelivery is applied again
  kSeparateStore,  // dedup key written first to another store (the Redis anti-pattern)
  kCheckThenAct,   // SELECT first, act in a later transaction: races with a second consumer
};

enum class ErrorPolicy {
  kExact,         // classify by SQLite's extended code: only a unique violation is a duplicate
  kAllDuplicate,  // the article's isUniqueConstraintViolation() that returns true
};

enum class PoisonPolicy {
  kRecordOrDeadLetter,  // record the refusal and ack, or reject to the dead-letter queue
  kRequeueForever,      // nack with requeue: the message comes back, forever
};

struct Strategy {
  std::string name;
  AckTiming ack = AckTiming::kAfterCommit;
  Dedup dedup = Dedup::kSameTxn;
  ErrorPolicy errors = ErrorPolicy::kExact;
  PoisonPolicy poison = PoisonPolicy::kRecordOrDeadLetter;
};

// The preset of that name, or false if there is none (names are in lab/catalog.h).
bool strategy_named(std::string_view name, Strategy& out);

}  // namespace consumer
