"""The validator cache of core/validation.py, the plain-JSON fast copy of core/canonical.py and
the schema-check cache of core/schemacache.py (issue 8, "Speed"): faster, never staler."""

from __future__ import annotations

import os

import jsonschema
import pytest

from playground.core import schemacache
from playground.core.cache import ResultCache
from playground.core.canonical import copy_json, to_json_value
from playground.core.contracts import Contract, check_schema, contract_from_table
from playground.core.validation import check_args, check_result
from playground.core.validators import validator_for
from playground.errors import LoadError
from playground.sources.loading import load_registry


def _contract(parameters=None, returns=None) -> Contract:
    params = parameters or {
        "type": "object",
        "properties": {"limit": {"type": "integer", "maximum": 5}},
        "required": ["limit"],
    }
    return Contract("t", "", params, lambda **kw: kw, returns=returns)


# ---------------------------------------------------------------- validator cache


def test_the_same_schema_object_reuses_its_validator():
    c = _contract()
    assert validator_for(c.parameters) is validator_for(c.parameters)
    # an equal but different object gets its own validator (identity, not content)
    assert validator_for(dict(c.parameters)) is not validator_for(c.parameters)


def test_a_nested_edit_in_place_is_seen_at_once():
    c = _contract()
    assert check_args(c, {"limit": 5}).ok
    c.parameters["properties"]["limit"]["maximum"] = 3
    assert check_args(c, {"limit": 5}).code == "range:limit"
    c.parameters["properties"]["limit"]["type"] = "string"
    assert check_args(c, {"limit": 2}).code == "type:limit"


def test_a_top_level_edit_in_place_is_seen_at_once():
    c = _contract()
    assert check_args(c, {"limit": 2}).ok
    c.parameters["required"] = ["limit", "sku"]  # a new list under an old key
    assert check_args(c, {"limit": 2}).code == "missing:sku"
    c.parameters["required"].append("day")  # the same list, edited
    c.parameters["required"].remove("sku")
    assert check_args(c, {"limit": 2}).code == "missing:day"
    del c.parameters["required"]
    assert check_args(c, {}).ok
    c.parameters["properties"] = {"limit": {"type": "integer", "minimum": 10}}
    assert check_args(c, {"limit": 2}).code == "range:limit"


def test_a_returns_schema_edited_in_place_is_seen_at_once():
    returns = {
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "$defs": {"pos": {"minimum": 0}},
        "max_rows": 3,
    }
    c = _contract(returns=returns)
    assert check_result(c, {"n": -1}).reason == ""
    returns["properties"]["n"] = {"$ref": "#/$defs/pos"}
    assert check_result(c, {"n": -1}).reason == "range"
    returns["$defs"]["pos"]["minimum"] = -5  # the referenced schema, edited in place
    assert check_result(c, {"n": -1}).reason == ""
    returns["type"] = "array"
    assert check_result(c, {"n": -1}).reason == "shape"


def test_a_recycled_id_never_finds_another_schemas_validator():
    # More short-lived schemas than the cache keeps (512): evicted ones are freed and CPython
    # hands their ids out again; every verdict must still follow its own schema.
    for limit in range(600):
        c = _contract(
            {"type": "object", "properties": {"x": {"type": "integer", "maximum": limit}}}
        )
        assert check_args(c, {"x": limit}).ok
        assert check_args(c, {"x": limit + 1}).code == "range:x"
        del c


def test_the_byte_limit_still_applies_and_only_when_declared():
    returns = {"type": "object", "max_bytes": 20}
    c = _contract(returns=returns)
    assert check_result(c, {"a": "x" * 5}).reason == ""
    big = check_result(c, {"a": "x" * 30})
    assert big.reason == "too_big" and "38 bytes of JSON" in big.message
    del returns["max_bytes"]
    assert check_result(c, {"a": "x" * 3000}).reason == ""


# ---------------------------------------------------------------- plain-JSON copies


@pytest.mark.parametrize(
    "value",
    [
        {"rows": [{"store": "강남점", "count": 12, "ratio": 0.5, "ok": True, "memo": None}]},
        [[1, [2, [3]]], "x", -0.0],
        "문자열",
        7,
    ],
)
def test_plain_json_is_copied_equal_and_unshared(value):
    for copy in (copy_json(value), to_json_value(value)):
        assert copy == value and type(copy) is type(value)
        if isinstance(value, (dict, list)):
            assert copy is not value


def test_values_that_need_converting_still_take_the_full_path():
    assert to_json_value({"a": (1, 2), 3: {"b"}}) == {"a": [1, 2], "3": ["b"]}
    with pytest.raises(ValueError, match=r"\$\.rows\[1\]"):
        to_json_value({"rows": [1.0, float("nan")]})
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="contains itself"):
        to_json_value({"a": loop})
    assert copy_json({"t": (1, 2)}) == {"t": (1, 2)}  # not plain: deepcopy keeps the tuple


def test_the_result_cache_hands_out_copies():
    cache = ResultCache()
    value = {"rows": [{"n": 1}]}
    cache.store("k", value)
    value["rows"].append({"n": 2})
    hit, got = cache.lookup("k")
    assert hit and got == {"rows": [{"n": 1}]}
    got["rows"].clear()
    assert cache.lookup("k")[1] == {"rows": [{"n": 1}]}


