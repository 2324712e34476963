"""Garbage tool modules and garbage bodies, straight through the registry and the gate.

The brief: "Every entry point (CLI arguments, case files, tool modules, tool bodies) must
survive garbage: malformed JSON, wrong types, unknown names, a body that raises, hangs or
returns junk." Here: modules that fail to import in every way, malformed contracts, bodies that
raise every kind of exception, hang, or return values JSON cannot carry; and the strict JSON
reader the CLI and the case files share. Every record must stay strict JSON (no NaN, valid
UTF-8). Known limit, not tested: a body calling ``os._exit`` ends the whole process.
"""

from __future__ import annotations

import json
import sys
import textwrap
import time
from pathlib import Path

import pytest

from playground.core.canonical import (
    MAX_DEPTH,
    JsonInputError,
    NotSerializable,
    check_text,
    parse_json,
    to_json_value,
)
from playground.core.gate import Gate, RetryPolicy
from playground.core.outcome import classify_exception, exception_text
from playground.sources.loading import load_registry


@pytest.fixture(scope="module", autouse=True)
def _declaration_cache(tmp_path_factory: pytest.TempPathFactory):
    """One declaration cache for the module (never ~/.cache)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path_factory.mktemp("decl-cache")))
        yield


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def strict_dumps(data) -> str:
    """What a strict JSON consumer needs: no NaN/Infinity, encodable as UTF-8."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    text.encode("utf-8")
    return text


# --- modules that do not load ------------------------------------------------------------


BROKEN_MODULES = {
    "import_fail": ("import nonexistent_module_xyz\n", "import failed: ModuleNotFoundError"),
    "exits": ("import sys\nsys.exit(3)\n", "import failed: SystemExit: 3"),
    "syntax": ("def f(:\n", "import failed: SyntaxError"),
    "base_exc": (
        "class Weird(BaseException): pass\nraise Weird('at import')\n",
        "import failed: Weird: at import",
    ),
    "value_err": ("raise ValueError('값 오류')\n", "import failed: ValueError: 값 오류"),
}


@pytest.mark.parametrize("name", sorted(BROKEN_MODULES))
def test_a_module_that_does_not_import_is_one_problem_and_the_others_still_load(tmp_path, name):
    source, fragment = BROKEN_MODULES[name]
    bad = write(tmp_path, name, source)
    good = write(
        tmp_path,
        "zz_good",
        '''
        def echo(text: str) -> dict:
            """Echo."""
            return {"text": text}
        __tools__ = [echo]
    ''',
    )
    registry = load_registry([bad, good])
    assert registry.names() == ["echo"]
    assert len(registry.problems) == 1
    problem = registry.problems[0]
    assert problem.where.startswith(str(bad.resolve())) and fragment in problem.message
    assert "\n" not in problem.message
    if name == "syntax":
        assert problem.where == f"{bad.resolve()}:1"


def test_printing_at_import_is_swallowed(tmp_path, capfd):
    path = write(
        tmp_path,
        "loud_import",
        '''
        import sys
        print("HELLO AT IMPORT")
        sys.stderr.write("stderr at import\\n")
        def echo(text: str) -> dict:
            """Echo."""
            return {"text": text}
        __tools__ = [echo]
    ''',
    )
    registry = load_registry([path])
    out, err = capfd.readouterr()
    assert registry.names() == ["echo"] and registry.problems == []
    assert "HELLO AT IMPORT" not in out + err and "stderr at import" not in out + err


def test_duplicate_names_across_modules_keep_the_first_and_name_both_places(tmp_path):
    a = write(
        tmp_path,
        "dup_a",
        'def same(x: str) -> str:\n    """A."""\n    return x\n__tools__ = [same]\n',
    )
    b = write(
        tmp_path,
        "dup_b",
        'def same(x: str) -> str:\n    """B."""\n    return x\n__tools__ = [same]\n',
    )
    registry = load_registry([a, b])
    assert registry.names() == ["same"] and registry.get("same").description == "A."
    [problem] = registry.problems
    assert "registered twice" in problem.message
    assert str(a.resolve()) in problem.message and str(b.resolve()) in problem.message


