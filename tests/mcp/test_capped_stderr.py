"""An MCP server's stderr is bounded (issue 27 item 2): a server that floods stderr is never
blocked and never fills the disk; the first bytes are kept, the rest counted. A real child
process writes through the same pipe a stdio server gets."""

from __future__ import annotations

import os
import subprocess
import sys

from playground.sources.capped_log import CappedLog

FLOOD = (
    "import sys\nfor i in range(5000):\n    sys.stderr.write('x' * 999 + '\\n')\nprint('done')\n"
)


def test_a_flooding_child_finishes_and_only_the_cap_is_kept() -> None:
    log = CappedLog(cap_bytes=1 << 20)
    try:
        child = subprocess.run(
            [sys.executable, "-c", FLOOD],
            stderr=log.writer,
            stdout=subprocess.PIPE,
            text=True,
            timeout=60,
        )
        assert child.stdout == "done\n"  # never blocked on its stderr
        log.settle()
        kept = os.fstat(log.fileno()).st_size
        assert kept == 1 << 20
        assert log.dropped == 5000 * 1000 - (1 << 20)
        assert os.pread(log.fileno(), 1000, 0) == b"x" * 999 + b"\n"
    finally:
        log.close()
    assert log.closed


def test_a_quiet_child_is_kept_whole_and_in_order() -> None:
    log = CappedLog()
    try:
        subprocess.run(
            [sys.executable, "-c", "import sys; sys.stderr.write('시작\\nready\\n')"],
            stderr=log.writer,
            timeout=60,
        )
        log.settle()
        assert os.pread(log.fileno(), 100, 0).decode() == "시작\nready\n"
        assert log.dropped == 0
    finally:
        log.close()
