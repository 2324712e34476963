"""The tool-source options are declared once (playground/cli/source_options.py) and every
command shows the options it showed before they were: the same names, the same help, the same
defaults, whatever command lists them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from playground.cli.main import build_app
from playground.cli.source_options import (
    MCP_SERVER_OPTIONS,
    NO_SOURCES,
    ToolSourceOptions,
    tool_source_options,
)
from playground.errors import UsageError

CLI = Path(__file__).resolve().parents[2] / "playground" / "cli"

_SOURCES = (
    "--elicit --in-process --mcp --mcp-config --mcp-header --mcp-log-level --mcp-max-total "
    "--mcp-protocol "
    "--mcp-server --mcp-timeout --mcp-tool-timeout --mcp-url --root --tools"
)
_SERVERS = "--mcp --mcp-config --mcp-header --mcp-server --mcp-url"

#: Each command's options before they were shared (``--help`` of every command, as captured
#: then); ``list`` gained ``--no-history`` since, as ``call`` has it.
BEFORE: dict[str, str] = {
    "": f"{_SOURCES} --history --no-history --version",
    "ask": f"{_SOURCES} --api --base-url --dry-run --force --format --history --html "
    "--max-steps --mode --model --no-history --router --save",
    "call": f"{_SOURCES} --args --force --format --history --no-history --repair --save",
    "check": f"{_SOURCES} --format --html",
    "eval": f"{_SOURCES} --api --base-url --compare --format --html --jobs "
    "--max-false-selection --min-selection --mode --model --prices --repeat --resume --router "
    "--rpm",
    "history": "--format --history --kind --limit --question --since --tool",
    "history clear": "--before --history",
    "history list": "--format --history --kind --limit --question --since --tool",
    "history rerun": "--format --history --in-process --mcp-header --no-history --router --tools",
    "history save": "--history --to",
    "history show": "--format --history --html",
    "lint": f"{_SOURCES} --format --only --strict",
    "list": f"{_SOURCES} --format",
    "probe": f"{_SOURCES} --against-server --format --html",
    "prompts": f"{_SERVERS} --format",
    "replay": "--format --html --in-process --tools --update",
    "report": f"{_SOURCES} --force --format --html --out",
    "resources": f"{_SERVERS} --format",
    "serve": f"{_SERVERS} --history --host --in-process --no-history --port --tools",
    "show": f"{_SOURCES} --format --provider",
}


def _commands() -> dict[str, typer.main.TyperCommand]:
    """Every command of the app by its path (``""``: the root, ``"history rerun"``)."""
    found = {}

    def walk(command, path: list[str]) -> None:
        found[" ".join(path)] = command
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    walk(typer.main.get_command(build_app()), [])
    return found


@pytest.fixture(scope="module")
def commands() -> dict[str, typer.main.TyperCommand]:
    return _commands()


def _options(command) -> set[str]:
    return {o for p in command.params for o in p.opts if o.startswith("--")}


def test_every_command_lists_the_options_it_listed_before(commands) -> None:
    assert set(commands) == set(BEFORE)
    lost = {
        name: sorted(set(BEFORE[name].split()) - _options(command))
        for name, command in commands.items()
    }
    assert {name: gone for name, gone in lost.items() if gone} == {}
    assert "--no-history" in _options(commands["list"])


def test_a_tool_source_option_is_the_same_in_every_command(commands) -> None:
    """Name, short name, help and default of each option: one declaration seen everywhere."""
    seen: dict[str, set[tuple]] = {}
    for command in commands.values():
        for param in command.params:
            if param.opts[0] in _SOURCES.split() + ["--format", "--history", "--no-history"]:
                shape = (tuple(param.opts), param.help, repr(param.default), param.multiple)
                seen.setdefault(param.opts[0], set()).add(shape)
    assert sorted(seen) == sorted(_SOURCES.split() + ["--format", "--history", "--no-history"])
    # --format: the output formats, and those plus junit for the CI commands (eval, replay)
    assert {name: len(shapes) for name, shapes in seen.items()} == {
        name: 2 if name == "--format" else 1 for name in seen
    }


def test_each_shared_option_is_declared_once_in_the_cli() -> None:
    """``typer.Option("--tools", ...)`` and the others appear once in playground/cli, the tool
    source ones in source_options.py."""
    declared: dict[str, list[str]] = {}
    for file in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "Option"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                declared.setdefault(node.args[0].value, []).append(file.name)
    for name in _SOURCES.split():
        assert declared.get(name) == ["source_options.py"], name
    for name in ("--history", "--no-history"):
        assert declared.get(name) == ["common.py"], name
    assert declared.get("--format") == ["common.py", "common.py"]  # FormatOption, CiFormatOption


def _app_with(command) -> typer.Typer:
    app = typer.Typer()
    app.command()(command)
    app.command("other")(lambda: None)  # two commands: the first is called by its name
    return app


def test_the_decorator_hands_the_command_one_options_object() -> None:
    got: list[ToolSourceOptions] = []

    @tool_source_options()
    def run(
        name: str, sources: ToolSourceOptions = NO_SOURCES, flag: bool = typer.Option(False)
    ) -> None:
        got.append(sources)
        assert name == "x" and flag

    result = CliRunner().invoke(
        _app_with(run),
        ["run", "x", "--tools", "a.py", "--tools", "b", "--mcp-timeout", "250", "--in-process"]
        + ["--root", "/srv", "--flag"],
    )
    assert result.exit_code == 0, result.output
    assert got == [
        ToolSourceOptions(
            tools=[Path("a.py"), Path("b")],
            mcp_timeout=250.0,
            root=[Path("/srv")],
            in_process=True,
        )
    ]
    with pytest.raises(UsageError, match="apply to MCP servers; none given"):
        got[0].mcp_specs()  # a time limit without a server: exit 2, as before
    assert ToolSourceOptions(tools=[Path("a.py")]).mcp_specs() == []


def test_a_subset_takes_only_its_options() -> None:
    got: list[ToolSourceOptions] = []

    @tool_source_options(*MCP_SERVER_OPTIONS)
    def run(sources: ToolSourceOptions = NO_SOURCES) -> None:
        got.append(sources)

    app = _app_with(run)
    ok = CliRunner().invoke(app, ["run", "--mcp-url", "http://127.0.0.1:1/mcp"])
    assert ok.exit_code == 0, ok.output
    assert got == [ToolSourceOptions(mcp_url=["http://127.0.0.1:1/mcp"])]
    refused = CliRunner().invoke(app, ["run", "--tools", "x"])
    assert refused.exit_code == 2
    assert "No such option: --tools" in refused.output


def test_a_command_without_sources_or_an_unknown_name_is_refused_at_import() -> None:
    with pytest.raises(TypeError, match="no 'sources' parameter"):
        tool_source_options()(lambda fmt=None: None)
    with pytest.raises(TypeError, match="not tool-source options: --tools"):
        tool_source_options("--tools")
