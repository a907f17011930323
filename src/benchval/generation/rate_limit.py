"""Requests-per-minute and tokens-per-minute limits for an endpoint (a sliding window of 60 seconds).

A request waits until both limits leave room for it: fewer than ``requests_per_minute`` requests started
in the last minute, and its tokens (estimated before sending: the prompt and at most ``max_tokens`` out)
fit under ``tokens_per_minute`` with those of the last minute. Once the answer arrives the estimate is
replaced by the tokens the server reported. Thread-safe: the concurrent requests of one client share it.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

WINDOW_S = 60.0


class RateLimiter:
    def __init__(
        self,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.requests_per_minute, self.tokens_per_minute = requests_per_minute, tokens_per_minute
        self._clock, self._sleep = clock, sleep
        self._lock = threading.Lock()
        self._events: deque[list] = deque()  # [start time, tokens] of the requests of the last minute
        self.waited_s = 0.0

    def _room(self, tokens: int, now: float) -> float:
        """0 when a request of `tokens` may start now, else how long to wait (lock held)."""
        while self._events and self._events[0][0] <= now - WINDOW_S:
            self._events.popleft()
        waits = [0.0]
        if self.requests_per_minute is not None and len(self._events) >= self.requests_per_minute:
            waits.append(self._events[0][0] + WINDOW_S - now)
        if self.tokens_per_minute is not None:
            used = sum(tokens for _, tokens in self._events)
            excess = used + tokens - self.tokens_per_minute
            for start, spent in self._events:  # wait until enough of the window's tokens have expired
                if excess <= 0:
                    break
                excess -= spent
                waits.append(start + WINDOW_S - now)
        return max(waits)

    def acquire(self, tokens: int) -> list:
        """Wait for room for one request of about `tokens` tokens; returns its record (for :meth:`settle`)."""
        if self.tokens_per_minute is not None and tokens > self.tokens_per_minute:
            raise ValueError(
                f"one request needs about {tokens} tokens, more than tokens_per_minute ({self.tokens_per_minute})"
            )
        while True:
            with self._lock:
                now = self._clock()
                wait = self._room(tokens, now)
                if wait <= 0:
                    record = [now, tokens]
                    self._events.append(record)
                    return record
            self.waited_s += wait
            self._sleep(wait)

    def settle(self, record: list, tokens: int | None) -> None:
        """Replace a request's estimated tokens by those the server reported (None: keep the estimate)."""
        if tokens is not None:
            with self._lock:
                record[1] = tokens
