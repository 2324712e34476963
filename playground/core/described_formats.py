"""An example string in the format a parameter's description names (issue 25, item 8).

A parameter often says its format in words rather than in a schema ``format`` or ``pattern``:
"the time of the booking, HH:MM (24-hour)", "날짜, YYYY-MM-DD 형식". The examples built for it
(``probe``'s baseline, a fix hint's ``e.g.``) were the placeholder ``"text"``, which the tool
then refuses. :func:`described_example` reads the first date/time template in the text — two or
more of the field codes below, joined by ``-`` ``/`` ``.`` ``:`` ``T``, one space or nothing —
and fills each field with a fixed value:

=========================  =======  ============================================
code                       value    note
=========================  =======  ============================================
``YYYY`` ``yyyy``          2026     year
``YY`` ``yy``              26       two-digit year
``MM``                     06       month; minutes (30) when it follows an hour
``DD`` ``dd``              21       day of the month
``HH``                     14       hour, 24-hour clock
``hh``                     02       hour, 12-hour clock
``mm``                     30       minutes
``SS`` ``ss``              00       seconds
=========================  =======  ============================================

So ``HH:MM`` → ``14:30``, ``YYYY-MM-DD`` → ``2026-06-21``, ``YYYY-MM-DD HH:MM`` →
``2026-06-21 14:30``, ``YYYYMMDD`` → ``20260621``, ``DD.MM.YYYY`` → ``21.06.2026``,
``YYYY-MM-DDTHH:MM:SS`` → ``2026-06-21T14:30:00``. The codes are the ones of Unicode's date
field symbols (UTS #35) and of strftime-style templates as people write them; a single letter
(``M``, ``D``) is too ambiguous in prose and is not read. The example is a candidate like any
other: it is used only when the parameter's schema accepts it
(:func:`playground.core.examples.valid_example`).
"""

from __future__ import annotations

import re

_CODE = r"(?:YYYY|yyyy|YY|yy|MM|DD|dd|HH|hh|mm|SS|ss)"
#: Two or more field codes joined by a separator (or none), not inside a longer word.
TEMPLATE = re.compile(
    rf"(?<![A-Za-z0-9]){_CODE}(?:(?:[-/.:T]| (?={_CODE})|){_CODE})+(?![A-Za-z0-9])"
)
_FIELD = re.compile(_CODE)
_VALUES = {
    "YYYY": "2026",
    "yyyy": "2026",
    "YY": "26",
    "yy": "26",
    "DD": "21",
    "dd": "21",
    "HH": "14",
    "hh": "02",
    "mm": "30",
    "SS": "00",
    "ss": "00",
}


def described_example(text: str) -> str | None:
    """The example of the first date/time template named in ``text`` (the module's table),
    or ``None`` when it names none. ``"HH:MM (24-hour)"`` → ``"14:30"``."""
    found = TEMPLATE.search(text or "")
    if found is None:
        return None
    after_hour = False

    def value(field: re.Match[str]) -> str:
        nonlocal after_hour
        code = field.group()
        if code == "MM":
            code = "mm" if after_hour else "MM"
        after_hour = after_hour or code in ("HH", "hh")
        return "06" if code == "MM" else _VALUES[code]

    return _FIELD.sub(value, found.group())
