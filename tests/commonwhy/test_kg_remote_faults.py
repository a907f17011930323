"""The remote source against a loopback endpoint that misbehaves (tests/commonwhy/faulty_endpoint.py).

Every case of issue 15: an overall deadline per request, retries on connection errors, answers checked
before they are cached, a circuit breaker that fails the job and keeps the good answers, and an empty
grounding written as a valid empty table. Small timeouts keep each test to about a second.
"""

from __future__ import annotations

import time

import pytest
from faulty_endpoint import FaultyEndpoint

from benchval.commonwhy.kg import EndpointError, QueryTimeoutError, RemoteSource

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


@pytest.mark.parametrize("failures", [["reset"], ["disconnect"], ["reset", "disconnect", "reset"]])
def test_connection_errors_are_retried_like_server_errors(failures, tmp_path):
    with FaultyEndpoint(failures, then="ok") as endpoint:
        remote = _source(endpoint, tmp_path, max_retries=3)
        assert remote.query(QUERY)[0]["x"].value == "fine"
        assert remote.requests_sent == len(failures) + 1


def test_a_refused_connection_is_retried_then_an_endpoint_error(tmp_path):
    with FaultyEndpoint() as endpoint:
        url = endpoint.url
    time.sleep(0.1)  # the listener is closed: connections to its port are refused
    remote = RemoteSource(url, timeout_s=1, deadline_s=1, max_retries=2, backoff_s=0.01, min_interval_s=0,
                          cache_dir=None, user_agent="benchval-tests/0.1 (test suite; nobody@example.org)")
    with pytest.raises(EndpointError, match=r"refused.*\(3 tries\)"):
        remote.query(QUERY)
    assert remote.requests_sent == 3


def test_status_500_and_429_are_retried(tmp_path):
    with FaultyEndpoint(["500", "429", "500"], then="ok") as endpoint:
        remote = _source(endpoint, tmp_path, max_retries=3)
        assert remote.query(QUERY)[0]["x"].value == "fine"
        assert len(endpoint.queries) == 4


@pytest.mark.parametrize("bad", ["garbage", "not_object", "error_in_200"])
def test_a_bad_answer_is_an_endpoint_error_and_is_not_cached(bad, tmp_path):
    with FaultyEndpoint([bad], then="ok") as endpoint:
        with pytest.raises(EndpointError, match="not a SPARQL JSON answer"):
            _source(endpoint, tmp_path).query(QUERY)
        assert not list((tmp_path / "cache").rglob("*.json"))  # nothing cached from the bad answer
        recovered = _source(endpoint, tmp_path)  # the endpoint has recovered: the query is asked again
        assert recovered.query(QUERY)[0]["x"].value == "fine"
        assert recovered.requests_sent == 1 and recovered.cache_hits == 0


@pytest.mark.parametrize("bad", ["garbage", "not_object", "error_in_200"])
def test_a_bad_answer_is_retried(bad, tmp_path):
    with FaultyEndpoint([bad, bad], then="ok") as endpoint:
        remote = _source(endpoint, tmp_path, max_retries=2)
        assert remote.query(QUERY)[0]["x"].value == "fine"
        assert remote.requests_sent == 3


def test_a_select_answer_is_not_accepted_for_an_ask_query(tmp_path):
    with FaultyEndpoint(then="ok") as endpoint:
        remote = _source(endpoint, tmp_path)
        with pytest.raises(EndpointError, match="expected an ASK answer"):
            remote.ask("SELECT ?x WHERE { ?x ?p ?o }")  # the endpoint answers SELECT results
        assert not list((tmp_path / "cache").rglob("*.json"))


def test_a_corrupt_cache_file_is_asked_again(tmp_path):
    with FaultyEndpoint(then="ok") as endpoint:
        first = _source(endpoint, tmp_path)
        first.query(QUERY)
        [cached] = (tmp_path / "cache").rglob("*.json")
        cached.write_text('{"answer": {"error": "from an older version"}}', encoding="utf-8")
        second = _source(endpoint, tmp_path)
        assert second.query(QUERY)[0]["x"].value == "fine"
        assert second.requests_sent == 1 and second.cache_hits == 0
