"""A minimal W3C WebDriver client for chromedriver (no selenium dependency).

Only what the report test needs: open a page, run JavaScript, find and click elements, take a
screenshot. Speaks the WebDriver JSON protocol over HTTP to a chromedriver it starts itself.
"""

from __future__ import annotations

import base64
import json
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Self

ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"


class WebDriverError(RuntimeError):
    """chromedriver answered with an error."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class HeadlessChromium:
    """Context manager: chromedriver + one headless Chromium session."""

    def __init__(
        self,
        chromium: str,
        chromedriver: str,
        width: int = 1400,
        height: int = 1000,
        offline: bool = True,
        extra_args: tuple[str, ...] = (),
        console_log: bool = False,
    ):
        self.chromium, self.chromedriver = chromium, chromedriver
        self.extra_args, self.console_log = tuple(extra_args), console_log
        self.offline = offline
        self.size = (width, height)
        self.port = _free_port()
        self.process: subprocess.Popen | None = None
        self.session: str | None = None

    def __enter__(self) -> Self:
        self.process = subprocess.Popen(
            [self.chromedriver, f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                self._call("GET", "/status")
                break
            except (urllib.error.URLError, ConnectionError) as error:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.close()
                    raise WebDriverError("chromedriver did not start") from error
                time.sleep(0.2)
        # offline: every host name fails to resolve, so a page that needs the network breaks.
        network = ["--host-resolver-rules=MAP * ~NOTFOUND"] if self.offline else []
        options = {
            "binary": self.chromium,
            "args": [
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                f"--window-size={self.size[0]},{self.size[1]}",
                *network,
                *self.extra_args,
            ],
        }
        capabilities = {"browserName": "chrome", "goog:chromeOptions": options}
        if self.console_log:  # chromedriver keeps the page's console messages for browser_log()
            capabilities["goog:loggingPrefs"] = {"browser": "ALL"}
        answer = self._call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = answer["sessionId"]
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.session:
            try:
                self._call("DELETE", f"/session/{self.session}")
            except (WebDriverError, OSError):  # the browser may already be gone; chromedriver is stopped below
                self.session = None
            self.session = None
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def _call(self, method: str, path: str, body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                payload = json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            payload = json.loads(error.read() or b"{}")
            value = payload.get("value", {})
            raise WebDriverError(f"{method} {path}: {value.get('error')}: {value.get('message', '')[:500]}") from None
        value = payload.get("value")
        if path == "/session" and method == "POST":
            return value
        return value

    def _session(self, method: str, path: str, body: dict | None = None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def open(self, url: str) -> None:
        self._session("POST", "/url", {"url": url})

    def run(self, script: str, *args):
        """Run JavaScript (a function body; `arguments` holds args) and return its result."""
        return self._session("POST", "/execute/sync", {"script": script, "args": list(args)})

    def run_async(self, script: str, *args):
        """Run async JavaScript: the last entry of `arguments` is the callback to call with the result."""
        return self._session("POST", "/execute/async", {"script": script, "args": list(args)})

    def set_script_timeout(self, seconds: float) -> None:
        self._session("POST", "/timeouts", {"script": int(seconds * 1000)})

    def browser_log(self) -> list[dict]:
        """The console messages since the last call (chromedriver's log endpoint; needs console_log=True):
        dicts with level (SEVERE for errors), message, timestamp."""
        return self._session("POST", "/se/log", {"type": "browser"})

    def find_all(self, xpath: str) -> list[str]:
        found = self._session("POST", "/elements", {"using": "xpath", "value": xpath})
        return [element[ELEMENT_KEY] for element in found]

    def click(self, element: str) -> None:
        self._session("POST", f"/element/{element}/click", {})

    def wait_for(self, script: str, timeout: float = 20, *args):
        """Poll `script` until it returns a truthy value; return it (raise on timeout)."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.run(script, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise WebDriverError(f"timed out after {timeout} s waiting for: {script[:200]}")
            time.sleep(0.25)

    def screenshot(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self._session("GET", "/screenshot")))
        return path
