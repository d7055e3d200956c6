"""Failpoints for a consumer that eosim runs (eosim live --consumer CMD).

    import eosim_failpoint
    eosim_failpoint.hit("after_commit", order)

hit() asks eosim whether the scenario wants the consumer to die at this point of its code,
for this order. eosim answers "go" (hit returns) or kills the consumer's process group
with SIGKILL right there (hit never returns). Outside eosim (EOSIM_FAILPOINT_SOCKET is
not set) hit() returns at once, so the calls can stay in production code.

The protocol is one line each way on the Unix socket EOSIM_FAILPOINT_SOCKET:
"NAME ORDER\\n" from the consumer, "go\\n" from eosim. Standard library only.
"""

import os
import socket
import time

_sock = None
_reader = None

# How long hit() waits for the SIGKILL after eosim closed the socket without answering.
_KILL_WAIT_S = 10


def _connect():
    global _sock, _reader
    path = os.environ.get("EOSIM_FAILPOINT_SOCKET", "")
    if not path:
        return False
    _sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    _sock.connect(path)
    _reader = _sock.makefile("rb")
    return True


def hit(name, order=0):
    """Asks eosim at the failpoint `name` (e.g. "after_commit") for order `order`."""
    if _sock is None and not _connect():
        return
    _sock.sendall(("%s %d\n" % (name, int(order))).encode("ascii"))
    answer = _reader.readline()
    if answer == b"go\n":
        return
    if answer == b"":
        # eosim sent SIGKILL to this process group; it arrives any moment.
        time.sleep(_KILL_WAIT_S)
    raise RuntimeError("eosim failpoint %s: unexpected answer %r" % (name, answer))
