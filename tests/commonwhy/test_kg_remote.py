"""The remote source against a SPARQL endpoint served on localhost (pyoxigraph behind http.server)."""

from __future__ import annotations

import time

import pytest
from remote_fixture import remote_source

from benchval.commonwhy.grounding import ground_rule
from benchval.commonwhy.kg import QuerySyntaxError, QueryTimeoutError, RemoteSource
from benchval.commonwhy.rules import LiftedRule


def _remote(server, tmp_path, **options) -> RemoteSource:
    settings = dict(timeout_s=5, deadline_s=10, max_retries=2, translate_wdqs=True, cache_dir=tmp_path / "cache")
    return remote_source(server.url, **(settings | options))


def test_same_sparql_text_gives_the_same_answers_locally_and_remotely(
    sparql_server, tiny_source, tiny_rule_sparql, tmp_path
):
    remote = _remote(sparql_server, tmp_path)
    assert remote.query(tiny_rule_sparql) == tiny_source.query(tiny_rule_sparql)
    assert remote.entity_facts("Q1") == tiny_source.entity_facts("Q1")
    assert remote.label("Q211") == tiny_source.label("Q211") == "Latvia"
    assert remote.search_label("Bob Example") == [("Q2", "Bob Example")]
    assert remote.triple_count("Q1") == tiny_source.triple_count("Q1") == 2
    assert remote.has_property("P27") and not remote.has_property("P106")
    assert sparql_server.requests[0]["user_agent"].startswith("benchval-tests/0.1")


def test_remote_grounding_matches_local(sparql_server, tiny_source, tiny_rule_sparql, tmp_path):
    rule = LiftedRule(
        "tiny-001",
        "If ...",
        tiny_rule_sparql,
        "Why couldn't person A have voted?",
        "Because person A is too young.",
        {"person A": "item"},
    )
    remote_questions, remote_report = ground_rule(rule, _remote(sparql_server, tmp_path))
    local_questions, local_report = ground_rule(rule, tiny_source)
    assert (
        [q.question for q in remote_questions]
        == [q.question for q in local_questions]
        == ["Why couldn't Alice Example have voted?"]
    )
    assert remote_report.status == local_report.status == "grounded"


def test_answers_are_cached_on_disk(sparql_server, tmp_path):
    query = "SELECT ?label WHERE { wd:Q1 rdfs:label ?label }"
    first = _remote(sparql_server, tmp_path)
    answer = first.query(query)
    assert first.requests_sent == 1
    second = _remote(sparql_server, tmp_path)  # a fresh client: only the disk cache can answer
    assert second.query(query) == answer and second.requests_sent == 0 and second.cache_hits == 1
    assert len(sparql_server.requests) == 1


def test_server_errors_are_retried_with_backoff(sparql_server, tmp_path):
    sparql_server.fail_next = 2  # two HTTP 503 answers, then a real one
    remote = _remote(sparql_server, tmp_path, max_retries=2)
    assert remote.label("Q1") == "Alice Example"
    assert remote.requests_sent == 3


def test_timeout_is_retried_then_raised(sparql_server, tmp_path):
    sparql_server.slow_s = 1.5
    remote = _remote(sparql_server, tmp_path, timeout_s=0.3, max_retries=1, cache_dir=None)
    started = time.monotonic()
    with pytest.raises(QueryTimeoutError, match=r"timeout after 0.3s \(2 tries\)"):
        remote.query("SELECT ?s WHERE { ?s ?p ?o } # slow")
    assert remote.requests_sent == 2
    assert time.monotonic() - started < 1.5  # gave up on the client side, did not wait for the server


def test_malformed_query_is_a_syntax_error_not_a_retry(sparql_server, tmp_path):
    remote = _remote(sparql_server, tmp_path)
    with pytest.raises(QuerySyntaxError, match="HTTP 400"):
        remote.query("SELECT ?s WHERE { ?s ?p }")
    assert remote.requests_sent == 1


def test_wdqs_text_is_sent_untranslated_when_asked(sparql_server, tiny_rule_sparql, tmp_path):
    remote = _remote(sparql_server, tmp_path, translate_wdqs=False, max_retries=0)
    with pytest.raises(QuerySyntaxError):  # a plain SPARQL engine does not know WDQS's predeclared prefixes
        remote.query(tiny_rule_sparql)
    assert sparql_server.requests[-1]["query"] == tiny_rule_sparql
