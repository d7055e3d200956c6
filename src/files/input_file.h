#pragma once
// Reading a file a user names as input (a scenario, a lesson, a sweep result for `merge`, a
// trace for the GUI): one set of checks for every reader, so none can be made to hang or to
// eat the machine's memory.
//
// read_input_file refuses, with a message that starts with what the file is (the caller
// puts the path before it):
//   - a file it cannot open (the OS's reason: missing, no permission, a symlink loop);
//   - anything but a regular file: a folder, a FIFO (opened without blocking, so a FIFO
//     with no writer never hangs the reader), a device (/dev/zero is never read), a socket;
//   - a file over the reader's cap, checked before reading and again while reading (a file
//     that grows meanwhile is cut at cap + 1 bytes and refused).
// Memory used: the file's size, at most cap + 1 bytes.

#include <cstdint>
#include <string>

#include "src/status/status.h"

namespace files {

struct InputLimit {
  const char* noun;         // "scenario file", "trace", "sweep result"
  std::int64_t max_bytes;   // the cap
  const char* why_enough;   // after "is larger than N MiB; ", e.g. "a scenario file is a
                            // few kB of TOML"
};

eosim::Status read_input_file(const std::string& path, const InputLimit& limit, std::string& text);

}  // namespace files