MALFORMED = '''
    import datetime
    class Custom: pass
    def a(x: str) -> dict:
        """A."""
        return {}
    def b(x: str) -> dict:
        """B."""
        return {}
    def c(x: str) -> dict:
        """C."""
        return {}
    def d(x: str) -> dict:
        """D."""
        return {}
    def e(x: str) -> dict:
        """E."""
        return {}
    def custom_hint(x: Custom) -> dict:
        """Custom type hint."""
        return {}
    def fine(x: str) -> dict:
        """Fine."""
        return {}
    def _fn(**kw):
        return {}
    __tools__ = [a, b, c, d, e, custom_hint, "not callable", fine]
    __contracts__ = {
        "a": {"timeout_s": float("nan")},
        "b": {"timeout_s": float("inf")},
        "c": [],
        "d": {"returns": {"type": "nonsense"}},
        "e": {"returns": {"type": "object", "max_rows": "5"}},
        "ghost": {},
    }
    TOOLS = {
        "t_allowed": {"fn": _fn, "args": {"x": {"type": "int", "allowed": 5}}},
        "t_pattern": {"fn": _fn, "args": {"x": {"type": "str", "pattern": "("}}},
        "t_min": {"fn": _fn, "args": {"x": {"type": "int", "min": "zero"}}},
        "t_keys": {"fn": _fn, "args": {}, "returns": {"keys": "abc"}},
    }
'''


def test_malformed_contracts_are_load_problems_naming_the_tool(tmp_path):
    path = write(tmp_path, "malformed", MALFORMED)
    registry = load_registry([path])
    assert registry.names() == ["fine"]
    messages = [p.message for p in registry.problems]
    text = "\n".join(messages)
    assert "a: 'timeout_s' must be a positive number of seconds, at most 1,000,000, got nan" in text
    assert "b: 'timeout_s' must be a positive number of seconds, at most 1,000,000, got inf" in text
    assert "c: its __contracts__ entry must be a dict" in text
    assert "d: 'returns' is not a valid JSON Schema at type" in text
    assert "e: 'returns.max_rows' must be a whole number >= 0, got '5'" in text
    assert "cannot build a declaration for 'custom_hint'" in text
    assert "__tools__ holds a non-callable: 'not callable'" in text
    assert "__contracts__ has an entry for 'ghost'" in text
    assert "TOOLS['t_allowed']: TypeError" in text
    assert "t_pattern: 'args' is not a valid JSON Schema at properties/x/pattern" in text
    assert "t_min: 'args' is not a valid JSON Schema at properties/x/minimum" in text
    assert "TOOLS['t_keys']: AttributeError" in text
    assert len(messages) == 12 and all("\n" not in m for m in messages)
    # the SDK's message names the precise place once, not the file twice
    custom = next(p for p in registry.problems if "custom_hint" in p.message)
    assert custom.where.endswith(":19") and not custom.message.startswith(str(path))


# --- bodies ---------------------------------------------------------------------------------


