"""Compiled JSON Schema validators, cached: one Draft 2020-12 validator per schema object.

Both the contracts (a parameter's default checked against its own schema at load time) and the
validation of every call's arguments and results use :func:`validator_for`, so it lives apart
from either and neither imports the other at run time.
"""

from __future__ import annotations

import contextlib
import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # jsonschema is imported by the first validator built
    from jsonschema.protocols import Validator


@dataclass(frozen=True)
class _Compiled:
    """One cached validator: the schema object it was built on (kept alive, so its ``id`` cannot
    be reused while cached) and that schema's top-level keys and values at build time."""

    schema: dict[str, Any]
    keys: tuple[str, ...]
    values: tuple[Any, ...]
    validator: Validator

    def fits(self, schema: dict[str, Any]) -> bool:
        """Whether this entry still describes ``schema``: the same object, the same top-level
        keys in the same order, each holding the very object it held at build time."""
        return (
            self.schema is schema
            and tuple(schema) == self.keys
            and all(map(operator.is_, schema.values(), self.values))
        )


_MAX_VALIDATORS = 512
_validators: dict[int, _Compiled] = {}


def validator_for(schema: dict[str, Any]) -> Validator:
    """A Draft 2020-12 validator with the format checker for ``schema``, cached by identity;
    its ``pattern`` keyword is ECMA-262 (:mod:`playground.core.ecma`).

    The validator is built on ``schema`` itself (not a copy) and cached under ``id(schema)``,
    keeping a reference so the id cannot be reused. jsonschema reads nested subschemas live at
    every validation, and takes only the top-level keywords at build time, so an entry is reused
    only while every top-level value is the very object it was built with: a schema edited in
    place (at any depth) never keeps a stale validator. At most 512 schemas are kept (the oldest
    is dropped first). Raises what jsonschema raises for a schema it cannot compile.
    """
    entry = _validators.get(id(schema))
    if entry is not None and entry.fits(schema):
        return entry.validator
    from playground.core.ecma import EcmaValidator

    # One format checker for every validator (it holds no per-schema state): Draft 2020-12's
    # own. ``FormatChecker()`` would mix every draft's checkers, and draft 3's ``time``
    # (HH:MM:SS, no offset) would shadow RFC 3339's ``time`` that 2020-12 names (its §7.3.1).
    validator = EcmaValidator(schema, format_checker=EcmaValidator.FORMAT_CHECKER)
    if len(_validators) >= _MAX_VALIDATORS:
        with contextlib.suppress(RuntimeError, StopIteration, KeyError):  # another thread's edit
            del _validators[next(iter(_validators))]
    _validators[id(schema)] = _Compiled(schema, tuple(schema), tuple(schema.values()), validator)
    return validator
