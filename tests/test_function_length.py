"""No function in ``playground`` is longer than :data:`MAX_LINES` lines: a long function is
split into small ones named for the step or rule each owns (issue 22, "growth unchecked").

A function's length runs from its ``def`` line to its last line (decorators left out; its
docstring, comments and blank lines counted), as ``ast`` gives them (``lineno`` /
``end_lineno``); methods and nested functions count on their own, and a nested function's lines
count in its parent's too. The aim for new code is 60 lines; this test holds the line at 80.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import playground

#: The longest a function in the package may be, in lines.
MAX_LINES = 80
PACKAGE = Path(playground.__file__).parent


def function_lengths(source: str) -> list[tuple[int, int, str]]:
    """``(lines, first line, qualified name)`` of every function and method in ``source``
    (``Class.method``, ``outer.inner``), in source order."""
    found: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                assert child.end_lineno is not None
                name = f"{prefix}{child.name}"
                found.append((child.end_lineno - child.lineno + 1, child.lineno, name))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return sorted(found, key=lambda row: row[1])


def too_long(root: Path, limit: int = MAX_LINES) -> list[str]:
    """``path:line name (N lines)`` for every function under ``root`` longer than ``limit``
    lines, longest first."""
    rows = [
        (lines, f"{path.relative_to(root.parent)}:{first} {name} ({lines} lines)")
        for path in sorted(root.rglob("*.py"))
        for lines, first, name in function_lengths(path.read_text(encoding="utf-8"))
        if lines > limit
    ]
    return [text for _, text in sorted(rows, key=lambda row: -row[0])]


def _function(name: str, lines: int, indent: str = "") -> str:
    """A function of exactly ``lines`` lines (its ``def`` line and ``lines - 1`` statements)."""
    body = "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 1))
    return f"{indent}def {name}():\n{body}"


def test_the_measure_counts_from_def_to_the_last_line_of_every_kind_of_function() -> None:
    source = (
        "import functools\n\n"
        "@functools.cache\n"  # a decorator is not counted
        + _function("eighty", 80)
        + "\n\nclass Box:\n"
        + _function("method", 81, indent="    ")
        + "\n\nasync def outer():\n"
        + textwrap.indent(_function("inner", 3), "    ")
        + "    return inner\n"
    )
    assert function_lengths(source) == [
        (80, 4, "eighty"),
        (81, 87, "Box.method"),
        (5, 170, "outer"),
        (3, 171, "outer.inner"),
    ]


def test_too_long_lists_only_what_is_over_the_limit(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "a.py").write_text(_function("fits", 80) + _function("over", 82), encoding="utf-8")
    (package / "sub" / "b.py").write_text(_function("further", 90), encoding="utf-8")
    assert too_long(package) == [
        "pkg/sub/b.py:1 further (90 lines)",
        "pkg/a.py:81 over (82 lines)",
    ]


def test_no_function_in_the_package_is_longer_than_80_lines() -> None:
    assert too_long(PACKAGE) == [], (
        f"functions over {MAX_LINES} lines: split each into small functions named for the "
        "step or rule they own"
    )
