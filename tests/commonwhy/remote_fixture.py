"""A RemoteSource with the test suite's settings: short timeouts, no retries, no pause, no cache, no translation."""

from __future__ import annotations

from benchval.commonwhy.kg import RemoteSource

TEST_SETTINGS = dict(
    timeout_s=2,
    deadline_s=5,
    max_retries=0,
    backoff_s=0.01,
    min_interval_s=0,
    max_consecutive_failures=100,
    cache_dir=None,
    translate_wdqs=False,
    user_agent="benchval-tests/0.1 (test suite; nobody@example.org)",
)


def remote_source(url: str, **options) -> RemoteSource:
    """A RemoteSource of ``url`` with :data:`TEST_SETTINGS`, ``options`` replacing any of them."""
    return RemoteSource(url, **(TEST_SETTINGS | options))
