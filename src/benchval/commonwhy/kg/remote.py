"""A KG source that sends SPARQL to an HTTP endpoint (the Wikidata Query Service in real use).

Polite by construction: a descriptive User-Agent (required by WDQS), one request at a time with at
least ``min_interval_s`` between requests. Robust: every query has an overall deadline
(``deadline_s``: from the first try's connect to the last byte of the answer, the pauses between
tries and the polite waits included) on top of the per-read ``timeout_s``; timeouts, connection
errors, HTTP 429/5xx and answers that are not SPARQL JSON are retried with exponential backoff
(honouring ``Retry-After``); an answer may be at most ``max_answer_bytes`` long; answers are checked
(shape, types, no error beside the results, no byte missing) before they enter the on-disk cache
(keyed by endpoint + query, so a rerun never asks twice), and nothing else is cached; a circuit
breaker raises :class:`EndpointUnreachable` after ``max_consecutive_failures`` failed requests in a
row, client errors (HTTP 4xx, a rejected query included) counted too. Every failure of a request
goes through :meth:`RemoteSource._fetch`'s one error path; a cache file that cannot be read or
written is a :class:`LocalCacheError` naming the local path, never an endpoint failure.
``translate_wdqs`` sends the query through :mod:`..wdqs_dialect` first: keep it False for
query.wikidata.org (which understands its own dialect), True for a plain SPARQL 1.1 endpoint.
Defaults: workflow/schemas/commonwhy.schema.yaml (``commonwhy.kg.remote``), filled in by ``open_source``."""

from __future__ import annotations

import hashlib
import http.client
import io
import json
import logging
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from benchval.commonwhy.kg.source import (
    EndpointError,
    EndpointUnreachable,
    KGSource,
    QuerySyntaxError,
    QueryTimeoutError,
    Term,
)
from benchval.commonwhy.wdqs_dialect import to_standard_sparql

log = logging.getLogger(__name__)
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
RETRY_STATUS = {429, 500, 502, 503, 504}


class _DeadlinePassed(Exception):
    """The query's overall deadline passed before its answer was complete."""


class LocalCacheError(RuntimeError):
    """The on-disk answer cache cannot be read or written (a local disk problem, not the endpoint's)."""


class _BadAnswer(Exception):
    """HTTP 200, but the body is not the SPARQL JSON answer the query asked for."""


def check_answer(answer: object, kind: str) -> None:
    """Raise :class:`_BadAnswer` unless ``answer`` is a SPARQL JSON result of ``kind`` (select or ask)."""
    if not isinstance(answer, dict):
        raise _BadAnswer(f"expected a JSON object, got {type(answer).__name__}")
    errors = sorted(key for key in ("error", "exception", "message") if key in answer)
    if errors:
        raise _BadAnswer(f"the answer carries {errors}: {str(answer[errors[0]])[:200]}")
    if kind == "ask":
        if not isinstance(answer.get("boolean"), bool):
            raise _BadAnswer(f"expected an ASK answer (boolean), got keys {sorted(answer)}")
        return
    bindings = answer.get("results", {}).get("bindings") if isinstance(answer.get("results"), dict) else None
    if not isinstance(bindings, list) or not all(isinstance(row, dict) for row in bindings):
        raise _BadAnswer(f"expected SELECT results (results.bindings), got keys {sorted(answer)}")
    head = answer.get("head")
    if not isinstance(head, dict) or not isinstance(head.get("vars"), list):
        raise _BadAnswer("a SELECT answer without head.vars (SPARQL 1.1 JSON results have one)")
    try:
        for row in bindings:
            for value in row.values():
                if not isinstance(value, dict) or not isinstance(value.get("value"), str):
                    raise TypeError(f"binding {str(value)[:100]} is not an object with a string value")
                binding_to_term(value)
    except (EndpointError, AttributeError, KeyError, TypeError) as error:
        raise _BadAnswer(f"malformed binding: {error!r}") from error


def _connection(url: urllib.parse.SplitResult, timeout: float) -> tuple[http.client.HTTPConnection, str]:
    """A connection for ``url`` and the request target, through the proxy of the environment
    (``http_proxy``/``https_proxy``, ``no_proxy`` honoured) as urllib would use."""
    path = (url.path or "/") + (f"?{url.query}" if url.query else "")
    proxy = urllib.request.getproxies().get(url.scheme)
    if not proxy or urllib.request.proxy_bypass(url.hostname or ""):
        kind = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
        return kind(url.hostname, url.port, timeout=timeout), path
    via = urllib.parse.urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    if url.scheme == "https":  # CONNECT tunnel through the proxy
        connection = http.client.HTTPSConnection(via.hostname, via.port, timeout=timeout)
        connection.set_tunnel(url.hostname, url.port)
        return connection, path
    return http.client.HTTPConnection(via.hostname, via.port, timeout=timeout), url.geturl()


