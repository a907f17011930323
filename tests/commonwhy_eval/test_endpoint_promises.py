"""The endpoint client's promises of issue 45, each against a fault-injecting server on 127.0.0.1.

Each of these failed on the client before issue 45 (docs/commonwhy-eval.md, "Answering"): a server sending
its headers slowly kept a request alive far past ``timeout_s``; a key echoed in a 401 body reached the error
and the log; a request in flight at a SIGKILL was paid again on resume; two runs sharing a cache paid for
every prompt twice.
"""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import threading
import time

import pytest

from benchval.generation.endpoint import EndpointError, EndpointGenerator, EndpointSettings, EndpointTimeout
from benchval.generation.prompts import user

KEY = "sk-test-0123456789abcdef"
CHAT = {
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Because yes."}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
}


class PromiseServer:
    """A loopback chat server that misbehaves on purpose; it stops itself after ``lifetime_s``.

    ``behaviour``: ``ok`` (answers after ``delay_s``), ``slow_headers`` (the status line and headers one byte
    every ``drip_s``), ``echo_key`` (status ``status`` with the request's Authorization header in the body),
    ``hold_first`` (the first request is read and never answered; later ones are answered). Charges: one per
    request, but a request whose ``Idempotency-Key`` was seen before is answered again without a charge (as
    a gateway that honours the header does)."""

    def __init__(self, behaviour="ok", *, delay_s=0.0, drip_s=0.05, status=401, lifetime_s=20.0):
        self.behaviour, self.delay_s, self.drip_s, self.status = behaviour, delay_s, drip_s, status
        self.lifetime_s = lifetime_s
        self.bodies: list[dict] = []
        self.charged = 0
        self._keys: set[str] = set()
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.05)
        self.base_url = f"http://127.0.0.1:{self._listener.getsockname()[1]}/v1"

    def __enter__(self):
        threading.Thread(target=self._accept, daemon=True).start()
        threading.Timer(self.lifetime_s, self._stopped.set).start()
        return self

    def __exit__(self, *exc):
        self._stopped.set()

    def _accept(self):
        while not self._stopped.is_set():
            try:
                connection, _ = self._listener.accept()
            except socket.timeout:
                continue
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()
        self._listener.close()

    def _serve(self, connection):
        connection.settimeout(self.lifetime_s)
        try:
            headers, body = _read(connection)
            with self._lock:
                first = not self.bodies
                self.bodies.append(body)
                key = headers.get("idempotency-key")
                if key is None or key not in self._keys:
                    self.charged += 1
                if key is not None:
                    self._keys.add(key)
            self._answer(connection, headers, first)
        except OSError:
            pass
        finally:
            connection.close()

    def _answer(self, connection, headers, first):
        if self.behaviour == "hold_first" and first:
            self._stopped.wait(self.lifetime_s)
            return
        if self.behaviour == "echo_key":
            payload = json.dumps({"error": {"message": f"invalid key: {headers.get('authorization')}"}})
            connection.sendall(_response(self.status, payload))
            return
        time.sleep(self.delay_s)
        data = _response(200, json.dumps(CHAT))
        if self.behaviour == "slow_headers":
            head, _, rest = data.partition(b"\r\n\r\n")
            for byte in head + b"\r\n\r\n":
                if self._stopped.wait(self.drip_s):
                    return
                connection.sendall(bytes([byte]))
            data = rest
        connection.sendall(data)


def _read(connection) -> tuple[dict, dict]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            raise OSError("closed")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    headers = {}
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    while len(body) < int(headers.get("content-length", 0)):
        body += connection.recv(65536)
    return headers, json.loads(body)


def _response(status: int, payload: str) -> bytes:
    data = payload.encode()
    head = f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    return (head + "Connection: close\r\n\r\n").encode() + data


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def _client(server, cache_dir="cache", **settings) -> EndpointGenerator:
    defaults = dict(model="m", api_key_env=None, backoff_s=0.01, cache_dir=cache_dir)
    return EndpointGenerator(EndpointSettings(base_url=server.base_url, **{**defaults, **settings}), "api")


def test_one_deadline_covers_slow_headers():
    # before: the deadline was re-checked only while reading the body; each header byte renewed the time-out
    with PromiseServer("slow_headers", drip_s=0.05) as server:  # ~100 header bytes: 5 s
        started = time.monotonic()
        with pytest.raises(EndpointTimeout, match="within 1 s"):
            _client(server, timeout_s=1, max_retries=0).complete(user("q"), 4)
        took = time.monotonic() - started
    assert took < 1.8, f"a 1 s deadline took {took:.1f} s"


@pytest.mark.parametrize("status", [401, 500])
def test_a_key_echoed_by_the_server_reaches_neither_the_error_nor_the_log(status, monkeypatch, caplog):
    # before: the 401 body (and a retried 500's) with the key went into the error and the rule's log
    monkeypatch.setenv("BENCHVAL_TEST_KEY", KEY)
    with PromiseServer("echo_key", status=status) as server, caplog.at_level(logging.DEBUG):
        with pytest.raises(EndpointError) as raised:
            _client(server, api_key_env="BENCHVAL_TEST_KEY", max_retries=1).complete(user("q"), 4)
    shown = str(raised.value) + "\n" + caplog.text
    assert "invalid key: Bearer [redacted]" in str(raised.value)
    assert KEY not in shown
    if status == 500:
        assert "retrying" in caplog.text  # the retry's log line was written, redacted


KILLED_RUN = """
import sys
from benchval.generation.endpoint import EndpointGenerator, EndpointSettings
from benchval.generation.prompts import user

settings = EndpointSettings(base_url=sys.argv[1], model="m", api_key_env=None, timeout_s=60, cache_dir="cache")
EndpointGenerator(settings, "api").generate([user("the question in flight")], 8)
"""


def test_a_request_in_flight_at_a_sigkill_is_not_paid_again_on_resume(caplog):
    # before: the resumed run sent it again as a new request: paid twice
    with PromiseServer("hold_first", lifetime_s=30) as server:
        run = subprocess.Popen([sys.executable, "-c", KILLED_RUN, server.base_url])
        try:
            deadline = time.monotonic() + 20
            while not server.bodies and time.monotonic() < deadline:
                time.sleep(0.02)
            assert server.bodies, "the killed run never sent its request"
        finally:
            run.kill()  # SIGKILL: no clean-up of any kind
            run.wait(timeout=10)
        client = _client(server, timeout_s=5)
        with caplog.at_level(logging.WARNING):
            assert client.generate([user("the question in flight")], 8) == ["Because yes."]
    assert len(server.bodies) == 2 and server.charged == 1
    assert client.usage_summary()["resent_after_interrupt"] == 1
    assert "charges for it twice" in caplog.text  # the double payment stated where the server cannot avoid it


def test_two_runs_sharing_a_cache_pay_for_each_request_once():
    # before: both runs sent every prompt (8 requests for 4 prompts)
    prompts = [user(f"question {i}") for i in range(4)]
    with PromiseServer("ok", delay_s=0.3) as server:
        clients = [_client(server, timeout_s=10), _client(server, timeout_s=10)]
        answers: dict[int, list[str]] = {}
        threads = [
            threading.Thread(target=lambda i=i: answers.__setitem__(i, clients[i].generate(prompts, 8)))
            for i in range(2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    assert answers[0] == answers[1] == ["Because yes."] * 4
    sent = sorted(body["messages"][0]["content"] for body in server.bodies)
    assert sent == sorted(f"question {i}" for i in range(4)), sent
