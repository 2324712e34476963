"""The ``leftover`` rule: a required string parameter still empty takes the run of
question words no other rule used and no stopword is."""

from __future__ import annotations

import re

from playground.routing import korean, values
from playground.routing.fill.dates import is_date_param
from playground.routing.fill.labels import label_words, near_score
from playground.routing.fill.loose_state import LooseFill
from playground.routing.fill.specs import ParamSpec, plain_string
from playground.routing.fill.word_series import LIST_GAP_RE, string_array
from playground.routing.fill.words import LOWERCASE_DOC_RE


def loose_leftover(st: LooseFill) -> None:
    """A required plain string (or string array) still empty takes the question's leftover
    words (rule ``leftover``: words no tool's vocabulary and no argument took)."""
    open_specs, fill = st.open_specs, st.fill
    leftover_specs = [
        s
        for s in open_specs
        if s.name not in fill.args
        and s.required
        and (plain_string(s) or string_array(s))
        and not is_date_param(s)
        # examples or a lowercase rule say what its values look like (rules 6-7 decide)
        and not (s.examples or LOWERCASE_DOC_RE.search(s.doc))
    ]
    _give_leftover(st, leftover_specs)


def _give_leftover(st: LooseFill, leftover_specs: list[ParamSpec]) -> None:
    """The leftover runs (:func:`_leftover_runs`) to ``leftover_specs``, the run their words
    label (else the last; several parameters take them in question order)."""
    specs, text, toks, fill, used, found, intent, cands, labels, taken, give = (
        st.specs,
        st.text,
        st.toks,
        st.fill,
        st.used,
        st.found,
        st.intent,
        st.cands,
        st.labels,
        st.taken,
        st.give,
    )
    if not leftover_specs:
        return
    held = used + [tuple(ev["span"]) for ev in fill.evidence.values()]
    held += [(c.start, c.end) for i, c in enumerate(cands) if i in taken]
    held += [(q.start, q.end) for q in found.strings if q.kind == "quoted"]  # a value
    vocab: set[str] = set()
    for s in specs:
        vocab |= label_words(s)[0] | label_words(s)[1]
    runs = _leftover_runs(text, toks, held, intent, vocab)
    for spec in leftover_specs:
        if not runs:
            break
        name_w, doc_w = labels[spec.name]
        best = max(
            range(len(runs)),
            key=lambda k: (
                2 * near_score(toks, runs[k][0], runs[k][1], name_w)
                + near_score(toks, runs[k][0], runs[k][1], doc_w),
                # else the last (an English request names its object last); several
                # parameters take the runs in question order ("a human and a chimp")
                k if len(leftover_specs) == 1 else -k,
            ),
        )
        start, end = runs.pop(best)
        if string_array(spec):
            # an array takes the runs listed with it ("tomatoes and lettuce")
            items = [(start, end)]
            while best < len(runs) and LIST_GAP_RE.fullmatch(text[items[-1][1] : runs[best][0]]):
                items.append(runs.pop(best))
            while best > 0 and LIST_GAP_RE.fullmatch(text[runs[best - 1][1] : items[0][0]]):
                best -= 1
                items.insert(0, runs.pop(best))
            give(
                spec,
                [text[a:b] for a, b in items],
                "leftover",
                items[0][0],
                items[-1][1],
                "the listed words that no tool's vocabulary and no other argument took",
            )
            continue
        give(
            spec,
            text[start:end],
            "leftover",
            start,
            end,
            "the question's words that no tool's vocabulary and no other argument took",
        )


#: Words that join or introduce rather than name (never part of a leftover value), beyond
#: ``korean.STOPWORDS``, which both readers of this set check first.
LEFTOVER_STOP = frozenset(
    [
        "know",
        "does",
        "current",
        "currently",
        "latest",
        "detail",
        "details",
        "information",
        "info",
        "last",
        "next",
        "out",
        "near",
        "nearby",
        "respectively",
        "today",
        "soon",
        "against",
        "including",
        "following",
        "per",
        "under",
        "over",
        "according",
        "something",
        "anything",
        "names",
        "name",
        "total",
        "top",
        "best",
        "first",
        "good",
        "tonight",
        "tomorrow",
        "yesterday",
        "having",
        "them",
        "their",
    ]
)


def _leftover_runs(
    text: str,
    tokens: list[korean.Token],
    held: list[tuple[int, int]],
    intent: frozenset[tuple[int, int]],
    vocab: set[str],
) -> list[tuple[int, int]]:
    """Spans of consecutive lowercase Latin words (joined only by spaces or hyphens) that no
    tool's vocabulary matched (``intent``), that are not a parameter's own label words
    (``vocab``), not stopwords, request verbs or question words, and that no argument took
    (``held``): what is left of the question once the request is read ("Who discovered
    radium?" -> ``radium``). At most four words each, in question order."""
    runs: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = None
    for tok in tokens:
        w = tok.surface
        ok = (
            w[:1].islower()
            and w.isascii()
            and w.isalpha()
            and (tok.start, tok.end) not in intent
            and values.outside((tok.start, tok.end), held)
            and not korean.is_stopword(tok.stem)
            and w.lower() not in LEFTOVER_STOP
            and tok.stem not in korean.QUESTION_WORDS
            and tok.stem not in korean.GENERIC_VERBS
            and not (w.endswith("ed") and not w.endswith("eed") and len(w) > 4)
            and not any(korean.match_quality(tok.stem, v)[0] >= 0.7 for v in vocab)
        )
        # "theory of relativity": two leftover words joined by "of" are one value
        if ok and re.search(r"\d\s*$", text[: tok.start]):
            ok = False  # "24 hour format", "50 kilometers": a number's unit, not a value
        if ok and cur is None and re.search(r"\bto\s+$", text[: tok.start]):
            ok = False  # "to read": an infinitive is what the user wants done, not a value
        if (
            ok
            and cur is not None
            and re.fullmatch(r"[ -]|\s+of\s+(?:the\s+)?", text[cur[1] : tok.start])
        ):
            cur = (cur[0], tok.end)
        elif ok:
            if cur is not None:
                runs.append(cur)
            cur = (tok.start, tok.end)
        elif cur is not None and w.lower() in ("of", "the") and w.islower():
            continue  # may join two leftover words ("theory of relativity")
        else:
            if cur is not None:
                runs.append(cur)
            cur = None
    if cur is not None:
        runs.append(cur)
    return [
        r for r in map(_whole_word, runs, [text] * len(runs)) if len(text[r[0] : r[1]].split()) <= 4
    ]


_JOINED_AFTER_RE = re.compile(r"(?:-[^\W_]+)+")
_JOINED_BEFORE_RE = re.compile(r"(?:[^\W_]+-)+\Z")


def _whole_word(run: tuple[int, int], text: str) -> tuple[int, int]:
    """``run`` widened to the whole of a hyphenated word it begins or ends inside: a name with
    a hyphen is one identifier ("feature-x", not "feature")."""
    start, end = run
    after = _JOINED_AFTER_RE.match(text, end)
    before = _JOINED_BEFORE_RE.search(text, 0, start)
    return (before.start() if before else start, after.end() if after else end)
