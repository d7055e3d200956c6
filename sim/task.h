#pragma once
// What a scheduled event runs: a closure kept in place, without std::function's costs.
//
// The scheduler keeps one per pending event. A closure of up to kInline bytes (most of them:
// an owner and a few numbers) lives inside the Task, built there directly; a larger one is
// allocated. Running it is one indirect call; moving or destroying it costs an indirect call
// only for a closure that is not trivially copyable (one holding a string, say), where
// std::function paid a manager call on every destruction and an allocation for any closure
// over two words or not trivially copyable.
//
// Invariants:
//  (1) A Task is empty (default, moved from, or reset) or holds exactly one closure.
//  (2) Moving a Task moves its closure; the source is left empty.

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace sim {

class Task;

// Whether a closure of type Fn is kept inside a Task (else it is allocated). Each test is a
// constant for a given Fn, which clang-tidy takes for a redundant expression.
template <class Fn>
inline constexpr bool kFitsInline =
    sizeof(Fn) <= 32 &&  // NOLINT(misc-redundant-expression)
    alignof(Fn) <= alignof(std::max_align_t) && std::is_nothrow_move_constructible_v<Fn>;

class Task {
 public:
  static constexpr std::size_t kInline = 32;  // bytes kept inline (kFitsInline)

  Task() = default;
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  Task(Task&& other) noexcept { take(other); }
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  ~Task() { reset(); }

  // Holds `fn` from now on (whatever it held before is destroyed first).
  template <class F>
  void emplace(F&& fn) {
    using Fn = std::decay_t<F>;
    reset();
    if constexpr (kFitsInline<Fn>) {
      ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(fn));
      invoke_ = [](void* at) { (*std::launder(static_cast<Fn*>(at)))(); };
      if constexpr (!(std::is_trivially_copyable_v<Fn> && std::is_trivially_destructible_v<Fn>)) {
        manage_ = [](void* to, void* from) {
          Fn* source = std::launder(static_cast<Fn*>(from));
          if (to != nullptr) ::new (to) Fn(std::move(*source));
          source->~Fn();
        };
      }
    } else {
      ::new (static_cast<void*>(storage_)) Fn*(new Fn(std::forward<F>(fn)));
      invoke_ = [](void* at) { (**std::launder(static_cast<Fn**>(at)))(); };
      manage_ = [](void* to, void* from) {
        Fn* held = *std::launder(static_cast<Fn**>(from));
        if (to != nullptr) {
          ::new (to) Fn*(held);  // the pointer moves, the closure stays
        } else {
          delete held;
        }
      };
    }
  }

  explicit operator bool() const { return invoke_ != nullptr; }
  // REQUIRES: holds a closure.
  void operator()() { invoke_(storage_); }

  // Destroys the closure it holds, if any (invariant 1).
  void reset() {
    if (manage_ != nullptr) manage_(nullptr, storage_);
    invoke_ = nullptr;
    manage_ = nullptr;
  }

 private:
  void take(Task& other) {
    if (other.manage_ != nullptr) {
      other.manage_(storage_, other.storage_);
    } else {
      std::memcpy(storage_, other.storage_, kInline);
    }
    invoke_ = other.invoke_;
    manage_ = other.manage_;
    other.invoke_ = nullptr;
    other.manage_ = nullptr;
  }

  alignas(std::max_align_t) unsigned char storage_[kInline]{};
  void (*invoke_)(void*) = nullptr;
  // Moves the closure from `from` into `to` and destroys the source, or only destroys it
  // when `to` is null. Null for a trivially copyable closure kept inline: memcpy moves it.
  void (*manage_)(void* to, void* from) = nullptr;
};

}  // namespace sim
