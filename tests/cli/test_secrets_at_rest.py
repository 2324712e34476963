"""Secrets never at rest (issue 28 item 5): ``call login password=hunter2 api_key=sk-live-123``
→ neither value in any stored or printed form (the history file and its WAL, golden files,
case lines, every command's output), while the body got both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from playground.core.record import CallRecord
from playground.core.redaction import is_secret_name, redact, secret_values

REPO = Path(__file__).resolve().parents[2]

LOGIN = '''
import json, os


def login(password: str, api_key: str, profile: dict | None = None) -> dict:
    """Log in to the shop's back office.

    Args:
        password: the account's password.
        api_key: the API key.
        profile: optional settings.
    """
    with open(os.environ["LOGIN_SEEN"], "w", encoding="utf-8") as fh:
        json.dump({"password": password, "api_key": api_key, "profile": profile}, fh)
    print("logging in with", password, api_key)
    if password == "wrong":
        raise ValueError(f"bad password {password}")
    return {"ok": True, "echo": f"hello {password}"}


__tools__ = [login]
__contracts__ = {"login": {"side_effects": True}}
'''

SECRETS = ("hunter2", "sk-live-123", "s3cr3t-client", "ghp_" + "a" * 36)


def run(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-m", "playground", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    return proc


@pytest.mark.slow
def test_no_secret_in_any_stored_or_printed_form(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "login.py").write_text(LOGIN, encoding="utf-8")
    seen = tmp_path / "seen.json"
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "LOGIN_SEEN": str(seen),
        "PLAYGROUND_HISTORY": str(out_dir / "history.db"),
        "PLAYGROUND_CACHE_DIR": str(out_dir / "cache"),
    }
    nested = json.dumps({"Client-Secret": "s3cr3t-client", "note": "ghp_" + "a" * 36})
    outputs = []
    for argv in (
        ("call", "login", "password=hunter2", "api_key=sk-live-123", f"profile:={nested}",
         "--format", "json", "--save", str(out_dir / "golden.json")),
        ("call", "login", "password=hunter2", "api_key=sk-live-123"),  # the table
        ("call", "login", "password=hunter2", "api_key=sk-live-123", "--repair",
         "--format", "json", "--save", str(out_dir / "golden_episode.json")),
        ("call", "login", "password=wrong", "api_key:=12345678", "--format", "json"),
        ("history", "--format", "jsonl"),
        ("history",),
        ("history", "show", "1"),
        ("history", "save", "1", "--to", str(out_dir / "cases.jsonl")),
        ("replay", str(out_dir / "golden.json"), "--format", "json"),
        ("history", "rerun", "2", "--format", "json", "--allow-writes"),  # login writes
    ):  # fmt: skip
        proc = (
            run(*argv, "--tools", str(tmp_path / "tools"), cwd=tmp_path, env=env)
            if (argv[0] in ("call", "replay") or argv[1:2] == ("rerun",))
            else run(*argv, cwd=tmp_path, env=env)
        )
        assert proc.returncode in (0, 1), (argv, proc.stderr)
        outputs.append(proc.stdout + proc.stderr)
    # nothing stored holds the value, so a rerun sends what is stored
    assert json.loads(seen.read_text(encoding="utf-8"))["password"] == "[redacted]"
    stored = sorted(p for p in out_dir.rglob("*") if p.is_file())
    names = {p.name for p in stored}
    assert {"history.db", "golden.json", "golden_episode.json", "cases.jsonl"} <= names
    for secret in (*SECRETS, "12345678"):
        for path in stored:
            assert secret.encode() not in path.read_bytes(), (secret, path)
        for text in outputs:
            assert secret not in text, (secret, text)
    record = json.loads(outputs[0])
    assert record["args"] == {
        "password": "[redacted]",
        "api_key": "[redacted]",
        "profile": {"Client-Secret": "[redacted]", "note": "[redacted]"},
    }
    assert json.loads(record["canonical_args"])["password"] == "[redacted]"
    assert record["value"] == {"ok": True, "echo": "hello [redacted]"}
    assert "logging in with [redacted] [redacted]" in record["printed"]


def test_the_body_got_both_values(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "login.py").write_text(LOGIN, encoding="utf-8")
    seen = tmp_path / "seen.json"
    env = {**os.environ, "PYTHONPATH": str(REPO), "LOGIN_SEEN": str(seen)}
    proc = run(
        "call", "login", "password=hunter2", "api_key=sk-live-123", "--no-history",
        "--tools", str(tmp_path / "tools"), "--format", "json", cwd=tmp_path, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    got = json.loads(seen.read_text(encoding="utf-8"))
    assert (got["password"], got["api_key"]) == ("hunter2", "sk-live-123")
    assert "hunter2" not in proc.stdout and "sk-live-123" not in proc.stdout


def test_secret_names_and_key_looks():
    for name in ("password", "PASSWORD", "api_key", "apiKey", "X-Api-Key", "client_secret",
                 "Authorization", "Set-Cookie", "access_token", "refreshToken", "passwd"):  # fmt: skip
        assert is_secret_name(name), name
    for name in ("max_tokens", "password_hint", "token_count", "sort_key", "order_id", "query"):
        assert not is_secret_name(name), name
    value = {
        "headers": [{"Authorization": "Bearer abc.def"}],
        "q": "use sk-proj-ABCDEF123456 and AKIAABCDEFGHIJKLMNOP",
        "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
        "deep": {"a": [{"b": {"userPassword": 123456}}]},
        "flag": True,
    }
    assert redact(value) == {
        "headers": [{"Authorization": "[redacted]"}],
        "q": "use [redacted] and [redacted]",
        "jwt": "[redacted]",
        "deep": {"a": [{"b": {"userPassword": "[redacted]"}}]},
        "flag": True,
    }
    assert secret_values({"pw": "x", "password": "hunter2"}) == {"hunter2"}
    record = CallRecord(tool="t", args={"token": "tok-9999"}, printed="got tok-9999\n")
    record.canonical_args = '{"token":"tok-9999"}'
    data = record.to_json()
    assert data["printed"] == "got [redacted]\n"
    assert data["canonical_args"] == '{"token":"[redacted]"}'
    assert record.args == {"token": "tok-9999"}  # the record itself keeps them for the body


def test_an_unreachable_url_is_printed_without_its_password_or_key():
    from tests.in_process_cli import run_in_process

    url = "http://u:SECRETPW2@127.0.0.1:1/mcp?api_key=SECRETQ2&n=1"
    done = run_in_process("call", "t", "--mcp-url", url, env={"PLAYGROUND_HISTORY": "off"})
    assert done.returncode == 2
    assert "cannot reach http://[redacted]@127.0.0.1:1/mcp?api_key=[redacted]&n=1" in done.stderr
    assert "SECRET" not in done.stdout + done.stderr
