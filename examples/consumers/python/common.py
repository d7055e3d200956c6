"""What the two example consumers share: eosim's environment, the order message, and a
connection to the broker that is made again when it breaks. Not a consumer itself.

The environment (docs/your-consumer.md): EOSIM_BROKER_URL, EOSIM_QUEUE, EOSIM_PREFETCH,
EOSIM_LEDGER. The message body is "order=2;amount=150;account=acct-1", its message_id
"order-2", and it carries the header order = 2.
"""

import os
import sqlite3
import sys
import time

import pika

# The failpoint helper is in helpers/ of the source tree, and in share/eosim/helpers once
# installed (examples in share/eosim/examples): the same place relative to this file.
# It needs nothing but the standard library.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_here, "..", "..", "..", "helpers"))
import eosim_failpoint  # noqa: E402  (after the path above)

failpoint = eosim_failpoint.hit


def parse(body):
    """The order message's body: (order, amount, account)."""
    fields = dict(part.split("=", 1) for part in body.decode("ascii").split(";"))
    return int(fields["order"]), int(fields["amount"]), fields["account"]


def open_ledger(schema):
    """The consumer's SQLite ledger, its tables made if missing; autocommit (BEGIN by hand)."""
    db = sqlite3.connect(os.environ["EOSIM_LEDGER"], timeout=30, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(schema)
    return db


def consume(on_message):
    """Consumes EOSIM_QUEUE for ever, connecting again (for up to a minute) whenever the
    connection breaks: a dropped frame, a restarted broker."""
    params = pika.URLParameters(os.environ["EOSIM_BROKER_URL"])
    prefetch = int(os.environ.get("EOSIM_PREFETCH", "0"))
    deadline = time.monotonic() + 60
    while True:
        try:
            connection = pika.BlockingConnection(params)
        except pika.exceptions.AMQPConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
            continue
        try:
            channel = connection.channel()
            channel.basic_qos(prefetch_count=prefetch)
            channel.basic_consume(queue=os.environ["EOSIM_QUEUE"],
                                  on_message_callback=on_message)
            channel.start_consuming()
        except (pika.exceptions.AMQPConnectionError, pika.exceptions.AMQPChannelError,
                pika.exceptions.StreamLostError):
            deadline = time.monotonic() + 60
            time.sleep(0.2)
