"""The offline router on BFCL (Berkeley Function Calling Leaderboard v4) development entries.

Run: ``python bench/bfcl.py [--data DIR] [--category simple_python ...] [--out DIR] [--show N]
[--without RULE ...] [--only RULE ...] [--each-rule]``.
``--data`` defaults to ``../shared/bench/bfcl_dev`` (beside the worktree; its README names the
source and licence). Only the development categories ``simple_python``, ``live_simple`` and
``parallel`` are read: the other BFCL categories are this project's held-out measure.

For each entry the BFCL function declarations are converted into the declarations the playground
builds (BFCL's ``"type": "dict"`` -> ``object``, ``float`` -> ``number``, ``tuple`` -> ``array``,
``any`` -> no type; dotted names such as ``math.factorial`` become ``math_factorial`` and the
mapping is kept), the last user message becomes the question, and the offline router picks its
first move. Should-not cases, where the router must not call anything, pair each question with
the functions of another entry of the same category (the entry half the file away: a random
pair) and with the functions most like its own tool by the router's own index, its twins left
out (near neighbours, :mod:`bench.bfcl_neighbours`).

Printed per category (fractions of the entries):

``selected``   the move calls the expected tool (first call);
``asked``      no call, but the router asks for a required value of the expected tool;
``wrong_tool`` the first call names another tool;
``missed``     no call and no question about the expected tool;
``false_sel``  a call on a random-pair should-not case (lower is better; of the entries whose
               pair shares no function name);
``near_sel``   a call on a near-neighbour should-not case (lower is better);
``e2e``        the expected tool is called and every argument is acceptable per BFCL's possible
               answers (a value in the answer's list after BFCL's string normalisation --
               lower case, spaces and ``,./-_*^`` removed; ints accepted for floats; every
               argument whose list lacks ``""`` present; no argument the answer does not name);
               for ``parallel``, every expected call matched once, in any order;
``n_calls``    (``parallel``) the move has as many calls as the answer expects;
``ms/q``       median wall time of one ``next_move`` per question, in milliseconds.

``--without RULE`` (repeatable) switches a routing rule off, ``--only RULE`` (repeatable) every
rule but the ones named (:mod:`playground.routing.rule_switches`; an unknown name is an error).
``--each-rule`` prints, per registered rule, the end-to-end rate it gains and the false-selection
rate it causes (all rules on minus that rule off), per category, as a Markdown table.

``--dump FILE`` writes one JSON line per entry that is not end-to-end right (its outcome, the
calls, and per argument why it fails: ``absent``, ``wrong`` or ``extra`` with the schema type),
and one per should-not case that made a call (``"outcome": "false_sel"``, the paired entry, the
calls and what made the tool score), to look at the misses by kind. Every entry's should-not
case is judged, also when the entry itself is end-to-end right. ``--out DIR`` also writes, per category, ``<category>.declarations.jsonl`` (one line per entry:
``{"id", "declarations", "names"}``) and ``<category>.cases.jsonl`` (the playground's eval case
format: ``question``, ``expect_tool``, ``expect_args`` from the first possible answer, plus
``id``), so a single entry can be looked at with the other commands.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bfcl_neighbours import near_neighbours  # noqa: E402
from playground.routing import rule_switches  # noqa: E402
from playground.routing.base import Turn  # noqa: E402
from playground.routing.offline import OfflineRouter  # noqa: E402

DEV = ("simple_python", "live_simple", "parallel")
#: ``../shared`` beside the repository (a main checkout) or beside its worktrees folder.
DEFAULT_DATA = next(
    (
        d / "shared" / "bench" / "bfcl_dev"
        for d in (ROOT.parent, ROOT.parent.parent)
        if (d / "shared" / "bench" / "bfcl_dev").is_dir()
    ),
    ROOT.parent / "shared" / "bench" / "bfcl_dev",
)
_TYPES = {"dict": "object", "float": "number", "tuple": "array", "list": "array"}


def py_name(name: str) -> str:
    """A valid Python identifier for a BFCL function name (``math.factorial`` -> ``math_factorial``)."""
    return re.sub(r"\W", "_", name)


def convert_schema(schema: Any) -> Any:
    """BFCL's parameter schema as JSON Schema (type names mapped; ``any`` drops the type)."""
    if isinstance(schema, list):
        return [convert_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            if value == "any":
                continue
            out[key] = _TYPES.get(value, value)
        elif key in ("properties",) and isinstance(value, dict):
            out[key] = {k: convert_schema(v) for k, v in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = convert_schema(value)
        else:
            out[key] = value
    return out


def declarations(functions: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """``(declarations, {python name: BFCL name})`` for one entry's ``function`` list."""
    decls, names = [], {}
    for fn in functions:
        name = py_name(fn["name"])
        names[name] = fn["name"]
        decls.append(
            {
                "name": name,
                "description": fn.get("description", ""),
                "parameters": convert_schema(fn.get("parameters") or {"type": "object"}),
            }
        )
    return decls, names


def question_of(entry: dict[str, Any]) -> str:
    """The last user message of the entry's last turn."""
    turns = entry["question"][-1]
    return next(t["content"] for t in reversed(turns) if t["role"] == "user")


def _norm(value: Any) -> Any:
    if isinstance(value, str):
        return re.sub(r"[ ,./\-_*^]", "", value.lower())
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    return value


def _value_ok(value: Any, allowed: list[Any]) -> bool:
    for ok in allowed:
        if ok == "" or (ok is None and value is None):
            continue
        if isinstance(ok, dict) and isinstance(value, dict):
            if _args_ok(value, {k: v for k, v in ok.items()}):
                return True
            continue
        if isinstance(ok, bool) or isinstance(value, bool):
            if value is ok:
                return True
            continue
        if isinstance(ok, (int, float)) and isinstance(value, (int, float)):
            if float(ok) == float(value):
                return True
            continue
        if _norm(value) == _norm(ok):
            return True
    return False


def _args_ok(args: Any, answer: dict[str, list[Any]]) -> bool:
    if not isinstance(args, dict):
        return False
    for key, value in args.items():
        if key not in answer or not _value_ok(value, answer[key]):
            return False
    return all(not (key not in args and "" not in allowed) for key, allowed in answer.items())


def call_ok(name: str, args: Any, truth: dict[str, dict[str, list[Any]]], names: dict) -> bool:
    """True when the call ``name(args)`` is acceptable for one ground-truth item."""
    (fname, answer), *_ = truth.items()
    return names.get(name, name) == fname and _args_ok(args, answer)


def load(data: Path, category: str) -> list[tuple[dict, dict]]:
    """``[(entry, possible answer)]`` of one category."""
    entries = [
        json.loads(line) for line in (data / f"BFCL_v4_{category}.json").read_text().splitlines()
    ]
    answers = {
        a["id"]: a
        for a in (
            json.loads(line)
            for line in (data / "possible_answer" / f"BFCL_v4_{category}.json")
            .read_text()
            .splitlines()
        )
    }
    return [(e, answers[e["id"]]) for e in entries]


def problems(
    args: Any, answer: dict[str, list[Any]], declaration: dict[str, Any]
) -> list[dict[str, Any]]:
    """Why ``args`` fail BFCL's ``answer``, per argument: ``absent`` (a value the answer
    requires is missing), ``wrong`` (a value not in the answer's list) or ``extra`` (an
    argument the answer does not name), each with the parameter's schema type."""
    props = (declaration.get("parameters") or {}).get("properties") or {}
    out = []
    args = args if isinstance(args, dict) else {}
    for key, allowed in answer.items():
        kind = (props.get(key) or {}).get("type")
        if key not in args:
            if "" not in allowed:
                out.append({"arg": key, "kind": "absent", "type": kind, "want": allowed[:3]})
        elif not _value_ok(args[key], allowed):
            out.append(
                {"arg": key, "kind": "wrong", "type": kind, "got": args[key], "want": allowed[:3]}
            )
    out += [{"arg": k, "kind": "extra", "got": args[k]} for k in args if k not in answer]
    return out


def run_category(
    router: OfflineRouter, pairs: list[tuple[dict, dict]], show: int, dump: Any = None
) -> dict:
    """The counts and rates for one category (see the module docstring); ``dump``: a text
    file to write one JSON line per entry that is not end-to-end right (``--dump``)."""
    n = len(pairs)
    counts = dict.fromkeys(
        ("selected", "asked", "wrong_tool", "missed", "e2e", "n_calls", "false_sel", "near_sel"),
        0,
    )
    counts["random_n"] = counts["near_n"] = 0
    near = near_neighbours([declarations(e["function"])[0] for e, _ in pairs])
    times: list[float] = []
    failures: list[str] = []
    for k, (entry, answer) in enumerate(pairs):
        decls, names = declarations(entry["function"])
        question = question_of(entry)
        truth = answer["ground_truth"]
        expect = py_name(next(iter(truth[0])))
        t0 = time.perf_counter()
        move = router.next_move([Turn(role="user", text=question)], decls)
        times.append(time.perf_counter() - t0)
        exp = move.explanation or {}
        if move.calls:
            first = move.calls[0]
            counts["selected" if first.name == expect else "wrong_tool"] += 1
            if len(move.calls) == len(truth):
                counts["n_calls"] += 1
            left, right = list(truth), False
            for call in move.calls:
                hit = next((t for t in left if call_ok(call.name, call.args, t, names)), None)
                if hit is None:
                    break
                left.remove(hit)
            else:
                right = not left
                if right:
                    counts["e2e"] += 1
            if dump is not None and not right:
                decl = next((d for d in decls if d["name"] == first.name), {})
                (_f, ans), *_ = truth[0].items()
                dump.write(
                    json.dumps(
                        {
                            "id": entry["id"],
                            "outcome": "selected" if first.name == expect else "wrong_tool",
                            "question": question,
                            "calls": [{"name": c.name, "args": c.args} for c in move.calls],
                            "expected_calls": len(truth),
                            "problems": problems(first.args, ans, decl),
                            "evidence": next(
                                (
                                    t["arg_evidence"]
                                    for t in exp.get("tools", [])
                                    if t["name"] == first.name
                                ),
                                {},
                            ),
                        },
                        ensure_ascii=False,
                        default=str,
                    )
                    + "\n"
                )
            if len(failures) < show and not right:
                failures.append(
                    f"{entry['id']}: {question!r}\n   got {[(c.name, c.args) for c in move.calls]}"
                    f"\n   want {truth}"
                )
        else:
            asks = exp.get("asks_for") or {}
            counts["asked" if asks.get("tool") == expect else "missed"] += 1
            if dump is not None:
                dump.write(
                    json.dumps(
                        {
                            "id": entry["id"],
                            "outcome": "asked" if asks.get("tool") == expect else "missed",
                            "question": question,
                            "asks_for": asks,
                            "reason": exp.get("reason"),
                            "expected": truth[0],
                        },
                        ensure_ascii=False,
                        default=str,
                    )
                    + "\n"
                )
            if len(failures) < show:
                failures.append(
                    f"{entry['id']}: {question!r}\n   text {move.text!r}\n   reason {exp.get('reason')}"
                )
        # should-not: the same question over the functions of the entry half the file away
        # (a random pair), and over the functions most like its own (near neighbours)
        other, _ = pairs[(k + n // 2) % n]
        odecls, _ = declarations(other["function"])
        if not any(d["name"] in {x["name"] for x in decls} for d in odecls):
            counts["random_n"] += 1
            if _should_not(router, question, odecls, times, dump, entry["id"], other["id"]):
                counts["false_sel"] += 1
        if near[k]:
            counts["near_n"] += 1
            paired = "near:" + ",".join(d["name"] for d in near[k])
            if _should_not(router, question, near[k], times, dump, entry["id"], paired):
                counts["near_sel"] += 1
    pairs_n = {"false_sel": counts.pop("random_n"), "near_sel": counts.pop("near_n")}
    rates = {k: round(v / (pairs_n.get(k) or n), 3) for k, v in counts.items()}
    rates["n"] = n
    rates["ms/q"] = round(statistics.median(times) * 1000, 3)
    return {"rates": rates, "failures": failures}


def _should_not(
    router: OfflineRouter,
    question: str,
    decls: list[dict[str, Any]],
    times: list[float],
    dump: Any,
    entry_id: str,
    paired: str,
) -> bool:
    """Whether the router calls a tool for ``question`` over ``decls`` (none of which is its
    own); a call is dumped (``"outcome": "false_sel"``) with what made the tool score."""
    t0 = time.perf_counter()
    wrong = router.next_move([Turn(role="user", text=question)], decls)
    times.append(time.perf_counter() - t0)
    if wrong.calls and dump is not None:
        chosen = (wrong.explanation or {}).get("tools", [])
        dump.write(
            json.dumps(
                {
                    "id": entry_id,
                    "outcome": "false_sel",
                    "question": question,
                    "paired_with": paired,
                    "calls": [{"name": c.name, "args": c.args} for c in wrong.calls],
                    "because": next(
                        (t["because"] for t in chosen if t["name"] == wrong.calls[0].name), []
                    ),
                },
                ensure_ascii=False,
                default=str,
            )
            + "\n"
        )
    return bool(wrong.calls)


def write_out(out: Path, category: str, pairs: list[tuple[dict, dict]]) -> None:
    """The declarations and eval case files of one category (see the module docstring)."""
    out.mkdir(parents=True, exist_ok=True)
    with (
        (out / f"{category}.declarations.jsonl").open("w", encoding="utf-8") as d,
        (out / f"{category}.cases.jsonl").open("w", encoding="utf-8") as c,
    ):
        for entry, answer in pairs:
            decls, names = declarations(entry["function"])
            d.write(
                json.dumps(
                    {"id": entry["id"], "declarations": decls, "names": names},
                    ensure_ascii=False,
                )
                + "\n"
            )
            (fname, ans), *_ = answer["ground_truth"][0].items()
            args = {k: v[0] for k, v in ans.items() if v and v[0] != ""}
            c.write(
                json.dumps(
                    {
                        "id": entry["id"],
                        "question": question_of(entry),
                        "expect_tool": py_name(fname),
                        "expect_args": args,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )


def each_rule(router: OfflineRouter, data: dict[str, list[tuple[dict, dict]]]) -> None:
    """Print, per registered routing rule, what it earns and costs: the end-to-end rate with
    every rule on minus the rate without it (``+`` the rule gains that much) and the false
    selection rate with every rule on minus without it (``+`` the rule causes that much), per
    category, as a Markdown table (rules sorted by phase, then name)."""
    rates = {c: run_category(router, p, 0)["rates"] for c, p in data.items()}
    cats = list(data)
    head = "| rule | phase | " + " | ".join(f"{c} e2e gained | {c} false sel caused" for c in cats)
    print(head + " |")
    print("|" + "---|" * (2 + 2 * len(cats)))
    print(
        "| (all on) | | "
        + " | ".join(f"{rates[c]['e2e']:.3f} | {rates[c]['false_sel']:.3f}" for c in cats)
        + " |"
    )
    for rule in rule_switches.known_rules():
        if rule.name.startswith("test_"):
            continue
        with rule_switches.switched(without=[rule.name]):
            off = {c: run_category(router, p, 0)["rates"] for c, p in data.items()}
        cells = []
        for c in cats:
            cells.append(f"{rates[c]['e2e'] - off[c]['e2e']:+.3f}")
            cells.append(f"{rates[c]['false_sel'] - off[c]['false_sel']:+.3f}")
        print(f"| `{rule.name}` | {rule.phase} | " + " | ".join(cells) + " |")


GOALS = {
    "e2e": ">= 0.75 simple_python, >= 0.65 live_simple, >= 0.45 parallel",
    "false_sel": "<= 0.02 (random pairs)",
    "near_sel": "<= 0.05 (near neighbours)",
    "n_calls": ">= 0.6 (parallel)",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--category", action="append", choices=DEV)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--show", type=int, default=0, help="print the first N failures")
    parser.add_argument("--json", action="store_true", help="print the rates as JSON")
    parser.add_argument(
        "--dump",
        type=Path,
        help="write every entry that is not end-to-end right as a JSON line: outcome, calls, "
        "per-argument problems (absent / wrong / extra, with the schema type) and evidence",
    )
    parser.add_argument(
        "--without", action="append", default=[], metavar="RULE", help="switch a routing rule off"
    )
    parser.add_argument(
        "--only", action="append", metavar="RULE", help="switch every routing rule off but these"
    )
    parser.add_argument(
        "--each-rule",
        action="store_true",
        help="per rule: the end-to-end rate it gains and the false selections it causes",
    )
    ns = parser.parse_args(argv)
    if not (ns.data / "possible_answer").is_dir():
        print(
            f"error: no BFCL data in {ns.data} (expected possible_answer/ beside the files)",
            file=sys.stderr,
        )
        return 2
    router = OfflineRouter()
    data = {category: load(ns.data, category) for category in ns.category or DEV}
    if ns.each_rule:
        each_rule(router, data)
        return 0
    results = {}
    dump = ns.dump.open("w", encoding="utf-8") if ns.dump else None
    try:
        with rule_switches.switched(ns.without, ns.only):
            for category, pairs in data.items():
                if ns.out:
                    write_out(ns.out, category, pairs)
                results[category] = run_category(router, pairs, ns.show, dump)
    except ValueError as err:  # an unknown rule name
        print(f"error: {err}", file=sys.stderr)
        return 2
    finally:
        if dump is not None:
            dump.close()
    if ns.json:
        print(json.dumps({c: r["rates"] for c, r in results.items()}, indent=2))
        return 0
    cols = (
        "n",
        "selected",
        "asked",
        "wrong_tool",
        "missed",
        "false_sel",
        "near_sel",
        "e2e",
        "n_calls",
        "ms/q",
    )
    print(f"{'category':<14}" + "".join(f"{c:>11}" for c in cols))
    for category, r in results.items():
        print(f"{category:<14}" + "".join(f"{r['rates'][c]:>11}" for c in cols))
    print("goals: " + "; ".join(f"{k} {v}" for k, v in GOALS.items()))
    for category, r in results.items():
        for f in r["failures"]:
            print(f"[{category}] {f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
