"""Tool Playground: a terminal workbench for hand-testing the tools an LLM calls.

The package is layered (see ``docs/design.md``): ``core`` (contracts, registry, the
gate), ``routing`` (routers), ``loop`` (episodes), ``batch`` (check/eval/lint/probe/report)
never import textual, typer or rich; ``cli`` and ``tui`` sit on top.
"""

__version__ = "0.1.0"