# ---------------------------------------------------------------- schema-check cache

TABLE = {
    "fn": lambda sku, n: {"rows": []},
    "args": {"sku": {"type": "str", "required": True, "pattern": "^[A-Z]{2}-[0-9]{3}$"}},
    "returns": {"keys": {"rows": "list"}, "rows": {"max_len": 3, "item": {"n": "int"}}},
}


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def metaschema_checks(monkeypatch):
    """The schemas checked against the metaschema (jsonschema's own check, counted)."""
    checked: list = []
    real = jsonschema.Draft202012Validator.check_schema.__func__

    def counting(cls, schema, format_checker=None):
        checked.append(schema)
        return real(cls, schema, format_checker=format_checker)

    monkeypatch.setattr(jsonschema.Draft202012Validator, "check_schema", classmethod(counting))
    return checked


def test_a_valid_schema_is_checked_once_across_loads(cache_dir, metaschema_checks):
    first = contract_from_table("stock", TABLE)
    assert len(metaschema_checks) == 2  # args and returns
    files = sorted(p.name for p in (cache_dir / "schemas").iterdir())
    assert len(files) == 2 and all(len(name) == 64 for name in files)
    second = contract_from_table("stock", TABLE)
    assert len(metaschema_checks) == 2 and second.parameters == first.parameters
    edited = {**TABLE, "args": {"sku": {"type": "str", "pattern": "^[A-Z]{3}$"}}}
    contract_from_table("stock", edited)
    assert len(metaschema_checks) == 3  # new content, new check


def test_an_invalid_schema_is_reported_every_time_and_never_remembered(
    cache_dir, metaschema_checks
):
    bad = {"type": "object", "properties": {"n": {"type": "integr"}}}
    for _ in range(2):
        with pytest.raises(
            LoadError, match="'returns' is not a valid JSON Schema at properties/n/type"
        ):
            check_schema("t", "returns", bad)
    assert len(metaschema_checks) == 2
    assert not (cache_dir / "schemas").exists()


def test_a_schema_that_is_not_plain_json_is_never_keyed(cache_dir, metaschema_checks):
    as_list = {"type": "object", "required": ["a"]}
    as_tuple = {"type": "object", "required": ("a",)}
    check_schema("t", "returns", as_list)
    assert schemacache.schema_key(as_tuple) is None
    with pytest.raises(LoadError, match="not a valid JSON Schema at required"):
        check_schema("t", "returns", as_tuple)  # the list twin's entry does not let it through
    assert schemacache.schema_key({1: "x"}) is None


def test_limit_types_are_checked_even_when_the_schema_is_remembered(cache_dir):
    check_schema("t", "returns", {"type": "object", "max_rows": 3})
    with pytest.raises(LoadError, match=r"'returns\.max_rows' must be a whole number"):
        check_schema("t", "returns", {"type": "object", "max_rows": -1})


def test_a_corrupt_schema_cache_is_bypassed_and_rewritten(cache_dir, metaschema_checks):
    contract_from_table("stock", TABLE)
    files = list((cache_dir / "schemas").iterdir())
    for junk in ("", "not the key", "0" * 64, "\udcff".encode("utf-8", "surrogateescape")):
        for f in files:
            (f.write_bytes if isinstance(junk, bytes) else f.write_text)(junk)
        before = len(metaschema_checks)
        assert contract_from_table("stock", TABLE).name == "stock"
        assert len(metaschema_checks) == before + 2  # checked again ...
        assert all(f.read_text() == f.name for f in files)  # ... and remembered again
    (cache_dir / "schemas").rename(cache_dir / "moved")
    (cache_dir / "schemas").mkdir()
    for f in files:
        (cache_dir / "schemas" / f.name).mkdir()  # a folder where a file should be
    assert contract_from_table("stock", TABLE).name == "stock"


def test_a_cache_folder_that_is_a_file_is_harmless(tmp_path, monkeypatch, metaschema_checks):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(blocker))
    assert contract_from_table("stock", TABLE).name == "stock"
    assert schemacache.remember_valid("a" * 64) is False
    with pytest.raises(LoadError):
        check_schema("t", "returns", {"type": 3})


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions, not root"
)
def test_an_unwritable_schema_cache_is_harmless(tmp_path, monkeypatch, metaschema_checks):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(locked / "cache"))
        assert contract_from_table("stock", TABLE).name == "stock"
        assert contract_from_table("stock", TABLE).name == "stock"
        assert len(metaschema_checks) == 4  # nothing remembered, nothing broken
    finally:
        locked.chmod(0o700)


def test_the_registry_loads_the_same_contracts_with_a_warm_cache(cache_dir):
    from pathlib import Path

    tools = Path(__file__).resolve().parents[2] / "tools"
    cold = load_registry([tools])
    warm = load_registry([tools])
    assert cold.problems == warm.problems == []
    assert [(c.name, c.parameters, c.returns) for c in cold.contracts.values()] == [
        (c.name, c.parameters, c.returns) for c in warm.contracts.values()
    ]
    assert any((cache_dir / "schemas").iterdir())
