"""Tablets in the other browser engines: WebKit (WebKitGTK's MiniBrowser through its own
WebDriver, ``WebKitWebDriver``, driven by Selenium) and Firefox ESR (spoken to over WebDriver
BiDi, the protocol Firefox serves itself). Both are Debian packages (``webkit2gtk-driver``,
``firefox-esr``); nothing is downloaded at run time (Selenium Manager is never asked: the
driver's path is given). WebKitGTK has no headless mode: it draws on an Xvfb display.

A test sees both through one small interface (:class:`EngineTablet`): open an address, run a
script, tap or drag at page coordinates with real pointer input, take a picture, and the
JavaScript errors the page met.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Iterator

WEBKIT_DRIVER = Path("/usr/bin/WebKitWebDriver")
MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
FIREFOX = Path("/usr/bin/firefox-esr")
XVFB = Path("/usr/bin/Xvfb")
TABLET = (1024, 768)

# Installed in the page after every navigation (again when a navigation dropped it): the
# errors the page meets from then on (what the Content-Security-Policy refused among them),
# every frame its sockets send and receive, and each pointerdown's timeStamp beside
# performance.now() at that moment. The page's own modules are imported once more (the very
# instances it runs, see tests/e2e/page_modules.py): one whose evaluation threw rejects here,
# so an error before the hooks were in is caught too.
HOOKS = """
if (!window.__engine) {
  const engine = window.__engine = { errors: [], sent: [], received: [], downs: [] };
  window.addEventListener('error', (e) => engine.errors.push(String(e.message || e.error)));
  window.addEventListener('unhandledrejection', (e) => engine.errors.push(String(e.reason)));
  document.addEventListener('securitypolicyviolation',
    (e) => engine.errors.push(`CSP refused ${e.blockedURI} (${e.effectiveDirective})`));
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (!this.__heard) {
      this.__heard = true;
      this.addEventListener('message', (m) => {
        if (typeof m.data !== 'string' || !m.data.startsWith('{')) return;
        engine.received.push(JSON.parse(m.data));
      });
    }
    engine.sent.push(JSON.parse(data));
    return send.call(this, data);
  };
  document.addEventListener('pointerdown',
    (e) => engine.downs.push([e.timeStamp, performance.now()]), true);
  const modules = engine.modules = {};
  document.querySelectorAll('script[type="module"][src], link[rel="modulepreload"][href]')
    .forEach((element) => {
      const url = element.src || element.href;
      const stem = new URL(url).pathname.split('/').pop().replace(/(\\.[0-9a-f]{12})?\\.js$/, '');
      import(url).then((exports) => { modules[stem] = exports; },
                       (error) => engine.errors.push(stem + ': ' + error));
    });
}
"""


class EngineTablet(Protocol):
    name: str

    def open(self, url: str) -> None: ...

    def run(self, body: str) -> Any:
        """Run ``body`` (a function body: ``return`` gives the value) with the hooks in."""
        ...

    def tap(self, x: float, y: float) -> None: ...

    def drag(self, points: list[tuple[float, float]]) -> None: ...

    def screenshot(self, path: Path) -> None: ...

    def errors(self) -> list[str]:
        """The engine's own report of uncaught errors, where it gives one."""
        ...

    def close(self) -> None: ...


def missing_engines() -> list[str]:
    """The Debian packages this machine lacks for the engine tests."""
    wanted = {
        "webkit2gtk-driver": WEBKIT_DRIVER,
        "firefox-esr": FIREFOX,
        "xvfb": XVFB,
    }
    return [package for package, path in wanted.items() if not path.exists()]


class Display:
    """A private Xvfb display (its number chosen by Xvfb itself: no clash between runs)."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.process = subprocess.Popen(
            [str(XVFB), "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten",
             "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        os.close(write)
        with os.fdopen(read) as numbers:
            self.name = ":" + numbers.readline().strip()

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


class WebKitTablet:
    """WebKitGTK's MiniBrowser, driven through WebKitWebDriver with Selenium."""

    name = "webkit"

    def __init__(self, display: Display, port: int) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        options = Options()
        options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")
        service = Service(
            executable_path=str(WEBKIT_DRIVER),
            port=port,
            env={**os.environ, "DISPLAY": display.name},
        )
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_window_rect(0, 0, *TABLET)
        inner = self.driver.execute_script("return [innerWidth, innerHeight]")
        # The window's own frame takes some of it: the page gets the tablet's size exactly.
        self.driver.set_window_rect(
            0, 0, 2 * TABLET[0] - int(inner[0]), 2 * TABLET[1] - int(inner[1])
        )

    def open(self, url: str) -> None:
        self.driver.get(url)

    def run(self, body: str) -> Any:
        return self.driver.execute_script(HOOKS + f"return (() => {{ {body} }})();")

    def _pointer(self) -> Any:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        return ActionBuilder(self.driver)

    def tap(self, x: float, y: float) -> None:
        actions = self._pointer()
        actions.pointer_action.move_to_location(round(x), round(y)).pointer_down().pointer_up()
        actions.perform()

    def drag(self, points: list[tuple[float, float]]) -> None:
        actions = self._pointer()
        first, *rest = points
        actions.pointer_action.move_to_location(round(first[0]), round(first[1])).pointer_down()
        for x, y in rest:
            actions.pointer_action.move_to_location(round(x), round(y))
        actions.pointer_action.pointer_up()
        actions.perform()

    def screenshot(self, path: Path) -> None:
        self.driver.get_screenshot_as_file(str(path))

    def errors(self) -> list[str]:
        return []  # WebKitWebDriver reports none: the page's hooks catch them

    def close(self) -> None:
        self.driver.quit()


