#pragma once
// The PostgreSQL side of the store layer's backend seam (src/store/remote.h), over libpq:
// a store::Db opened on a postgres:// URL talks to the server through this. It lives with
// the live side because only `eosim live` links libpq; the simulator never reaches it.
//
// Also the run's place on a server: each run gets a schema of its own (eosim_run_<pid>_<n>),
// so a user's database keeps everything of theirs; the run's URL sets search_path to it,
// and every actor's connection then sees only the run's tables.
//
// Invariants:
//  - Statements run with PQexecParams, parameters as text; errors carry the SQLSTATE
//    (store::Status::from_sqlstate), one line (libpq's newlines folded).
//  - A connection the server broke is reset before the next statement (remote.h (3)); if
//    that fails the statement's error is connection-lost (08001).
//  - sslmode=disable is added unless the URL sets sslmode: the servers are on loopback.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/live/endpoint.h"
#include "src/live/status.h"
#include "src/store/remote.h"

namespace live {

// Opens a connection for the store layer (the opener for postgres:// URLs; the live side
// registers it with install_server_stores(), redis_store.h).
store::Status open_postgres(const std::string& uri, std::unique_ptr<store::RemoteConn>& out);

// `base` (a postgres:// URL) with search_path set to `schema` and sslmode=disable unless
// the URL sets one.
std::string schema_url(const std::string& base, const std::string& schema);

// Creates a new schema on the server `base` names; `schema` is its name.
Status create_run_schema(const std::string& base, std::string& schema);
// Creates the schema `name` (new) on the server `base` names.
Status create_schema(const std::string& base, const std::string& name);
// Drops it, and everything in it (a user's server, after a run that kept nothing).
Status drop_run_schema(const std::string& base, const std::string& schema);

// Where the server `url` names listens, for the fault proxy in front of it: false (and
// `why`) when the link cannot go through the proxy - a Unix socket, several hosts, or an
// sslmode that insists on TLS (the proxy reads the messages, so it carries no TLS).
bool proxyable_server(const std::string& url, Endpoint& out, std::string& why);
// `url` with its host and port those of the fault proxy's listener on 127.0.0.1:`port`
// (libpq reads the last host and port a URL gives).
std::string via_proxy(const std::string& url, int port);

// Runs `sql` once on `url` (a connection of its own) and gives the first column of every
// row as text (NULL as nullopt) and that column's name: how eosim reads the user's
// consumer's effects from a ledger on PostgreSQL (user_consumer.h), in a read-only session
// (it cannot change the user's tables). An error, one line, when the login or the query
// fails, or the query gives no rows or no column.
Status first_column(const std::string& url, const std::string& sql,
                    std::vector<std::optional<std::string>>& values, std::string& column);

// Logs in to `url` once: "" when it works, else one line saying why (the password never
// shown).
std::string probe_postgres(const std::string& url);

}  // namespace live
