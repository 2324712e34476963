"""A process a tool module starts while it is imported — even in a session of its own, which the
worker's process-group kill never reached — is ended when the import ends, with a warning naming
it, as a body's children are when its call ends (issue 26 item 4; the tester's
/tmp/try26-files/bad3). Real ``playground`` subprocesses; processes counted from ``/proc``."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from tests.faults.test_no_orphans import marked, start, wait_until

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")

STARTS_AT_IMPORT = '''
import subprocess

subprocess.Popen(["sleep", "555"], start_new_session=True)  # a daemon in its own session
subprocess.Popen(["sleep", "556"])


def ping2(x: int = 1) -> dict:
    """Returns pong.

    Args:
        x: anything. e.g. 1
    """
    return {"pong": x}


__tools__ = [ping2]
'''


def test_processes_started_at_import_are_ended_with_a_warning(tmp_path):
    (tmp_path / "import_child.py").write_text(STARTS_AT_IMPORT, encoding="utf-8")
    marker = uuid.uuid4().hex
    args = ["call", "ping2", "--tools", str(tmp_path / "import_child.py"), "--no-history"]
    proc = start([*args, "--format", "json"], marker, tmp_path)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert json.loads(out)["value"] == {"pong": 1}
    assert err.splitlines() == [
        f"warning: {tmp_path / 'import_child.py'}: the tool modules started 2 processes while "
        "importing (sleep 555, sleep 556); the playground ended them when the import ended"
    ]
    assert wait_until(lambda: not marked(marker), 5.0), marked(marker)
