"""The commands on real MCP server processes (issue 10's must-shows).

The commands run in this process through typer's CliRunner (the servers are still real
processes); ``test_bad_options_are_one_line_and_never_show_secrets`` runs the whole CLI as a
subprocess, so that anything written to file descriptor 2 is read too. A ``playground --mcp``
subprocess costs ~1 s of CPU (the SDK's imports) before the server starts; the end-to-end runs
of ``--mcp`` as a process are in test_mcp_protocol.py (ctrl+c), test_mcp_no_orphans.py and
tests/untrusted/test_cli_attack.py (a pseudo-terminal)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from tests.mcp.servers import FAULTY_SERVER, REPO, SHOP_SERVER, read_log, stdio_line
from tests.zygote import forked_entry, forked_line

SHOP_TOOLS = ["get_order_status", "track_shipping", "search_products", "check_stock"]


def playground(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    run_env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "120"}
    run_env.pop("GEMINI_API_KEY", None)
    run_env.pop("GOOGLE_API_KEY", None)
    run_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "playground", *args],
        cwd=REPO,
        env=run_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(autouse=True)
def _in_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    """Relative paths (tools/shop.py, fixtures/...) resolve as in the subprocess runs. The
    Python tools some commands load beside the server run in-process (``PLAYGROUND_IN_PROCESS``,
    inherited by the subprocess runs): these tests are about the servers, and a worker process
    for the Python tools cost about 0.4 s of CPU a command."""
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("PLAYGROUND_IN_PROCESS", "1")
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run one command in this process; the result has the subprocess result's fields."""
    result = CliRunner().invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "120"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def shop(log: Path | None = None) -> str:
    return forked_line(SHOP_SERVER, *(["--log", str(log)] if log else []))


def test_list_shows_the_shop_tools() -> None:
    done = cli("list", "--mcp", shop(), "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [r["name"] for r in rows] == SHOP_TOOLS
    assert {r["source"] for r in rows} == {"mcp:haru-shop"}


def test_call_gives_the_same_record_shape_as_the_python_module() -> None:
    mcp = cli(
        "call", "get_order_status", "order_id=HR99999999", "--mcp", shop(), "--format", "json"
    )
    py = cli(
        "call", "get_order_status", "order_id=HR99999999", "--tools", "tools/shop.py", "-f", "json"
    )
    assert mcp.returncode == 0 and py.returncode == 0, mcp.stderr + py.stderr
    over_mcp, in_python = json.loads(mcp.stdout), json.loads(py.stdout)
    assert over_mcp.keys() - {"mcp"} == in_python.keys()  # mcp: what the protocol carried
    assert over_mcp["mcp"]["server"] == "haru-shop"
    assert over_mcp["mcp"]["protocolVersion"]
    assert over_mcp["mcp"]["result"]["structuredContent"] == over_mcp["value"]
    assert over_mcp["body_ran"] is True and over_mcp["kind"] == "ok"
    assert over_mcp["value"]["found"] is False
    assert over_mcp["value"] == in_python["value"]
    assert over_mcp["wire"]["gemini"] == in_python["wire"]["gemini"]


def test_invalid_argument_is_refused_before_the_server_sees_it(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    done = cli(
        "call", "search_products", "keyword=텀블러", "limit:=true", "--mcp", shop(log), "-f", "json"
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert (record["verdict"], record["body_ran"], record["kind"]) == (
        "type:limit",
        False,
        "invalid_args",
    )
    assert read_log(log) == []  # the server received no tools/call


def test_ask_routes_to_track_shipping_over_streamable_http(http_shop: tuple[str, Path]) -> None:
    url, log = http_shop
    done = cli(
        "ask",
        "텀블러 주문한 거 어디쯤이에요? 주문번호 HR20260604",
        "--mcp-url",
        url,
        "--mcp-header",
        "X-Shop-Token: t0ps3cret",
        "--format",
        "json",
    )
    assert done.returncode == 0, done.stderr
    episode = json.loads(done.stdout)
    assert episode["router"] == "offline"
    (call,) = episode["calls"]
    assert (call["tool"], call["args"], call["kind"]) == (
        "track_shipping",
        {"order_id": "HR20260604"},
        "ok",
    )
    assert call["value"]["courier"] == "롯데택배"
    assert "t0ps3cret" not in done.stdout + done.stderr
    assert any(
        e["tool"] == "track_shipping" and "x-shop-token" in e["headers"] for e in read_log(log)
    )


def test_eval_through_mcp_config_gives_the_same_rates(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "shop": forked_entry(SHOP_SERVER),
                    "broken": {"command": sys.executable, "args": [str(FAULTY_SERVER), "exit"]},
                }
            }
        ),
        encoding="utf-8",
    )
    cases = "fixtures/routing_cases.jsonl"
    over_mcp = cli("eval", cases, "--mcp-config", str(config), "--mcp-server", "shop", "-f", "json")
    in_python = cli("eval", cases, "--tools", "tools/shop.py", "-f", "json")
    assert over_mcp.returncode == 0, over_mcp.stderr
    mcp_metrics = json.loads(over_mcp.stdout)["metrics"]
    assert mcp_metrics == json.loads(in_python.stdout)["metrics"]
    assert mcp_metrics["selection_rate"] > 0.9