class BiDi:
    """The least of a WebDriver BiDi client: a command and its answer, events kept."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.socket = connect(url, max_size=None, open_timeout=30)
        self.events: list[dict[str, Any]] = []
        self._id = 0

    def command(self, method: str, **params: Any) -> dict[str, Any]:
        self._id += 1
        self.socket.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv(timeout=60))
            if message.get("type") == "event":
                self.events.append(message)
            elif message.get("id") == self._id:
                if message.get("type") == "error":
                    raise RuntimeError(
                        f"{method}: {message.get('error')}: {message.get('message')}"
                    )
                result: dict[str, Any] = message["result"]
                return result

    def close(self) -> None:
        self.socket.close()


class FirefoxTablet:
    """Firefox ESR, headless, over its own WebDriver BiDi endpoint."""

    name = "firefox"

    def __init__(self, port: int) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="snapclass-firefox-"))
        # The remote agent sets its own recommended preferences (no updates, no telemetry);
        # these keep a new profile from opening pages of its own.
        (self.profile / "user.js").write_text(
            'user_pref("browser.shell.checkDefaultBrowser", false);\n'
            'user_pref("browser.startup.homepage_override.mstone", "ignore");\n'
            'user_pref("datareporting.policy.dataSubmissionEnabled", false);\n'
            'user_pref("browser.aboutwelcome.enabled", false);\n'
        )
        self.log = self.profile / "firefox.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [str(FIREFOX), "--headless", "--no-remote", "--profile", str(self.profile),
                 f"--remote-debugging-port={port}", "about:blank"],
                stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        self.bidi = BiDi(self._endpoint(port))
        self.bidi.command("session.new", capabilities={})
        self.bidi.command("session.subscribe", events=["log.entryAdded"])
        tree = self.bidi.command("browsingContext.getTree", maxDepth=0)
        self.context = tree["contexts"][0]["context"]
        width, height = TABLET
        self.bidi.command(
            "browsingContext.setViewport",
            context=self.context,
            viewport={"width": width, "height": height},
        )

    def _endpoint(self, port: int) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = re.search(r"WebDriver BiDi listening on (ws://\S+)", self.log.read_text())
            if found:
                return f"{found.group(1)}/session"
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"Firefox did not open WebDriver BiDi:\n{self.log.read_text()}")

    def open(self, url: str) -> None:
        self.bidi.command(
            "browsingContext.navigate", context=self.context, url=url, wait="complete"
        )

    def run(self, body: str) -> Any:
        result = self.bidi.command(
            "script.evaluate",
            expression=HOOKS + f"JSON.stringify((() => {{ {body} }})() ?? null)",
            target={"context": self.context},
            awaitPromise=False,
        )
        if result.get("type") == "exception":
            raise RuntimeError(result["exceptionDetails"]["text"])
        return json.loads(result["result"]["value"])

    def _actions(self, steps: list[dict[str, Any]]) -> None:
        self.bidi.command(
            "input.performActions",
            context=self.context,
            actions=[{
                "type": "pointer", "id": "finger", "parameters": {"pointerType": "mouse"},
                "actions": steps,
            }],
        )  # fmt: skip
        self.bidi.command("input.releaseActions", context=self.context)

    def tap(self, x: float, y: float) -> None:
        self._actions([
            {"type": "pointerMove", "x": round(x), "y": round(y)},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0},
        ])  # fmt: skip

    def drag(self, points: list[tuple[float, float]]) -> None:
        (x, y), *rest = points
        steps: list[dict[str, Any]] = [
            {"type": "pointerMove", "x": round(x), "y": round(y)},
            {"type": "pointerDown", "button": 0},
        ]
        steps += [{"type": "pointerMove", "x": round(x), "y": round(y)} for x, y in rest]
        steps.append({"type": "pointerUp", "button": 0})
        self._actions(steps)

    def screenshot(self, path: Path) -> None:
        shot = self.bidi.command("browsingContext.captureScreenshot", context=self.context)
        path.write_bytes(base64.b64decode(shot["data"]))

    def errors(self) -> list[str]:
        return [
            f"{event['params'].get('text')} ({(event['params'].get('source') or {})})"
            for event in self.bidi.events
            if event.get("method") == "log.entryAdded"
            and event["params"].get("type") == "javascript"
            # A load the page itself cut short (a favicon still coming through the service
            # worker when the lobby hands over to the game page) is a network note, not a
            # script's error: Chromium's page errors do not count it either.
            and not str(event["params"].get("text")).startswith("Failed to load ")
        ]

    def close(self) -> None:
        try:
            self.bidi.command("browser.close")
        except Exception:  # the browser may be gone already
            self.process.kill()
        self.bidi.close()
        self.process.wait(timeout=10)
        shutil.rmtree(self.profile, ignore_errors=True)


def engine_tablets(webkit_port: int, firefox_port: int) -> Iterator[list[EngineTablet]]:
    """A WebKit tablet and a Firefox tablet (and WebKit's display), closed after."""
    display = Display()
    # Started side by side: each takes some seconds, mostly waiting.
    with ThreadPoolExecutor(max_workers=2) as pool:
        starting = [
            pool.submit(WebKitTablet, display, webkit_port),
            pool.submit(FirefoxTablet, firefox_port),
        ]
        wait(starting)
    tablets: list[EngineTablet] = [f.result() for f in starting if f.exception() is None]
    try:
        for started in starting:
            started.result()  # a browser that did not start fails the test here
        yield tablets
    finally:
        for tablet in tablets:
            # Off the site first: its sockets close as a page's do, not with the process.
            tablet.open("about:blank")
            tablet.close()
        display.close()
