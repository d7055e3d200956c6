#pragma once
// live::Status is eosim::Status (src/status/status.h): the result of every operation on a
// real broker or a child process, as a value. The live side talks to the OS and the
// network, so failures are ordinary: a missing program, a port taken, a channel closed by
// the broker (its AMQP reply code in `reply_code`). Callers must look.

#include "src/status/status.h"

namespace live {

using Status = eosim::Status;

}  // namespace live
