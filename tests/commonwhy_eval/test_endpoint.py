"""The OpenAI-compatible client against real HTTP servers on localhost.

The faults of issue 34 (item 3) use the fault-injecting loopback server of tests/commonwhy/faulty_endpoint.py;
every test is bounded in time (the server stops itself after its lifetime_s).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from benchval.generation.endpoint import EndpointError, EndpointGenerator, EndpointSettings, EndpointTimeout
from benchval.generation.prompts import user
from benchval.generation.runner import generate_resumable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "commonwhy"))
from faulty_endpoint import FaultyEndpoint  # noqa: E402

PROMPTS = [user("why could he not attend the race ?"), user("why is paris the capital ?")]
#: what the fault-injecting server sends for a good answer
CHAT = {
    "choices": [{"index": 0, "message": {"role": "assistant", "content": " Because yes. "}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14},
}


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Each test in its own working directory: the default answer cache (resources/endpoint_cache) lands there."""
    monkeypatch.chdir(tmp_path)


def _base(server: FaultyEndpoint) -> str:
    return f"http://127.0.0.1:{server.port}/v1"


def _sent(server: FaultyEndpoint) -> list[dict]:
    return [json.loads(body) for body in server.bodies]


@pytest.fixture(scope="module")
def model_server(tiny_lm_dir):
    """`python -m benchval.generation.server` serving the tiny model, in its own process."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "benchval.generation.server",
            "--model-dir",
            tiny_lm_dir,
            "--plain-folder",
            "--name",
            "tiny-local",
            "--port",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = process.stdout.readline()
    if not line.startswith("listening on "):
        process.kill()
        pytest.fail(f"server did not start: {line!r}")
    yield line.split()[-1]
    process.terminate()
    process.wait(timeout=10)


def test_endpoint_matches_local_generation(model_server, tiny_generator, monkeypatch):
    monkeypatch.setenv("BENCHVAL_TEST_KEY", "sk-test")
    client = EndpointGenerator(
        EndpointSettings(base_url=model_server, model="tiny-local", api_key_env="BENCHVAL_TEST_KEY", timeout_s=30)
    )
    assert client.generate(PROMPTS, max_new_tokens=5) == tiny_generator.generate(PROMPTS, max_new_tokens=5)


def test_missing_api_key_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("BENCHVAL_NO_SUCH_KEY", raising=False)
    with pytest.raises(EndpointError, match="BENCHVAL_NO_SUCH_KEY"):
        EndpointGenerator(
            EndpointSettings(base_url="http://127.0.0.1:9/v1", model="m", api_key_env="BENCHVAL_NO_SUCH_KEY")
        )


class Scripted(BaseHTTPRequestHandler):
    """Answers from a script of (status, delay_s) per request; records headers and bodies."""

    script: list = []
    seen: list = []

    def log_message(self, *args):
        pass

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append({"auth": self.headers.get("Authorization"), "body": body})
        status, delay = type(self).script.pop(0) if type(self).script else (200, 0)
        time.sleep(delay)
        payload = (
            {"choices": [{"message": {"role": "assistant", "content": " Because yes. "}}]}
            if status == 200
            else {"error": {"message": f"scripted {status}"}}
        )
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


@pytest.fixture
def scripted_server():
    Scripted.script, Scripted.seen = [], []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _client(url, **kw):
    return EndpointGenerator(EndpointSettings(base_url=url, model="m", api_key_env=None, backoff_s=0.01, **kw))


def test_request_is_greedy_and_answer_is_stripped(scripted_server):
    assert _client(scripted_server).complete(PROMPTS[0], 7) == "Because yes."
    body = Scripted.seen[0]["body"]
    assert body["temperature"] == 0 and body["max_tokens"] == 7 and body["messages"] == PROMPTS[0]
    assert Scripted.seen[0]["auth"] is None


def test_server_error_is_retried_then_succeeds(scripted_server):
    Scripted.script = [(500, 0), (503, 0)]
    assert _client(scripted_server, max_retries=2).complete(PROMPTS[0], 4) == "Because yes."
    assert len(Scripted.seen) == 3


def test_persistent_server_error_fails_with_status_and_message(scripted_server):
    Scripted.script = [(500, 0)] * 3
    with pytest.raises(EndpointError, match="HTTP 500: .*scripted 500"):
        _client(scripted_server, max_retries=2).complete(PROMPTS[0], 4)
    assert len(Scripted.seen) == 3


def test_client_error_is_not_retried(scripted_server):
    Scripted.script = [(400, 0)]
    with pytest.raises(EndpointError, match="HTTP 400"):
        _client(scripted_server, max_retries=3).complete(PROMPTS[0], 4)
    assert len(Scripted.seen) == 1


def test_timeout_after_retries(scripted_server):
    Scripted.script = [(200, 1.0), (200, 1.0)]
    started = time.perf_counter()
    with pytest.raises(EndpointTimeout, match="no answer within 0.2 s"):
        _client(scripted_server, timeout_s=0.2, max_retries=1).complete(PROMPTS[0], 4)
    assert len(Scripted.seen) == 2
    assert time.perf_counter() - started < 3


def test_unreachable_server_is_a_clear_error():
    with pytest.raises(EndpointError, match="cannot connect"):
        _client("http://127.0.0.1:9/v1", max_retries=0).complete(PROMPTS[0], 4)


# ---- issue 34, item 3: endpoints a user can pay for ---------------------------------------------------------


def test_a_model_change_sends_new_requests(tmp_path):
    # the answers were cached under the system's name: gpt-4o -> gpt-4o-mini sent 0 requests, returned gpt-4o's
    checkpoint = tmp_path / "answers" / "api.checkpoint.jsonl"
    with FaultyEndpoint(answer=CHAT) as server:
        for model in ("gpt-4o", "gpt-4o-mini"):
            client = EndpointGenerator(EndpointSettings(base_url=_base(server), model=model, api_key_env=None), "api")
            generate_resumable(client, ["q1", "q2"], PROMPTS, checkpoint, max_new_tokens=8)
        asked = [body["model"] for body in _sent(server)]
    assert asked == ["gpt-4o", "gpt-4o", "gpt-4o-mini", "gpt-4o-mini"]


RUN_FIVE = """
import sys
from benchval.generation.endpoint import EndpointGenerator, EndpointSettings
from benchval.generation.prompts import user
from benchval.generation.runner import generate_resumable

