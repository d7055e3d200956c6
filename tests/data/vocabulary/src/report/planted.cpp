// Planted violations for the vocabulary check (tests/vocabulary/expect_violation.cmake).
bool bad_verdict(const Summary& s) { return s.verdict == "exactly-once"; }
bool bad_kind(const Event& e) { return e.kind != "crash"; }
bool fine(const Event& e) { return e.kind == EventKind::kCrash; }
