#!/usr/bin/env python3
"""The atomic consumer with its ledger on PostgreSQL, through psycopg2 (Debian's
python3-psycopg2). Run by

    eosim live --store postgres FILE --consumer 'python3 examples/consumers/python/atomic_pg.py'

eosim hands it EOSIM_LEDGER_URL, a postgresql:// URL whose search_path is a schema of
this consumer's own. As in atomic.py, the message id (a primary key) and the debit are
written in one transaction, which commits before the ack. A redelivery of a message
already applied finds the key and is acked without a second debit.

What PostgreSQL adds is a connection that can break under a transaction: the database
restarts, or the reply to the COMMIT is lost on the way. The consumer then cannot know
whether its COMMIT took effect. It does not guess: it gives the message back (nack with
requeue) and opens a new connection; the redelivery finds the key if the COMMIT took
effect and debits once if it did not.
"""

import os

import psycopg2

from common import consume, failpoint, parse

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed(message_id TEXT PRIMARY KEY, order_id BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS debits(order_id BIGINT NOT NULL, amount BIGINT NOT NULL,
                                  account TEXT NOT NULL);
"""

# A broken connection: the server went away (OperationalError), or the connection was
# closed under us and is used again (InterfaceError).
LOST = (psycopg2.OperationalError, psycopg2.InterfaceError)


class Ledger:
    """One connection to the ledger, opened again after it broke."""

    def __init__(self):
        self.conn = None

    def connection(self):
        if self.conn is None or self.conn.closed:
            self.conn = psycopg2.connect(os.environ["EOSIM_LEDGER_URL"])
        return self.conn

    def forget(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except psycopg2.Error:
                pass
        self.conn = None


ledger = Ledger()
with ledger.connection() as conn, conn.cursor() as cur:  # commits the tables
    cur.execute(SCHEMA)


def apply(order, amount, account, key):
    """The key and the debit in one transaction; False when the key was there already."""
    conn = ledger.connection()
    with conn.cursor() as cur:  # psycopg2 opens the transaction at the first statement
        cur.execute("INSERT INTO processed(message_id, order_id) VALUES (%s, %s) "
                    "ON CONFLICT DO NOTHING", (key, order))
        if cur.rowcount == 0:  # applied before: nothing more to do but the ack
            conn.rollback()
            return False
        cur.execute("INSERT INTO debits(order_id, amount, account) VALUES (%s, %s, %s)",
                    (order, amount, account))
    failpoint("before_commit", order)
    conn.commit()
    return True


def on_message(channel, method, properties, body):
    order, amount, account = parse(body)
    key = properties.message_id or "order-%d" % order
    failpoint("on_deliver", order)
    try:
        applied = apply(order, amount, account, key)
    except LOST:
        # Whether the COMMIT took effect is unknown: the redelivery finds out.
        ledger.forget()
        channel.basic_nack(method.delivery_tag, requeue=True)
        return
    if applied:
        failpoint("after_commit", order)
    channel.basic_ack(method.delivery_tag)
    failpoint("after_ack", order)


consume(on_message)
