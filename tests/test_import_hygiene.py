"""The headless layers never import the UI libraries (docs/design.md "Layers"; Harlequin's
import-hygiene test): importing playground.core, sources, history, routing, loop and batch in a fresh interpreter
leaves textual, typer and rich out of sys.modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FORBIDDEN = ("textual", "typer", "rich")
HEADLESS = (
    "playground.core",
    "playground.sources",
    "playground.history",
    "playground.routing",
    "playground.loop",
    "playground.batch",
)

# Runs in a fresh interpreter: discover every module of the headless packages with pkgutil,
# import each one in turn, and report which forbidden top-level packages appeared.
SCRIPT = r"""
import importlib, json, pkgutil, sys
forbidden = set(json.loads(sys.argv[1]))
report = {"imported": [], "failed": {}, "leaks": {}}
def leaked():
    return sorted({name.split(".")[0] for name in sys.modules} & forbidden)
for package_name in json.loads(sys.argv[2]):
    try:
        package = importlib.import_module(package_name)
    except ImportError as exc:
        report["failed"][package_name] = f"{type(exc).__name__}: {exc}"
        continue
    names = [package_name]
    if hasattr(package, "__path__"):  # a package: every module under it
        names += sorted(info.name for info in pkgutil.walk_packages(package.__path__, package_name + "."))
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:
            report["failed"][name] = f"{type(exc).__name__}: {exc}"
            continue
        report["imported"].append(name)
        if leaked():
            report["leaks"][name] = leaked()
            break
print(json.dumps(report))
"""


def run_probe(packages: tuple[str, ...]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(FORBIDDEN), json.dumps(packages)],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=180,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_headless_layers_all_import_and_do_not_import_ui_libraries():
    """One fresh interpreter for both checks (a probe imports every engine module: ~1.2 s of
    CPU); the core modules are the first it imports."""
    report = run_probe(HEADLESS)
    assert "playground.core" in report["imported"]
    assert "playground.core.gate" in report["imported"]
    assert report["leaks"] == {}, f"UI libraries imported by: {report['leaks']}"
    # every core module imports
    assert report["failed"] == {}
    assert {
        "playground.core.gate",
        "playground.core.registry",
        "playground.core.declcache",
        "playground.core.wire",
        "playground.sources.worker",
        "playground.history.store",
    } <= set(report["imported"])


@pytest.mark.parametrize("module", ["playground.routing.base", "playground.routing.offline"])
def test_routing_modules_named_in_the_brief(module):
    path = REPO / (module.replace(".", "/") + ".py")
    if not path.exists():
        pytest.skip(f"{module} is not written yet")
    report = run_probe((module,))
    assert module in report["imported"], report["failed"]
    assert report["leaks"] == {}
