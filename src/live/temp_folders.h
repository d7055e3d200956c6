#pragma once
// The temporary folders of `eosim live` (run folders eosim-live-*, private brokers'
// eosim-rabbit-*, private PostgreSQL clusters' eosim-pg-*, private Redis servers'
// eosim-redis-*) after an eosim killed with
// SIGKILL: nothing of that process could remove them, so the next `eosim live` does -
// only folders it can prove are an eosim's that has died, never another user's or a
// running one's.
//
// The proof is a lock: claim_folder() writes DIR/eosim.lock (the owner's pid, for people)
// and holds an exclusive flock(2) on it for as long as the folder is in use. The kernel
// drops the lock when its process dies, however it dies, so a folder whose lock can be
// taken has no owner any more; a pid alone could have been reused. The lock's descriptor
// is close-on-exec and child processes get stdin, stdout and stderr only (process.h), so no
// child keeps a dead eosim's lock held.
//
// Not thread-safe: called from the command's main thread.

#include <string>
#include <vector>

#include "src/live/status.h"

namespace live {

// Writes DIR/eosim.lock and holds its lock until release_folder(dir) or the process ends.
Status claim_folder(const std::string& dir);
// Lets go of the lock (before the folder is removed).
void release_folder(const std::string& dir);

// Removes every folder eosim-live-*, eosim-rabbit-*, eosim-pg-* or eosim-redis-* directly in
// `temp_dir` that belongs to this user and holds an eosim.lock nobody holds; returns the folders
// removed.
std::vector<std::string> remove_stale_folders(const std::string& temp_dir);

}  // namespace live
