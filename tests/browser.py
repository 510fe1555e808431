"""Headless Chromium driven as a user drives it, with the standard library only: the DevTools
protocol over ``--remote-debugging-pipe`` (JSON messages ended by a NUL byte, commands on the
browser's file descriptor 3, answers and events on 4). Enough to set a cookie, open a page,
type into it, click, and read what it shows."""
from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import time

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Browser:
    def __init__(self, chromium: str, flags: list[str], profile: str):
        to_browser, self._commands = os.pipe()
        self._answers, from_browser = os.pipe()

        def plumb() -> None:  # in the child: the pipe ends as its fds 3 and 4
            a, b = os.dup(to_browser), os.dup(from_browser)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen([chromium, *flags, "--user-data-dir=" + profile, "--remote-debugging-pipe",
                                         "about:blank"], preexec_fn=plumb, pass_fds=(3, 4),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self._next, self._buffer = 0, b""
        #: what the pages wrote to the console as errors, and the exceptions they left uncaught,
        #: since the browser started (``console_errors`` reads and clears them)
        self._errors: list[str] = []
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.page("Runtime.enable")
        self.page("Log.enable")

    def send(self, method: str, session: str | None = None, **params) -> dict:
        """One command; its result (an error answer raises)."""
        self._next += 1
        message = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + 60
        while True:
            while b"\0" not in self._buffer:
                if not select.select([self._answers], [], [], max(0.0, deadline - time.monotonic()))[0]:
                    raise TimeoutError(f"Chromium did not answer {method}")
                chunk = os.read(self._answers, 1 << 16)
                if not chunk:
                    raise ConnectionError("Chromium closed its pipe")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            answer = json.loads(raw)
            self._keep_error(answer)
            if answer.get("id") == self._next:  # events and other answers pass by
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def _keep_error(self, event: dict) -> None:
        params = event.get("params", {})
        if event.get("method") == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self._errors.append("Uncaught " + str(details.get("exception", {}).get("description") or details.get("text")))
        elif event.get("method") == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self._errors.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
        elif event.get("method") == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            self._errors.append("log: " + params["entry"].get("text", ""))

    def console_errors(self) -> list[str]:
        """The console errors and uncaught exceptions of the pages since the last call."""
        self.evaluate("0")  # a round trip: the page's events before it have arrived
        errors, self._errors = self._errors, []
        return errors

    def page(self, method: str, **params) -> dict:
        return self.send(method, self.session, **params)

    def evaluate(self, expression: str):
        result = self.page("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:60]}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def set_cookie(self, url: str, name: str, value: str) -> None:
        self.page("Network.setCookie", url=url, name=name, value=value)

    def open(self, url: str) -> None:
        """Navigate and wait for the page to load; what the page before it wrote is dropped."""
        self.console_errors()
        self.page("Page.navigate", url=url)
        self.settle()

    def settle(self, seconds: float = 30) -> None:
        """Wait for the page that is loading (after a navigation or a form's submission) to load."""
        deadline = time.monotonic() + seconds
        time.sleep(0.1)
        while time.monotonic() < deadline:
            try:
                if self.evaluate("document.readyState") == "complete":
                    return
            except RuntimeError:  # the context went away between two pages
                pass
            time.sleep(0.05)
        raise TimeoutError("the page did not load")

    def submit(self, form_selector: str) -> None:
        """Submit a form as its button does, and wait for the answer page."""
        self.evaluate(f"window.__before = true; document.querySelector({json.dumps(form_selector)}).requestSubmit()")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the old page's flag goes with it
            try:
                if not self.evaluate("window.__before === true"):
                    break
            except RuntimeError:
                pass
            time.sleep(0.05)
        self.settle()

    def status(self) -> int:
        """The HTTP status of the page shown."""
        return self.evaluate("performance.getEntriesByType('navigation')[0].responseStatus")

    def screenshot(self, width: int, height: int) -> bytes:
        """The page drawn to pixels (PNG) in a window of ``width`` by ``height``."""
        import base64
        self.page("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        return base64.b64decode(self.page("Page.captureScreenshot", format="png")["data"])

    def html(self) -> str:
        return self.evaluate("document.documentElement.outerHTML")

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (OSError, ConnectionError, TimeoutError, RuntimeError):
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        os.close(self._answers)
