#pragma once
// The files eosim writes for a user: `-o OUT.toml` (shrink, explore), `sweep --plot`,
// `lesson --course` pictures, the GUI's Export and `eosim-gui --screenshot`. One rule for
// all of them:
//   - the input (a scenario, a lesson, a trace: `inputs`) is never an output, whatever
//     --force says;
//   - nothing already there is replaced unless the user said --force (the GUI asks);
//   - never through a symbolic link: one to a missing file is refused (writing would
//     create its target somewhere else), one to a file counts as the file that is there,
//     and --force replaces the link, never its target;
//   - a folder, FIFO, device or socket is never a place to write, --force or not;
//   - the bytes go to a new file in the target's folder, every write and the close are
//     checked, then it takes the name in one step (link() without --force, so a file that
//     appeared meanwhile is not replaced; rename() with --force): a failure (a full disk)
//     or a kill leaves the old file as it was and nothing else behind.
// Each function returns a Status whose message names the path and the OS's reason; the
// caller prints it and exits 2.

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

#include "src/status/status.h"

namespace files {

// Checks that `path` can be written, before any work is done. "" is always fine (no such
// option given).
eosim::Status check_output_file(const std::string& path, const std::vector<std::string>& inputs,
                                bool force);

// "a folder", "a FIFO", "a device", "a socket", "not a regular file": what sits where a
// file was wanted, for messages.
const char* kind_of(mode_t mode);

// True when something (a file, a link, anything) is at `path`: the GUI asks before it
// writes with `force`.
bool output_exists(const std::string& path);

// Writes `bytes` to `path` as the header says. REQUIRES: check_output_file passed (it is
// checked again where it matters: the name is taken atomically).
eosim::Status write_output_file(const std::string& path, std::string_view bytes, bool force);

}  // namespace files
