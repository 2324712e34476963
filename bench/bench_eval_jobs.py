"""``eval --jobs 8`` against ``--jobs 1`` on a local OpenAI-compatible server answering in 50 ms.

Run: ``python bench/bench_eval_jobs.py [--cases 1000] [--delay-ms 50] [--jobs 8]``. Starts
``tests/routing/provider_server.py`` (a real HTTP server process speaking Chat Completions) with
``--delay-ms``, writes ``--cases`` questions in the shop's style, and runs
:func:`playground.batch.evaluate.evaluate` with the openai-compatible router (the official
``openai`` SDK, one client per router) once at ``--jobs 1`` and once at ``--jobs N``, timing
each with :func:`time.perf_counter`. Prints both times, cases per second and the ratio beside
the goal (issue 24: 1,000 cases at ``--jobs 8`` in at most 1/6 of the time of ``--jobs 1``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playground.batch.evalcases import EvalCase  # noqa: E402
from playground.batch.evaluate import evaluate  # noqa: E402
from playground.routing.openai_compatible import CompatibleRouter  # noqa: E402
from playground.workbench import open_playground  # noqa: E402

SERVER = ROOT / "tests" / "routing" / "provider_server.py"
QUESTIONS = [
    "Where is my parcel right now? Order HR2026{n:04d}",
    "텀블러 주문한 거 어디쯤이에요? 주문번호 HR2026{n:04d}",
    "Is P{n:03d} in stock?",
    "What are your store opening hours? ({n})",
]
GOAL = 1 / 6


def run(url: str, cases: list[EvalCase], jobs: int) -> float:
    pg = open_playground([ROOT / "tools" / "shop.py"], in_process=True)
    router = CompatibleRouter(model="canned-model", base_url=url)
    started = time.perf_counter()
    report = evaluate(pg, cases, router, jobs=jobs, stop_after=None)
    elapsed = time.perf_counter() - started
    errors = report.metrics.errors
    if errors:
        print(f"  warning: {errors} router errors at --jobs {jobs}: {report.first_error}")
    assert report.metrics.total == len(cases)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--delay-ms", type=float, default=50.0)
    parser.add_argument("--jobs", type=int, default=8)
    options = parser.parse_args()
    server = subprocess.Popen(
        [sys.executable, str(SERVER), "--delay-ms", str(options.delay_ms)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline().split()[1])
        url = f"http://127.0.0.1:{port}/v1"
        cases = [
            EvalCase(
                line=n + 1, question=QUESTIONS[n % len(QUESTIONS)].format(n=n), expect_tool=None
            )
            for n in range(options.cases)
        ]
        print(
            f"{options.cases} cases, server answering in {options.delay_ms:g} ms "
            f"(openai-compatible router, official openai SDK)"
        )
        parallel = run(url, cases, options.jobs)
        print(
            f"  --jobs {options.jobs}: {parallel:7.2f} s  ({options.cases / parallel:6.1f} cases/s)"
        )
        serial = run(url, cases, 1)
        print(f"  --jobs 1: {serial:7.2f} s  ({options.cases / serial:6.1f} cases/s)")
        ratio = parallel / serial
        verdict = "meets" if ratio <= GOAL else "MISSES"
        print(
            f"  ratio --jobs {options.jobs} / --jobs 1 = {ratio:.3f} (1/{1 / ratio:.1f}); "
            f"goal <= 1/6 = {GOAL:.3f}: {verdict}"
        )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
