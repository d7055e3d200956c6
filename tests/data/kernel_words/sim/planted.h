#pragma once
// The broker's queue, as the kernel must not know it.
enum class Planted { kSend, kEnqueue };
inline const char* kWords[] = {"dead-letter", "basic.ack"};
// Ordered in order: no finding here.
