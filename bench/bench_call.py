"""``playground call`` and ``playground call --mcp`` against MCP Inspector's CLI, the whole
process tree counted on both sides.

Sides, each a fresh subprocess as a user runs it from a shell:

* ``call`` -- ``python -m playground call get_order_status order_id=HR20260604 --format json``
  (./tools, bodies in the default worker process);
* ``inspector`` -- ``npx @modelcontextprotocol/inspector --cli python
  bench/mcp_one_tool_server.py --method tools/call --tool-name get_order_status --tool-arg
  order_id=HR20260604`` (the same body on a one-tool MCP server), run from the folder where
  Inspector was installed as its users install it (``npm install --prefix DIR
  @modelcontextprotocol/inspector``; ``DIR`` is ``$INSPECTOR_DIR`` or ``.bench/inspector``,
  installed on first use when ``npm`` is there);
* ``call --mcp`` -- ``python -m playground call get_order_status order_id=HR99999999 --mcp
  "python fixtures/mcp_shop_server.py" --format json``, beside ``inspector-shop``: Inspector on
  the same server and call. The server's start is inside both sides.

Wall time is to the command's exit; CPU is user + system of the whole tree (the worker, the
server, node), every descendant reaped through a child subreaper (:mod:`proctree`). Runs
alternate in a rotating order; medians. Goals (issue 25): ``call`` ≤ 0.2× Inspector,
``call --mcp`` ≤ 0.7× Inspector (wall).

Run from the repository root: ``python bench/bench_call.py [-n 7]``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from proctree import adopt_orphans, alternate, load, run_tree  # noqa: E402

INSPECTOR_PACKAGE = "@modelcontextprotocol/inspector"


def inspector_dir() -> Path | None:
    """Where Inspector is installed (installing it there with npm on first use); ``None``
    without npm."""
    folder = Path(os.environ.get("INSPECTOR_DIR") or REPO / ".bench" / "inspector")
    if (folder / "node_modules" / ".bin" / "mcp-inspector").exists():
        return folder
    if not shutil.which("npm"):
        return None
    folder.mkdir(parents=True, exist_ok=True)
    print(f"installing {INSPECTOR_PACKAGE} into {folder} ...", file=sys.stderr)
    subprocess.run(
        ["npm", "install", "--prefix", str(folder), INSPECTOR_PACKAGE],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return folder


def _side(cmd: list[str], cwd: Path, env: dict[str, str], expect: str):  # type: ignore[no-untyped-def]
    def run() -> dict[str, float]:
        wall, cpu, out = run_tree(cmd, cwd=cwd, env=env)
        assert expect in out, out[:300]
        return {"wall_s": wall, "cpu_s": cpu}

    return run


def measure(runs: int = 7) -> dict[str, dict[str, float]]:
    """Medians per side: ``{"call", "inspector", "call --mcp", "inspector-shop"}`` →
    ``{"wall_s", "cpu_s"}`` (Inspector's sides missing without npm)."""
    adopt_orphans()
    py = sys.executable
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python caches byte code
    env["PLAYGROUND_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-call-")
    call = [py, "-m", "playground", "call", "get_order_status", "order_id=HR20260604"]
    call += ["--tools", "tools", "--format", "json"]
    shop = [py, str(REPO / "fixtures" / "mcp_shop_server.py")]
    mcp = [py, "-m", "playground", "call", "get_order_status", "order_id=HR99999999"]
    mcp += ["--mcp", shlex.join(shop), "--format", "json"]
    plain = {
        "call": _side(call, REPO, env, "HR20260604"),
        "call --mcp": _side(mcp, REPO, env, "HR99999999"),
    }
    folder = inspector_dir()
    inspect: dict[str, object] = {}
    if folder is not None:
        base = ["npx", "--no-install", INSPECTOR_PACKAGE, "--cli"]
        tail = ["--method", "tools/call", "--tool-name", "get_order_status"]
        one_tool = [*base, py, str(REPO / "bench" / "mcp_one_tool_server.py"), *tail]
        inspect["inspector"] = _side(
            [*one_tool, "--tool-arg", "order_id=HR20260604"], folder, env, "HR20260604"
        )
        inspect["inspector-shop"] = _side(
            [*base, *shop, *tail, "--tool-arg", "order_id=HR99999999"], folder, env, "HR99999999"
        )
    out: dict[str, dict[str, float]] = {}
    for pair in (("call", "inspector"), ("call --mcp", "inspector-shop")):
        sides = {name: plain.get(name) or inspect.get(name) for name in pair}
        sides = {k: v for k, v in sides.items() if v is not None}
        for run in sides.values():  # warm-up: byte code, page cache
            run()  # type: ignore[operator]
        out.update(alternate(sides, runs))  # type: ignore[arg-type]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=7, help="runs per side (alternated)")
    opts = parser.parse_args()
    figures = measure(opts.n)
    print(f"one tools/call, {opts.n} alternated runs per side, medians ({load()})")
    print(f"  {'side':<16}{'wall ms':>9}{'cpu ms':>9}")
    for name, f in figures.items():
        print(f"  {name:<16}{f['wall_s'] * 1000:>9.0f}{f['cpu_s'] * 1000:>9.0f}")
    for mine, peer, goal in (("call", "inspector", 0.2), ("call --mcp", "inspector-shop", 0.7)):
        if peer in figures:
            wall = figures[mine]["wall_s"] / figures[peer]["wall_s"]
            cpu = figures[mine]["cpu_s"] / figures[peer]["cpu_s"]
            verdict = "met" if wall <= goal else "NOT met"
            print(
                f"  {mine} / {peer}: wall {wall:.2f}x, cpu {cpu:.2f}x (goal <= {goal}: {verdict})"
            )


if __name__ == "__main__":
    main()
