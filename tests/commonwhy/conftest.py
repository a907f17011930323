"""Fixtures for the CommonWhy tests: a tiny hand-made Wikidata-style graph and a localhost SPARQL endpoint."""

from __future__ import annotations

import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pyoxigraph as ox
import pytest

from benchval.commonwhy.kg import LocalSource
from benchval.commonwhy.namespaces import prefix_header
from benchval.plumbing.folders import default_mirror

# Alice: Latvian citizen (qualifier: start time 2021) born 17 May 2003 (day precision) -> matches the rule.
# Bob:   Latvian citizen born 1950 -> too old.   Carol: born 2005 but German -> wrong country.
TINY_GRAPH = (
    prefix_header()
    + """
wd:Q1 rdfs:label "Alice Example"@en ; wdt:P27 wd:Q211 ; p:P27 wds:Q1-a ; wdt:P569 "2003-05-17T00:00:00Z"^^xsd:dateTime ; p:P569 wds:Q1-b .
wds:Q1-a ps:P27 wd:Q211 ; pq:P580 "2021-01-01T00:00:00Z"^^xsd:dateTime ; wikibase:rank wikibase:NormalRank .
wds:Q1-b ps:P569 "2003-05-17T00:00:00Z"^^xsd:dateTime ; psv:P569 wdv:t1 ; wikibase:rank wikibase:NormalRank .
wdv:t1 wikibase:timeValue "2003-05-17T00:00:00Z"^^xsd:dateTime ; wikibase:timePrecision 11 .
wd:Q2 rdfs:label "Bob Example"@en ; wdt:P27 wd:Q211 ; p:P27 wds:Q2-a ; wdt:P569 "1950-01-01T00:00:00Z"^^xsd:dateTime ; p:P569 wds:Q2-b .
wds:Q2-a ps:P27 wd:Q211 .
wds:Q2-b ps:P569 "1950-01-01T00:00:00Z"^^xsd:dateTime ; psv:P569 wdv:t2 .
wdv:t2 wikibase:timeValue "1950-01-01T00:00:00Z"^^xsd:dateTime ; wikibase:timePrecision 9 .
wd:Q3 rdfs:label "Carol Example"@en ; wdt:P27 wd:Q183 ; p:P27 wds:Q3-a ; wdt:P569 "2005-02-02T00:00:00Z"^^xsd:dateTime ; p:P569 wds:Q3-b .
wds:Q3-a ps:P27 wd:Q183 .
wds:Q3-b ps:P569 "2005-02-02T00:00:00Z"^^xsd:dateTime ; psv:P569 wdv:t3 .
wdv:t3 wikibase:timeValue "2005-02-02T00:00:00Z"^^xsd:dateTime ; wikibase:timePrecision 11 .
wd:Q211 rdfs:label "Latvia"@en .
wd:Q183 rdfs:label "Germany"@en .
wd:P27 wikibase:claim p:P27 ; wikibase:directClaim wdt:P27 ; rdfs:label "country of citizenship"@en .
wd:P569 wikibase:claim p:P569 ; wikibase:directClaim wdt:P569 ; rdfs:label "date of birth"@en .
wd:P580 wikibase:qualifier pq:P580 ; rdfs:label "start time"@en .
"""
)

# Written the way the published rules are: WDQS dialect, no PREFIX lines, label service, query hints.
TINY_RULE_SPARQL = """
SELECT DISTINCT ?item ?itemLabel WHERE {
  SERVICE wikibase:label { bd:serviceParam wikibase:language "[AUTO_LANGUAGE],mul,en". }
  {
    SELECT DISTINCT ?item WHERE {
      ?item p:P569 ?statement_0.
      ?statement_0 psv:P569 ?statementValue_0.
      ?statementValue_0 wikibase:timePrecision ?precision_0.
      hint:Prior hint:rangeSafe "true"^^xsd:boolean.
      FILTER(?precision_0 >= 9 )
      ?statementValue_0 wikibase:timeValue ?P569_0.
      hint:Prior hint:rangeSafe "true"^^xsd:boolean.
      FILTER(?P569_0 >= "+2001-00-00T00:00:00Z"^^xsd:dateTime)
      ?item p:P27 ?statement1.
      ?statement1 (ps:P27/(wdt:P279*)) wd:Q211.
    }
    LIMIT 100
  }
}"""


@pytest.fixture()
def tiny_rule_sparql() -> str:
    return TINY_RULE_SPARQL


@pytest.fixture()
def tiny_store() -> ox.Store:
    store = ox.Store()
    store.load(TINY_GRAPH.encode("utf-8"), format=ox.RdfFormat.TURTLE)
    return store


@pytest.fixture()
def tiny_source(tiny_store) -> LocalSource:
    return LocalSource(tiny_store, name="tiny")


@pytest.fixture(scope="session")
def mirror():
    root = default_mirror()
    if root is None or not (root / "commonwhy" / "Head.json").is_file():
        pytest.skip("raw-data mirror with commonwhy/ not found beside the checkout (../shared/data/raw)")
    return root


class _Handler(BaseHTTPRequestHandler):
    """SPARQL protocol (POST form or GET ?query=) answered from the server's pyoxigraph store."""

    def _answer(self, query: str) -> None:
        server = self.server
        server.requests.append({"query": query, "user_agent": self.headers.get("User-Agent")})
        if server.fail_next > 0 or (server.fail_matching is not None and server.fail_matching in query):
            server.fail_next = max(server.fail_next - 1, 0)
            self.send_response(503)
            self.send_header("Retry-After", "0")
            self.end_headers()
            return
        if "# slow" in query:
            time.sleep(server.slow_s)
        try:
            body = server.store.query(query).serialize(format=ox.QueryResultsFormat.JSON)
        except SyntaxError as error:
            self.send_response(400)
            self.end_headers()
            self.wfile.write(str(error).encode("utf-8"))
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _answer_quietly(self, query: str) -> None:
        try:
            self._answer(query)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout test)

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length", 0))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8"))
        self._answer_quietly(form["query"][0])

    def do_GET(self) -> None:  # noqa: N802
        self._answer_quietly(urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)["query"][0])

    def log_message(self, *args) -> None:
        pass


@pytest.fixture()
def sparql_server(tiny_store):
    """A SPARQL endpoint on localhost backed by the tiny graph, served from a thread."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.store, server.requests, server.fail_next, server.slow_s = tiny_store, [], 0, 2.0
    server.fail_matching = None  # every query holding this text gets a 503
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    server.url = f"http://127.0.0.1:{server.server_address[1]}/sparql"
    yield server
    server.shutdown()
    server.server_close()
