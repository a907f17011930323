"""A client for OpenAI-compatible `/chat/completions` endpoints (hosted models, vLLM, llama.cpp, ...), safe to pay for.

Deterministic settings: temperature 0, top_p 1, optional seed. The API key is read from the environment
variable named in the config (never from the config itself).

- **Cache** (:mod:`.answer_cache`): every answer is stored as it arrives, keyed on the URL and the whole
  request body (model, generation parameters, prompt text, seed): a change to any of them sends new
  requests, an interrupted run resumes without paying twice, and judge and claim calls share the mechanism.
- **One deadline per attempt** (``timeout_s``) covers connecting, sending and reading the whole body: a
  server that drips bytes cannot extend it (http.client, the socket's timeout set to the time left before
  every read; neither urllib nor requests bounds the whole body).
- **Retries**: time-outs, dropped connections, HTTP 408/409/429/5xx and unusable bodies (HTML, not a chat
  completion, cut short) are retried with exponential back-off, or after the server's ``Retry-After``
  (seconds or an HTTP-date); other 4xx fail at once. Every error names the URL, the status and the detail.
- **Limits** (:mod:`.rate_limit`): ``concurrency`` requests at once, ``requests_per_minute`` and
  ``tokens_per_minute``.
- **Usage and cost** (:mod:`.usage`): tokens counted per run from the answers, priced with ``price``, logged
  and appended to ``{cache_dir}/usage.jsonl`` after every ``generate`` call.
- **Dry run**: with ``BENCHVAL_ENDPOINT_DRY_RUN=1`` in the environment, :meth:`EndpointGenerator.announce`
  prints the calls still to send and their estimated cost, then raises :class:`EndpointDryRun`: nothing is sent.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import socket
import threading
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from pathlib import Path

from benchval.generation.answer_cache import AnswerCache, request_key, request_text
from benchval.generation.in_flight import ANSWERED, RESUMED, WAIT, InFlightJournal
from benchval.generation.prompts import Messages, cut_answer
from benchval.generation.rate_limit import RateLimiter
from benchval.generation.usage import Usage, append_usage, estimate, estimate_prompt_tokens

log = logging.getLogger(__name__)

RETRY_STATUS = {408, 409, 429, 500, 502, 503, 504}
DRY_RUN_ENV = "BENCHVAL_ENDPOINT_DRY_RUN"
MAX_RETRY_AFTER_S = 600.0  # a server asking to wait longer fails the request (naming the wait), never waits silently
MAX_BODY_BYTES = 16 * 2**20
WAIT_POLL_S = 0.1  # how often a run waiting for another run's answer to the same request looks for it


class EndpointError(RuntimeError):
    """The endpoint answered with an error or an unusable body."""


class EndpointTimeout(EndpointError):
    """No answer within the time-out, after every retry."""


class EndpointDryRun(RuntimeError):
    """A dry run stopped before sending (the message holds the number of calls and their estimated cost)."""


class _Retryable(Exception):
    """One attempt failed in a way worth retrying (the message says how); ``retry_after`` from the server."""

    def __init__(self, problem: str, retry_after: float | None = None, timed_out: bool = False):
        super().__init__(problem)
        self.retry_after, self.timed_out = retry_after, timed_out


@dataclass
class EndpointSettings:
    base_url: str  # e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1
    model: str
    api_key_env: str | None = "OPENAI_API_KEY"
    timeout_s: float = 60.0  # per attempt, the whole answer included
    max_retries: int = 2
    backoff_s: float = 1.0
    seed: int | None = None
    cache_dir: str | None = "resources/endpoint_cache"  # None = no cache (every call is sent)
    concurrency: int = 1
    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    price: Mapping | None = None  # {input_per_mtok, output_per_mtok} in US dollars


def dry_run_requested() -> bool:
    return os.environ.get(DRY_RUN_ENV, "").strip().lower() in ("1", "true", "yes")


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP-date (RFC 9110); None if unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        log.warning("unreadable Retry-After header %r; using the back-off", value)
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class EndpointGenerator:
    """Generates with an OpenAI-compatible chat endpoint, one request per conversation."""

    def __init__(self, settings: EndpointSettings, name: str | None = None):
        self.settings = settings
        self.name = name or settings.model
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        parts = urllib.parse.urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise EndpointError(f"endpoint {self.url}: base_url must be an http(s) URL")
        self._parts = parts
        self._headers = {"Content-Type": "application/json", "Accept": "application/json", "Connection": "close"}
        if settings.api_key_env:
            key = os.environ.get(settings.api_key_env)
            if not key:
                raise EndpointError(
                    f"endpoint {self.url}: environment variable {settings.api_key_env} (the API key) is not set"
                )
            self._headers["Authorization"] = f"Bearer {key}"
        self._secrets = [key] if settings.api_key_env else []
        self.cache = AnswerCache(settings.cache_dir) if settings.cache_dir else None
        self.limiter = RateLimiter(settings.requests_per_minute, settings.tokens_per_minute)
        self.usage = Usage(price=settings.price)
        self.run_id = uuid.uuid4().hex[:12]
        self.journal = InFlightJournal(self.cache, self.run_id) if self.cache is not None else None
        #: what the answers depend on besides the prompt and length (a resumable run's settings)
        self.identity = {"endpoint": self.url, "model": settings.model, "seed": settings.seed}

    # ---- one request -------------------------------------------------------------------------
    def _body(self, messages: Messages, max_new_tokens: int) -> dict:
        body = {
            "model": self.settings.model,
            "messages": list(messages),
            "max_tokens": int(max_new_tokens),
            "temperature": 0,
            "top_p": 1,
            "n": 1,
        }
        if self.settings.seed is not None:
            body["seed"] = self.settings.seed
        return body

    def _connection(self, timeout: float) -> tuple[http.client.HTTPConnection, str]:
        """The connection and request target: direct, or through the proxy of the environment (HTTP(S)_PROXY,
        NO_PROXY, as urllib reads them): an https URL tunnels through it (CONNECT), an http URL is asked of it."""
        host, port, scheme = self._parts.hostname, self._parts.port, self._parts.scheme
        target = self._parts.path + (f"?{self._parts.query}" if self._parts.query else "")
        proxy = urllib.request.getproxies().get(scheme)
        if proxy and not urllib.request.proxy_bypass(host):
            via = urllib.parse.urlsplit(proxy if "://" in proxy else f"http://{proxy}")
            if scheme == "https":
                connection = http.client.HTTPSConnection(via.hostname, via.port or 80, timeout=timeout)
                connection.set_tunnel(host, port or 443)
                return connection, target
            return http.client.HTTPConnection(via.hostname, via.port or 80, timeout=timeout), self.url
        if scheme == "https":
            return http.client.HTTPSConnection(host, port, timeout=timeout), target
        return http.client.HTTPConnection(host, port, timeout=timeout), target

    def _post_once(self, data: bytes, headers: Mapping[str, str]) -> tuple[int, Mapping, bytes]:
        """(status, headers, body) of one POST; connecting, sending, the headers and the body all end by one
        deadline: a watchdog shuts the socket down when it passes (a per-read time-out alone is renewed by
        every byte of a server that sends its headers or body slowly)."""
        deadline = time.monotonic() + self.settings.timeout_s
        connection, target = self._connection(_time_left(deadline))
        watchdog = _Watchdog(connection, self.settings.timeout_s)
        timed_out = _Retryable(f"no answer within {self.settings.timeout_s:g} s", timed_out=True)
        try:
            connection.request("POST", target, body=data, headers={**self._headers, **headers})
            sock = connection.sock  # http.client hands it to the response and forgets it
            sock.settimeout(_time_left(deadline))
            response = connection.getresponse()
            body = _read_body(response, sock, deadline)
            watchdog.check()
            return response.status, response.headers, body
        except (TimeoutError, socket.timeout, _DeadlinePassed) as error:
            raise timed_out from error
        except _Retryable as error:
            if watchdog.fired.is_set():
                raise timed_out from error
            raise
        except ConnectionRefusedError as error:
            raise _Retryable(f"cannot connect: {error}") from error
        except (OSError, http.client.HTTPException) as error:  # reset, disconnected, cut short
            if watchdog.fired.is_set():
                raise timed_out from error
            raise _Retryable(f"connection failed after sending: {type(error).__name__}: {error}") from error
        finally:
            watchdog.stop()
            connection.close()

    def redact(self, text: str) -> str:
        """`text` with the API key replaced by ``[redacted]`` (a server may echo it, e.g. in a 401 body)."""
        for secret in self._secrets:
            text = text.replace(secret, "[redacted]")
        return text

    def _attempt(self, data: bytes, key: str) -> dict:
        """One attempt: the answer's JSON body, or _Retryable / EndpointError (their messages redacted)."""
        self.usage.count_request()
        status, headers, raw = self._post_once(data, {"Idempotency-Key": key})
        detail = self.redact(raw.decode("utf-8", "replace"))[:300]
        if status in RETRY_STATUS:
            raise _Retryable(f"HTTP {status}: {detail}", retry_after_seconds(headers.get("Retry-After")))
        if status >= 300:
            raise EndpointError(f"POST {self.url}: HTTP {status}: {detail}")  # detail: redacted above
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            kind = headers.get("Content-Type", "no content type")
            raise _Retryable(f"HTTP {status}: body is not JSON ({kind}): {detail!r}") from error
        problem = _content_problem(body)
        if problem:
            raise _Retryable(f"HTTP {status}: {problem}: {detail!r}")
        return body

    def _send(self, messages: Messages, max_new_tokens: int, text: str) -> dict:
        """The answer's body, retried as configured; stored in the cache before it is returned."""
        data = json.dumps(json.loads(text)["body"]).encode("utf-8")
        tokens = estimate_prompt_tokens(messages) + int(max_new_tokens)
        attempts = self.settings.max_retries + 1
        for attempt in range(1, attempts + 1):
            record = self.limiter.acquire(tokens)
            try:
                body = self._attempt(data, request_key(text))
            except _Retryable as error:
                problem = self.redact(str(error))
                if attempt == attempts:
                    kind = EndpointTimeout if error.timed_out else EndpointError
                    raise kind(f"POST {self.url}: {problem} ({attempts} attempts)") from error
                wait = self._wait(attempt, error.retry_after)
                log.warning(
                    "POST %s: %s (attempt %d/%d); retrying in %.2f s", self.url, problem, attempt, attempts, wait
                )
                time.sleep(wait)
                continue
            self.limiter.settle(record, self.usage.count_answer(body))
            if self.cache is not None:
                self.cache.put(text, body)
            return body
        raise AssertionError("unreachable")

    def _wait(self, attempt: int, retry_after: float | None) -> float:
        backoff = self.settings.backoff_s * 2 ** (attempt - 1)
        if retry_after is None:
            return backoff
        if retry_after > MAX_RETRY_AFTER_S:
            raise EndpointError(
                f"POST {self.url}: the server asks to retry after {retry_after:.0f} s (Retry-After), "
                f"more than {MAX_RETRY_AFTER_S:.0f} s; run again later"
            )
        return max(retry_after, backoff)

    # ---- the generator interface --------------------------------------------------------------
    def _request_text(self, messages: Messages, max_new_tokens: int) -> str:
        return request_text(self.url, self._body(messages, max_new_tokens))

    def _cached(self, text: str) -> dict | None:
        return self.cache.get(text) if self.cache is not None else None

    def complete(self, messages: Messages, max_new_tokens: int) -> str:
        """The assistant message of one chat completion (stripped): from the cache, else from the endpoint."""
        text = self._request_text(messages, max_new_tokens)
        body = self._cached(text)
        if body is not None:
            self.usage.count_cached()
        else:
            body = self._send_claimed(messages, max_new_tokens, text)
        return _content(body)

    def _lease_s(self) -> float:
        """How long a claim on a request holds: every attempt's deadline and the longest waits between them."""
        attempts = self.settings.max_retries + 1
        return attempts * self.settings.timeout_s + (attempts - 1) * MAX_RETRY_AFTER_S + 5.0

    def _send_claimed(self, messages: Messages, max_new_tokens: int, text: str) -> dict:
        """Send once across the runs sharing the cache (benchval.generation.in_flight): wait for another live
        run's answer; send a dead run's request again, stating the possible double payment."""
        if self.journal is None:
            return self._send(messages, max_new_tokens, text)
        while True:
            state = self.journal.claim(text, self._lease_s())
            if state == ANSWERED:
                body = self.cache.get(text)
                if body is not None:
                    self.usage.count_cached()
                    return body
            if state != WAIT:
                break
            time.sleep(WAIT_POLL_S)
        if state == RESUMED:
            self.usage.count_resent()
            log.warning(
                "POST %s: this request was in flight when an earlier run was interrupted: sent again with the same "
                "Idempotency-Key; a server that does not honour it charges for it twice",
                self.url,
            )
        try:
            return self._send(messages, max_new_tokens, text)
        except BaseException:
            self.journal.release(text)
            raise

    def announce(self, prompts: Sequence[Messages], max_new_tokens: int) -> None:
        """Log how many calls `prompts` need and their estimated cost; in a dry run print it and stop."""
        to_send = [m for m in prompts if self._cached(self._request_text(m, max_new_tokens)) is None]
        plan = estimate(to_send, len(prompts) - len(to_send), max_new_tokens, self.settings.price)
        line = plan.describe(f"{self.name} ({self.settings.model} at {self.url})")
        if dry_run_requested():
            print("dry run: " + line, flush=True)
            raise EndpointDryRun(f"dry run ({DRY_RUN_ENV} is set): {line}; nothing was sent")
        if plan.calls:
            log.info("%s", line)

    def generate(self, prompts: Sequence[Messages], max_new_tokens: int, first_line: bool = True) -> list[str]:
        """One completion per conversation (``concurrency`` at once, in order); by default only its first line.

        Every answer is cached as it arrives: if one request fails, the others already answered are kept."""
        self.announce(prompts, max_new_tokens)
        workers = max(1, min(int(self.settings.concurrency), len(prompts)))
        if workers == 1:
            texts = [self.complete(messages, max_new_tokens) for messages in prompts]
        else:
            with ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"endpoint-{self.name}") as pool:
                texts = list(pool.map(lambda messages: self.complete(messages, max_new_tokens), prompts))
        self._record_usage()
        return [cut_answer(t) for t in texts] if first_line else texts

    def usage_summary(self) -> dict:
        """This run's requests, cached answers, tokens and cost (:class:`benchval.generation.usage.Usage`)."""
        return {
            "run": self.run_id,
            "system": self.name,
            "model": self.settings.model,
            "endpoint": self.url,
            **self.usage.summary(),
        }

    def _record_usage(self) -> None:
        summary = self.usage_summary()
        log.info("endpoint usage so far this run: %s", summary)
        if self.settings.cache_dir:
            append_usage(Path(self.settings.cache_dir) / "usage.jsonl", summary)


