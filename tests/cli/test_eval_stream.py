"""``eval`` streams (issue 11 item 14): each result is written as it is judged with
``--format jsonl``, memory stays flat, ctrl+c keeps what was judged (exit 130), and when no case
could be judged ``eval`` exits 2 with one line saying why."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.batch.evalcases import EvalCase
from playground.batch.evalstream import iter_case_file
from playground.batch.evaluate import evaluate
from playground.cli import cmd_eval
from playground.cli.main import app
from playground.errors import RouterError
from playground.routing.base import FunctionCall, Move, RouterCapabilities
from playground.sources.loading import load_registry

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tools" / "shop.py"
runner = CliRunner()


class ScriptedRouter:
    """Calls search_products for every question; raises what ``fail_at`` says at that case."""

    name = "scripted"
    capabilities = RouterCapabilities()

    def __init__(self, fail_at: dict[int, BaseException] | None = None, seen=None) -> None:
        self.fail_at = fail_at or {}
        self.calls = 0
        self.seen = seen

    def next_move(self, conversation, declarations):
        self.calls += 1
        if self.seen is not None:
            self.seen.append(self.calls)
        if self.calls in self.fail_at:
            raise self.fail_at[self.calls]
        return Move(calls=[FunctionCall("search_products", {"keyword": "x"}, "c1")])


def write_cases(path: Path, n: int) -> Path:
    line = json.dumps(
        {"question": "키보드 찾아줘", "expect_tool": "search_products"}, ensure_ascii=False
    )
    path.write_text("\n".join([line] * n) + "\n", encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))


def use_router(monkeypatch, router):
    monkeypatch.setattr(cmd_eval, "_make_router", lambda *a: router)


def test_jsonl_writes_each_result_as_it_is_judged(tmp_path, monkeypatch):
    cases = write_cases(tmp_path / "c.jsonl", 5)
    written_before_next: list[int] = []

    class Watching(ScriptedRouter):
        def next_move(self, conversation, declarations):
            # lines already written to stdout when the router is asked again
            written_before_next.append(self.calls)
            return super().next_move(conversation, declarations)

    use_router(monkeypatch, Watching())
    echoed: list[str] = []
    real = cmd_eval.typer.echo

    def spy(message=None, *a, **k):
        echoed.append(message)
        return real(message, *a, **k)

    monkeypatch.setattr(cmd_eval.typer, "echo", spy)
    result = runner.invoke(app, ["eval", str(cases), "--tools", str(SHOP), "--format", "jsonl"])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert [x.get("category") for x in lines[:5]] == ["selected"] * 5
    assert lines[-1]["summary"]["counts"]["judged"] == 5
    # the first result line was echoed before the second case was asked
    assert written_before_next == [0, 1, 2, 3, 4]
    assert len([e for e in echoed if e and '"category"' in e]) == 5


def test_ctrl_c_keeps_what_was_judged(tmp_path, monkeypatch):
    cases = write_cases(tmp_path / "c.jsonl", 10)
    use_router(monkeypatch, ScriptedRouter({4: KeyboardInterrupt()}))
    result = runner.invoke(app, ["eval", str(cases), "--tools", str(SHOP), "--format", "jsonl"])
    assert result.exit_code == 130
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    judged = [x for x in lines if "category" in x]
    assert len(judged) == 3
    assert lines[-1]["summary"]["counts"]["judged"] == 3
    assert "interrupted" in result.stderr

    use_router(monkeypatch, ScriptedRouter({4: KeyboardInterrupt()}))
    table = runner.invoke(app, ["eval", str(cases), "--tools", str(SHOP), "--format", "json"])
    assert table.exit_code == 130
    data = json.loads(table.stdout)
    assert data["interrupted"] is True and data["metrics"]["counts"]["judged"] == 3


def test_no_case_judged_exits_2_with_one_line(tmp_path, monkeypatch):
    cases = write_cases(tmp_path / "c.jsonl", 6)
    down = RouterError("Gemini network error: [Errno -3] Temporary failure in name resolution")
    use_router(monkeypatch, ScriptedRouter({i: down for i in range(1, 7)}))
    result = runner.invoke(app, ["eval", str(cases), "--tools", str(SHOP), "--format", "json"])
    assert result.exit_code == 2
    errors = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(errors) == 1
    assert errors[0].startswith("error: no case could be judged: 3 router error(s), 3 skipped")
    assert "name resolution" in errors[0]

    empty = tmp_path / "empty.jsonl"
    empty.write_text("# nothing here\n", encoding="utf-8")
    use_router(monkeypatch, ScriptedRouter())
    result = runner.invoke(app, ["eval", str(empty), "--tools", str(SHOP)])
    assert result.exit_code == 2 and "no case to judge" in result.stderr


def test_memory_stays_flat(tmp_path):
    registry = load_registry([SHOP])

    def cases(n):
        for i in range(n):
            yield EvalCase(line=i + 1, question="키보드", expect_tool="search_products")

    def peak(n):
        tracemalloc.start()
        report = evaluate(registry, cases(n), ScriptedRouter(), keep_results=False)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert report.metrics.judged == n and report.results == []
        return top

    small, large = peak(1_000), peak(8_000)
    assert large < small * 1.5  # 8 times the cases, not 8 times the memory


def test_the_file_is_read_lazily(tmp_path):
    cases = write_cases(tmp_path / "c.jsonl", 3)
    with cases.open("a", encoding="utf-8") as f:
        f.write("not json\n\r\n")
    items = list(iter_case_file(cases))
    assert [type(x).__name__ for x in items] == ["EvalCase"] * 3 + ["CaseProblem"]
    assert items[-1].line == 4
