"""The remote source against a loopback endpoint that misbehaves (tests/commonwhy/faulty_endpoint.py).

Every case of issue 15: an overall deadline per request, retries on connection errors, answers checked
before they are cached, a circuit breaker that fails the job and keeps the good answers, and an empty
grounding written as a valid empty table. Small timeouts keep each test to about a second.
"""

from __future__ import annotations

import re
import time

import pytest
from faulty_endpoint import FaultyEndpoint
from remote_fixture import remote_source

from benchval.commonwhy.grounding import ground_rules
from benchval.commonwhy.kg import EndpointError, EndpointUnreachable, QueryTimeoutError, RemoteSource
from benchval.commonwhy.pipeline import construct
from benchval.commonwhy.rules import LiftedRule

QUERY = "SELECT ?x WHERE { ?x ?p ?o }"


def _source(endpoint: FaultyEndpoint, tmp_path, **options) -> RemoteSource:
    return remote_source(endpoint.url, **({"cache_dir": tmp_path / "cache"} | options))


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
    remote = remote_source(url, timeout_s=1, deadline_s=1, max_retries=2)
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


def _rules(sparql: str, n: int) -> list[LiftedRule]:
    return [
        LiftedRule(
            f"r{i:03d}",
            f"rule {i}",
            f"{sparql}\n# rule {i}",
            "Why couldn't person A have voted?",
            "Because person A is too young.",
            {"person A": "item"},
        )
        for i in range(n)
    ]


def test_a_dead_endpoint_trips_the_breaker_and_fails_the_job(tmp_path, tiny_rule_sparql):
    with FaultyEndpoint(then="reset") as endpoint:
        remote = _source(endpoint, tmp_path, max_retries=2, max_consecutive_failures=5)
        started = time.monotonic()
        expected = (
            rf"endpoint unreachable: {re.escape(endpoint.url)}, last error: connection failed: ConnectionResetError"
        )
        with pytest.raises(EndpointUnreachable, match=expected):
            construct(_rules(tiny_rule_sparql, 50), remote)  # the grounding job's code path
        assert remote.requests_sent == 5 and time.monotonic() - started < 2
        with pytest.raises(EndpointUnreachable):  # once open, the breaker fails without sending
            remote.query(QUERY)
        assert remote.requests_sent == 5


def test_a_hanging_endpoint_trips_the_breaker(tmp_path, tiny_rule_sparql):
    with FaultyEndpoint(then="hang") as endpoint:
        remote = _source(endpoint, tmp_path, deadline_s=0.2, max_retries=1, max_consecutive_failures=3)
        with pytest.raises(EndpointUnreachable, match="last error: timeout: no complete answer within the deadline"):
            ground_rules(_rules(tiny_rule_sparql, 50), remote)
        assert remote.requests_sent == 3


def test_a_success_resets_the_count_of_consecutive_failures(tmp_path):
    with FaultyEndpoint(["500", "ok", "reset", "ok", "429", "ok"], then="reset") as endpoint:
        remote = _source(endpoint, tmp_path, max_retries=1, max_consecutive_failures=2)
        assert [remote.query(f"{QUERY} # {i}")[0]["x"].value for i in range(3)] == ["fine"] * 3


def test_a_rerun_resumes_from_the_answers_cached_before_the_breaker_tripped(tmp_path):
    queries = [f"{QUERY} # {i}" for i in range(4)]
    with FaultyEndpoint(["ok", "ok"], then="reset") as endpoint:
        first = _source(endpoint, tmp_path, max_retries=1, max_consecutive_failures=2)
        with pytest.raises(EndpointUnreachable):
            for query in queries:
                first.query(query)
        endpoint.then = "ok"  # the endpoint is back; a fresh run (a fresh client) resumes
        second = _source(endpoint, tmp_path, max_retries=1, max_consecutive_failures=2)
        assert all(second.query(query)[0]["x"].value == "fine" for query in queries)
        assert second.cache_hits == 2 and second.requests_sent == 2
        assert endpoint.queries[-2:] == queries[2:]


def test_an_empty_grounding_is_written_as_a_valid_empty_table(tiny_source, tmp_path):
    from benchval.commonwhy.pipeline import CONSTRUCTED_SCHEMA, read_constructed, write_outputs

    nothing = LiftedRule(
        "r-none",
        "rule",
        "SELECT ?item WHERE { ?item wdt:P27 wd:Q999 . }",
        "Why person A?",
        "Because person A.",
        {"person A": "item"},
    )
    table, report, summary = construct([nothing], tiny_source)
    paths = [tmp_path / "constructed.parquet", tmp_path / "report.csv", tmp_path / "summary.json"]
    write_outputs(table, report, summary, *paths)
    written = read_constructed(paths[0])
    assert len(written) == 0 and list(written.columns) == CONSTRUCTED_SCHEMA.names
    assert summary["questions_built"] == 0 and summary["rules_by_status"]["missing_entity"] == 1


def test_open_source_takes_the_remote_defaults_from_the_schema():
    import yaml

    from benchval.commonwhy.kg import SCHEMA_PATH, open_source

    spec = yaml.safe_load(SCHEMA_PATH.read_text())["properties"]["kg"]["properties"]["remote"]["properties"]
    remote = open_source({"source": "remote", "remote": {"endpoint": "http://127.0.0.1:9/sparql", "max_retries": 1}})
    assert remote.max_retries == 1
    assert remote.deadline_s == spec["deadline_s"]["default"] and remote.timeout_s == spec["timeout_s"]["default"]
    assert remote.max_consecutive_failures == spec["max_consecutive_failures"]["default"]
    assert remote.user_agent == spec["user_agent"]["default"]


def test_the_proxy_of_the_environment_is_used(tmp_path, monkeypatch):
    with FaultyEndpoint(then="ok") as proxy:  # answers whatever it is asked, like a forwarding proxy
        monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{proxy.port}")
        monkeypatch.setenv("no_proxy", "")
        remote = remote_source(
            "http://sparql.example.invalid/sparql?format=json", backoff_s=0, max_consecutive_failures=1
        )
        assert remote.query(QUERY)[0]["x"].value == "fine"
        assert proxy.targets == ["http://sparql.example.invalid/sparql?format=json"]  # absolute URL, query kept
