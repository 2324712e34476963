"""The options of ``playground eval`` that are its own (the case file, ``--repeat``, ``--jobs``,
``--resume``, ``--prices``, ``--compare``, the two rate floors and ``--rpm``), declared once as
``Annotated`` aliases the way :mod:`playground.cli.source_options` declares the tool-source
options; the router options are in :mod:`playground.cli.router_options`.

The two value checks are the options' callbacks: a rate floor is a number from 0 to 1 and
``--rpm`` is 0 (no limit) or from :data:`MIN_RPM` up; anything else is a usage error (exit 2)
with one line naming the value. Importing this module is cheap (typer only).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer

#: The smallest ``--rpm`` other than 0: one request a day (a smaller one would sleep for
#: longer than ``time.sleep`` can).
MIN_RPM = 1 / 1440


def _rate_option(value: float | None) -> float | None:
    """``--min-selection`` / ``--max-false-selection``: a rate from 0 to 1 (NaN is not)."""
    if value is not None and not 0.0 <= value <= 1.0:
        raise typer.BadParameter(f"{value:g} is not a rate from 0 to 1")
    return value


def _rpm_option(value: float | None) -> float | None:
    """``--rpm``: 0 (no limit) or a finite number of requests per minute from :data:`MIN_RPM`."""
    if value is not None and not (value == 0 or MIN_RPM <= value < math.inf):
        raise typer.BadParameter(
            f"{value:g} is not 0 (no limit) or a number of requests per minute from "
            f"{MIN_RPM:.6f} (one a day) up"
        )
    return value


CasesArgument = Annotated[
    Path,
    typer.Argument(
        help='Eval case file (JSON Lines): {"question", "expect_tool" | null, '
        '"expect_args"} a line.',
        show_default=False,
    ),
]
RepeatOption = Annotated[
    int,
    typer.Option(
        "--repeat",
        min=1,
        help="Run each case N times and report, per question, the share of runs that made "
        "the same call (tool and arguments); flaky questions are listed.",
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        help="Requests in flight at once (429 answers are waited out as Retry-After says).",
    ),
]
ResumeOption = Annotated[
    Path | None,
    typer.Option(
        "--resume",
        help="The --format jsonl output of an interrupted run: its judged lines are "
        "counted, not asked again (append the new output to the same file).",
        show_default=False,
    ),
]
PricesOption = Annotated[
    Path | None,
    typer.Option(
        "--prices",
        help="Price file (JSON: MODEL or ROUTER:MODEL -> input_usd_per_mtok, "
        "output_usd_per_mtok) for the cost column; default ./prices.json when present. "
        "A model without a price has a blank cost.",
        show_default=False,
    ),
]
CompareOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--compare",
        help="A second version of the tools (file or folder; repeatable): run the same cases "
        "against it and list the cases that flipped.",
        show_default=False,
    ),
]
MinSelectionOption = Annotated[
    float | None,
    typer.Option(
        "--min-selection",
        callback=_rate_option,
        help="Exit 1 if the selection rate is below this (0..1).",
    ),
]
MaxFalseSelectionOption = Annotated[
    float | None,
    typer.Option(
        "--max-false-selection",
        callback=_rate_option,
        help="Exit 1 if the false-selection rate is above this (0..1).",
    ),
]
RpmOption = Annotated[
    float | None,
    typer.Option(
        "--rpm",
        callback=_rpm_option,
        help="Requests per minute (0 = no limit). Default: the router's own (gemini 10; the "
        "offline router is never limited unless this is given).",
    ),
]
