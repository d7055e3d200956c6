/* An atomic consumer in C, on rabbitmq-c (Debian's librabbitmq-dev) and SQLite, run by
 *   eosim live FILE --consumer build/examples/eosim-atomic-c
 * (CMake builds it when librabbitmq-dev is there; docs/your-consumer.md).
 *
 * As examples/consumers/python/atomic.py: the message id (a primary key) and the debit in
 * one SQLite transaction, commit, then ack. A redelivery of an order already applied hits
 * the key, changes nothing and is acked: one debit per order, whatever crash comes between
 * commit and ack. The failpoints (helpers/eosim_failpoint.h) let a scenario kill it there.
 * A broken connection (a dropped frame, a restarted broker) is made again for up to a
 * minute; any other error ends the process (eosim starts it again).
 */
#define _POSIX_C_SOURCE 200809L

#include <amqp.h>
#include <amqp_tcp_socket.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eosim_failpoint.h"

static const char* kSchema =
    "CREATE TABLE IF NOT EXISTS processed(message_id TEXT PRIMARY KEY, order_id INTEGER NOT "
    "NULL);"
    "CREATE TABLE IF NOT EXISTS debits(order_id INTEGER NOT NULL, amount INTEGER NOT NULL,"
    " account TEXT NOT NULL);";

static const char* env(const char* name) {
  const char* value = getenv(name);
  if (value == NULL) {
    fprintf(stderr, "atomic-c: %s is not set (run me with eosim live --consumer)\n", name);
    exit(2);
  }
  return value;
}

static void die_sql(sqlite3* db, const char* what) {
  fprintf(stderr, "atomic-c: %s: %s\n", what, sqlite3_errmsg(db));
  exit(3);
}

static void exec(sqlite3* db, const char* sql) {
  if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) die_sql(db, sql);
}

/* The body "order=2;amount=150;account=acct-1": 0 when it does not read so. */
static int parse(const amqp_bytes_t body, long long* order, long long* amount, char* account,
                 size_t account_size) {
  char text[256];
  if (body.len >= sizeof text) return 0;
  memcpy(text, body.bytes, body.len);
  text[body.len] = '\0';
  char format[64];
  snprintf(format, sizeof format, "order=%%lld;amount=%%lld;account=%%%zus", account_size - 1);
  return sscanf(text, format, order, amount, account) == 3;
}

/* Applies one order: 1 when it was applied now, 0 when it had been before. */
static int apply(sqlite3* db, const char* key, long long order, long long amount,
                 const char* account) {
  sqlite3_stmt* insert = NULL;
  exec(db, "BEGIN IMMEDIATE");
  sqlite3_prepare_v2(db, "INSERT INTO processed(message_id, order_id) VALUES(?1, ?2)", -1, &insert,
                     NULL);
  sqlite3_bind_text(insert, 1, key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(insert, 2, order);
  const int rc = sqlite3_step(insert);
  sqlite3_finalize(insert);
  if (rc == SQLITE_CONSTRAINT) { /* applied before: nothing more to do but the ack */
    exec(db, "ROLLBACK");
    return 0;
  }
  if (rc != SQLITE_DONE) die_sql(db, "insert into processed");
  sqlite3_stmt* debit = NULL;
  sqlite3_prepare_v2(db, "INSERT INTO debits(order_id, amount, account) VALUES(?1, ?2, ?3)", -1,
                     &debit, NULL);
  sqlite3_bind_int64(debit, 1, order);
  sqlite3_bind_int64(debit, 2, amount);
  sqlite3_bind_text(debit, 3, account, -1, SQLITE_TRANSIENT);
  if (sqlite3_step(debit) != SQLITE_DONE) die_sql(db, "insert into debits");
  sqlite3_finalize(debit);
  eosim_failpoint("before_commit", order);
  exec(db, "COMMIT");
  return 1;
}

/* Connects, subscribes and consumes until the connection breaks (returns then). */
static void consume(sqlite3* db) {
  struct amqp_connection_info url;
  char* url_text = strdup(env("EOSIM_BROKER_URL"));
  if (amqp_parse_url(url_text, &url) != AMQP_STATUS_OK) {
    fprintf(stderr, "atomic-c: EOSIM_BROKER_URL is not an AMQP URL\n");
    exit(2);
  }
  amqp_connection_state_t conn = amqp_new_connection();
  amqp_socket_t* socket = amqp_tcp_socket_new(conn);
  int ok = socket != NULL && amqp_socket_open(socket, url.host, url.port) == AMQP_STATUS_OK;
  ok = ok &&
       amqp_login(conn, url.vhost, 0, 131072, 30, AMQP_SASL_METHOD_PLAIN, url.user, url.password)
               .reply_type == AMQP_RESPONSE_NORMAL;
  ok = ok && amqp_channel_open(conn, 1) != NULL;
  ok = ok && amqp_basic_qos(conn, 1, 0, (uint16_t)atoi(env("EOSIM_PREFETCH")), 0) != NULL;
  ok = ok && amqp_basic_consume(conn, 1, amqp_cstring_bytes(env("EOSIM_QUEUE")), amqp_empty_bytes,
                                0, 0, 0, amqp_empty_table) != NULL;
  while (ok) {
    amqp_envelope_t envelope;
    amqp_maybe_release_buffers(conn);
    if (amqp_consume_message(conn, &envelope, NULL, 0).reply_type != AMQP_RESPONSE_NORMAL) break;
    long long order = 0, amount = 0;
    char account[64], key[64];
    if (!parse(envelope.message.body, &order, &amount, account, sizeof account)) {
      fprintf(stderr, "atomic-c: a body that is not an order; rejected\n");
      amqp_basic_reject(conn, 1, envelope.delivery_tag, 0);
      amqp_destroy_envelope(&envelope);
      continue;
    }
    const amqp_basic_properties_t* p = &envelope.message.properties;
    if ((p->_flags & AMQP_BASIC_MESSAGE_ID_FLAG) && p->message_id.len < sizeof key) {
      memcpy(key, p->message_id.bytes, p->message_id.len);
      key[p->message_id.len] = '\0';
    } else {
      snprintf(key, sizeof key, "order-%lld", order);
    }
    eosim_failpoint("on_deliver", order);
    if (apply(db, key, order, amount, account)) eosim_failpoint("after_commit", order);
    ok = amqp_basic_ack(conn, 1, envelope.delivery_tag, 0) == AMQP_STATUS_OK;
    if (ok) eosim_failpoint("after_ack", order);
    amqp_destroy_envelope(&envelope);
  }
  amqp_destroy_connection(conn);
  free(url_text);
}

int main(void) {
  sqlite3* db = NULL;
  if (sqlite3_open(env("EOSIM_LEDGER"), &db) != SQLITE_OK) die_sql(db, "open EOSIM_LEDGER");
  sqlite3_busy_timeout(db, 30000);
  exec(db, "PRAGMA journal_mode=WAL");
  exec(db, kSchema);
  /* A broken connection is made again, for up to a minute since the last good one. */
  for (time_t since = time(NULL); time(NULL) - since < 60;) {
    const time_t began = time(NULL);
    consume(db);
    if (time(NULL) - began > 1) since = time(NULL);
    nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
  }
  fprintf(stderr, "atomic-c: no connection to the broker for a minute\n");
  return 1;
}
