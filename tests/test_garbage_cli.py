"""Garbage at every CLI entry point: arguments, ``--args``, case files, tool modules, bodies.

The brief: "Bad input gets a clear error, never a traceback, and nothing is lost." So, for each
attack: the exit code docs/design.md names (0 data, 1 a check failed, 2 usage or load error, 130
interrupted), ONE plain ``error: ...`` line on stderr per error, and stdout that a strict JSON
parser reads (no NaN, valid UTF-8, nothing a body printed) with ``--format json``/``jsonl``.
Most tests run in-process through typer's CliRunner; the ones about the real file descriptor 1
and signals run the installed ``playground`` in a subprocess.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from tests.signals import sigint_as_in_a_terminal

REPO = Path(__file__).resolve().parents[1]
SHOP = REPO / "tools" / "shop.py"
runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def _declaration_cache(tmp_path_factory: pytest.TempPathFactory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path_factory.mktemp("decl-cache")))
        yield


@pytest.fixture(autouse=True)
def _bodies_in_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tool bodies run in the command's own process (``PLAYGROUND_IN_PROCESS=1``, as in
    tests/cli/conftest.py): these tests are about what the CLI makes of garbage, and the worker
    process each command started cost ~0.1 s of CPU (this file: 14.0 → 7.7 s of CPU at
    ``-n 0``). The tests about the worker itself — file descriptor 1, a replaced
    ``sys.stdout``, a body's threads, ctrl+c during a body — are marked ``worker_process`` and
    keep the default source; the bodies of broken tools (import faults, time-outs) are tested
    in the worker in tests/faults."""
    if request.node.get_closest_marker("worker_process") is None:
        monkeypatch.setenv("PLAYGROUND_IN_PROCESS", "1")


