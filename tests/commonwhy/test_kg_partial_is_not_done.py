"""Partial work is never done: a CommonWhy build whose rule queries failed fails unless `allow_partial`;
client errors count for the breaker; only valid answers are cached; answers are size- and depth-limited;
the deadline covers the whole query; a local cache that cannot be written names its path.

Against loopback endpoints only: the tiny graph behind http.server (conftest.sparql_server) and the
misbehaving endpoint of faulty_endpoint.py.
"""

from __future__ import annotations

import time

import pytest
from faulty_endpoint import FaultyEndpoint
from remote_fixture import remote_source

from benchval.commonwhy.kg import EndpointError, EndpointUnreachable, QueryTimeoutError
from benchval.commonwhy.kg.remote import LocalCacheError
from benchval.commonwhy.pipeline import IncompleteBuild, construct
from benchval.commonwhy.rules import LiftedRule

QUERY = "SELECT ?x WHERE { ?x ?p ?o }"


def _rules(sparql: str, n: int, failing: int | None = None) -> list[LiftedRule]:
    return [
        LiftedRule(
            f"r{i:03d}",
            f"rule {i}",
            f"{sparql}\n# rule {i}" + (" # fails" if i == failing else ""),
            "Why couldn't person A have voted?",
            "Because person A is too young.",
            {"person A": "item"},
        )
        for i in range(n)
    ]


def _remote(server, tmp_path, **options):
    settings = dict(timeout_s=5, deadline_s=10, max_retries=1, translate_wdqs=True, cache_dir=tmp_path / "cache")
    return remote_source(server.url, **(settings | options))


def test_one_failed_rule_query_fails_the_build(sparql_server, tiny_rule_sparql, tmp_path):
    sparql_server.fail_matching = "# fails"
    with pytest.raises(IncompleteBuild, match=r"1 of 5 rules failed on .*: r002 \(endpoint_error"):
        construct(_rules(tiny_rule_sparql, 5, failing=2), _remote(sparql_server, tmp_path))


def test_a_plain_rerun_retries_exactly_the_failed_part(sparql_server, tiny_rule_sparql, tmp_path):
    sparql_server.fail_matching = "# fails"
    with pytest.raises(IncompleteBuild):
        construct(_rules(tiny_rule_sparql, 5, failing=2), _remote(sparql_server, tmp_path))
    answered_before = {r["query"] for r in sparql_server.requests if "# fails" not in r["query"]}
    sparql_server.fail_matching, sparql_server.requests[:] = None, []  # the endpoint recovered
    table, _, summary = construct(_rules(tiny_rule_sparql, 5, failing=2), _remote(sparql_server, tmp_path))
    asked_again = [r["query"] for r in sparql_server.requests]
    assert any("# fails" in query for query in asked_again)
    assert not answered_before & set(asked_again)  # nothing answered before is asked again
    assert summary["rules_failed"] == 0 and summary["partial"] is False and len(table) == 5


def test_allow_partial_writes_the_outputs_and_says_what_is_missing(sparql_server, tiny_rule_sparql, tmp_path):
    sparql_server.fail_matching = "# fails"
    table, report, summary = construct(
        _rules(tiny_rule_sparql, 5, failing=2), _remote(sparql_server, tmp_path), allow_partial=True
    )
    assert summary["partial"] is True and summary["rules_failed"] == 1
    assert summary["rules_failed_ids"] == ["r002"]
    assert report.set_index("rule_id").loc["r002", "status"] == "endpoint_error"


def test_a_failed_label_query_is_a_failed_rule_not_a_crash(sparql_server, tiny_rule_sparql, tmp_path):
    sparql_server.fail_matching = "rdfs:label ?label"  # the label look-up of each matched entity
    rule = _rules(tiny_rule_sparql.replace("?item ?itemLabel", "?item"), 1)
    _, report, summary = construct(rule, _remote(sparql_server, tmp_path), allow_partial=True)
    assert report["status"].tolist() == ["endpoint_error"] and summary["rules_failed"] == 1


def test_a_failed_diagnosis_query_is_a_failed_rule_not_a_wrong_diagnosis(sparql_server, tiny_rule_sparql, tmp_path):
    sparql_server.fail_matching = "ASK"  # why a rule found nothing: the property and entity checks
    rule = _rules(tiny_rule_sparql.replace("wd:Q211", "wd:Q999"), 1)
    _, report, _ = construct(rule, _remote(sparql_server, tmp_path), allow_partial=True)
    assert report["status"].tolist() == ["endpoint_error"]


@pytest.mark.parametrize("status", ["400", "403"])
def test_client_errors_on_every_query_trip_the_breaker(status, tiny_rule_sparql, tmp_path):
    with FaultyEndpoint(then=status) as endpoint:
        remote = remote_source(endpoint.url, max_consecutive_failures=3, cache_dir=tmp_path / "cache")
        with pytest.raises(EndpointUnreachable, match=f"HTTP {status}"):
            construct(_rules(tiny_rule_sparql, 10), remote)
        assert remote.requests_sent == 3


@pytest.mark.parametrize("bad", ["error_beside_results", "no_head", "truncated"])
def test_an_answer_that_is_not_valid_is_not_cached(bad, tmp_path):
    with FaultyEndpoint([bad]) as endpoint:
        first = remote_source(endpoint.url, cache_dir=tmp_path / "cache")
        with pytest.raises(EndpointError):
            first.query(QUERY)
        second = remote_source(endpoint.url, cache_dir=tmp_path / "cache")
        assert second.query(QUERY)[0]["x"].value == "fine"
        assert second.cache_hits == 0 and second.requests_sent == 1


def test_an_answer_over_the_size_limit_is_refused(tmp_path):
    with FaultyEndpoint(["huge"]) as endpoint:
        remote = remote_source(endpoint.url, cache_dir=tmp_path / "cache", max_answer_bytes=1_000_000)
        with pytest.raises(EndpointError, match="larger than max_answer_bytes"):
            remote.query(QUERY)
        assert not list((tmp_path / "cache").rglob("*.json"))


def test_an_answer_nested_too_deeply_goes_through_the_one_error_path(tmp_path):
    with FaultyEndpoint(["deep"]) as endpoint:
        remote = remote_source(endpoint.url, cache_dir=tmp_path / "cache", max_consecutive_failures=5)
        with pytest.raises(EndpointError, match="not a SPARQL JSON answer"):
            remote.query(QUERY)
        assert remote.consecutive_failures == 1  # counted by the breaker like any failure


def test_the_deadline_covers_the_whole_query_with_its_waits(tmp_path):
    with FaultyEndpoint(then="500") as endpoint:
        remote = remote_source(endpoint.url, deadline_s=0.5, max_retries=5, backoff_s=1.0, cache_dir=None)
        started = time.monotonic()
        with pytest.raises(QueryTimeoutError, match="deadline of 0.5s"):
            remote.query(QUERY)
        assert time.monotonic() - started < 1.0


def test_a_cache_that_cannot_be_written_names_the_local_path(tmp_path):
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder should be")
    with FaultyEndpoint() as endpoint:
        remote = remote_source(endpoint.url, cache_dir=blocked, max_consecutive_failures=1)
        with pytest.raises(LocalCacheError, match=rf"cannot write the SPARQL answer cache {blocked}"):
            remote.query(QUERY)
        assert remote.requests_sent == 1 and remote.consecutive_failures == 0
