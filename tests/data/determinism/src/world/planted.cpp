// Planted: a clock and randomness in a folder that must be deterministic.
#include <chrono>
#include <random>

long now_ms() { return std::chrono::steady_clock::now().time_since_epoch().count(); }
