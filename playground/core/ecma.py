"""JSON Schema's ``pattern`` as ECMA-262 regular expressions, not Python's ``re``.

JSON Schema 2020-12 (Validation, §6.3.3 "pattern"): "This string SHOULD be a valid regular
expression, according to the ECMA-262 regular expression dialect." The dialects differ where it
matters for tool arguments: Python's ``$`` also matches before a final newline, so
``^[A-Z]{2}-[0-9]{3}$`` accepted ``"KB-101\\n"`` (ECMA's ``$`` does not, without the ``m``
flag); ``\\d`` and ``\\w`` are Unicode in Python and ASCII in ECMA. The ``regress`` package binds
the Rust ``regress`` ECMA-262 engine, with the ``u`` flag as JSON Schema's Core §6.4 asks (else
without it); :data:`EcmaValidator` is jsonschema's Draft 2020-12
validator with its ``pattern`` keyword replaced (``jsonschema.validators.extend``).

A pattern the ECMA engine refuses (Python-only syntax such as ``(?P<name>...)``) falls back to
Python's ``re``, as before, so such a contract still validates.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import regress
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend

from playground.core.type_formats import register


@lru_cache(maxsize=1024)
def _compiled(pattern: str) -> regress.Regex | re.Pattern[str]:
    # JSON Schema 2020-12 Core §6.4: regular expressions "SHOULD be built with the 'u' flag (or
    # equivalent) to provide Unicode support" -- ``\p{L}`` is a letter class only then (without
    # it, ``^\p{L}+$`` refused "안녕" that pydantic's own Field(pattern=...) accepts). A pattern
    # the u flag refuses (an identity escape such as ``\-`` outside a class) compiles without it.
    for flags in ("u", ""):
        try:
            return regress.Regex(pattern, flags)
        except regress.RegressError:
            continue
    return re.compile(pattern)


def is_ecma(pattern: str) -> bool:
    """Whether ``pattern`` compiles as an ECMA-262 regular expression (``regress``)."""
    try:
        _compiled(pattern)
    except re.error:
        return False
    return isinstance(_compiled(pattern), regress.Regex)


def ecma_search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` (ECMA-262, unanchored as JSON Schema says) matches somewhere in
    ``text``. Raises ``re.error`` when the pattern is valid in neither dialect."""
    compiled = _compiled(pattern)
    if isinstance(compiled, re.Pattern):
        return compiled.search(text) is not None
    return compiled.find(text) is not None


def _pattern(
    validator: Any, pattern: str, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not ecma_search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


#: Draft 2020-12 with an ECMA-262 ``pattern`` (the format checker is passed per instance).
EcmaValidator: type[Validator] = extend(  # type: ignore[no-untyped-call]  # types-jsonschema leaves extend() unannotated
    Draft202012Validator, {"pattern": _pattern}
)

# the gate's format checker takes the date/time formats of a parameter's own type (registered
# here, where the checker is first reached, so every EcmaValidator built has them)
register(EcmaValidator.FORMAT_CHECKER)
