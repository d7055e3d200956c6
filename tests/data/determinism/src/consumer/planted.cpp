// Planted for the determinism check (tests/CMakeLists.txt): an unordered_map in a comment
// or a "std::unordered_map" in a string is not reported; the member below is.
#include <string>
#include <unordered_map>

struct Seen {
  std::unordered_map<std::string, int> by_id;
};