class _DeadlinePassed(Exception):
    pass


class _Watchdog:
    """Shuts a connection's socket down when `seconds` have passed; ``check`` raises _DeadlinePassed after."""

    def __init__(self, connection: http.client.HTTPConnection, seconds: float):
        self.connection, self.fired = connection, threading.Event()
        self.timer = threading.Timer(seconds, self._fire)
        self.timer.daemon = True
        self.timer.start()

    def _fire(self) -> None:
        self.fired.set()
        sock = self.connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def check(self) -> None:
        if self.fired.is_set():
            raise _DeadlinePassed

    def stop(self) -> None:
        self.timer.cancel()


def _read_body(response: http.client.HTTPResponse, sock: socket.socket, deadline: float) -> bytes:
    """The whole body, at most MAX_BODY_BYTES, checked against its Content-Length."""
    chunks, size = [], 0
    while True:
        sock.settimeout(_time_left(deadline))
        chunk = response.read1(65536)
        if not chunk:
            break
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _Retryable(f"HTTP {response.status}: body larger than {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    declared = response.getheader("Content-Length")
    if declared is not None and declared.strip().isdigit() and int(declared) != size:
        raise _Retryable(f"HTTP {response.status}: body cut short ({size} of {int(declared)} bytes)")
    return b"".join(chunks)


def _time_left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise _DeadlinePassed
    return left


def _content_problem(body) -> str | None:
    """Why `body` is not a usable chat completion, or None."""
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return "answer has no choices[0].message.content"
    if not isinstance(content, str):
        return "choices[0].message.content is not text"
    return None


def _content(body: dict) -> str:
    return body["choices"][0]["message"]["content"].strip()
