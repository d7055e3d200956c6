// The out-of-line parts of DeathBox (message.h): its copies and its empty default.
#include "src/broker/message.h"

namespace broker {

DeathBox::DeathBox(const DeathBox& other)
    : headers_(other.headers_ ? std::make_unique<DeathHeaders>(*other.headers_) : nullptr) {}

DeathBox& DeathBox::operator=(const DeathBox& other) {
  headers_ = other.headers_ ? std::make_unique<DeathHeaders>(*other.headers_) : nullptr;
  return *this;
}

const DeathHeaders& DeathBox::get() const {
  static const DeathHeaders kNone;
  return headers_ ? *headers_ : kNone;
}

DeathHeaders& DeathBox::edit() {
  if (!headers_) headers_ = std::make_unique<DeathHeaders>();
  return *headers_;
}

}  // namespace broker
