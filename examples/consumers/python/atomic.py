#!/usr/bin/env python3
"""An atomic consumer, run by eosim live --consumer 'python3 examples/consumers/python/atomic.py'.

The message id and the debit are written in one SQLite transaction (the id is a primary
key), the transaction commits, and only then is the message acked. A redelivery of a
message already applied hits the key, changes nothing, and is acked: one debit per order,
whatever crash comes between commit and ack.
"""

import sqlite3

from common import consume, failpoint, open_ledger, parse

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed(message_id TEXT PRIMARY KEY, order_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS debits(order_id INTEGER NOT NULL, amount INTEGER NOT NULL,
                                  account TEXT NOT NULL);
"""

db = open_ledger(SCHEMA)


def on_message(channel, method, properties, body):
    order, amount, account = parse(body)
    key = properties.message_id or "order-%d" % order
    failpoint("on_deliver", order)
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("INSERT INTO processed(message_id, order_id) VALUES(?, ?)", (key, order))
    except sqlite3.IntegrityError:  # applied before: nothing more to do but the ack
        db.execute("ROLLBACK")
        channel.basic_ack(method.delivery_tag)
        return
    db.execute("INSERT INTO debits(order_id, amount, account) VALUES(?, ?, ?)",
               (order, amount, account))
    failpoint("before_commit", order)
    db.execute("COMMIT")
    failpoint("after_commit", order)
    channel.basic_ack(method.delivery_tag)
    failpoint("after_ack", order)


consume(on_message)
