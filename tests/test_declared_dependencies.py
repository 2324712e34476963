"""Every third-party module the package imports is declared in ``pyproject.toml``'s
``[project] dependencies``: a module that arrives only as another package's dependency can
vanish on that package's next release (pydantic, pydantic-core and anyio once did: imported,
never declared). Imports anywhere in a module count, inside functions and under
``TYPE_CHECKING`` too; the distribution that ships a module is the installed one's
(:func:`importlib.metadata.packages_distributions`)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from functools import cache
from importlib.metadata import distribution, packages_distributions
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def imported_modules(package: Path) -> dict[str, str]:
    """``{module: "file:line"}`` of every absolute import in the ``.py`` files under
    ``package`` (the first place each module is imported; paths from ``package``'s parent)."""
    found: dict[str, str] = {}
    for file in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                found.setdefault(name, f"{file.relative_to(package.parent)}:{node.lineno}")
    return found


def third_party(modules: dict[str, str], own: str) -> dict[str, str]:
    """The modules neither of the standard library nor of the package ``own``."""
    return {
        m: where
        for m, where in modules.items()
        if m.split(".")[0] not in sys.stdlib_module_names and m.split(".")[0] != own
    }


def normalised(name: str) -> str:
    """A distribution name as PEP 503 compares them (``Jinja2`` = ``jinja2``, ``a_b`` = ``a-b``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def _distributions() -> dict[str, list[str]]:
    return packages_distributions()


@cache
def shipping(module: str) -> set[str]:
    """The installed distributions that ship ``module`` (for a namespace package such as
    ``google``, only those with files under ``google/genai/``)."""
    parts = module.split(".")
    dists = set(_distributions().get(parts[0], []))
    if len(dists) > 1 and len(parts) > 1:
        folder = "/".join(parts[:2])
        dists = {
            d
            for d in dists
            if any(str(f).startswith(folder + "/") for f in distribution(d).files or [])
        }
    return {normalised(d) for d in dists}


def declared() -> set[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # a requirement starts with its name (PEP 508): "mcp>=2", "httpx2>=2.0,<3"
    names = (re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", spec) for spec in project["dependencies"])
    return {normalised(m.group()) for m in names if m}


def test_every_imported_third_party_module_is_declared() -> None:
    modules = third_party(imported_modules(REPO / "playground"), "playground")
    assert "jsonschema" in modules  # the walk found the package's imports
    wanted = declared()
    missing = {}
    for module, where in sorted(modules.items()):
        dists = shipping(module)
        if not dists & wanted:
            missing[module] = f"{where} (installed by: {', '.join(sorted(dists)) or 'nothing'})"
    assert missing == {}, "imported but not in [project] dependencies:\n" + "\n".join(
        f"{m}: {w}" for m, w in missing.items()
    )


def test_the_check_sees_an_undeclared_import(tmp_path: Path) -> None:
    """The walk on a package that imports pydantic_core inside a function and anyio under
    TYPE_CHECKING: both are found, with the place they are imported."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "m.py").write_text(
        "from typing import TYPE_CHECKING\nimport os\nfrom pkg import x\n"
        "if TYPE_CHECKING:\n    from anyio.abc import Process\n"
        "def f():\n    from pydantic_core import to_jsonable_python\n",
        encoding="utf-8",
    )
    found = third_party(imported_modules(pkg), "pkg")
    assert found == {"anyio.abc": "pkg/m.py:5", "pydantic_core": "pkg/m.py:7"}
    assert shipping("pydantic_core") == {"pydantic-core"}
