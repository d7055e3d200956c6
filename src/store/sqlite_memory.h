#pragma once
// How eosim configures SQLite for the process: a lab of many small runs, one thread per
// connection.
//
// - Memory statistics off (SQLITE_CONFIG_MEMSTATUS): SQLite counted every allocation under
//   one process-wide mutex, which serialised a sweep's worker threads.
// - An allocator of its own (SQLITE_CONFIG_MALLOC): size classes with a free list per
//   thread in front of the C library's malloc. Debian's SQLite is built without lookaside
//   (SQLITE_OMIT_LOOKASIDE), so every small allocation of a statement step went to
//   malloc, and the in-memory journal allocates a 1 KB chunk per kilobyte journalled:
//   about 1,200 allocations per 10-order run. A class's block is reused by the next
//   allocation of that class on the thread, without malloc's bins.
// - Per connection (configure_connection), secure_delete off: Debian builds SQLite with
//   SQLITE_SECURE_DELETE, which overwrites every freed page with zeros, and a World
//   empties its tables before every run.
//
// Invariants:
//   (1) Nothing SQLite returns depends on the allocator: it decides where memory is, never
//       what a statement does. Traces are the same with and without it.
//   (2) Every block carries its class in a header, so any thread frees any block (it goes
//       to the freeing thread's list).
//   (3) A thread's lists hold at most kMaxCachedBytes; the rest goes back to malloc, and a
//       thread's lists are returned to malloc when the thread ends.
//   (4) Under AddressSanitizer the allocator is not installed: ASan sees SQLite's memory
//       and the program's as before.
//   (5) The program's own operator new and delete use it too (pooled_new): a sweep's run
//       makes ~490 small allocations of its own (frames, messages, strings, the World's
//       objects), and malloc's bins cost ~190 instructions per new and delete where a
//       class's list costs a few dozen. Where memory lies decides nothing: no container
//       is ordered or hashed by address (the determinism guard), so traces are the same.
// REQUIRES: configure_sqlite() runs before SQLite initialises (store::Db::open calls it
//   first); if SQLite was initialised already, SQLite's own configuration stays.

#include <cstddef>

struct sqlite3;

namespace store {

// Whether this build installs the allocator: not under AddressSanitizer (invariant 4),
// whether GCC (__SANITIZE_ADDRESS__) or clang (__has_feature) built it.
#if defined(__SANITIZE_ADDRESS__)
#define EOSIM_OWN_OPERATOR_NEW 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EOSIM_OWN_OPERATOR_NEW 0
#else
#define EOSIM_OWN_OPERATOR_NEW 1
#endif
#else
#define EOSIM_OWN_OPERATOR_NEW 1
#endif
inline constexpr bool kOwnAllocator = EOSIM_OWN_OPERATOR_NEW != 0;

// The allocator behind the process's operator new and delete (sqlite_memory.cpp replaces
// them where kOwnAllocator): a block of the size classes, or malloc's above 8 KB, with the
// same header as SQLite's blocks. pooled_new throws std::bad_alloc when malloc fails.
void* pooled_new(std::size_t size);
void pooled_delete(void* p) noexcept;

// Configures SQLite once for the process (later calls do nothing). Returns true when the
// allocator above is SQLite's (false: SQLite had initialised before, or ASan).
bool configure_sqlite();

// Configures a connection just opened (secure_delete off). Changes how much SQLite writes
// to free pages, never what a statement returns. REQUIRES: an open SQLite connection.
void configure_connection(sqlite3* handle);

}  // namespace store
