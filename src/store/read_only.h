#pragma once
// store::read_only_text — whether a text lies in the program's read-only data, where the
// compiler puts string literals: memory mapped without write access, so the bytes at an
// address there never change while the program runs.
//
// Db::statement() caches a statement by the address and size of its SQL text; for a text
// in read-only data the address alone then proves the text, and the hit needs no
// comparison of the bytes. A caller's buffer (stack, heap, writable data) is never read
// only, so it is still compared.
//
// Invariants:
//   (1) True only when every byte of `text` lies in one loadable segment of the program
//       itself (not a shared library, which could be unloaded) mapped read-only and not
//       executable (.rodata).
//   (2) An answer of false is always safe (the caller compares the bytes): when the
//       segments cannot be read, nothing is read only.

#include <string_view>

namespace store {

bool read_only_text(std::string_view text);

}  // namespace store