BODIES = '''
    import asyncio, sys, time, io

    class Boom(Exception):
        pass

    class NoStr(Exception):
        def __str__(self):
            raise RuntimeError("str of exception raises")

    class HostileKind(Exception):
        @property
        def kind(self):
            raise RuntimeError("kind raises")

    class Bad(BaseException):
        pass

    def raises(what: str) -> dict:
        """Raise what is named.

        Args:
            what: which exception
        """
        table = {
            "value": ValueError("bad value\\nsecond line"),
            "boom": Boom("boom"),
            "nostr": NoStr(),
            "hostile": HostileKind("hostile"),
            "huge": ValueError("x" * 1_000_000),
            "sysexit": SystemExit(4),
            "kbint": KeyboardInterrupt(),
            "base": Bad("base"),
            "genexit": GeneratorExit(),
            "stopiter": StopIteration(),
            "memory": MemoryError(),
            "timeout": TimeoutError("t/o"),
            "perm": PermissionError("nope"),
            "korean": ValueError("재고를 찾을 수 없습니다"),
        }
        if what == "recurse":
            def r(n):
                return r(n + 1)
            return r(0)
        raise table[what]

    def hangs() -> dict:
        """Sleeps longer than its limit."""
        time.sleep(30)
        return {}

    async def async_hangs() -> dict:
        """Awaits longer than its limit."""
        await asyncio.sleep(30)
        return {}

    async def async_ok(x: str) -> dict:
        """Async and fine.

        Args:
            x: text
        """
        await asyncio.sleep(0)
        return {"x": x}

    class Obj:
        pass

    def _gen():
        yield 1

    def junk(what: str):
        """Return the junk that is named.

        Args:
            what: which junk
        """
        if what == "nan":
            return {"x": float("nan")}
        if what == "inf":
            return [float("-inf")]
        if what == "mixedset":
            return {"s": {1, "a"}}
        if what == "bytes":
            return {"b": b"\\x00\\xff"}
        if what == "obj":
            return Obj()
        if what == "gen":
            return _gen()
        if what == "func":
            return junk
        if what == "recursive":
            d = {}
            d["self"] = d
            return d
        if what == "recursive_list":
            l = []
            l.append(l)
            return l
        if what == "deep":
            v = []
            for _ in range(5000):
                v = [v]
            return v
        if what == "tuplekey":
            return {(1, 2): "v"}
        if what == "intkey":
            return {1: "a", "1": "b"}
        if what == "surrogate":
            return {"s": "\\ud800"}
        if what == "surrogate_key":
            return {"\\udcff": 1}
        if what == "bigint":
            return {"n": 10 ** 5000}
        if what == "coro":
            async def c():
                return {"from": "coro"}
            return c()
        if what == "set":
            return {"s": {3, 1, 2}}
        if what == "str_subclass":
            class S(str):
                pass
            return {"s": S("x")}
        if what == "korean":
            return {"이름": "텀블러", "수량": 3}
        if what == "big":
            return {"s": "x" * 2_000_000}
        if what == "shared":  # the same list twice is not a cycle
            row = [1, 2]
            return {"a": row, "b": row}
        return {"what": what}

    def replaces_stdout() -> dict:
        """Replaces sys.stdout and sys.stderr."""
        sys.stdout = io.StringIO()
        sys.stderr = None
        return {"replaced": True}

    def nodoc(x: str):
        return {"x": x}

    __tools__ = [raises, hangs, async_hangs, async_ok, junk, replaces_stdout, nodoc]
    __contracts__ = {
        "hangs": {"timeout_s": 0.3},
        "async_hangs": {"timeout_s": 0.3},
        "junk": {"cacheable": False},
        "raises": {"cacheable": False},
    }
'''


@pytest.fixture(scope="module")
def gate(tmp_path_factory) -> Gate:
    folder = tmp_path_factory.mktemp("garbage-tools")
    registry = load_registry([write(folder, "bodies", BODIES)])
    assert registry.problems == []
    return Gate(
        registry,
        retry=RetryPolicy(max_attempts=2, initial_s=0, max_s=0, jitter_s=0),
        sleep=lambda s: None,
    )


@pytest.mark.parametrize(
    "what, kind, error, fragment",
    [
        ("value", "raised", "raised:ValueError", "ValueError: bad value second line"),
        ("boom", "raised", "raised:Boom", "Boom: boom"),
        ("nostr", "raised", "raised:NoStr", "NoStr: <unprintable message>"),
        ("hostile", "raised", "raised:HostileKind", "HostileKind: hostile"),
        ("sysexit", "raised", "raised:SystemExit", "SystemExit: 4"),
        ("kbint", "raised", "raised:KeyboardInterrupt", "KeyboardInterrupt"),
        ("base", "raised", "raised:Bad", "Bad: base"),
        ("genexit", "raised", "raised:GeneratorExit", "GeneratorExit"),
        ("stopiter", "raised", "raised:StopIteration", "StopIteration"),
        ("memory", "raised", "raised:MemoryError", "MemoryError"),
        ("recurse", "raised", "raised:RecursionError", "RecursionError: maximum recursion depth"),
        ("timeout", "transient", "transient:TimeoutError", "TimeoutError: t/o"),
        ("perm", "permission", "permission:PermissionError", "PermissionError: nope"),
        ("korean", "raised", "raised:ValueError", "ValueError: 재고를 찾을 수 없습니다"),
    ],
)
def test_a_body_that_raises_anything_is_an_outcome(gate, what, kind, error, fragment):
    record = gate.call("raises", {"what": what})
    assert (record.ok, record.kind, record.error) == (False, kind, error)
    assert record.body_ran is True and record.body_runs >= 1
    assert (
        fragment in record.message
        and "\n" not in record.message
        and "Traceback" not in record.message
    )
    strict_dumps(record.to_json())


def test_a_huge_exception_message_is_cut(gate):
    record = gate.call("raises", {"what": "huge"})
    assert record.error == "raised:ValueError" and len(record.message) < 600


