// Not reported: src/live runs against real time.
#include <chrono>
#include <unordered_map>
