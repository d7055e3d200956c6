#include "src/store/sqlite_memory.h"

#include <sqlite3.h>

#include <algorithm>
#include <bit>
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

std::uint32_t class_of(std::size_t n) {
  if (n <= 32) return 0;
  const auto bits = static_cast<std::uint32_t>(std::bit_width(n - 1));  // 2^(bits-1) < n <= 2^bits
  const std::size_t halfway = std::size_t{3} << (bits - 2);             // 1.5 * 2^(bits-1)
  const std::uint32_t cls = 2 * (bits - 6) + (n <= halfway ? 1 : 2);
  return cls < kClasses ? cls : kSystem;
}

// One thread's free blocks per class. Its destructor hands them back to malloc, and the
// thread's later frees (another thread-local's destructor freeing SQLite memory) go
// straight to free(): t_gone is trivially destructible, so it stays readable.
thread_local bool t_gone = false;
struct Lists {
  FreeBlock* head[kClasses] = {};
  std::size_t cached_bytes = 0;
  Lists() = default;
  Lists(const Lists&) = delete;
  Lists& operator=(const Lists&) = delete;
  ~Lists() {
    t_gone = true;
    for (FreeBlock*& block : head) {
      while (block != nullptr) {
        FreeBlock* next = block->next;
        std::free(reinterpret_cast<Header*>(block) - 1);
        block = next;
      }
    }
  }
};
thread_local Lists t_lists;

Header* header_of(void* p) { return static_cast<Header*>(p) - 1; }

void* system_block(std::size_t size) {
  auto* h = static_cast<Header*>(std::malloc(sizeof(Header) + size));
  if (h == nullptr) return nullptr;
  h->cls = kSystem;
  h->size = size;
  return h + 1;
}

void* pool_malloc(int n) {
  const auto size = static_cast<std::size_t>(std::max(n, 1));
  const std::uint32_t cls = class_of(size);
  if (cls == kSystem || t_gone) {
    return system_block(size);
  }
  Lists& lists = t_lists;
  if (FreeBlock* block = lists.head[cls]) {
    lists.head[cls] = block->next;
    lists.cached_bytes -= capacity(cls);
    return block;
  }
  auto* h = static_cast<Header*>(std::malloc(sizeof(Header) + capacity(cls)));
  if (h == nullptr) return nullptr;
  h->cls = cls;
  h->size = capacity(cls);
  return h + 1;
}

void pool_free(void* p) {
  if (p == nullptr) return;
  Header* h = header_of(p);
  if (h->cls == kSystem || t_gone) {
    std::free(h);
    return;
  }
  Lists& lists = t_lists;
  if (lists.cached_bytes + h->size > kMaxCachedBytes) {
    std::free(h);
    return;
  }
  auto* block = static_cast<FreeBlock*>(p);
  block->next = lists.head[h->cls];
  lists.head[h->cls] = block;
  lists.cached_bytes += h->size;
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
  void* p = size <= kLargestClass ? pool_malloc(static_cast<int>(size)) : system_block(size);
  if (p == nullptr) throw std::bad_alloc();
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
