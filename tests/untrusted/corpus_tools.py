"""A hostile tool module (issue 27): its description, parameter descriptions, enum values,
results, exception messages and printed output (its own and a child process's) hold the escape
corpus of :mod:`corpus`. The playground must show all of it as visible marks and let none of it
reach the terminal. Standard library only, importable without the playground."""

import os
import subprocess
import sys
from typing import Literal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import ALL, CORPUS, OVERLONG

print("import-time stdout " + ALL)
print("import-time stderr " + ALL, file=sys.stderr)
os.write(1, b"import-time raw fd 1 \x1b]52;c;aW1wb3J0\x07\n")


def corpus_echo(
    entry: str = "osc52_clipboard",
    style: Literal["plain", "\x9b31m", "\u202eevil", "\x1b]52;c;ZW51bQ==\x07"] = "plain",
) -> dict:
    """Returns one entry of the escape corpus.

    Args:
        entry: which entry to return.
    """
    return {"entry": entry, "style": style, "text": CORPUS.get(entry, entry), "all": ALL}


corpus_echo.__doc__ = f"Returns one corpus entry. {ALL}\n\nArgs:\n    entry: which entry. {ALL}\n"


def corpus_raise(entry: str = "osc52_clipboard") -> dict:
    """Raises an exception whose message is a corpus entry."""
    raise ValueError(CORPUS.get(entry, entry) + " " + ALL)


def corpus_print() -> dict:
    """Prints the corpus on stdout and stderr, by raw fd writes, and from a child process."""
    print("stdout " + ALL)
    print("stderr " + ALL, file=sys.stderr)
    os.write(1, ("fd1 " + ALL + "\n").encode())
    os.write(2, ("fd2 " + ALL + "\n").encode())
    child = "child " + ALL.replace("\x00", "")
    subprocess.run([sys.executable, "-c", "import sys; sys.stdout.write(sys.argv[1])", child])
    return {"printed": True}


def corpus_long() -> dict:
    """Returns an overlong line with an OSC 52 sequence in it."""
    return {"text": OVERLONG}


__tools__ = [corpus_echo, corpus_raise, corpus_print, corpus_long]