@pytest.mark.parametrize("tool", ["hangs", "async_hangs"])
def test_a_body_that_hangs_is_a_timeout_after_its_limit_only(gate, tool):
    started = time.monotonic()
    record = gate.call(tool, {})
    elapsed = time.monotonic() - started
    assert (record.kind, record.error, record.body_ran) == ("transient", "transient:timeout", True)
    assert record.retries == []  # a timeout costs one time limit, not several
    # at least its limit; well below a hang (the bound is loose: a loaded CI machine is slow)
    assert 0.25 < elapsed < 10.0


def _wait_for_file(path, limit_s: float = 30.0) -> None:
    """Wait on state: until ``path`` exists (a body writes it), at most ``limit_s`` seconds."""
    deadline = time.monotonic() + limit_s
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert path.exists(), f"{path.name} was never written"


def test_what_a_timed_out_body_prints_later_is_dropped(tmp_path, capsys):
    printed = tmp_path / "printed"
    path = write(
        tmp_path,
        "late",
        f'''
        import time
        from pathlib import Path
        def late() -> dict:
            """Prints after its limit, then leaves a file saying it did."""
            time.sleep(0.4)
            print("LATE PRINT")
            Path({str(printed)!r}).write_text("printed")
            return {{}}
        __tools__ = [late]
        __contracts__ = {{"late": {{"timeout_s": 0.2}}}}
    ''',
    )
    gate = Gate(load_registry([path]))
    out = sys.stdout
    assert gate.call("late", {}).error == "transient:timeout"
    _wait_for_file(printed)  # the abandoned body has printed by now
    print("after")
    captured = capsys.readouterr().out
    assert "LATE PRINT" not in captured and captured == "after\n"  # other threads still print
    printed.unlink()
    assert (
        gate.call("late", {}).error == "transient:timeout"
    )  # a second abandoned run stacks cleanly
    _wait_for_file(printed)
    assert "LATE PRINT" not in capsys.readouterr().out
    assert out is not None and sys.stdout.isatty() is out.isatty()


def test_async_bodies_and_returned_coroutines_are_awaited(gate):
    assert gate.call("async_ok", {"x": "하나"}).value == {"x": "하나"}
    record = gate.call("junk", {"what": "coro"})
    assert record.kind == "ok" and record.value == {"from": "coro"}


@pytest.mark.parametrize(
    "what, fragment",
    [
        ("nan", "NaN/Infinity is not valid JSON) at $.x"),
        ("inf", "NaN/Infinity is not valid JSON) at $[0]"),
        ("mixedset", "a set of unorderable items (return a list) at $.s"),
        ("bytes", "bytes (decode to str or base64-encode in the tool) at $.b"),
        ("obj", "an object of type Obj"),
        ("gen", "an object of type generator"),
        ("func", "an object of type function"),
        ("recursive", "a value that contains itself (a reference cycle) at $.self"),
        ("recursive_list", "a value that contains itself (a reference cycle) at $[0]"),
        ("deep", f"a value nested deeper than {MAX_DEPTH} levels"),
        ("tuplekey", "a dict key of type tuple"),
        ("intkey", "two keys that both become '1' in JSON (one would be lost)"),
        ("surrogate", "a string that is not valid Unicode (a lone surrogate) at $.s"),
        ("surrogate_key", "a dict key that is not valid Unicode"),
        ("bigint", "an integer longer than 4300 digits at $.n"),
    ],
)
def test_junk_results_are_bad_results_not_crashes(gate, what, fragment):
    record = gate.call("junk", {"what": what})
    assert (record.ok, record.kind, record.error) == (
        False,
        "bad_result",
        "result:not_serializable",
    )
    assert record.value is None and record.body_ran is True
    assert fragment in record.message
    assert len(record.message) < 400
    data = record.to_json()
    strict_dumps(data)
    assert data["wire"]["anthropic"]["is_error"] is True


@pytest.mark.parametrize(
    "what, value",
    [
        ("set", {"s": [1, 2, 3]}),
        ("str_subclass", {"s": "x"}),
        ("korean", {"이름": "텀블러", "수량": 3}),
        ("shared", {"a": [1, 2], "b": [1, 2]}),
    ],
)
def test_values_json_can_carry_are_converted(gate, what, value):
    record = gate.call("junk", {"what": what})
    assert record.kind == "ok" and record.value == value
    assert type(record.value[next(iter(value))]) in (list, str, int)
    strict_dumps(record.to_json())


def test_a_big_string_is_kept_whole(gate):
    record = gate.call("junk", {"what": "big"})
    assert record.kind == "ok" and len(record.value["s"]) == 2_000_000
    assert len(record.wire["gemini"]["function_response"]["response"]["result"]["s"]) == 2_000_000


