#pragma once
// live::Status - the result of every operation on a real broker or a child process, as a
// value. The live side talks to the OS and the network, so failures are ordinary: a
// missing program, a port taken, a channel closed by the broker. Callers must look.
//
// Invariants: ok() <=> message is empty. `reply_code` is the AMQP reply code when the
// broker closed the channel or connection (404, 406, 320, ...), else 0.

#include <string>
#include <utility>

namespace live {

struct [[nodiscard]] Status {
  std::string message;  // empty = success; otherwise one line a user can act on
  int reply_code = 0;
  // The user's input is at fault (their consumer command, their effects query): exit 2.
  bool bad_input = false;

  bool ok() const { return message.empty(); }
  static Status success() { return {}; }
  static Status bad_input_error(std::string text) {
    Status status = error(std::move(text));
    status.bad_input = true;
    return status;
  }
  static Status error(std::string text, int code = 0) {
    Status status;
    status.message = std::move(text);
    status.reply_code = code;
    return status;
  }
};

}  // namespace live
