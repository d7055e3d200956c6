#include "src/store/sqlite_memory.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace store {

namespace {

// Usable sizes 32, 48, 64, 96, ..., 6144, 8192 bytes (powers of two and the halfway steps
// between them, so that a page-cache line of ~4.3 KB takes 6 KB, not 8); larger requests
// go to malloc as they are.
constexpr std::uint32_t kClasses = 17;
constexpr std::uint32_t kSystem = 0xffffffff;  // a block straight from malloc
constexpr std::size_t kMaxCachedBytes = std::size_t{8} << 20;
constexpr std::size_t kLargestClass = 8192;

// In front of every block: 16 bytes keep the block 16-byte aligned, as malloc's are.
struct Header {
  std::uint32_t cls;  // its class, or kSystem
  std::uint32_t unused;
  std::uint64_t size;  // usable bytes (what xSize reports)
};
static_assert(sizeof(Header) == 16);

struct FreeBlock {
  FreeBlock* next;
};

// Class 0 holds 32 bytes; class 2k holds 32 << k, class 2k + 1 holds 48 << k.
constexpr std::size_t capacity(std::uint32_t cls) {
  return (cls % 2 == 0 ? std::size_t{32} : std::size_t{48}) << (cls / 2);
}

// The smallest class that holds n bytes, or kSystem.
constexpr std::uint32_t smallest_class(std::size_t n) {
  std::uint32_t cls = 0;
  while (cls < kClasses && capacity(cls) < n) ++cls;
  return cls < kClasses ? cls : kSystem;
}

// Every capacity is a multiple of 16 bytes, so the class of n bytes is the class of its
// number of 16-byte units, (n + 15) / 16: one load from this table, for every size up to
// the largest class.
constexpr std::size_t kUnit = 16;
constexpr auto kClassOfUnits = [] {
  std::array<std::uint8_t, kLargestClass / kUnit + 1> table{};
  for (std::size_t units = 0; units < table.size(); ++units) {
    table[units] = static_cast<std::uint8_t>(smallest_class(units * kUnit));
  }
  return table;
}();
constexpr auto kCapacity = [] {
  std::array<std::uint32_t, kClasses> table{};
  for (std::uint32_t cls = 0; cls < kClasses; ++cls) {
    table[cls] = static_cast<std::uint32_t>(capacity(cls));
  }
  return table;
}();
static_assert(capacity(kClasses - 1) == kLargestClass);

std::uint32_t class_of(std::size_t n) {
  return n <= kLargestClass ? kClassOfUnits[(n + kUnit - 1) / kUnit] : kSystem;
}

// One thread's free blocks per class. Constant-initialised and trivially destructible, so
// that reaching them costs no check whether the thread initialised them: the fast paths
// are a load from the list and a store. A thread registers its lists for release at its
// end (Releaser) when it first keeps a block, and a block is kept only while
// cached_bytes + its size <= kMaxCachedBytes: before the thread registers and after its
// lists were released, cached_bytes is kClosed, so every free goes the slow way (which
// registers, or hands the block to free()).
constexpr std::size_t kClosed = std::size_t{1} << 62;
enum class ListsState : std::uint8_t { kUnregistered, kOpen, kReleased };
struct Lists {
  FreeBlock* head[kClasses];
  std::size_t cached_bytes;
  ListsState state;
};
constinit thread_local Lists t_lists = {{}, kClosed, ListsState::kUnregistered};

// Returns a thread's blocks to malloc when the thread ends; later frees on the thread
// (another thread-local's destructor freeing SQLite memory) go straight to free().
struct Releaser {
  bool armed = false;
  Releaser() = default;
  Releaser(const Releaser&) = delete;
  Releaser& operator=(const Releaser&) = delete;
  ~Releaser() {
    Lists& lists = t_lists;
    lists.state = ListsState::kReleased;
    lists.cached_bytes = kClosed;
    for (FreeBlock*& block : lists.head) {
      while (block != nullptr) {
        FreeBlock* next = block->next;
        std::free(reinterpret_cast<Header*>(block) - 1);
        block = next;
      }
    }
  }
};
thread_local Releaser t_releaser;

Header* header_of(void* p) { return static_cast<Header*>(p) - 1; }

void* system_block(std::size_t size) {
  auto* h = static_cast<Header*>(std::malloc(sizeof(Header) + size));
  if (h == nullptr) return nullptr;
  h->cls = kSystem;
  h->size = size;
  return h + 1;
}

// A new block of class `cls` from malloc: the thread's list of that class is empty.
[[gnu::noinline]] void* new_block(std::uint32_t cls) {
  auto* h = static_cast<Header*>(std::malloc(sizeof(Header) + kCapacity[cls]));
  if (h == nullptr) return nullptr;
  h->cls = cls;
  h->size = kCapacity[cls];
  return h + 1;
}

// A block of at least `size` bytes (0 included).
inline void* allocate(std::size_t size) {
  if (size > kLargestClass) return system_block(size);
  const std::uint32_t cls = kClassOfUnits[(size + kUnit - 1) / kUnit];
  Lists& lists = t_lists;
  FreeBlock* block = lists.head[cls];
  if (block == nullptr) return new_block(cls);
  lists.head[cls] = block->next;
  lists.cached_bytes -= kCapacity[cls];
  return block;
}

// Puts a block of a class on the thread's list. REQUIRES: the lists are open, and
// cached_bytes + its size <= kMaxCachedBytes.
inline void keep(Lists& lists, Header* h) {
  auto* block = reinterpret_cast<FreeBlock*>(h + 1);
  block->next = lists.head[h->cls];
  lists.head[h->cls] = block;
  lists.cached_bytes += h->size;
}

// A block that is not kept on the fast path: from malloc, over the cap, or the thread's
// lists are not open (not registered yet, or released).
[[gnu::noinline]] void free_slow(Header* h) {
  Lists& lists = t_lists;
  if (h->cls == kSystem || lists.state == ListsState::kReleased) {
    std::free(h);
    return;
  }
  if (lists.state == ListsState::kUnregistered) {
    t_releaser.armed = true;  // constructs it: its destructor runs at the thread's end
    lists.state = ListsState::kOpen;
    lists.cached_bytes = 0;
  }
  if (lists.cached_bytes + h->size > kMaxCachedBytes) {
    std::free(h);
    return;
  }
  keep(lists, h);
}

inline void release(void* p) {
  Header* h = header_of(p);
  Lists& lists = t_lists;
  if (h->cls == kSystem || lists.cached_bytes + h->size > kMaxCachedBytes) {
    free_slow(h);
    return;
  }
  keep(lists, h);
}

void* pool_malloc(int n) { return allocate(static_cast<std::size_t>(std::max(n, 0))); }

void pool_free(void* p) {
  if (p != nullptr) release(p);
}

int pool_size(void* p) { return p == nullptr ? 0 : static_cast<int>(header_of(p)->size); }

void* pool_realloc(void* p, int n) {
  const auto size = static_cast<std::size_t>(std::max(n, 1));
  Header* h = header_of(p);
  if (h->cls != kSystem && size <= h->size) return p;  // still fits its class
  if (h->cls == kSystem && class_of(size) == kSystem) {
    auto* grown = static_cast<Header*>(std::realloc(h, sizeof(Header) + size));
    if (grown == nullptr) return nullptr;
    grown->size = size;
    return grown + 1;
  }
  void* q = pool_malloc(n);
  if (q == nullptr) return nullptr;
  std::memcpy(q, p, std::min<std::size_t>(h->size, size));
  pool_free(p);
  return q;
}

int pool_roundup(int n) { return (n + 7) & ~7; }
int pool_init(void*) { return SQLITE_OK; }
void pool_shutdown(void*) {}

sqlite3_mem_methods g_methods = {pool_malloc,  pool_free, pool_realloc,  pool_size,
                                 pool_roundup, pool_init, pool_shutdown, nullptr};

}  // namespace