def test_a_body_that_replaces_stdout_does_not_keep_it(gate):
    out, err = sys.stdout, sys.stderr
    record = gate.call("replaces_stdout", {})
    assert record.kind == "ok"
    assert sys.stdout is out and sys.stderr is err


def test_no_docstring(gate):
    # (*args/**kwargs are load problems now: tests/core/test_authored_tools.py)
    assert gate.registry.get("nodoc").description == ""
    assert gate.call("nodoc", {"x": "1"}).value == {"x": "1"}


@pytest.mark.parametrize(
    "name, args, verdict",
    [
        (None, {}, "unknown_tool"),
        (["junk"], {}, "unknown_tool"),
        ("재고조회", {"상품": "텀블러"}, "unknown_tool"),
        ("junk", "not an object", "shape"),
        ("junk", ["what", "nan"], "shape"),
        ("junk", None, "shape"),
        ("junk", {"what": 5}, "type:what"),
        ("junk", {"what": "nan", "extra": 1}, "unknown:extra"),
        ("junk", {}, "missing:what"),
    ],
)
def test_wrong_names_and_wrong_argument_shapes_never_run_the_body(gate, name, args, verdict):
    before = gate.body_runs["junk"]
    record = gate.call(name, args)
    assert record.verdict == verdict and record.body_ran is False
    assert gate.body_runs["junk"] == before
    strict_dumps(record.to_json())


# --- exceptions that fight back -------------------------------------------------------------


def test_exception_text_and_classification_survive_hostile_exceptions():
    class NoStr(Exception):
        def __str__(self):
            raise ValueError("no")

    class BadStatus(Exception):
        @property
        def status_code(self):
            raise RuntimeError("boom")

    assert exception_text(NoStr()) == "NoStr: <unprintable message>"
    assert classify_exception(BadStatus("x")) == ("raised", "BadStatus")
    assert exception_text(ValueError("a\n\tb")) == "ValueError: a b"


# --- the strict JSON reader -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("NaN", "NaN is not valid JSON"),
        ('{"x": -Infinity}', "-Infinity is not valid JSON"),
        ('{"x": -1e400}', "the number -1e400 is out of range"),
        ('{"a": 1, "a": 2}', "the key 'a' appears twice in one object"),
        ("[" * 5000 + "]" * 5000, f"nested deeper than {MAX_DEPTH} levels"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"nested deeper than {MAX_DEPTH} levels"),
        ('"\\ud800"', "not valid Unicode"),
        ('{"\\udcff": 1}', "a key in $ is not valid Unicode"),
        ("9" * 5000, "a number longer than 4300 digits"),
        ("{bad", "not valid JSON: Expecting property name enclosed in double quotes at column 2"),
        ("", "not valid JSON: Expecting value at column 1"),
    ],
    ids=[
        "nan",
        "infinity",
        "overflow",
        "duplicate-key",
        "very-deep",
        "one-too-deep",
        "surrogate",
        "surrogate-key",
        "bigint",
        "syntax",
        "empty",
    ],
)
def test_parse_json_refuses_what_would_break_the_output(text, fragment):
    with pytest.raises(JsonInputError) as info:
        parse_json(text)
    assert (
        fragment in str(info.value) and "\n" not in str(info.value) and len(str(info.value)) < 200
    )


@pytest.mark.parametrize(
    "text, value",
    [
        ("[" * MAX_DEPTH + "]" * MAX_DEPTH, None),
        ('{"주문": ["가", {"x": 1.5}]}', {"주문": ["가", {"x": 1.5}]}),
        ('"\\ud83d\\ude00"', "😀"),
        ("9" * 4300, int("9" * 4300)),
    ],
    ids=["at-depth-limit", "korean", "surrogate-pair", "4300-digits"],
)
def test_parse_json_accepts_ordinary_json(text, value):
    parsed = parse_json(text)
    if value is not None:
        assert parsed == value


def test_check_text_and_to_json_value_limits():
    assert check_text("한국어", "x") == "한국어"
    with pytest.raises(JsonInputError, match="argument is not valid UTF-8"):
        check_text("a\udcffb", "argument")
    nested = []
    for _ in range(MAX_DEPTH - 1):
        nested = [nested]
    assert to_json_value(nested) == nested  # exactly at the limit is fine
    with pytest.raises(NotSerializable, match="nested deeper"):
        to_json_value([nested])
