"""A small OpenAI-compatible HTTP server around a local model (stdlib http.server, one request at a time).

Serves `POST /v1/chat/completions` (greedy; `max_tokens` honoured; `temperature` must be 0 or absent;
`usage` counted with the model's tokenizer) and `GET /v1/models`. Meant for tests and for running the
endpoint code path against a local model:

    python -m benchval.generation.server --model-dir resources/models/smollm2-135m --port 8000
"""

from __future__ import annotations

import argparse
import json
import logging
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

log = logging.getLogger(__name__)


def usage_of(generator, messages, text: str) -> dict:
    """The answer's ``usage`` (tokens in and out, by the model's tokenizer), or {} for a generator without one."""
    tokenizer = getattr(generator, "tokenizer", None)
    if tokenizer is None or not hasattr(generator, "render"):
        return {}
    prompt = len(tokenizer(generator.render(messages), add_special_tokens=not generator.chat)["input_ids"])
    completion = len(tokenizer(text, add_special_tokens=False)["input_ids"])
    return {"usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}}


def make_handler(generator, model_name: str):
    """A request handler class bound to `generator` (anything with generate(list, max_new_tokens))."""
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, fmt, *args):  # route access logs through logging
            log.info("%s " + fmt, self.address_string(), *args)

        def _send(self, status: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, message: str) -> None:
            self._send(status, {"error": {"message": message, "type": "invalid_request_error"}})

        def do_GET(self):  # noqa: N802 - http.server API
            if self.path.rstrip("/") == "/v1/models":
                self._send(200, {"object": "list", "data": [{"id": model_name, "object": "model"}]})
            else:
                self._error(404, f"no route {self.path}")

        def do_POST(self):  # noqa: N802
            if self.path.rstrip("/") != "/v1/chat/completions":
                return self._error(404, f"no route {self.path}")
            try:
                request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                messages = request["messages"]
                max_tokens = int(request.get("max_tokens", 64))
            except (ValueError, KeyError, TypeError) as error:
                return self._error(400, f"bad request body: {error}")
            if request.get("temperature", 0) not in (0, 0.0):
                return self._error(400, "this server decodes greedily; temperature must be 0")
            with lock:
                text = generator.generate([messages], max_tokens, first_line=False)[0]
            self._send(
                200,
                {
                    "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": model_name,
                    "choices": [
                        {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
                    ],
                    **usage_of(generator, messages, text),
                },
            )

    return Handler


def main(argv: list[str] | None = None) -> None:
    from benchval.generation.hf import HFGenerator

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir", required=True, help="prepared model folder or plain HF folder")
    parser.add_argument("--name", default=None, help="model name reported by the API")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 = any free port")
    parser.add_argument("--plain-folder", action="store_true", help="load with from_pretrained, no manifest")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    if args.plain_folder:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        generator = HFGenerator(
            AutoModelForCausalLM.from_pretrained(args.model_dir),
            AutoTokenizer.from_pretrained(args.model_dir),
            name=args.name or "local",
        )
    else:
        generator = HFGenerator.from_prepared(args.model_dir, name=args.name)
    server = ThreadingHTTPServer((args.host, args.port), make_handler(generator, generator.name))
    host, port = server.server_address[:2]
    print(f"listening on http://{host}:{port}/v1", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