def test_check_lint_probe_and_show_run_on_the_server() -> None:
    check = cli("check", "fixtures/shop_checks.jsonl", "--mcp", shop())
    # The case file was written for the Python module, whose signature refuses an unknown
    # argument. The server's inputSchema allows other properties (JSON Schema's default), so
    # the gate sends 'foo' as the schema allows and the server answers for itself (issue 20,
    # issue 21 item 5: no stricter than the server's schema).
    assert check.returncode == 1, check.stdout + check.stderr
    assert "18 passed, 1 failed" in check.stdout
    assert "verdict: expected 'unknown:foo', got 'valid'" in check.stdout
    assert "unexpected keyword argument 'foo'" in " ".join(check.stdout.split())
    lint = cli("lint", "--mcp", shop(), "-f", "json")
    assert lint.returncode == 0, lint.stderr
    probe = cli("probe", "check_stock", "--mcp", shop(), "-f", "json")
    assert probe.returncode == 0, probe.stderr
    report = json.loads(probe.stdout)
    assert (report["ok"], report["problems"]) == (True, 0)
    invalid = [c for c in report["cases"] if c["expected"] == "invalid"]
    assert len(invalid) >= 5 and all(c["body_ran"] is False for c in invalid)
    (baseline,) = [c for c in report["cases"] if c["name"] == "baseline"]
    assert (baseline["body_ran"], baseline["kind"]) == (True, "ok")
    show = cli("show", "check_stock", "--mcp", shop(), "-f", "json")
    declaration = json.loads(show.stdout)
    assert declaration["name"] == "check_stock"
    # what a Gemini request carries (the router's own builder), not google-genai's MCP conversion
    assert declaration["parameters_json_schema"]["properties"] == {"product_id": {"type": "string"}}


def test_report_measures_the_servers_tools(tmp_path: Path) -> None:
    done = cli("report", "--mcp", shop(), "--out", str(tmp_path), "-f", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["tools"] == SHOP_TOOLS
    assert data["real_result_reasons"] == {"search_products": ""}
    assert (tmp_path / "tool_report.json").is_file()


def test_mcp_combines_with_tools_and_in_process_and_history(tmp_path: Path) -> None:
    history = tmp_path / "history.db"
    done = cli(
        "call",
        "check_stock",
        "product_id=P-1001",
        "--tools",
        "tools/inventory.py",
        "--mcp",
        shop(),
        "--in-process",
        "--history",
        str(history),
        "-f",
        "json",
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert (record["body_ran"], record["source"]) == (True, "mcp:haru-shop")
    listed = cli("list", "--tools", "tools/inventory.py", "--mcp", shop(), "-f", "json")
    names = [r["name"] for r in json.loads(listed.stdout)]
    assert names == ["stock_lookup", "legacy_stock", *SHOP_TOOLS]
    shown = cli("history", "--history", str(history), "-f", "json")
    (entry,) = json.loads(shown.stdout)
    assert (entry["tool"], entry["outcome"]) == ("check_stock", "ok")
    assert entry["source"].split(os.pathsep) == [
        str((REPO / "tools/inventory.py").resolve()),
        "MCP server haru-shop",
    ]


def test_a_broken_server_is_a_load_problem_and_the_rest_still_works() -> None:
    done = cli(
        "list",
        "--mcp",
        stdio_line(FAULTY_SERVER, "exit"),
        "--tools",
        "tools/shop.py",
        "-f",
        "json",
    )
    assert done.returncode == 2
    assert [r["name"] for r in json.loads(done.stdout)] == SHOP_TOOLS
    assert done.stderr.strip() == (
        "error: mcp:mcp_faulty_server: the server closed the connection; "
        "stderr: faulty: cannot open config.toml, giving up"
    )


def test_clash_with_tools_is_prefixed_and_noted() -> None:
    done = cli("list", "--mcp", shop(), "--tools", "tools/shop.py", "-f", "json")
    assert done.returncode == 0, done.stderr
    names = [r["name"] for r in json.loads(done.stdout)]
    assert names == SHOP_TOOLS + [f"haru-shop__{n}" for n in SHOP_TOOLS]
    assert done.stderr.splitlines()[0] == (
        "note: mcp:haru-shop: tool 'get_order_status' is also defined elsewhere; "
        "registered as 'haru-shop__get_order_status'"
    )


def test_bad_options_are_one_line_and_never_show_secrets(tmp_path: Path) -> None:
    done = playground(
        "list", "--mcp-url", "http://127.0.0.1:9/mcp", "--mcp-header", "Bearer s3cr3t"
    )
    assert done.returncode == 2
    assert "s3cr3t" not in done.stderr
    assert done.stderr.count("\n") == 1
    done = playground("list", "--mcp-url", "http://127.0.0.1:9/mcp", "--mcp-header", "garbage")
    assert (done.returncode, done.stderr) == (
        2,
        "error: --mcp-header 'garbage' is not 'Name: value': it has no ':' between the name "
        "and the value (a header name with no spaces, a colon, then the value)\n",
    )
    config = tmp_path / "mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "gone": {"command": "no-such-server-xyz", "env": {"API_KEY": "k3y-v4lue"}}
                }
            }
        ),
        encoding="utf-8",
    )
    done = playground("list", "--mcp-config", str(config))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: mcp:gone: cannot start 'no-such-server-xyz': command not found"
    )
