"""How a statistic that cannot be computed is reported: NaN plus a reason, never a crash."""

from __future__ import annotations


class UndefinedStatistic(Exception):
    """Raised by a computation whose statistic is undefined for the data at hand.

    The message is the human-readable reason; table builders catch it and write
    ``NaN`` with the reason in the ``note`` column.
    """


def require(condition: bool, reason: str) -> None:
    """Raise :class:`UndefinedStatistic` with ``reason`` unless ``condition`` holds."""
    if not condition:
        raise UndefinedStatistic(reason)
