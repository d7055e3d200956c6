#!/usr/bin/env python3
"""A broken consumer: it commits the debit, then acks, but keeps no dedup key.

Run by eosim live --consumer 'python3 examples/consumers/python/broken.py'. It looks right
until a crash comes between its commit and its ack: the broker delivers the message again
(it cannot know the work was done), and the consumer debits the order a second time.
eosim's checker then names the order as DUPLICATED.
"""

from common import consume, failpoint, open_ledger, parse

SCHEMA = """
CREATE TABLE IF NOT EXISTS debits(order_id INTEGER NOT NULL, amount INTEGER NOT NULL,
                                  account TEXT NOT NULL);
"""

db = open_ledger(SCHEMA)


def on_message(channel, method, properties, body):
    order, amount, account = parse(body)
    failpoint("on_deliver", order)
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT INTO debits(order_id, amount, account) VALUES(?, ?, ?)",
               (order, amount, account))
    failpoint("before_commit", order)
    db.execute("COMMIT")
    failpoint("after_commit", order)
    channel.basic_ack(method.delivery_tag)
    failpoint("after_ack", order)


consume(on_message)
