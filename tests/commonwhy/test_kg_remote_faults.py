"""The remote source against a loopback endpoint that misbehaves (tests/commonwhy/faulty_endpoint.py).

Every case of issue 15: an overall deadline per request, retries on connection errors, answers checked
before they are cached, a circuit breaker that fails the job and keeps the good answers, and an empty
grounding written as a valid empty table. Small timeouts keep each test to about a second.
"""

from __future__ import annotations

import time

import pytest
from faulty_endpoint import FaultyEndpoint

from benchval.commonwhy.kg import QueryTimeoutError, RemoteSource

QUERY = "SELECT ?x WHERE { ?x ?p ?o }"


def _source(endpoint: FaultyEndpoint, tmp_path, **options) -> RemoteSource:
    settings = dict(timeout_s=2, deadline_s=5, max_retries=0, backoff_s=0.01, min_interval_s=0,
                    cache_dir=tmp_path / "cache", translate_wdqs=False,
                    user_agent="benchval-tests/0.1 (test suite; nobody@example.org)")
    settings.update(options)
    return RemoteSource(endpoint.url, **settings)


@pytest.mark.parametrize("behaviour", ["drip", "hang"])
def test_a_request_is_cut_at_its_overall_deadline(behaviour, tmp_path):
    # drip: one byte every 0.2 s never trips the 2 s per-read timeout; only the 0.6 s deadline stops it
    with FaultyEndpoint([behaviour], then=behaviour) as endpoint:
        remote = _source(endpoint, tmp_path, timeout_s=2, deadline_s=0.6)
        started = time.monotonic()
        with pytest.raises(QueryTimeoutError, match=r"deadline of 0.6s"):
            remote.query(QUERY)
        assert time.monotonic() - started < 1.2
