"""Requests in flight, journaled in the answer cache's SQLite file: one lock per request across runs.

Before a request is sent, its key is claimed in the table ``in_flight`` (run, process id, host, lease end),
in one transaction with the look-up of its answer (``BEGIN IMMEDIATE``): so of two runs sharing a cache folder
only one sends a given request; the other waits for its answer (:func:`claim` says ``wait``) and reads it
from the cache, paying nothing. The claim is removed when the answer is stored (with it, in one transaction)
or when the request fails.

A claim left behind by a run that died (SIGKILL, power loss: its process is gone, or its lease ran out) is a
request that was sent and perhaps paid for, whose answer never arrived here. It is sent again (``resumed``),
with the same ``Idempotency-Key`` header (the request's key), so a server or gateway that honours the header
answers it without charging again; one that does not charges twice. The client counts these requests and
states the possible double payment in its log and usage line (``resent_after_interrupt``).
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time

from benchval.generation.answer_cache import AnswerCache, LocalCacheError, request_key

ANSWERED, CLAIMED, RESUMED, WAIT = "answered", "claimed", "resumed", "wait"
_HOST = socket.gethostname()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class InFlightJournal:
    """The ``in_flight`` table of an :class:`~.answer_cache.AnswerCache` (the module docstring)."""

    def __init__(self, cache: AnswerCache, run: str):
        self.cache, self.run = cache, run  # the table is created with the cache

    def _owner_alive(self, pid: int, host: str, lease_end: float) -> bool:
        if time.time() > lease_end:
            return False
        return _alive(pid) if host == _HOST else True

    def claim(self, text: str, lease_s: float) -> str:
        """``answered`` (stored meanwhile), ``claimed`` (ours to send), ``resumed`` (a dead run's to send again)
        or ``wait`` (another live run is sending it)."""
        key, db = request_key(text), self.cache._db
        try:
            with self.cache._lock, self.cache.transaction():
                state = self._claim_in_transaction(db, key, lease_s)
        except sqlite3.Error as error:
            raise LocalCacheError(f"cannot journal a request in {self.cache.path}: {error}") from error
        return state

    def _claim_in_transaction(self, db, key: str, lease_s: float) -> str:
        if db.execute("SELECT 1 FROM answers WHERE key = ?", (key,)).fetchone():
            return ANSWERED
        row = db.execute("SELECT run, pid, host, lease_end FROM in_flight WHERE key = ?", (key,)).fetchone()
        if row is not None and row[0] != self.run and self._owner_alive(row[1], row[2], row[3]):
            return WAIT
        now = time.time()
        db.execute(
            "INSERT OR REPLACE INTO in_flight VALUES (?, ?, ?, ?, ?, ?)",
            (key, self.run, os.getpid(), _HOST, now, now + lease_s),
        )
        return RESUMED if row is not None and row[0] != self.run else CLAIMED

    def release(self, text: str) -> None:
        """Drop our claim (the request failed; its answer, if any, is stored by AnswerCache.put)."""
        with self.cache._lock:
            self.cache._db.execute("DELETE FROM in_flight WHERE key = ? AND run = ?", (request_key(text), self.run))

    def pending(self) -> int:
        with self.cache._lock:
            return self.cache._db.execute("SELECT COUNT(*) FROM in_flight").fetchone()[0]
