"""A crash-safe cache of endpoint answers, keyed on everything that determines an answer.

The key is the SHA-256 of the request's URL and its whole JSON body (model, messages, max_tokens,
temperature, top_p, seed, ...), so any change to the base URL, the model, a generation parameter, the
prompt text or the seed is a new key, and a new request. The request itself is stored beside the answer
and compared on every read, so a stored answer is returned only for exactly the request that produced it.

SQLite (standard library), one row per answer, committed as it arrives (``synchronous=FULL``, write-ahead
log): a run killed at any point keeps every answer it was sent, and several jobs may share one file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

log = logging.getLogger(__name__)

FILE_NAME = "chat_completions.sqlite"


class LocalCacheError(RuntimeError):
    """The answer cache cannot be read or written (a local disk problem, not the endpoint's)."""


def request_text(url: str, body: dict) -> str:
    """The canonical text of a request: what its key is the digest of, and what a cache hit must equal."""
    return json.dumps({"url": url, "body": body}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def request_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class AnswerCache:
    """Answers (the endpoint's JSON bodies) by request, in ``{folder}/chat_completions.sqlite``."""

    def __init__(self, folder: str | Path):
        self.path = Path(folder) / FILE_NAME
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=60, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS answers "
                "(key TEXT PRIMARY KEY, request TEXT NOT NULL, answer TEXT NOT NULL, stored_at TEXT NOT NULL)"
            )
            # the requests in flight (benchval.generation.in_flight): a claim ends when its answer is stored
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS in_flight (key TEXT PRIMARY KEY, run TEXT NOT NULL, pid INTEGER NOT NULL, "
                "host TEXT NOT NULL, started REAL NOT NULL, lease_end REAL NOT NULL)"
            )
        except (OSError, sqlite3.Error) as error:
            raise LocalCacheError(f"cannot open the endpoint answer cache {self.path}: {error}") from error

    @contextmanager
    def transaction(self):
        """One write transaction (``BEGIN IMMEDIATE``: other processes wait for it), rolled back on an error;
        the caller holds ``_lock``."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def get(self, text: str) -> dict | None:
        """The stored answer to the request `text`, or None."""
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT request, answer FROM answers WHERE key = ?", (request_key(text),)
                ).fetchone()
        except sqlite3.Error as error:
            raise LocalCacheError(f"cannot read the endpoint answer cache {self.path}: {error}") from error
        if row is None:
            return None
        if row[0] != text:  # a digest collision, or a hand-edited file: never return another request's answer
            log.warning("%s: the stored request differs from this one under the same key; asking again", self.path)
            return None
        return json.loads(row[1])

    def put(self, text: str, answer: dict) -> None:
        """Store one answer, durably, before it is used (and end its request's claim in the same transaction)."""
        stored_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        try:
            with self._lock, self.transaction():
                self._db.execute(
                    "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?)",
                    (request_key(text), text, json.dumps(answer, ensure_ascii=False), stored_at),
                )
                self._db.execute("DELETE FROM in_flight WHERE key = ?", (request_key(text),))
        except sqlite3.Error as error:
            raise LocalCacheError(
                f"cannot write the endpoint answer cache {self.path}: {error} (the answer was received but not kept)"
            ) from error

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
