#include "src/consumer/strategy.h"

#include <array>

namespace consumer {

bool strategy_named(std::string_view name, Strategy& out) {
  using A = AckTiming;
  using D = Dedup;
  using E = ErrorPolicy;
  using P = PoisonPolicy;
  const std::array<Strategy, 8> presets{{
      {"atomic", A::kAfterCommit, D::kSameTxn, E::kExact, P::kRecordOrDeadLetter},
      {"auto-ack", A::kAuto, D::kNone, E::kExact, P::kRecordOrDeadLetter},
      {"ack-before-commit", A::kBeforeCommit, D::kSameTxn, E::kExact, P::kRecordOrDeadLetter},
      {"no-dedup", A::kAfterCommit, D::kNone, E::kExact, P::kRecordOrDeadLetter},
      {"separate-dedup-store", A::kAfterCommit, D::kSeparateStore, E::kExact,
       P::kRecordOrDeadLetter},
      {"check-then-act", A::kAfterCommit, D::kCheckThenAct, E::kExact, P::kRecordOrDeadLetter},
      {"naive-errors", A::kAfterCommit, D::kSameTxn, E::kAllDuplicate, P::kRecordOrDeadLetter},
      {"requeue-poison", A::kAfterCommit, D::kSameTxn, E::kExact, P::kRequeueForever},
  }};
  for (const auto& preset : presets) {
    if (preset.name == name) {
      out = preset;
      return true;
    }
  }
  return false;
}

}  // namespace consumer