def binding_to_term(binding: dict) -> Term:
    """One value of a SPARQL 1.1 JSON result -> :class:`Term` (same shape as the local source gives)."""
    kind = binding.get("type")
    if kind == "uri":
        return Term(binding["value"], "iri")
    if kind == "bnode":
        return Term(binding["value"], "bnode")
    if kind in ("literal", "typed-literal"):
        language = binding.get("xml:lang")
        if language:
            return Term(binding["value"], "literal", None, language)
        return Term(binding["value"], "literal", binding.get("datatype", XSD_STRING), None)
    raise EndpointError(f"unknown binding type {kind!r} in endpoint answer")


class RemoteSource(KGSource):
    """SPARQL over HTTP with a deadline, retries, backoff, a circuit breaker, a User-Agent and an answer cache.

    The settings have no defaults here: :func:`benchval.commonwhy.kg.open_source` fills them from
    workflow/schemas/commonwhy.schema.yaml (``commonwhy.kg.remote``).
    """

    def __init__(
        self,
        endpoint: str,
        *,
        timeout_s: float,
        deadline_s: float,
        max_retries: int,
        backoff_s: float,
        min_interval_s: float,
        max_consecutive_failures: int,
        user_agent: str,
        cache_dir: Path | str | None,
        translate_wdqs: bool,
        max_answer_bytes: int = 50_000_000,
        name: str | None = None,
        language: str = "en",
    ):
        if not user_agent.strip():
            raise ValueError("a remote SPARQL source needs a descriptive user agent")
        self.endpoint, self.timeout_s, self.max_retries = endpoint, float(timeout_s), int(max_retries)
        self.deadline_s, self.max_consecutive_failures = float(deadline_s), int(max_consecutive_failures)
        self.consecutive_failures, self.last_problem = 0, ""
        self.backoff_s, self.min_interval_s, self.user_agent = float(backoff_s), float(min_interval_s), user_agent
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.translate_wdqs, self.language = translate_wdqs, language
        self.max_answer_bytes = int(max_answer_bytes)
        self.name = name or urllib.parse.urlparse(endpoint).netloc
        self.requests_sent = 0
        self.cache_hits = 0
        self._last_request = 0.0

    # ---- cache -------------------------------------------------------------------------------
    def _cache_path(self, text: str) -> Path | None:
        if self.cache_dir is None:
            return None
        digest = hashlib.sha256(f"{self.endpoint}\n{text}".encode("utf-8")).hexdigest()
        return self.cache_dir / digest[:2] / f"{digest}.json"

    def _cached(self, text: str, kind: str) -> dict | None:
        """The cached answer, if there is one that is valid (an invalid one is asked again)."""
        path = self._cache_path(text)
        if path is None or not path.is_file():
            return None
        try:
            content = path.read_text(encoding="utf-8")
        except OSError as error:
            raise LocalCacheError(f"cannot read the SPARQL answer cache {path}: {error}") from error
        try:
            answer = json.loads(content)["answer"]
            check_answer(answer, kind)
        except (ValueError, KeyError, TypeError, RecursionError, _BadAnswer) as error:
            log.warning("%s: cached answer is not valid (%s); asking the endpoint again", path, error)
            return None
        self.cache_hits += 1
        return answer

    def _store(self, text: str, answer: dict) -> None:
        path = self._cache_path(text)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"endpoint": self.endpoint, "query": text, "answer": answer}), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as error:
            raise LocalCacheError(
                f"cannot write the SPARQL answer cache {self.cache_dir} ({path}: {error}); the endpoint "
                f"answered, the local disk failed: free space or fix commonwhy.kg.remote.cache_dir"
            ) from error

    # ---- HTTP --------------------------------------------------------------------------------
    def _wait_politely(self, deadline: float) -> None:
        pause = self.min_interval_s - (time.monotonic() - self._last_request)
        if pause > 0:
            if time.monotonic() + pause >= deadline:
                raise _DeadlinePassed
            time.sleep(pause)
        self._last_request = time.monotonic()

    def _post(self, text: str, deadline: float) -> dict:
        """One request; the whole exchange (connect, send, every read) must end by ``deadline``."""
        url = urllib.parse.urlsplit(self.endpoint)
        body = urllib.parse.urlencode({"query": text}).encode("utf-8")
        headers = {
            "Accept": "application/sparql-results+json",
            "Content-Type": "application/x-www-form-urlencoded",
            "User-Agent": self.user_agent,
            "Connection": "close",
        }
        self._wait_politely(deadline)
        self.requests_sent += 1
        connection, target = _connection(url, self._time_left(deadline))
        try:
            connection.request("POST", target, body=body, headers=headers)
            sock = connection.sock  # kept: http.client hands it to the response and forgets it
            sock.settimeout(self._time_left(deadline))
            response = connection.getresponse()
            data = self._read_body(response, sock, deadline)
        except (TimeoutError, socket.timeout) as error:
            if time.monotonic() >= deadline - 0.01:  # the socket timeout was the time left, not timeout_s
                raise _DeadlinePassed from error
            raise
        finally:
            connection.close()
        if response.status >= 400:
            raise urllib.error.HTTPError(
                self.endpoint, response.status, response.reason, response.headers, io.BytesIO(data)
            )
        return json.loads(data.decode("utf-8"))

    def _time_left(self, deadline: float) -> float:
        """The socket timeout for the next step: the per-read timeout, never past the deadline."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise _DeadlinePassed
        return min(self.timeout_s, left)

    def _read_body(self, response: http.client.HTTPResponse, sock: socket.socket, deadline: float) -> bytes:
        chunks, size = [], 0
        while True:
            sock.settimeout(self._time_left(deadline))
            chunk = response.read1(65536)
            if not chunk:
                break
            size += len(chunk)
            if size > self.max_answer_bytes:
                raise _BadAnswer(f"answer larger than max_answer_bytes ({self.max_answer_bytes} bytes)")
            chunks.append(chunk)
        declared = response.getheader("Content-Length")
        if declared is not None and declared.strip().isdigit() and int(declared) != size:
            raise _BadAnswer(f"answer cut short: {size} of the {int(declared)} bytes announced")
        return b"".join(chunks)

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after and retry_after.strip().isdigit():
            return min(float(retry_after), 300.0)
        return self.backoff_s * (2**attempt)

    def _fetch(self, text: str, kind: str) -> dict:
        """The answer to ``text``, checked to be a SPARQL JSON ``kind`` answer (select or ask) before caching.

        The one error path of a request: every failure is counted by the breaker and either retried
        (while the query's deadline leaves time for it) or raised as a :class:`KGQueryError`."""
        cached = self._cached(text, kind)
        if cached is not None:
            return cached
        deadline = time.monotonic() + self.deadline_s
        last_problem, tries = "", 0
        for attempt in range(self.max_retries + 1):
            self._check_breaker()
            retry_after = None
            tries += 1
            try:
                answer = self._post(text, deadline)
                check_answer(answer, kind)
            except urllib.error.HTTPError as error:
                detail = error.read().decode("utf-8", "replace")[:500]
                if error.code not in RETRY_STATUS:  # a client error: not retried, but counted
                    self._count_failure(f"HTTP {error.code}: {detail}")
                    if error.code == 400:
                        raise QuerySyntaxError(f"{self.endpoint} rejected the query (HTTP 400): {detail}") from error
                    raise EndpointError(f"{self.endpoint}: HTTP {error.code}: {detail}") from error
                retry_after, last_problem = error.headers.get("Retry-After"), f"HTTP {error.code}"
            except _DeadlinePassed:
                self._count_failure(f"timeout: no complete answer within the deadline of {self.deadline_s:g}s")
                raise QueryTimeoutError(f"{self.endpoint}: {self.last_problem} ({tries} tries)") from None
            except (TimeoutError, socket.timeout):
                last_problem = f"timeout after {self.timeout_s:g}s"
            except (OSError, http.client.HTTPException) as error:  # reset, refused, disconnected, cut short
                last_problem = f"connection failed: {type(error).__name__}: {error}"
            except (ValueError, RecursionError, _BadAnswer) as error:  # JSON that does not decode, or nests too deep
                last_problem = f"not a SPARQL JSON answer: {str(error)[:300]}"
            else:
                self.consecutive_failures = 0
                self._store(text, answer)  # a LocalCacheError names the local path
                return answer
            self._count_failure(last_problem)
            if attempt < self.max_retries:
                delay = self._delay(attempt, retry_after)
                if time.monotonic() + delay >= deadline:
                    raise QueryTimeoutError(
                        f"{self.endpoint}: {last_problem}; no complete answer within the deadline of "
                        f"{self.deadline_s:g}s for the whole query ({tries} tries)"
                    )
                log.warning(
                    "%s: %s; retry %d/%d in %.1fs", self.endpoint, last_problem, attempt + 1, self.max_retries, delay
                )
                time.sleep(delay)
        if last_problem.startswith("timeout"):
            raise QueryTimeoutError(f"{self.endpoint}: {last_problem} ({tries} tries)")
        raise EndpointError(f"{self.endpoint}: {last_problem} ({tries} tries)")

    # ---- circuit breaker ---------------------------------------------------------------------
    def _count_failure(self, problem: str) -> None:
        self.consecutive_failures += 1
        self.last_problem = problem
        self._check_breaker()

    def _check_breaker(self) -> None:
        """Fail the job once ``max_consecutive_failures`` requests in a row have failed (the cache stays)."""
        if self.consecutive_failures >= self.max_consecutive_failures:
            raise EndpointUnreachable(
                f"endpoint unreachable: {self.endpoint}, last error: {self.last_problem} "
                f"({self.consecutive_failures} consecutive failed requests; the answers cached so far in "
                f"{self.cache_dir} are kept, so a rerun resumes from them)"
            )

    def _text(self, sparql: str) -> str:
        return to_standard_sparql(sparql, self.language) if self.translate_wdqs else sparql

    def _select(self, sparql: str) -> list[dict[str, Term]]:
        answer = self._fetch(self._text(sparql), "select")
        return [{name: binding_to_term(value) for name, value in row.items()} for row in answer["results"]["bindings"]]

    def _ask(self, sparql: str) -> bool:
        return self._fetch(self._text(sparql), "ask")["boolean"]
