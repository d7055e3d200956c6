"""A consumer that hangs: it subscribes to EOSIM_QUEUE, takes its deliveries and never acks,
nacks, rejects or exits (the live_consumer_bad test: the run names it instead of a verdict)."""

import os
import sqlite3

import pika

ledger = sqlite3.connect(os.environ["EOSIM_LEDGER"])
ledger.execute("CREATE TABLE IF NOT EXISTS debits(order_id INTEGER NOT NULL)")
ledger.commit()
connection = pika.BlockingConnection(pika.URLParameters(os.environ["EOSIM_BROKER_URL"]))
channel = connection.channel()
channel.basic_qos(prefetch_count=int(os.environ.get("EOSIM_PREFETCH", "0")))
channel.basic_consume(queue=os.environ["EOSIM_QUEUE"],
                      on_message_callback=lambda channel, method, properties, body: None)
channel.start_consuming()
