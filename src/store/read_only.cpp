#include "src/store/read_only.h"

#include <link.h>

#include <cstdint>

namespace store {

namespace {

// The program's read-only, non-executable segments (at most a few: the headers' and
// .rodata's), found once.
struct ReadOnlySegments {
  static constexpr int kMax = 4;
  std::uintptr_t begin[kMax] = {};
  std::uintptr_t end[kMax] = {};
  int count = 0;
};

int collect_read_only(dl_phdr_info* info, std::size_t /*size*/, void* data) {
  auto* out = static_cast<ReadOnlySegments*>(data);
  for (int i = 0; i < info->dlpi_phnum && out->count < ReadOnlySegments::kMax; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & (PF_W | PF_X)) != 0) continue;
    const std::uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    out->begin[out->count] = begin;
    out->end[out->count] = begin + ph.p_memsz;
    ++out->count;
  }
  return 1;  // the first object is the program itself: stop there
}

ReadOnlySegments find_read_only() {
  ReadOnlySegments segments;
  dl_iterate_phdr(collect_read_only, &segments);
  return segments;
}

}  // namespace

bool read_only_text(std::string_view text) {
  static const ReadOnlySegments segments = find_read_only();
  const auto begin = reinterpret_cast<std::uintptr_t>(text.data());
  for (int i = 0; i < segments.count; ++i) {
    if (begin >= segments.begin[i] && begin < segments.end[i] &&
        text.size() <= segments.end[i] - begin) {
      return true;
    }
  }
  return false;
}

}  // namespace store