def strict(text: str):
    """Parse JSON the way a strict consumer does (NaN/Infinity refused)."""

    def refuse(name):
        raise ValueError(f"non-JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


def invoke(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def error_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


def assert_usage_error(result, fragment: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = error_lines(result)
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], lines
    assert "Traceback" not in result.stderr and result.stdout == ""


TOOLS_SOURCE = '''
    import os, sys, time, io

    def echo(text: str) -> dict:
        """Echo the text back, printing it too.

        Args:
            text: anything
        """
        print("body print", text)
        return {"text": text}

    def junk(what: str):
        """Return the junk that is named.

        Args:
            what: which junk
        """
        if what == "nan":
            return {"x": float("nan")}
        if what == "recursive":
            d = {}
            d["self"] = d
            return d
        if what == "surrogate":
            return {"s": "\\ud800"}
        if what == "bigint":
            return {"n": 10 ** 5000}
        if what == "intkey":
            return {1: "a", "1": "b"}
        if what == "big":
            return {"s": "가" * 300_000}
        return {"what": what}

    def raises(what: str) -> dict:
        """Raise.

        Args:
            what: a message
        """
        raise ValueError(what)

    def fd_write() -> dict:
        """Writes below sys.stdout, straight to file descriptor 1."""
        os.write(1, b"RAW FD WRITE\\n")
        return {"ok": True}

    def replaces_stdout() -> dict:
        """Replaces sys.stdout."""
        sys.stdout = io.StringIO()
        return {"replaced": True}

    def very_slow(marker: str) -> dict:
        """Sleeps a minute after touching the marker file.

        Args:
            marker: a file to create when the body starts
        """
        open(marker, "w").close()
        time.sleep(60)
        return {}

    def late_printer(n: int = 1) -> dict:
        """Hangs past its limit, then prints.

        Args:
            n: unused
        """
        time.sleep(0.6)
        for i in range(40):
            print("LATE PRINT", i)
            time.sleep(0.02)
        return {}

    def spawns() -> dict:
        """Starts a thread that prints, and waits for it."""
        import threading

        def chatter():
            for i in range(5):
                print("THREAD PRINT", i)

        t = threading.Thread(target=chatter)
        t.start()
        t.join()
        return {"ok": True}

    __tools__ = [echo, junk, raises, fd_write, replaces_stdout, very_slow, late_printer, spawns]
    __contracts__ = {"junk": {"cacheable": False}, "very_slow": {"timeout_s": 120},
                     "late_printer": {"timeout_s": 0.5, "cacheable": False}}
'''


@pytest.fixture(scope="module")
def tools(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("garbage-cli") / "garbage_tools.py"
    path.write_text(textwrap.dedent(TOOLS_SOURCE), encoding="utf-8")
    return path


# --- call: arguments ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "item, fragment",
    [
        ("order_id:={bad", "the text after ':=' is not JSON (Expecting property name"),
        ("order_id:=NaN", "NaN is not valid JSON"),
        ("limit:=Infinity", "Infinity is not valid JSON"),
        ("limit:=1e400", "the number 1e400 is out of range"),
        ('x:={"a": 1, "a": 2}', "the key 'a' appears twice"),
        ("x:=" + "[" * 5000 + "]" * 5000, "nested deeper than 100 levels"),
        ("x:=" + "9" * 5000, "a number longer than 4300 digits"),
        ('x:="\\ud800"', "not valid Unicode"),
        ("x=\udcff", "is not valid UTF-8 text"),
        ("novalue", "is not name=value"),
        ("=v", "has no name"),
    ],
    ids=[
        "syntax",
        "nan",
        "infinity",
        "overflow",
        "duplicate-key",
        "deep",
        "bigint",
        "surrogate-escape",
        "undecodable-bytes",
        "no-equals",
        "no-name",
    ],
)
def test_call_bad_items_are_one_line_usage_errors(item, fragment):
    result = invoke("call", "get_order_status", item, "--tools", SHOP, "--format", "json")
    assert_usage_error(result, fragment)
    assert len(error_lines(result)[0]) < 400  # a 10 kB argument is not echoed whole


@pytest.mark.parametrize(
    "args, fragment",
    [
        ("{bad", "--args is not valid JSON: Expecting property name"),
        ("NaN", "--args is refused: NaN is not valid JSON"),
        ("[" * 3000 + "]" * 3000, "--args is refused: nested deeper than 100 levels"),
        ('{"x": "\udcff"}', "--args is not valid UTF-8 text"),
    ],
    ids=["syntax", "nan", "deep", "undecodable-bytes"],
)
def test_call_bad_args_option_is_one_line_usage_error(args, fragment):
    assert_usage_error(
        invoke("call", "get_order_status", "--args", args, "--tools", SHOP), fragment
    )


def test_args_that_are_not_an_object_are_a_verdict_not_an_error():
    result = invoke(
        "call", "get_order_status", "--args", '["HR1"]', "--tools", SHOP, "--format", "json"
    )
    assert result.exit_code == 0 and result.stderr == ""
    record = strict(result.stdout)
    assert (record["verdict"], record["body_ran"], record["args"]) == ("shape", False, ["HR1"])


@pytest.mark.parametrize(
    "args",
    [
        ("call", "get_order_status", "--bogus"),
        ("list", "--format", "xml"),
        ("nosuchcmd",),
        ("ask", "hi", "--max-steps", "0"),
        ("ask", "hi", "--router", "bogus"),
        ("show", "nosuch"),
        ("check", "/nonexistent/cases.jsonl"),
    ],
)
def test_unknown_commands_options_and_names_exit_2_with_one_line(args):
    proc = subprocess.run(
        [sys.executable, "-m", "playground", *args, "--tools", str(SHOP)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert proc.stdout == ""


def test_unknown_tool_is_one_error_line_exit_2(tools):
    result = invoke("call", "재고조회", "상품=텀블러", "--tools", tools, "--format", "json")
    assert_usage_error(result, "no tool named '재고조회'")


def test_unknown_tool_with_repair_is_exit_2_unless_the_loop_rerouted_it(tools):
    result = invoke("call", "nosuch", "--repair", "--tools", tools, "--format", "json")
    assert result.exit_code == 2 and strict(result.stdout)["ok"] is False
    assert len(error_lines(result)) == 1
    fixed = invoke(
        "call", "get_order_statu", "order_id=HR1", "--repair", "--tools", SHOP, "--format", "json"
    )
    assert fixed.exit_code == 0 and fixed.stderr == ""
    episode = strict(fixed.stdout)
    assert episode["ok"] is True and [c["tool"] for c in episode["calls"]] == [
        "get_order_statu",
        "get_order_status",
    ]


# --- call: bodies, every format -------------------------------------------------------------


@pytest.mark.parametrize(
    "what, kind",
    [
        ("nan", "bad_result"),
        ("recursive", "bad_result"),
        ("surrogate", "bad_result"),
        ("bigint", "bad_result"),
        ("intkey", "bad_result"),
        ("plain", "ok"),
    ],
)
@pytest.mark.parametrize("fmt", ["json", "jsonl", "table"])
def test_junk_results_in_every_format(tools, what, kind, fmt):
    result = invoke("call", "junk", f"what={what}", "--tools", tools, "--format", fmt)
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    if fmt == "json":
        assert strict(result.stdout)["kind"] == kind
    elif fmt == "jsonl":
        lines = result.stdout.splitlines()
        assert len(lines) == 1 and strict(lines[0])["kind"] == kind
    else:
        assert kind in result.stdout and "junk" in result.stdout


def test_body_prints_stay_out_of_json_stdout(tools):
    result = invoke("call", "echo", "text=안녕", "--tools", tools, "--format", "json")
    record = strict(result.stdout)
    assert (
        record["printed"] == "body print 안녕\n"
        and "body print" not in result.stdout.split('"printed"')[0]
    )


def test_control_characters_from_a_body_are_made_visible_in_the_table(tools):
    result = invoke("call", "echo", "text=\x1b[2J\x07", "--tools", tools)
    assert result.exit_code == 0
    assert "\x1b[2J" not in result.stdout and "\x07" not in result.stdout
    assert "body print \\x1b[2J\\x07" in result.stdout
    raised = invoke("call", "raises", "what=\x1b[31mred", "--tools", tools)
    assert "\x1b[31m" not in raised.stdout and "\\x1b[31mred" in raised.stdout


def test_a_huge_value_is_cut_in_the_table_but_whole_in_json(tools):
    table = invoke("call", "junk", "what=big", "--tools", tools)
    assert (
        table.exit_code == 0
        and "more characters not shown here; --format json prints all of it" in table.stdout
    )
    full = invoke("call", "junk", "what=big", "--tools", tools, "--format", "json")
    assert len(strict(full.stdout)["value"]["s"]) == 300_000


# --- load problems --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source, fragment",
    [
        ("import nonexistent_module_xyz\n", "import failed: ModuleNotFoundError"),
        ("import sys\nsys.exit(3)\n", "import failed: SystemExit: 3"),
        ("def f(:\n", "import failed: SyntaxError"),
        ("__tools__ = 'abc'\n", "__tools__ must be a list of functions"),
        (
            "def f(x: str) -> dict:\n    return {}\n__tools__ = [f]\n__contracts__ = {'f': {'timeout_s': float('nan')}}\n",
            "'timeout_s' must be a positive number of seconds, at most 1,000,000, got nan",
        ),
    ],
    ids=["import-error", "sys-exit", "syntax-error", "tools-not-a-list", "nan-timeout"],
)
@pytest.mark.parametrize("fmt", ["json", "jsonl", "table"])
def test_a_broken_module_is_one_error_line_exit_2_and_the_data_still_prints(
    tmp_path, source, fragment, fmt
):
    (tmp_path / "broken.py").write_text(source, encoding="utf-8")
    result = invoke("list", "--tools", tmp_path / "broken.py", "--tools", SHOP, "--format", fmt)
    assert result.exit_code == 2
    [line] = error_lines(result)
    assert line.startswith("error: ") and fragment in line
    if fmt == "json":
        assert "get_order_status" in [row["name"] for row in strict(result.stdout)]
    elif fmt == "jsonl":
        assert all(strict(line) for line in result.stdout.splitlines())
    else:
        assert "get_order_status" in result.stdout


# --- check: case files ----------------------------------------------------------------------


GARBAGE_LINES = [
    ('{"tool": "get_order_status", "args": {"order_id": NaN}}', "line 1: NaN is not valid JSON"),
    ('{"tool": "get_order_status", "tool": "nosuch"}', "line 2: the key 'tool' appears twice"),
    (
        '{"tool": "get_order_status", "args": ' + "[" * 5000 + "]" * 5000 + "}",
        "line 3: nested deeper than 100 levels",
    ),
    (
        '{"tool": "get_order_status", "args": {"order_id": ' + "9" * 5000 + "}}",
        "line 4: a number longer than 4300 digits",
    ),
    (
        '{"tool": "get_order_status", "args": {"order_id": "\\ud800"}}',
        "line 5: the string at $.args.order_id is not valid Unicode",
    ),
    ("[1, 2]", "line 6: a case must be a JSON object"),
    ("{oops", "line 7: not valid JSON (Expecting property name"),
    (
        '{"tool": "get_order_status", "expect": ' + json.dumps(list(range(5000))) + "}",
        'line 8: "expect" must be an object',
    ),
]


@pytest.mark.parametrize("fmt", ["json", "jsonl", "table"])
def test_garbage_case_lines_are_failed_cases_and_the_good_lines_still_run(tmp_path, fmt):
    good = '{"tool": "get_order_status", "args": {"order_id": "주문번호"}, "expect": {"kind": "ok"}, "note": "한국어"}'
    path = tmp_path / "cases.jsonl"
    path.write_text(
        "\n".join([text for text, _ in GARBAGE_LINES] + [good]) + "\n", encoding="utf-8"
    )
    result = invoke("check", path, "--tools", SHOP, "--format", fmt)
    assert result.exit_code == 1 and result.stderr == "", result.stderr
    if fmt == "table":
        assert "1 passed, 8 failed, 9 cases" in result.stdout
        return
    if fmt == "json":
        cases = strict(result.stdout)["cases"]
    else:
        cases = [strict(line) for line in result.stdout.splitlines()]
    assert len(cases) == 9
    for case, (_, fragment) in zip(cases, GARBAGE_LINES):
        assert case["passed"] is False and case["mismatches"][0].startswith(fragment), case[
            "mismatches"
        ]
        assert len(case["mismatches"][0]) < 300
    assert cases[-1]["passed"] is True and cases[-1]["args"] == {"order_id": "주문번호"}


@pytest.mark.parametrize(
    "name, data, code, fragment",
    [
        ("binary.jsonl", bytes(range(256)) * 4, 2, "not a case file"),
        (
            "latin1.jsonl",
            '{"tool": "get_order_status", "args": {"order_id": "café"}}\n'.encode("latin-1"),
            2,
            "not UTF-8 text",
        ),
        (
            "cp949.jsonl",
            '{"tool": "get_order_status", "args": {"order_id": "주문"}}\n'.encode("cp949"),
            2,
            "not UTF-8 text",
        ),
        ("empty.jsonl", b"", 2, "no case to run"),  # passing zero cases proves nothing
        ("comments.jsonl", b"# only a comment\n\n   \n", 2, "no case to run"),
        (
            "bom.jsonl",
            '\ufeff{"tool": "get_order_status", "args": {"order_id": "HR1"}, "expect": {"kind": "ok"}}\n'.encode(),
            0,
            None,
        ),
        (
            "crlf.jsonl",
            b'{"tool": "get_order_status", "args": {"order_id": "HR1"}, "expect": {"cache": "stored"}}\r\n'
            b'{"tool": "get_order_status", "args": {"order_id": "HR1"}, "expect": {"cache": "hit"}}\r\n',
            0,
            None,
        ),
    ],
)
def test_case_file_encodings(tmp_path, name, data, code, fragment):
    path = tmp_path / name
    path.write_bytes(data)
    result = invoke("check", path, "--tools", SHOP, "--format", "json")
    assert result.exit_code == code, (result.stdout, result.stderr)
    if fragment:
        assert_usage_error(result, fragment)
    else:
        report = strict(result.stdout)
        assert report["failed"] == 0 and result.stderr == ""


def test_a_folder_instead_of_a_case_file(tmp_path):
    assert_usage_error(
        invoke("check", tmp_path, "--tools", SHOP, "--format", "json"), "is a folder"
    )


def test_a_huge_case_line_runs(tmp_path):
    path = tmp_path / "huge.jsonl"
    path.write_text(
        json.dumps({"tool": "get_order_status", "args": {"order_id": "x" * 2_000_000}}) + "\n"
    )
    result = invoke("check", path, "--tools", SHOP, "--format", "jsonl")
    assert result.exit_code == 0
    [case] = [strict(line) for line in result.stdout.splitlines()]
    assert case["passed"] is True and len(case["args"]["order_id"]) == 2_000_000


# --- ask --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question, fragment",
    [
        ("", "the question is empty"),
        ("   ", "the question is empty"),
        ("\udcff 주문", "the question is not valid UTF-8 text"),
    ],
)
def test_ask_bad_questions(question, fragment):
    assert_usage_error(invoke("ask", question, "--tools", SHOP, "--format", "json"), fragment)


def test_ask_a_long_korean_question_answers_quickly():
    started = time.monotonic()
    result = invoke("ask", "가" * 20_000, "--tools", SHOP, "--format", "json")
    assert result.exit_code == 0 and time.monotonic() - started < 20
    assert strict(result.stdout)["question"] == "가" * 20_000


@pytest.mark.parametrize("fmt", ["json", "jsonl", "table"])
def test_ask_routed_to_a_raising_tool_is_an_episode(tools, fmt):
    result = invoke("ask", "raise", "--tools", tools, "--format", fmt)
    assert result.exit_code == 0 and "Traceback" not in result.stdout + result.stderr
    if fmt != "table":
        strict(result.stdout)


# --- report ---------------------------------------------------------------------------------


def test_report_into_a_file_path_and_on_wrong_tools(tmp_path, tools):
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    assert_usage_error(
        invoke("report", "--out", blocker, "--format", "json"), "cannot write the report into"
    )
    assert_usage_error(
        invoke("report", "--tools", tools, "--format", "json"),
        "declares max_rows or max_bytes; none found in",
    )


# --- the real process: file descriptor 1, stray bytes, ^C -------------------------------------


def run_cli(*args, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "playground", *map(str, args)],
        capture_output=True,
        cwd=REPO,
        timeout=timeout,
        env={**os.environ, "PLAYGROUND_CACHE_DIR": os.environ["PLAYGROUND_CACHE_DIR"]},
    )


@pytest.mark.worker_process
def test_writes_below_sys_stdout_are_captured_by_the_worker_not_printed(tools):
    proc = run_cli("call", "fd_write", "--tools", tools, "--format", "json")
    assert proc.returncode == 0
    record = strict(proc.stdout.decode("utf-8"))
    assert record["value"] == {"ok": True} and record["printed"] == "RAW FD WRITE\n"
    assert proc.stderr == b""


def test_in_process_writes_below_sys_stdout_go_to_stderr_not_into_the_json(tools):
    proc = run_cli("call", "fd_write", "--tools", tools, "--format", "json", "--in-process")
    assert proc.returncode == 0
    assert strict(proc.stdout.decode("utf-8"))["value"] == {"ok": True}
    assert b"RAW FD WRITE" in proc.stderr


@pytest.mark.worker_process
def test_a_body_replacing_sys_stdout_does_not_swallow_the_output(tools):
    proc = run_cli("call", "replaces_stdout", "--tools", tools, "--format", "json")
    assert proc.returncode == 0 and strict(proc.stdout.decode("utf-8"))["value"] == {
        "replaced": True
    }


def test_a_timed_out_body_printing_later_does_not_corrupt_the_json(tools, tmp_path):
    path = tmp_path / "late.jsonl"
    path.write_text(
        "".join(
            json.dumps(
                {"tool": "late_printer", "args": {"n": n}, "expect": {"error": "transient:timeout"}}
            )
            + "\n"
            for n in range(3)
        )
    )
    proc = run_cli("check", path, "--tools", tools, "--format", "json", "--in-process")
    report = strict(proc.stdout.decode("utf-8"))
    assert proc.returncode == 0 and report["passed"] == 3
    assert b"LATE PRINT" not in proc.stdout + proc.stderr  # an abandoned body's output is dropped
    # the worker kills the body: what it printed before that is data in its record, nowhere else
    proc = run_cli("check", path, "--tools", tools, "--format", "json")
    report = strict(proc.stdout.decode("utf-8"))
    assert proc.returncode == 0 and report["passed"] == 3 and b"LATE PRINT" not in proc.stderr
    in_records = sum(case["printed"].count("LATE PRINT") for case in report["cases"])
    assert proc.stdout.count(b"LATE PRINT") == in_records


@pytest.mark.worker_process
def test_a_thread_started_by_a_body_prints_into_the_record_with_the_worker(tools):
    proc = run_cli("call", "spawns", "--tools", tools, "--format", "json")
    record = strict(proc.stdout.decode("utf-8"))
    assert proc.returncode == 0 and record["value"] == {"ok": True} and proc.stderr == b""
    assert record["printed"].splitlines() == [f"THREAD PRINT {i}" for i in range(5)]


def test_in_process_a_thread_started_by_a_body_prints_to_stderr_not_into_the_json(tools):
    proc = run_cli("call", "spawns", "--tools", tools, "--format", "json", "--in-process")
    assert proc.returncode == 0 and strict(proc.stdout.decode("utf-8"))["value"] == {"ok": True}
    assert proc.stderr.decode().splitlines() == [f"THREAD PRINT {i}" for i in range(5)]


def test_undecodable_argument_bytes_are_a_usage_error(tools):
    proc = subprocess.run(
        [
            os.fsencode(sys.executable),
            b"-m",
            b"playground",
            b"call",
            b"echo",
            b"text=\xff\xfe",
            b"--tools",
            str(tools).encode(),
        ],
        capture_output=True,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == b""
    lines = proc.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1 and "is not valid UTF-8 text" in lines[0]


@pytest.mark.worker_process
def test_ctrl_c_during_a_hung_body_exits_130_with_one_line(tools, tmp_path):
    marker = tmp_path / "started"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "playground",
            "call",
            "very_slow",
            f"marker={marker}",
            "--tools",
            str(tools),
            "--format",
            "json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        preexec_fn=sigint_as_in_a_terminal,
    )
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert marker.exists()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and out == b""
    assert err.decode().splitlines() == ["error: interrupted"]
