#pragma once
// Before any run against a broker of the user's (--broker): can eosim do there what a run
// does? One connection declares a queue under a name of its own ("eosim-live-<pid>-probe",
// not durable, so nothing stays behind), publishes one message to it, consumes it and
// deletes the queue - the configure, write and read permissions a run needs, on the URL's
// vhost. Whatever fails comes back as an error with the broker's own reason (its AMQP
// reply code and text: 403 ACCESS_REFUSED, 530 NOT_ALLOWED, 404 NOT_FOUND ...) or the
// socket's; the password is never part of it.
//
// Also what the broker says it is (connection.start's product and version), for the
// report: a run is only as good as knowing what it ran against.

#include "src/live/amqp_client.h"
#include "src/live/endpoint.h"
#include "src/live/status.h"

namespace live {

// REQUIRES: nothing; connects, checks and closes again. `server` is filled once the login
// succeeded, even when a later step fails.
Status probe_broker(const Endpoint& endpoint, ServerInfo& server);

// Whether an error from a broker is the user's to fix (exit 2: bad credentials, a missing
// vhost, missing permissions, nothing listening) rather than trouble during a run (exit 3).
bool is_access_error(const Status& status);

}  // namespace live
