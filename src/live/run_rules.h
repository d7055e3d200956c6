#pragma once
// Which scenarios a live run takes, and which of their rules stop the broker.
//
// A live run takes scripted rules on content only (site, order, attempt, frame, nth): wall
// time would decide a tick or step trigger and a random ratio, and a live run must end the
// same way every time. Of the sites, it has the crash sites (a process kills itself),
// db.commit, the network rules the fault proxy applies, and broker.restart / broker.crash,
// which stop the private broker eosim started - never a broker of the user's. The
// database link's sites: db.commit_reply, with the stores on PostgreSQL, is carried out
// on the wire by the fault proxy in front of the server (db_faults.h: the COMMIT reaches
// the server, its reply is dropped, the consumer's connection reset); on SQLite, which
// has no wire, the consumer process drops its own connection after the COMMIT, as the
// model does. db.restart restarts the private PostgreSQL (`-m immediate`) while the
// consumer waits with its transaction open (on SQLite, whose "server" is the process's
// own connection, the consumer drops that connection). The order service's link has the
// same two, db.producer_commit_reply and db.producer_restart, carried out the same way.
// The separate dedup store's link has dedup.mark_reply: with the store on Redis the fault
// proxy in front of it drops the +OK answering the mark (SET NX) and resets the
// consumer's connection (resp_wire.h); with an SQLite file the consumer drops its own.

#include <string>

#include "src/scenario/scenario.h"

namespace live {

// Why `scenario` cannot run live, or "" when it can: random fault ratios, tick and step
// triggers (wall time would decide them), and the sites this live mode does not have yet.
std::string live_refusal(const lab::Scenario& scenario);

// Why `scenario` cannot run against a broker of the user's (--broker), or "": restarting
// or killing the broker, and node settings (consumer_timeout), need the private broker
// eosim starts. Asked on top of live_refusal.
std::string broker_refusal(const lab::Scenario& scenario);

// Why `scenario` cannot run on the database server given (--store postgres://...: the
// user's, `users_server`), or "": db.restart restarts the server, which only a private
// one may be.
std::string database_refusal(const lab::Scenario& scenario, bool users_server);

// Whether `site` is db.restart or db.producer_restart: the supervisor restarts a private
// PostgreSQL there.
bool is_database_restart(const std::string& site);

// Whether `rule` is one the fault proxy in front of the database server carries out
// (db.commit_reply, db.producer_commit_reply; db_faults.h): an actor whose link goes
// through it leaves the rule out.
bool is_wire_database_rule(const sim::FaultRule& rule);
// Whether `rule` is one the fault proxy in front of the separate dedup store's Redis
// carries out (dedup.mark_reply): a consumer whose dedup link goes through it leaves the
// rule out. With the separate store an SQLite file the consumer drops its own connection
// after the mark, as the model does.
bool is_wire_dedup_rule(const sim::FaultRule& rule);

// Whether `site` is broker.restart or broker.crash: the supervisor stops the broker there.
bool is_broker_stop(const std::string& site);

// Whether `site` is broker.crash: the broker is SIGKILLed, not stopped cleanly.
bool is_broker_kill(const std::string& site);

// Whether a rule of the scenario's script SIGKILLs the broker.
bool kills_broker(const lab::Scenario& scenario);

// Whether `scenario` can run beside other runs on one broker (--jobs): it restarts neither
// the broker (broker.restart or broker.crash) nor the database (db.restart) and leaves the
// broker's consumer_timeout as it is.
bool runs_alongside(const lab::Scenario& scenario);

}  // namespace live
