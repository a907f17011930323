"""A client for OpenAI-compatible `/chat/completions` endpoints (hosted models, vLLM, llama.cpp, ...).

Deterministic settings: temperature 0, top_p 1, optional seed. The API key is read from the
environment variable named in the config (never from the config itself). Time-outs, connection
errors, HTTP 429 and 5xx answers are retried with exponential back-off; other 4xx answers and
malformed bodies fail at once with an error naming the URL and the server's message.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass

from benchval.generation.prompts import Messages, cut_answer

log = logging.getLogger(__name__)

RETRY_STATUS = {408, 409, 429, 500, 502, 503, 504}


class EndpointError(RuntimeError):
    """The endpoint answered with an error or an unusable body."""


class EndpointTimeout(EndpointError):
    """No answer within the time-out, after every retry."""


@dataclass
class EndpointSettings:
    base_url: str  # e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1
    model: str
    api_key_env: str | None = "OPENAI_API_KEY"
    timeout_s: float = 60.0
    max_retries: int = 2
    backoff_s: float = 1.0
    seed: int | None = None


class EndpointGenerator:
    """Generates with an OpenAI-compatible chat endpoint, one request per conversation."""

    def __init__(self, settings: EndpointSettings, name: str | None = None):
        self.settings = settings
        self.name = name or settings.model
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        self._headers = {"Content-Type": "application/json"}
        if settings.api_key_env:
            key = os.environ.get(settings.api_key_env)
            if not key:
                raise EndpointError(
                    f"endpoint {self.url}: environment variable {settings.api_key_env} (the API key) is not set"
                )
            self._headers["Authorization"] = f"Bearer {key}"

    def _payload(self, messages: Messages, max_new_tokens: int) -> bytes:
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
        return json.dumps(body).encode()

    def _post_once(self, data: bytes) -> dict:
        request = urllib.request.Request(self.url, data=data, headers=self._headers, method="POST")
        with urllib.request.urlopen(request, timeout=self.settings.timeout_s) as response:
            return json.loads(response.read().decode())

    def complete(self, messages: Messages, max_new_tokens: int) -> str:
        """The assistant message of one chat completion (stripped)."""
        data = self._payload(messages, max_new_tokens)
        attempts = self.settings.max_retries + 1
        for attempt in range(1, attempts + 1):
            try:
                body = self._post_once(data)
                return _content(body, self.url)
            except urllib.error.HTTPError as error:
                detail = error.read().decode(errors="replace")[:300]
                if error.code not in RETRY_STATUS or attempt == attempts:
                    raise EndpointError(f"POST {self.url}: HTTP {error.code}: {detail}") from error
                problem = f"HTTP {error.code}"
            except (TimeoutError, socket.timeout) as error:
                if attempt == attempts:
                    raise EndpointTimeout(
                        f"POST {self.url}: no answer within {self.settings.timeout_s} s ({attempts} attempts)"
                    ) from error
                problem = "time-out"
            except urllib.error.URLError as error:
                if isinstance(error.reason, (TimeoutError, socket.timeout)) and attempt == attempts:
                    raise EndpointTimeout(f"POST {self.url}: no answer within {self.settings.timeout_s} s") from error
                if attempt == attempts:
                    raise EndpointError(f"POST {self.url}: cannot connect: {error.reason}") from error
                problem = f"connection error {error.reason}"
            wait = self.settings.backoff_s * 2 ** (attempt - 1)
            log.warning("POST %s: %s (attempt %d/%d); retrying in %.1f s", self.url, problem, attempt, attempts, wait)
            time.sleep(wait)
        raise AssertionError("unreachable")

    def generate(self, prompts: Sequence[Messages], max_new_tokens: int, first_line: bool = True) -> list[str]:
        """One completion per conversation; by default only its first line (as for local models)."""
        texts = [self.complete(messages, max_new_tokens) for messages in prompts]
        return [cut_answer(t) for t in texts] if first_line else texts


def _content(body: dict, url: str) -> str:
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as error:
        raise EndpointError(f"POST {url}: answer has no choices[0].message.content: {str(body)[:300]}") from error
    if content is None:
        raise EndpointError(f"POST {url}: choices[0].message.content is null")
    return content.strip()
