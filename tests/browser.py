"""A real browser for the web tests: headless Chromium (Debian's ``chromium``) driven over the
Chrome DevTools Protocol, through a websocket opened with aiohttp (no other dependency).

One Chromium runs per test process (:func:`chromium_endpoint`, started at first use, stopped at
exit); each test connects to it in its own event loop (:func:`open_browser`) and opens pages in
it. A :class:`Tab` navigates, clicks, evaluates JavaScript, and collects every console error,
uncaught exception and browser-reported problem (a Content-Security-Policy violation, a failed
load) in :attr:`Tab.errors`, which the tests assert is empty.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio",
         "--remote-debugging-port=0", "--remote-allow-origins=*"]
MISSING = "Chromium is not installed (apt-get install -y chromium)"
_endpoint: str | None = None


def chromium_endpoint() -> str:
    """The browser websocket of this process's Chromium (started on first use); skips the test
    without Chromium, except in CI, where that fails."""
    global _endpoint
    if _endpoint is not None:
        return _endpoint
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {MISSING}", pytrace=False)
        pytest.skip(MISSING)
    profile = Path(tempfile.mkdtemp(prefix="deckhand-chromium-"))
    process = subprocess.Popen([binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    atexit.register(_stop, process, profile)
    active = profile / "DevToolsActivePort"
    deadline = time.monotonic() + 30
    while not (active.exists() and len(active.read_text().splitlines()) >= 2):
        if time.monotonic() > deadline or process.poll() is not None:
            raise RuntimeError("Chromium did not start")
        time.sleep(0.05)
    port, path = active.read_text().splitlines()[:2]
    _endpoint = f"ws://127.0.0.1:{port}{path}"
    return _endpoint


def _stop(process: subprocess.Popen[bytes], profile: Path) -> None:
    process.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
    if process.poll() is None:
        process.kill()
    shutil.rmtree(profile, ignore_errors=True)


class Browser:
    """One DevTools connection: commands out, answers and events in."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self._ws = ws
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.tabs: dict[str, Tab] = {}
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self._ws:
            data = json.loads(message.data)
            if "id" in data:
                future = self._waiting.pop(data["id"], None)
                if future is not None and not future.done():
                    future.set_result(data)
            elif data.get("sessionId") in self.tabs:
                self.tabs[data["sessionId"]].event(data["method"], data.get("params", {}))

    async def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        await self._ws.send_str(json.dumps(message))
        answer = await asyncio.wait_for(future, 30)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    async def new_tab(self, language: str = "en-US", width: int = 900, height: int = 1000) -> Tab:
        """A new page whose requests say ``Accept-Language: language``."""
        target = (await self.send("Target.createTarget", {"url": "about:blank"}))["targetId"]
        session = (await self.send("Target.attachToTarget", {"targetId": target, "flatten": True}))["sessionId"]
        tab = Tab(self, session, target)
        self.tabs[session] = tab
        for domain in ("Page", "Runtime", "Log", "Network"):
            await tab.send(f"{domain}.enable")
        await tab.send("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": language}})
        await tab.send("Emulation.setDeviceMetricsOverride",
                       {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
        return tab

    async def close(self) -> None:
        for tab in list(self.tabs.values()):
            with contextlib.suppress(Exception):
                await self.send("Target.closeTarget", {"targetId": tab.target})
        await self._ws.close()
        self._reader.cancel()


class Tab:
    """One page of the browser."""

    def __init__(self, browser: Browser, session: str, target: str) -> None:
        self.browser = browser
        self.session = session
        self.target = target
        self.errors: list[str] = []
        """Console errors, uncaught exceptions and problems the browser logged, in order."""
        self._loaded = asyncio.Event()

    def event(self, method: str, params: dict[str, Any]) -> None:
        if method == "Page.loadEventFired":
            self._loaded.set()
        elif method == "Runtime.exceptionThrown":
            self.errors.append(json.dumps(params["exceptionDetails"])[:500])
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.errors.append(" ".join(str(arg.get("value", arg.get("description"))) for arg in params["args"]))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            entry = params["entry"]
            if "favicon.ico" not in entry.get("url", ""):
                self.errors.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}")

    async def send(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return await self.browser.send(method, params, self.session)

    async def goto(self, url: str) -> None:
        self._loaded.clear()
        await self.send("Page.navigate", {"url": url})
        await asyncio.wait_for(self._loaded.wait(), 15)

    async def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (awaited if a promise)."""
        result = await self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                      "awaitPromise": True})
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def click(self, selector: str, navigates: bool = True) -> None:
        """Click the first element ``selector`` matches; wait for the next page when it ``navigates``."""
        self._loaded.clear()
        found = await self.eval(f"(e => e ? (e.click(), true) : false)(document.querySelector({json.dumps(selector)}))")
        assert found, f"nothing matches {selector}"
        if navigates:
            await asyncio.wait_for(self._loaded.wait(), 15)

    async def text(self, selector: str = "body") -> str:
        return await self.eval(f"(document.querySelector({json.dumps(selector)}) || {{}}).innerText || ''")

    async def wait_for(self, expression: str, timeout: float = 5.0) -> Any:
        """Poll ``expression`` until it is truthy; its value (AssertionError after ``timeout`` seconds)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = await self.eval(expression)
            if value:
                return value
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"still false after {timeout} s: {expression}")
            await asyncio.sleep(0.05)

    async def key(self, key: str) -> None:
        """Press a key (``ArrowRight``, ``End``…) as the person would."""
        for kind in ("keyDown", "keyUp"):
            await self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key})


@contextlib.asynccontextmanager
async def open_browser() -> AsyncIterator[Browser]:
    """A connection to this process's Chromium, for one test."""
    endpoint = chromium_endpoint()
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(endpoint, max_msg_size=0)
        browser = Browser(ws)
        try:
            yield browser
        finally:
            await browser.close()
