"""The performance tricks of docs/performance.md that lean on another project's internals: the
installed versions stay inside the bounds pyproject.toml sets, and each private attribute a
trick uses is still there. A failure names the trick to re-check (and where it is described)
before the bound is raised or the trick changed."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

#: distribution -> the tricks that use its internals (docs/performance.md)
TRICKS_BY_DISTRIBUTION = {
    "mcp": "the deferred SDK packages (playground/sources/mcp_imports.py) and the early stdio "
    "server start (playground/sources/mcp_stdio.py)",
    "mcp-types": "the early stdio server start (playground/sources/mcp_stdio.py: "
    "mcp_types.jsonrpc_message_adapter)",
    "jsonschema-rs": "the quick valid (playground/core/quick_valid.py: its answers must stay "
    "jsonschema's; tests/core/test_quick_valid.py compares them)",
    "typer": "typer without pydantic (playground/cli/quick_params.py: typer.core, "
    "typer._coercion, typer._param_types)",
    "textual": "the phase-split CSS (playground/tui/css_files.py: Stylesheet.add_source), "
    "the footer rebuilt only when its keys change (playground/tui/footer.py) and "
    "the test suite's StylesCache clearing (tests/conftest.py)",
}

#: (module, attribute path, the trick that uses it)
PRIVATE_ATTRIBUTES = [
    *(
        (module, name, "typer without pydantic (playground/cli/quick_params.py)")
        for module, name in (
            ("typer.core", "_TyperParameter.get_runtime_param"),
            ("typer._coercion", "RuntimeParam._coerce_value"),
            ("typer._coercion", "TypeDescriptor"),
            ("typer._coercion", "build_runtime_param"),
            ("typer._param_types", "choice_coercion_annotation"),
            ("typer._param_types", "coerce_cli_choice"),
            ("typer._param_types", "coerce_cli_path"),
            ("typer._param_types", "routes_to_path"),
            ("typer._typing", "is_number_type"),
        )
    ),
    ("atexit", "_run_exitfuncs", "the fast exit (playground/cli/fast_exit.py)"),
    (
        "mcp.os.posix.utilities",
        "terminate_posix_process_tree",
        "the early stdio server start (playground/sources/mcp_stdio.py: stop_process)",
    ),
    (
        "mcp.client.stdio",
        "DEFAULT_INHERITED_ENV_VARS",
        "the early stdio server start (playground/sources/mcp_stdio.py: SDK_INHERITED_ENV)",
    ),
    (
        "mcp.shared.message",
        "SessionMessage",
        "the early stdio server start (playground/sources/mcp_stdio.py: process_streams)",
    ),
    (
        "mcp_types",
        "jsonrpc_message_adapter.validate_json",
        "the early stdio server start (playground/sources/mcp_stdio.py: process_streams)",
    ),
    (
        "textual.css.stylesheet",
        "Stylesheet.add_source",
        "the phase-split CSS (playground/tui/css_files.py)",
    ),
    (
        "textual.css.stylesheet",
        "Stylesheet.has_source",
        "the phase-split CSS (playground/tui/css_files.py)",
    ),
    (
        "textual.message_pump",
        "MessagePump._context",
        "the footer's keys composed in the first load's batch (playground/tui/footer.py)",
    ),
    (
        "textual._styles_cache",
        "StylesCache.get_inner_outer.cache_clear",
        "the test suite's StylesCache clearing (tests/conftest.py)",
    ),
]


def _declared() -> dict[str, Requirement]:
    data = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    requirements = [Requirement(line) for line in data["project"]["dependencies"]]
    return {r.name.lower(): r for r in requirements}


@pytest.mark.parametrize("distribution", sorted(TRICKS_BY_DISTRIBUTION))
def test_a_trick_dependency_has_an_upper_bound_and_is_inside_it(distribution: str) -> None:
    trick = TRICKS_BY_DISTRIBUTION[distribution]
    requirement = _declared().get(distribution)
    assert requirement is not None, f"{distribution} is not declared in pyproject.toml"
    assert any(s.operator in ("<", "<=", "~=", "==") for s in requirement.specifier), (
        f"{distribution} needs an upper bound in pyproject.toml: {trick} uses its internals"
    )
    installed = importlib.metadata.version(distribution)
    assert requirement.specifier.contains(installed, prereleases=True), (
        f"{distribution} {installed} is outside {requirement.specifier} (pyproject.toml): "
        f"re-check {trick} (docs/performance.md) against it, then move the bound"
    )


@pytest.mark.parametrize(
    ("module", "attribute", "trick"),
    PRIVATE_ATTRIBUTES,
    ids=[f"{module}.{attribute}" for module, attribute, _ in PRIVATE_ATTRIBUTES],
)
def test_the_private_attribute_a_trick_uses_is_still_there(
    module: str, attribute: str, trick: str
) -> None:
    found: object = importlib.import_module(module)
    for part in attribute.split("."):
        assert hasattr(found, part), (
            f"{module}.{attribute} is gone: re-check {trick} (docs/performance.md)"
        )
        found = getattr(found, part)
    assert callable(found) or isinstance(found, (tuple, list, dict, type)), (
        f"{module}.{attribute} is no longer what {trick} expects"
    )


def test_the_deferred_mcp_packages_are_still_packages() -> None:
    """``mcp_imports`` builds module objects for ``mcp`` and ``mcp.client`` from their specs;
    each must still be a package (a folder with ``__init__``)."""
    from playground.sources.mcp_imports import DEFERRED_PACKAGES

    for name in DEFERRED_PACKAGES:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.submodule_search_locations is not None, (
            f"{name} is no longer a package: re-check the deferred SDK packages "
            "(playground/sources/mcp_imports.py, docs/performance.md)"
        )


def test_jsonschema_format_checkers_come_without_the_iri_grammar() -> None:
    """The format checkers are declared one by one, not as jsonschema's ``format-nongpl``
    extra, whose ``rfc3987-syntax`` compiles lark grammars at import (~2.6 s added to every
    command's start-up; docs/performance.md, "format checkers without the IRI grammar")."""
    declared = _declared()
    assert "rfc3987-syntax" not in declared, "rfc3987-syntax is back: see docs/performance.md"
    assert "format-nongpl" not in declared["jsonschema"].extras, (
        "jsonschema[format-nongpl] brings rfc3987-syntax back: see docs/performance.md"
    )


def test_the_footer_still_composes_from_what_keys_footer_compares() -> None:
    """``KeysFooter`` (playground/tui/footer.py) compares what Textual's ``Footer.compose``
    reads: the screen's ``active_bindings`` once ``_bindings_ready`` is set."""
    import inspect

    from textual.screen import Screen
    from textual.widgets._footer import Footer

    assert "_bindings_ready" in vars(Footer), "re-check the footer trick (docs/performance.md)"
    assert isinstance(vars(Screen).get("active_bindings"), property)
    source = inspect.getsource(Footer.compose)
    for name in ("_bindings_ready", "active_bindings", "show_command_palette"):
        assert name in source, f"Footer.compose no longer reads {name}: re-check the footer trick"


def test_the_stylesheet_still_parses_through_the_cache_parsed_css_replaces() -> None:
    """``playground.tui.css_cache.ParsedCss`` takes the place of a ``Stylesheet``'s
    ``_parse_cache`` (indexed by ``_parse_rules``, cleared by ``set_variables``) and reads its
    ``_variables``: a Textual that parses another way would bypass or break it."""
    import inspect

    from textual.css.stylesheet import Stylesheet

    stylesheet = Stylesheet()
    assert hasattr(stylesheet, "_parse_cache") and hasattr(stylesheet, "_variables"), (
        "re-check the parsed-TCSS cache (docs/performance.md)"
    )
    source = inspect.getsource(Stylesheet._parse_rules)
    assert "self._parse_cache[cache_key]" in source, "re-check the parsed-TCSS cache"
    assert "_parse_cache.clear()" in inspect.getsource(Stylesheet.set_variables)
