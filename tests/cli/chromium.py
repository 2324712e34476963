"""Headless Chromium driven over the DevTools protocol (a websocket on 127.0.0.1), for the
issue 26 browser tests: load a page, collect every request the page made and every console
error, evaluate expressions, take a screenshot. Imported as ``tests.cli.chromium``."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

#: Where screenshots are kept (a test artifact): $TEST_ARTIFACTS or the test's tmp.
ARTIFACTS_ENV = "TEST_ARTIFACTS"


def chromium_or_skip() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    return path


class Page:
    """One tab: ``requests`` (URLs), ``errors`` (console errors, exceptions, error log entries)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.next_id = 0
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.websockets: list[str] = []
        self.loaded = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if "id" in data:
                future = self.pending.pop(data["id"], None)
                if future is not None and not future.done():
                    future.set_result(data)
                continue
            method, params = data.get("method"), data.get("params", {})
            if method == "Network.requestWillBeSent":
                self.requests.append(params["request"]["url"])
            elif method == "Network.webSocketCreated":
                self.websockets.append(params["url"])
            elif method == "Page.loadEventFired":
                self.loaded.set()
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                self.errors.append(" ".join(str(a.get("value")) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                self.errors.append(str(params.get("exceptionDetails", {}).get("text")))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                self.errors.append(params["entry"].get("text", ""))

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        await self.ws.send_str(json.dumps({"id": self.next_id, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, 30)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def open(self, url: str) -> None:
        for domain in ("Network", "Runtime", "Log", "Page"):
            await self.send(f"{domain}.enable")
        self.loaded.clear()
        await self.send("Page.navigate", url=url)
        await asyncio.wait_for(self.loaded.wait(), 30)

    async def screenshot(self, path: Path) -> Path:
        shot = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    async def wait_for(self, expression: str, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = await self.evaluate(expression)
            if value:
                return value
            await asyncio.sleep(0.1)
        return await self.evaluate(expression)


class Chromium:
    """A headless Chromium process with a DevTools port on 127.0.0.1 (``async with``)."""

    def __init__(self, size: tuple[int, int] = (1280, 900)) -> None:
        self.binary = chromium_or_skip()
        self.size = size
        self.profile = tempfile.mkdtemp(prefix="pg-chromium-")
        self.proc: subprocess.Popen[bytes] | None = None
        self.sessions: list[Any] = []

    async def __aenter__(self) -> Chromium:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                f"--window-size={self.size[0]},{self.size[1]}",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("Chromium did not open its DevTools port")
            await asyncio.sleep(0.05)
        self.port = int(port_file.read_text().split()[0])
        return self

    async def new_page(self) -> Page:
        import aiohttp

        session = aiohttp.ClientSession()
        self.sessions.append(session)
        async with session.put(f"http://127.0.0.1:{self.port}/json/new?about:blank") as r:
            target = await r.json()
        ws = await session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        return Page(ws)

    async def __aexit__(self, *exc: Any) -> None:
        for session in self.sessions:
            await session.close()
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        shutil.rmtree(self.profile, ignore_errors=True)


def artifact_path(tmp_path: Path, name: str) -> Path:
    folder = Path(os.environ.get(ARTIFACTS_ENV) or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name
