"""google.genai stays out of the core and of a warm ``playground call`` (issue 8: the core never
imports it at module level or on the call path; the declaration cache keeps a warm call free of
it). Checked in fresh interpreters, with ``python -X importtime`` for the call."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PLAYGROUND_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=REPO, timeout=120
    )


def test_core_and_routing_modules_do_not_import_google_genai(tmp_path):
    script = (
        "import importlib, pkgutil, sys\n"
        "import playground.core, playground.routing\n"
        "for pkg in (playground.core, playground.routing):\n"
        "    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(info.name)\n"
        "print(sorted(m for m in sys.modules if m.startswith('google.genai')))\n"
    )
    out = run(["-c", script], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_warm_call_never_imports_google_genai(tmp_path):
    call = ["-m", "playground", "call", "get_order_status", "order_id=HR99999999"]
    cold = run([*call, "--format", "json"], tmp_path)  # fills the declaration cache
    assert cold.returncode == 0, cold.stderr
    warm = run(["-X", "importtime", *call, "--format", "json"], tmp_path)
    assert warm.returncode == 0
    imported = [line.rsplit("|", 1)[-1].strip() for line in warm.stderr.splitlines()]
    assert "playground.core.gate" in imported  # the trace is there ...
    assert not [m for m in imported if m.startswith(("google.genai", "httpx2"))]  # ... genai is not