client = EndpointGenerator(EndpointSettings(base_url=sys.argv[1], model="m", api_key_env=None, timeout_s=30), "api")
ids = [f"q{i}" for i in range(5)]
generate_resumable(client, ids, [user(f"question number {i}") for i in range(5)], sys.argv[2], 8, batch_size=8)
"""


def _wait_for(condition, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"condition not met within {seconds} s")
        time.sleep(0.02)


def test_a_run_killed_after_k_answers_resumes_with_the_k_answers_kept(tmp_path):
    # nothing was saved until the end of a batch: a run killed after 3 paid answers asked for all 5 again
    checkpoint = tmp_path / "answers" / "api.checkpoint.jsonl"
    with FaultyEndpoint(["ok", "ok", "ok"], then="hang", answer=CHAT, lifetime_s=20) as server:
        run = subprocess.Popen([sys.executable, "-c", RUN_FIVE, _base(server), str(checkpoint)], cwd=tmp_path)
        try:
            _wait_for(lambda: len(server.bodies) == 4, 15)  # 3 answered, the 4th hangs
        finally:
            run.kill()  # SIGKILL: no clean-up of any kind
            run.wait(timeout=10)
        server.then = "ok"  # the same endpoint, answering again
        server.bodies.clear()
        client = EndpointGenerator(EndpointSettings(base_url=_base(server), model="m", api_key_env=None), "api")
        prompts = [user(f"question number {i}") for i in range(5)]
        table = generate_resumable(client, [f"q{i}" for i in range(5)], prompts, checkpoint, 8, batch_size=8)
        asked = [body["messages"][0]["content"] for body in _sent(server)]
    assert asked == ["question number 3", "question number 4"]
    assert list(table["answer"]) == ["Because yes."] * 5


def _client_for(server: FaultyEndpoint, **settings) -> EndpointGenerator:
    return EndpointGenerator(
        EndpointSettings(base_url=_base(server), model="m", api_key_env=None, backoff_s=0.01, **settings)
    )


@pytest.mark.parametrize("form", ["seconds", "http-date"])
def test_retry_after_is_honoured(form):
    # `Retry-After: 3` was ignored: the client retried after its own back-off (0.05 s)
    from email.utils import formatdate

    header = "2" if form == "seconds" else formatdate(time.time() + 3, usegmt=True)  # a whole-second date
    with FaultyEndpoint(["429"], answer=CHAT, retry_after=header) as server:
        assert _client_for(server, max_retries=1).complete(PROMPTS[0], 4) == "Because yes."
        waited = server.times[1] - server.times[0]
    assert waited >= 1.9, f"retried after {waited:.2f} s despite Retry-After: {header}"
    assert waited < 4.5


def test_one_deadline_covers_the_whole_body():
    # timeout_s: 1 against a server that drips one byte every 0.05 s took the whole body's time (12.3 s)
    with FaultyEndpoint(["drip"], then="drip", answer=CHAT, drip_s=0.05, lifetime_s=12) as server:
        client = _client_for(server, timeout_s=1, max_retries=0)
        started = time.monotonic()
        with pytest.raises(EndpointTimeout, match=r"POST http://127\.0\.0\.1:\d+/v1/chat/completions: .*within 1"):
            client.complete(PROMPTS[0], 4)
        took = time.monotonic() - started
    assert took < 1.8, f"a 1 s deadline took {took:.1f} s"


@pytest.mark.parametrize("drop", ["disconnect", "reset"])
def test_a_dropped_connection_after_sending_is_retried(drop):
    # a dropped connection after the request was sent raised a raw exception, with no retry
    with FaultyEndpoint([drop], answer=CHAT) as server:
        assert _client_for(server, max_retries=1).complete(PROMPTS[0], 4) == "Because yes."
        assert len(server.bodies) == 2


def test_a_connection_dropped_every_time_is_reported_with_the_url():
    with FaultyEndpoint(then="disconnect", answer=CHAT) as server:
        with pytest.raises(EndpointError, match=r"POST http://127\.0\.0\.1:\d+/v1/chat/completions: .*3 attempts"):
            _client_for(server, max_retries=2).complete(PROMPTS[0], 4)
        assert len(server.bodies) == 3


def test_an_html_body_in_a_200_is_retried():
    # an HTML page in a 200 answer gave a raw JSON error without the URL
    with FaultyEndpoint(["garbage"], answer=CHAT) as server:
        assert _client_for(server, max_retries=1).complete(PROMPTS[0], 4) == "Because yes."
        assert len(server.bodies) == 2


@pytest.mark.parametrize("fault", ["garbage", "not_object", "truncated"])
def test_a_bad_body_is_reported_with_the_url_and_status(fault):
    with FaultyEndpoint(then=fault, answer=CHAT) as server:
        with pytest.raises(EndpointError, match=r"POST http://127\.0\.0\.1:\d+/v1/chat/completions: HTTP 200"):
            _client_for(server, max_retries=1).complete(PROMPTS[0], 4)
        assert len(server.bodies) == 2


def test_a_dry_run_prints_the_calls_and_their_cost_and_sends_nothing(tmp_path, monkeypatch, capsys):
    from benchval.generation.endpoint import EndpointDryRun

    price = {"input_per_mtok": 2.5, "output_per_mtok": 10.0}
    ids, prompts = [f"q{i}" for i in range(5)], [user("x" * (40 + i)) for i in range(5)]
    checkpoint = tmp_path / "answers" / "api.checkpoint.jsonl"
    with FaultyEndpoint(answer=CHAT) as server:
        client = EndpointGenerator(
            EndpointSettings(base_url=_base(server), model="m", api_key_env=None, price=price), "api"
        )
        generate_resumable(client, ids[:2], prompts[:2], checkpoint, 8)  # two answers paid for already
        monkeypatch.setenv("BENCHVAL_ENDPOINT_DRY_RUN", "1")
        with pytest.raises(EndpointDryRun):
            generate_resumable(client, ids, prompts, checkpoint, 8)
        assert len(server.bodies) == 2  # the dry run sent nothing
    # by hand: 3 calls of ceil(chars / 4) + 4 tokens per message in, at most max_tokens (8) out each
    tokens_in = sum(-(-(40 + i) // 4) + 4 for i in (2, 3, 4))
    cost = (tokens_in * 2.5 + 3 * 8 * 10.0) / 1e6
    printed = capsys.readouterr().out
    assert "3 calls to send" in printed and f"{tokens_in} input tokens" in printed
    assert f"${cost:.6f}" in printed, printed


# ---- the cache: keyed on everything that determines an answer, never stale ---------------------------------

BASE = {"model": "m", "seed": None, "max_new_tokens": 8, "prompt": "why is paris the capital ?", "path": "/v1"}


@pytest.mark.parametrize(
    "change",
    [{"model": "m2"}, {"seed": 7}, {"max_new_tokens": 9}, {"prompt": "why is paris the capital ?!"}, {"path": "/v2"}],
    ids=["model", "seed", "max_tokens", "prompt", "base_url"],
)
def test_any_change_that_can_change_the_answer_sends_a_new_request(change):
    # the cheapest wrong cache, keyed on the prompt alone (or the system's name), fails every case but one
    with FaultyEndpoint(answer=CHAT) as server:

        def ask(model, seed, max_new_tokens, prompt, path):
            settings = EndpointSettings(
                base_url=f"http://127.0.0.1:{server.port}{path}", model=model, seed=seed, api_key_env=None
            )
            EndpointGenerator(settings, "api").generate([user(prompt)], max_new_tokens)

        ask(**BASE)
        ask(**BASE)  # the same request: from the cache
        assert len(server.bodies) == 1
        ask(**(BASE | change))
        assert len(server.bodies) == 2


def test_a_stored_answer_is_returned_only_for_its_own_request(tmp_path):
    import sqlite3

    with FaultyEndpoint(answer=CHAT) as server:
        client = _client_for(server)
        client.complete(PROMPTS[0], 4)
        with sqlite3.connect(client.cache.path) as db:  # the row's request no longer matches its key
            db.execute("UPDATE answers SET request = replace(request, 'race', 'rice')")
        _client_for(server).complete(PROMPTS[0], 4)
        assert len(server.bodies) == 2


def test_judge_calls_go_through_the_same_cache(tmp_path):
    from benchval.commonwhy.eval.judge import Judge
    from benchval.commonwhy.eval.kg_claims import LLMClaimSplitter
    from benchval.generation.prompts import PromptTemplate

    judge_prompt = PromptTemplate("Q: $question R: $reference A: $answer. Same cause?")
    triples = [("why?", "because a", "because b"), ("why not?", "because c", "because d")]
    yes = {"choices": [{"message": {"content": "Yes."}}], "usage": {"prompt_tokens": 5, "completion_tokens": 1}}
    with FaultyEndpoint(answer=yes) as server:
        first = Judge(_client_for(server), judge_prompt, decision="generate").decide(triples)
        again = Judge(_client_for(server), judge_prompt, decision="generate").decide(triples)
        assert len(server.bodies) == 2 and first == again and all(v["yes"] for v in again)
        splitter = PromptTemplate("Split into claims: $answer")
        LLMClaimSplitter(_client_for(server), splitter)("he was born in 1900. he died in 1950.")
        LLMClaimSplitter(_client_for(server), splitter)("he was born in 1900. he died in 1950.")
        assert len(server.bodies) == 3


# ---- concurrency, rate limits, usage and cost ------------------------------------------------------------


def test_concurrent_requests_keep_their_order(scripted_server):
    Scripted.script = [(200, 0.6)] * 4
    prompts = [user(f"question {i}") for i in range(4)]
    client = _client(scripted_server, concurrency=4)
    started = time.perf_counter()
    assert client.generate(prompts, 4) == ["Because yes."] * 4
    took = time.perf_counter() - started
    # one at a time would take 4 x 0.6 s
    assert took < 1.8, f"4 requests of 0.6 s with concurrency 4 took {took:.1f} s"
    assert sorted(seen["body"]["messages"][0]["content"] for seen in Scripted.seen) == [
        p[0]["content"] for p in prompts
    ]


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def test_requests_per_minute_is_a_sliding_window():
    from benchval.generation.rate_limit import RateLimiter

    clock = FakeClock()
    limiter = RateLimiter(requests_per_minute=2, clock=clock, sleep=clock.sleep)
    starts = []
    for _ in range(5):
        limiter.acquire(1)
        starts.append(clock.now)
        clock.now += 1.0  # each request takes a second
    assert starts == [0.0, 1.0, 60.0, 61.0, 120.0]


def test_tokens_per_minute_waits_for_the_window_and_counts_reported_tokens():
    from benchval.generation.rate_limit import RateLimiter

    clock = FakeClock()
    limiter = RateLimiter(tokens_per_minute=100, clock=clock, sleep=clock.sleep)
    first = limiter.acquire(40)
    limiter.settle(first, 10)  # the server reported 10 tokens, not the 40 estimated
    limiter.acquire(40)
    limiter.acquire(40)  # 10 + 40 + 40 = 90: fits
    assert clock.now == 0.0
    limiter.acquire(40)  # 130 > 100: waits until the first (10) and second (40) have left the window
    assert clock.now == 60.0
    with pytest.raises(ValueError, match="more than tokens_per_minute"):
        limiter.acquire(101)


def test_usage_and_cost_are_counted_per_run_and_written_out(tmp_path):
    price = {"input_per_mtok": 2.5, "output_per_mtok": 10.0}
    with FaultyEndpoint(answer=CHAT) as server:
        client = _client_for(server, price=price)
        client.generate([user(f"q{i}") for i in range(3)], 4)
        summary = client.usage_summary()
        assert summary["requests_sent"] == 3 and summary["answers_from_cache"] == 0
        assert (summary["prompt_tokens"], summary["completion_tokens"]) == (33, 9)  # 3 x (11, 3) from the server
        assert summary["cost_usd"] == pytest.approx((33 * 2.5 + 9 * 10.0) / 1e6)
        rerun = _client_for(server, price=price)
        rerun.generate([user(f"q{i}") for i in range(3)], 4)
        assert rerun.usage_summary()["answers_from_cache"] == 3 and rerun.usage_summary()["cost_usd"] == 0.0
    ledger = [json.loads(line) for line in (tmp_path / "resources/endpoint_cache/usage.jsonl").read_text().splitlines()]
    assert [line["requests_sent"] for line in ledger] == [3, 0] and ledger[0]["run"] != ledger[1]["run"]


def test_tokens_the_server_does_not_report_are_missing_not_zero():
    no_usage = {"choices": [{"message": {"content": "Because."}}]}
    with FaultyEndpoint(answer=no_usage) as server:
        client = _client_for(server, price={"input_per_mtok": 1, "output_per_mtok": 1})
        client.generate([user("q")], 4)
    summary = client.usage_summary()
    assert summary["prompt_tokens"] is None and summary["cost_usd"] is None
    assert summary["missing_reason"] == "1 answers reported no token usage"


def test_a_retry_after_beyond_the_limit_fails_naming_the_wait():
    with FaultyEndpoint(["429"], answer=CHAT, retry_after="3600") as server:
        with pytest.raises(EndpointError, match="retry after 3600 s"):
            _client_for(server, max_retries=1).complete(PROMPTS[0], 4)


def test_the_project_server_reports_usage(model_server):
    client = EndpointGenerator(EndpointSettings(base_url=model_server, model="tiny-local", api_key_env=None))
    client.generate(PROMPTS, max_new_tokens=5)
    summary = client.usage_summary()
    assert summary["requests_sent"] == 2 and summary["prompt_tokens"] > 0 and summary["missing_reason"]
    assert 0 < summary["completion_tokens"] <= 10


@pytest.mark.parametrize("stage", ["answer", "judge", "judge_check", "factscore", "kgr", "kbbinder"])
def test_the_endpoint_keys_reach_the_client_of_every_stage_that_calls_it(stage):
    from benchval.commonwhy.eval.settings import resolve
    from benchval.commonwhy.eval.stage_keys import stage_section, stage_settings
    from benchval.generation.systems import make_generator

    entry = {
        "base_url": "http://127.0.0.1:9/v1",
        "model": "m",
        "api_key_env": None,
        "cache_dir": "answers_paid_for",
        "concurrency": 3,
        "requests_per_minute": 60,
        "tokens_per_minute": 1000,
        "price": {"input_per_mtok": 2.5, "output_per_mtok": 10.0},
    }
    settings = stage_settings(stage_section(resolve({"endpoints": {"api": entry}}), stage), stage)
    client = make_generator("api", settings, {})
    assert client.settings.concurrency == 3 and client.settings.price == entry["price"]
    assert (client.limiter.requests_per_minute, client.limiter.tokens_per_minute) == (60, 1000)
    assert client.cache.path == Path("answers_paid_for/chat_completions.sqlite")


def test_the_answer_stage_on_the_project_server_writes_usage_and_dry_runs(model_server, tmp_path, monkeypatch):
    import pandas as pd

    from benchval.commonwhy.eval.settings import resolve
    from benchval.commonwhy.eval.stage_keys import stage_section
    from benchval.commonwhy.eval.steps.commonwhy_eval_answer import stage_answer
    from benchval.generation.endpoint import EndpointDryRun

    questions = tmp_path / "questions.parquet"
    texts = ["why could he not attend the race ?", "why is paris the capital ?", "why was she born in berlin ?"]
    pd.DataFrame(
        {
            "id": ["a", "b", "c"],
            "source": "published",
            "split": "head",
            "question": texts,
            "references": [["because yes"]] * 3,
            "rule": "r",
            "reasoning_category": "c",
            "popularity": 1.0,
            "anchor_qids": [["Q1"]] * 3,
        }
    ).to_parquet(questions)
    endpoint = {"base_url": model_server, "model": "tiny-local", "api_key_env": None}
    price = {"input_per_mtok": 1.0, "output_per_mtok": 2.0}

    def run(max_new_tokens):
        section = resolve({"endpoints": {"api": endpoint | {"price": price}}, "generation": {"max_new_tokens": 6}})
        section["generation"]["max_new_tokens"] = max_new_tokens
        stage_answer(
            str(questions), "api", stage_section(section, "answer"), {}, "answers.parquet", "ck.jsonl", "timing.json"
        )
        return json.loads(Path("timing.json").read_text())["endpoint_usage"]

    usage = run(6)
    assert usage["requests_sent"] == 3 and usage["prompt_tokens"] > 0 and usage["cost_usd"] > 0
    assert len(pd.read_parquet("answers.parquet")) == 3
    monkeypatch.setenv("BENCHVAL_ENDPOINT_DRY_RUN", "1")
    with pytest.raises(EndpointDryRun, match="3 calls to send"):  # a new length: new requests, none sent
        run(7)
    assert len(Path("resources/endpoint_cache/usage.jsonl").read_text().splitlines()) == 1


def test_the_proxy_of_the_environment_is_used(monkeypatch):
    # urllib (the previous client) honoured HTTP_PROXY; the http.client one must too
    with FaultyEndpoint(answer=CHAT) as proxy:
        for name in ("HTTP_PROXY", "http_proxy"):
            monkeypatch.setenv(name, f"http://127.0.0.1:{proxy.port}")
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        client = EndpointGenerator(
            EndpointSettings(base_url="http://api.example.invalid/v1", model="m", api_key_env=None)
        )
        assert client.complete(PROMPTS[0], 4) == "Because yes."
        assert proxy.targets == ["http://api.example.invalid/v1/chat/completions"]


def test_a_judge_check_stopped_by_a_failure_keeps_the_verdicts_paid_for():
    # one dropped connection at request 150 aborted the judge check and lost the 149 answers before it
    from benchval.commonwhy.eval.judge import Judge
    from benchval.generation.prompts import PromptTemplate

    template = PromptTemplate("Q: $question R: $reference A: $answer. Same cause?")
    triples = [(f"why {i}?", "because a", "because b") for i in range(5)]
    yes = {"choices": [{"message": {"content": "Yes."}}], "usage": {"prompt_tokens": 5, "completion_tokens": 1}}
    with FaultyEndpoint(["ok", "ok", "ok"], then="disconnect", answer=yes) as server:
        with pytest.raises(EndpointError, match="connection failed after sending"):
            Judge(_client_for(server, max_retries=1), template, decision="generate").decide(triples)
        assert len(server.bodies) == 5  # 3 answered, the 4th sent twice
        server.then = "ok"
        server.bodies.clear()
        verdicts = Judge(_client_for(server, max_retries=1), template, decision="generate").decide(triples)
        assert [json.loads(b)["messages"][0]["content"] for b in server.bodies] == [
            template.fill(question=q, reference=r, answer=a) for q, r, a in triples[3:]
        ]
    assert all(v["yes"] for v in verdicts)