void* pooled_new(std::size_t size) {
  void* p = allocate(size);
  if (p == nullptr) [[unlikely]]
    throw std::bad_alloc();
  return p;
}

void pooled_delete(void* p) noexcept { pool_free(p); }

bool configure_sqlite() {
  static const bool installed = [] {
    // Fails harmlessly (SQLITE_MISUSE) when SQLite has initialised already.
    static_cast<void>(sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0));
    return kOwnAllocator && sqlite3_config(SQLITE_CONFIG_MALLOC, &g_methods) == SQLITE_OK;
  }();
  return installed;
}

void configure_connection(sqlite3* handle) {
  // A pragma that sets a flag: it cannot fail on an open connection.
  static_cast<void>(sqlite3_exec(handle, "PRAGMA secure_delete = OFF", nullptr, nullptr, nullptr));
}

}  // namespace store

// The process's operator new and delete (see the header): the simulation's own small
// allocations take the same per-thread lists as SQLite's. Only where the allocator is
// installed at all (not under AddressSanitizer, which needs to see every block).
#if EOSIM_OWN_OPERATOR_NEW
void* operator new(std::size_t size) { return store::pooled_new(size); }
void* operator new[](std::size_t size) { return store::pooled_new(size); }
void* operator new(std::size_t size, const std::nothrow_t& /*unused*/) noexcept {
  try {
    return store::pooled_new(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& /*unused*/) noexcept {
  return ::operator new(size, std::nothrow);
}
void operator delete(void* p) noexcept { store::pooled_delete(p); }
void operator delete[](void* p) noexcept { store::pooled_delete(p); }
void operator delete(void* p, std::size_t /*size*/) noexcept { store::pooled_delete(p); }
void operator delete[](void* p, std::size_t /*size*/) noexcept { store::pooled_delete(p); }
void operator delete(void* p, const std::nothrow_t& /*unused*/) noexcept {
  store::pooled_delete(p);
}
void operator delete[](void* p, const std::nothrow_t& /*unused*/) noexcept {
  store::pooled_delete(p);
}
#endif
