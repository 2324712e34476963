"""``playground eval`` with several routers, ``--repeat``, ``--jobs``, ``--resume`` and a price
file, against the local provider server process (``provider_server.py``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from playground.cli.main import app
from tests.routing.conftest import start_server, stop_server
from tests.signals import sigint_as_in_a_terminal

REPO = Path(__file__).resolve().parents[2]
SHOP = str(REPO / "tools" / "shop.py")
CASES = str(REPO / "fixtures" / "routing_cases.jsonl")


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def write_cases(path: Path, questions: list[tuple[str, str | None]]) -> Path:
    lines = [
        json.dumps({"question": q, "expect_tool": tool}, ensure_ascii=False)
        for q, tool in questions
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_offline_and_a_compatible_server_side_by_side_with_repeats(server, tmp_path):
    """Must show: the comparison table with consistency, latency, tokens and disagreements."""
    url = f"{server.url}/v1"
    common = [CASES, "--router", "offline", "--router", "openai-compatible", "--base-url", url]
    prices = tmp_path / "prices.json"
    prices.write_text(
        json.dumps({"canned-model": {"input_usd_per_mtok": 2.0, "output_usd_per_mtok": 8.0}}),
        encoding="utf-8",
    )
    table = run("eval", *common, "--repeat", "3", "--jobs", "4", "--in-process")
    assert table.exit_code == 0, table.output
    out = " ".join(table.stdout.split())  # the table wraps at the terminal's width
    assert "routers side by side" in out and "openai-compatible" in out
    assert (
        "offline: the offline router is deterministic: run once per case, 3 of 3 by construction"
        in out
    )
    assert "questions the routers disagree on" in out and "63 cases × 3 runs" in out

    done = run(
        "eval", *common, "--repeat", "3", "--jobs", "4", "--prices", str(prices), "-f", "json",
        "--in-process",
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    offline, compatible = data["routers"]
    assert (offline["label"], offline["runs"], offline["repeat"]) == ("offline", 63, 1)
    assert offline["consistency"] == 1.0 and offline["input_tokens"] is None
    assert offline["cost_usd"] is None  # no model, no price: blank, never guessed
    assert offline["selection_rate"] == 1.0
    assert (compatible["runs"], compatible["repeat"], compatible["model"]) == (
        189,
        3,
        "canned-model",
    )
    assert compatible["consistency"] == 1.0 and compatible["flaky"] == []
    assert compatible["output_tokens"] == 17 * 189
    expected_cost = (compatible["input_tokens"] * 2.0 + compatible["output_tokens"] * 8.0) / 1e6
    assert abs(compatible["cost_usd"] - expected_cost) < 1e-12
    assert compatible["latency_p50_ms"] <= compatible["latency_p95_ms"]
    first = data["disagreements"][0]
    assert first["line"] == 1 and first["expected"] == "track_shipping"
    assert first["answers"] == {
        "offline": 'track_shipping {"order_id": "HR20260604"}',
        "openai-compatible": 'get_order_status {"order_id": "HR20260604"}',
    }


def test_junit_has_one_suite_per_router(server, tmp_path):
    cases = write_cases(tmp_path / "c.jsonl", [("Where is order HR20260626?", "get_order_status")])
    done = run(
        "eval", str(cases), "--router", "offline", "--router", "openai-compatible",
        "--base-url", f"{server.url}/v1", "--tools", SHOP, "--in-process", "-f", "junit",
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    suites = ET.fromstring(done.stdout.split("\n", 1)[1]).findall("testsuite")
    assert len(suites) == 2
    assert "offline" in suites[0].get("name") and "openai-compatible" in suites[1].get("name")


def test_unknown_price_is_blank_and_a_model_prices_by_router_and_model(server, tmp_path):
    cases = write_cases(tmp_path / "c.jsonl", [("Where is order HR20260626?", "get_order_status")])
    prices = tmp_path / "prices.json"
    prices.write_text(
        json.dumps(
            {"_note": "USD", "other-model": {"input_usd_per_mtok": 1, "output_usd_per_mtok": 1}}
        )
    )
    done = run(
        "eval", str(cases), "--router", "openai-compatible", "--base-url", f"{server.url}/v1",
        "--repeat", "2", "--prices", str(prices), "--tools", SHOP, "--in-process", "-f", "json",
    )  # fmt: skip
    [row] = json.loads(done.stdout)["routers"]
    assert row["cost_usd"] is None and row["input_tokens"] > 0
    prices.write_text(json.dumps({"openai-compatible": {"input_usd_per_mtok": "x"}}))
    bad = run("eval", str(cases), "--router", "openai-compatible", "--prices", str(prices))
    assert bad.exit_code == 2
    assert (
        "'openai-compatible' needs numbers input_usd_per_mtok and output_usd_per_mtok" in bad.output
    )


def test_repeat_lists_the_flaky_question(server, tmp_path):
    question = "Where is order HR20260626? [flaky] repeat-test"
    cases = write_cases(tmp_path / "c.jsonl", [(question, "get_order_status")])
    done = run(
        "eval", str(cases), "--router", "openai-compatible", "--base-url", f"{server.url}/v1",
        "--repeat", "4", "--tools", SHOP, "--in-process", "-f", "json",
    )  # fmt: skip
    [row] = json.loads(done.stdout)["routers"]
    assert row["consistency"] == 0.5
    [flaky] = row["flaky"]
    assert (flaky["line"], flaky["same"], flaky["runs"]) == (1, 2, 4)
    assert flaky["answers"] == {'get_order_status {"order_id": "HR20260626"}': 2, "(none)": 2}
    table = run(
        "eval", str(cases), "--router", "openai-compatible",
        "--base-url", f"{server.url}/v1", "--repeat", "2", "--tools", SHOP, "--in-process",
    )  # fmt: skip
    assert "flaky questions (base): 1" in table.stdout


def test_429_with_retry_after_is_waited_out_and_the_eval_completes(server, tmp_path):
    """Must show: the server answers 429 with Retry-After: 1 twice, then a call."""
    cases = write_cases(
        tmp_path / "c.jsonl", [("Where is order HR20260626? [429] eval", "get_order_status")]
    )
    done = run(
        "eval", str(cases), "--router", "openai-compatible", "--base-url", f"{server.url}/v1",
        "--tools", SHOP, "--in-process", "-f", "jsonl",
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout.splitlines()[0])
    assert result["chosen"] in ("get_order_status", "track_shipping")  # the call came
    assert [n.split(":")[0] for n in result["notes"]] == ["retried after 1.00 s"] * 2
    assert result["duration_ms"] >= 2000
    assert [r["path"] for r in server.requests()] == ["/v1/chat/completions"] * 3


def test_ctrl_c_keeps_the_finished_lines_and_resume_finishes_the_rest(tmp_path):
    """Must show: SIGINT mid-eval (a real process, --jobs 2) keeps the finished lines; --resume
    asks only the rest, and the two outputs together hold every case once."""
    slow = start_server(tmp_path / "slow.jsonl", "--delay-ms", "150")
    try:
        cases = write_cases(
            tmp_path / "c.jsonl",
            [(f"Where is order HR2026{n:04d}?", "get_order_status") for n in range(12)],
        )
        command = [
            sys.executable, "-m", "playground", "eval", str(cases), "--router",
            "openai-compatible", "--base-url", f"{slow.url}/v1", "--model", "m", "--jobs", "2",
            "--tools", SHOP, "-f", "jsonl",
        ]  # fmt: skip
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            preexec_fn=sigint_as_in_a_terminal,
        )
        assert process.stdout is not None
        first = [process.stdout.readline() for _ in range(3)]  # wait on output, not on time
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=60)
        assert process.returncode == 130
        kept = [json.loads(line) for line in (first + rest.splitlines()) if line.strip()]
        judged = [r for r in kept if "category" in r]
        assert 3 <= len(judged) < 12
        partial = tmp_path / "out.jsonl"
        partial.write_text("".join(first) + rest, encoding="utf-8")
        slow.clear()
        resumed = subprocess.run(
            [*command, "--resume", str(partial)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert resumed.returncode == 0, resumed.stderr
        more = [json.loads(line) for line in resumed.stdout.splitlines()]
        new = [r for r in more if "category" in r]
        lines = sorted(r["line"] for r in judged + new)
        assert lines == list(range(1, 13))
        assert len(slow.requests()) == 12 - len(judged)
        [summary] = [r for r in more if "summary" in r]
        assert summary["summary"]["counts"]["total"] == 12
    finally:
        stop_server(slow)
