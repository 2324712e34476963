"""Which named rules of the offline router are switched on: the one place both the selection rules
(relevance, scoring) and the argument-filling rules consult, so that a benchmark can measure what
each rule earns and costs (``bench/bfcl.py --without RULE`` / ``--only RULE``).

A rule registers its name once (at import, from the module that owns it) with :func:`known_rule`;
code asks :func:`rule_enabled` before applying it. The switches live in a context variable, so a
measurement in one thread never changes routing in another; by default every rule is on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

_KNOWN: dict[str, RuleInfo] = {}


@dataclass(frozen=True)
class RuleInfo:
    """A routing rule's identity: ``name`` (unique, snake_case), ``phase`` (the pipeline phase that
    runs it, e.g. ``"relevance"``, ``"selection"``, ``"values"``) and ``summary`` (one line)."""

    name: str
    phase: str
    summary: str


@dataclass(frozen=True)
class _Switches:
    without: frozenset[str] = frozenset()
    only: frozenset[str] | None = None


_ALL_ON = _Switches()
_SWITCHES: ContextVar[_Switches | None] = ContextVar("rule_switches", default=None)


def known_rule(name: str, phase: str, summary: str) -> str:
    """Register a rule and return its name (so a module can write ``NAME = known_rule(...)``).

    Raises ValueError when another rule already took ``name`` with a different phase or summary.
    """
    info = RuleInfo(name, phase, summary)
    if _KNOWN.get(name, info) != info:
        raise ValueError(f"routing rule {name!r} registered twice")
    _KNOWN[name] = info
    return name


def known_rules() -> list[RuleInfo]:
    """Every registered rule, sorted by phase then name."""
    return sorted(_KNOWN.values(), key=lambda rule: (rule.phase, rule.name))


def rule_enabled(name: str) -> bool:
    """Whether rule ``name`` applies in the current context (True unless switched off)."""
    switches = _SWITCHES.get() or _ALL_ON
    if name in switches.without:
        return False
    return switches.only is None or name in switches.only


@contextmanager
def switched(without: Iterable[str] = (), only: Iterable[str] | None = None) -> Iterator[None]:
    """Run the block with the rules in ``without`` off, or with only the rules in ``only`` on.

    Raises ValueError naming any rule that is not registered (a typo must not measure nothing).
    """
    wanted = set(without) | set(only or ())
    unknown = sorted(wanted - _KNOWN.keys())
    if unknown:
        raise ValueError(f"unknown routing rule(s): {', '.join(unknown)}")
    token = _SWITCHES.set(_Switches(frozenset(without), None if only is None else frozenset(only)))
    try:
        yield
    finally:
        _SWITCHES.reset(token)


@contextmanager
def also_without(names: Iterable[str]) -> Iterator[None]:
    """Run the block with the rules in ``names`` off as well as those already switched off
    (the current ``only`` kept). Raises ValueError naming any rule that is not registered."""
    current = _SWITCHES.get() or _ALL_ON
    with switched(current.without | set(names), current.only):
        yield
