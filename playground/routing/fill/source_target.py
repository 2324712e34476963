"""Source and target written together in the question, given to the two parameters named for
the two ends (rule ``source_target``): "Convert 14:30 from Asia/Seoul to America/New_York" ->
``source_timezone='Asia/Seoul'``, ``target_timezone='America/New_York'``; also "X → Y" and
"X에서 Y로".

A parameter's end is read from its name words (:func:`role`: ``source``/``from``/``origin``... or
``target``/``to``/``destination``..., per language in :mod:`playground.routing.fill.lang`), else
from the first words of its description ("Source IANA timezone name"). The two parameters pair
when they share the rest of their name (``source_timezone`` / ``target_timezone``) or are the
only source and target of the tool. The values are the question's values
(:class:`playground.routing.values.Value`: identifiers, paths, URLs, codes, quoted text) that a
pair cue joins; each must fit its parameter (the examples' identifier shape when they have one).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from playground.routing import korean
from playground.routing.fill import identifiers, lang
from playground.routing.values import Value, outside

#: The value kinds this rule pairs: written identifiers, not capitalised names ("from San
#: Francisco to Tokyo" is left to the loose rules, which also split it into several calls).
_KINDS = frozenset({"identifier", "path", "url", "code", "quoted", "email"})


class _Spec(Protocol):
    """What this rule reads of a parameter (:class:`.specs.ParamSpec`)."""

    @property
    def name(self) -> str: ...
    @property
    def doc(self) -> str: ...
    @property
    def examples(self) -> tuple[str, ...]: ...
    @property
    def types(self) -> tuple[str, ...]: ...
    @property
    def enum(self) -> tuple[Any, ...]: ...


S = TypeVar("S", bound=_Spec)


def role(spec: _Spec) -> str:
    """``"source"`` or ``"target"`` when the parameter's name (else the first word of its
    description: "Source IANA timezone name") names an end of a route or range, else ``""``."""
    for words in (
        {w.lower() for w in korean.split_identifier(spec.name)},
        {korean.stem(w.lower()) for w in spec.doc.split()[:1]},
    ):
        if words & lang.SOURCE_WORDS and not words & lang.TARGET_WORDS:
            return "source"
        if words & lang.TARGET_WORDS and not words & lang.SOURCE_WORDS:
            return "target"
    return ""


def _rest(spec: _Spec) -> frozenset[str]:
    words = {w.lower() for w in korean.split_identifier(spec.name)}
    return frozenset(words - lang.SOURCE_WORDS - lang.TARGET_WORDS)


def ends(specs: Sequence[S]) -> list[tuple[S, S]]:
    """The ``(source, target)`` parameter pairs of one tool's string parameters without an enum."""
    plain = [s for s in specs if ("string" in s.types or not s.types) and not s.enum]
    sources = [s for s in plain if role(s) == "source"]
    targets = [s for s in plain if role(s) == "target"]
    if len(sources) == 1 and len(targets) == 1:
        return [(sources[0], targets[0])]
    return [(s, t) for s in sources for t in targets if _rest(s) and _rest(s) == _rest(t)]


def _fits(spec: _Spec, value: str) -> bool:
    return not identifiers.unlike_examples(spec.examples, value)


def _joined(text: str, x: Value, y: Value) -> bool:
    for before, between, after in lang.PAIR_CUES:
        if (
            before.search(text[: x.start])
            and between.fullmatch(text[x.end : y.start])
            and after.search(text[y.end :])
        ):
            return True
    return False


def pair(
    specs: Sequence[S],
    text: str,
    found: Sequence[Value],
    used: list[tuple[int, int]],
    enabled: Callable[[str], bool] = lambda _name: True,
) -> list[tuple[S, str, dict[str, Any]]]:
    """``[(spec, value, evidence)]`` for each source/target parameter pair (:func:`ends`) whose
    values the question joins with a pair cue; ``found``: the question's values; ``used``: spans
    already taken. Empty when the rule is switched off (``enabled("source_target")``)."""
    if not enabled("source_target"):
        return []
    out: list[tuple[S, str, dict[str, Any]]] = []
    taken = list(used)
    strings = sorted((v for v in found if v.kind in _KINDS), key=lambda v: v.start)
    for source, target in ends(specs):
        for x, y in itertools.pairwise(strings):
            if not (outside((x.start, y.end), taken) and _joined(text, x, y)):
                continue
            if _fits(source, str(x.value)) and _fits(target, str(y.value)):
                for spec, v, end in ((source, x, "source"), (target, y, "target")):
                    detail = f"the {end} of {text[x.start : y.end]!r}"
                    ev = {"rule": "source_target", "span": [v.start, v.end], "text": v.text}
                    out.append((spec, str(v.value), {**ev, "detail": detail}))
                taken.append((x.start, y.end))
                break
    return out
