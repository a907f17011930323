"""A loopback SPARQL endpoint that misbehaves on purpose, for the remote source's failure tests.

Listens on 127.0.0.1 only, on a free port. Each request gets the next behaviour of ``script``; when the
script is used up every request gets ``then``. Bounded: a handler never waits longer than the server's
``lifetime_s``, and the server stops itself after ``lifetime_s`` even if a test forgets to close it.

Behaviours: ``ok`` (a valid SPARQL JSON answer), ``hang`` (reads the request, never answers), ``drip``
(a valid answer sent one byte every ``drip_s``), ``reset`` (TCP reset instead of an answer),
``disconnect`` (closes the connection without a status line), ``500``, ``429`` (with Retry-After: 0),
``garbage`` (HTTP 200 with an HTML page), ``not_object`` (HTTP 200 with a JSON number),
``error_in_200`` (HTTP 200 with a JSON object carrying an error instead of results), ``400`` and
``403`` (client errors), ``error_beside_results`` (empty results with an error beside them), ``no_head``
(empty results without the head a SPARQL answer has), ``truncated`` (fewer bytes than Content-Length),
``huge`` (a valid answer of about 2 MB) and ``deep`` (JSON nested 100 000 levels deep).

For an OpenAI-compatible client (tests/commonwhy_eval/test_endpoint.py) give ``answer``: the JSON object
that ``ok``, ``drip`` and ``truncated`` send instead of a SPARQL answer; ``bodies`` keeps each request's
raw body and ``times`` when each arrived; ``retry_after`` is the Retry-After header of a 429.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
import urllib.parse

OK_SELECT = {"head": {"vars": ["x"]}, "results": {"bindings": [{"x": {"type": "literal", "value": "fine"}}]}}
OK_ASK = {"head": {}, "boolean": True}
BEHAVIOURS = (
    *("ok", "hang", "drip", "reset", "disconnect", "500", "429", "400", "403", "garbage", "not_object"),
    *("error_in_200", "error_beside_results", "no_head", "truncated", "huge", "deep"),
)


class FaultyEndpoint:
    def __init__(self, script=(), then="ok", *, drip_s=0.2, lifetime_s=20.0, answer=None, retry_after="0"):
        for behaviour in [*script, then]:
            if behaviour not in BEHAVIOURS:
                raise ValueError(f"unknown behaviour {behaviour!r}; known: {BEHAVIOURS}")
        self.script, self.then, self.drip_s, self.lifetime_s = list(script), then, drip_s, lifetime_s
        self.answer, self.retry_after = answer, retry_after
        self.bodies: list[bytes] = []
        self.times: list[float] = []  # time.monotonic() when each request had been read
        self.queries: list[str] = []
        self.targets: list[str] = []  # request targets (path, or absolute URL when used as a proxy)
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self._listener.settimeout(0.05)
        self.port = self._listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/sparql"
        self._timer = threading.Timer(lifetime_s, self.close)
        self._timer.daemon = True

    # ---- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> "FaultyEndpoint":
        self._timer.start()
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._stopped.set()
        self._timer.cancel()

    def _accept(self) -> None:
        while not self._stopped.is_set():
            try:
                connection, _ = self._listener.accept()
            except socket.timeout:
                continue
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()
        self._listener.close()

    # ---- one request -------------------------------------------------------------------------
    def _next(self, query: str) -> str:
        with self._lock:
            self.queries.append(query)
            return self.script.pop(0) if self.script else self.then

    def _serve(self, connection: socket.socket) -> None:
        connection.settimeout(self.lifetime_s)
        try:
            request = _read_request(connection)
            if request is None:
                return
            target, query, body = request
            self.targets.append(target)
            self.bodies.append(body)
            self.times.append(time.monotonic())
            behaviour = self._next(query)
            getattr(self, "_" + behaviour if not behaviour[0].isdigit() else "_status")(connection, query, behaviour)
        except OSError:
            pass  # the client gave up first
        finally:
            connection.close()

    def _good(self, query: str) -> str:
        if self.answer is not None:
            return json.dumps(self.answer)
        return json.dumps(OK_ASK if "ASK" in query else OK_SELECT)

    def _ok(self, connection, query, _behaviour) -> None:
        _send(connection, 200, self._good(query))

    def _hang(self, connection, _query, _behaviour) -> None:
        self._stopped.wait(self.lifetime_s)

    def _drip(self, connection, query, _behaviour) -> None:
        body = self._good(query).encode("utf-8")
        connection.sendall(_head(200, len(body)))
        for byte in body:
            if self._stopped.wait(self.drip_s):
                return
            connection.sendall(bytes([byte]))

    def _reset(self, connection, _query, _behaviour) -> None:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    def _disconnect(self, connection, _query, _behaviour) -> None:
        connection.shutdown(socket.SHUT_RDWR)

    def _status(self, connection, _query, behaviour) -> None:
        extra = f"Retry-After: {self.retry_after}\r\n" if behaviour == "429" else ""
        _send(connection, int(behaviour), f"status {behaviour} on purpose", "text/plain", extra)

    def _garbage(self, connection, _query, _behaviour) -> None:
        _send(connection, 200, "<html><body>Service temporarily unavailable</body></html>", "text/html")

    def _not_object(self, connection, _query, _behaviour) -> None:
        _send(connection, 200, "42")

    def _error_in_200(self, connection, _query, _behaviour) -> None:
        _send(connection, 200, json.dumps({"error": "java.util.concurrent.TimeoutException"}))

    def _error_beside_results(self, connection, _query, _behaviour) -> None:
        body = {"head": {"vars": ["x"]}, "results": {"bindings": []}, "error": "query timeout"}
        _send(connection, 200, json.dumps(body))

    def _no_head(self, connection, _query, _behaviour) -> None:
        _send(connection, 200, json.dumps({"results": {"bindings": []}}))

    def _truncated(self, connection, query, _behaviour) -> None:
        body = self._good(query).encode("utf-8")
        connection.sendall(_head(200, len(body)) + body[: len(body) // 2])

    def _huge(self, connection, _query, _behaviour) -> None:
        rows = [{"x": {"type": "literal", "value": "v" * 100}}] * 15000
        _send(connection, 200, json.dumps({"head": {"vars": ["x"]}, "results": {"bindings": rows}}))

    def _deep(self, connection, _query, _behaviour) -> None:
        _send(connection, 200, "[" * 100_000 + "]" * 100_000)


def _read_request(connection: socket.socket) -> tuple[str, str, bytes] | None:
    """(request target, SPARQL query, raw body) of one POST, or None when the client closed first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    target = head.decode("latin-1").split("\r\n")[0].split(" ")[1]
    length = 0
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        body += chunk
    return target, urllib.parse.parse_qs(body.decode("utf-8")).get("query", [""])[0], body


def _head(status: int, length: int, content_type: str = "application/sparql-results+json", extra: str = "") -> bytes:
    return (
        f"HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\n{extra}"
        "Connection: close\r\n\r\n"
    ).encode("latin-1")


def _send(
    connection: socket.socket,
    status: int,
    body: str,
    content_type: str = "application/sparql-results+json",
    extra_headers: str = "",
) -> None:
    data = body.encode("utf-8")
    connection.sendall(_head(status, len(data), content_type, extra_headers) + data)
