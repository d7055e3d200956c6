// Planted for the enum_names check (tests/enum_names/expected.txt): two hand-written name
// switches, one per form, and cases the check must leave alone. Kept in these forms, as
// hand-written code has them:
// clang-format off
enum class Kind { kBusy, kOther, kNone };

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kBusy: return "busy";
    case Kind::kOther:
      return "other";
    case Kind::kNone: break;
  }
  return "?";
}

std::string kind_text(Kind kind, int n) {
  switch (kind) {
    case Kind::kBusy: return "busy for " + std::to_string(n);
    case Kind::kOther:
      return sim::name_of(kind);
    case Kind::kNone: return "";
  }
  return "";
}
// clang-format on
