"""Customer-facing text of the offline router (and of the loop's replies): what a customer reads.

Owns the answer when no tool fits (a greeting for a greeting, thanks for thanks, else an
apology, each with what the advertised tools can do: :func:`capability`, :func:`advertised`),
the question asking for a missing value (its label and an example, never a tool or argument
name), :func:`say` (a value as a reader sees it: 예/아니오/없음 or yes/no/none, compact JSON)
and :func:`summarize` (the key facts of tool results, never invented). Tool names, scores and
what was not advertised go into the router's explanation, not into this text.

Rule sources: seed 000 (``000_c08e8917b842d5f8.txt``: a result is text to read; ``found:
False`` with a ``message`` is a fact, not an error), seed 001 (``001_3a95fa703827e0ed.txt``:
a description says what the tool does, when and when not), seed 002
(``002_5dea94806f69c756.txt``: empty results carry a note) and seed 004
(``004_1eb87d7095808796.txt``: an error says what failed; transient errors can be retried). Korean text kept as is (``ensure_ascii=False``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from playground.routing import korean
from playground.routing.base import ToolResult
from playground.routing.fill.specs import ParamSpec
from playground.routing.scoring import DeclIndex, ScoreRow, ToolIndex


def rows_of(value: Any) -> list[dict[str, Any]]:
    """Rows of a result: a list of dicts, the first list-of-dicts inside a dict, or the dict."""
    if isinstance(value, list):
        return [v for v in value if isinstance(v, dict)]
    if isinstance(value, dict):
        for v in value.values():
            if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                return v
        return [value]
    return []


_ADVERBIAL = ("으로", "로", "에서", "에게", "까지", "부터")
_LABEL_CUT_RE = re.compile(
    r"[.(（,;:]|\s예시?\s*[:：)]|\s예를\s*들어|\be\.g\.|\bfor example\b|\bsuch as\b|\blike\s+[\"'“‘`]",
    re.I,
)
_ARTICLE_RE = re.compile(r"^(?:the|a|an)\s+", re.I)
_NOT_A_NOUN_RE = re.compile(r"^(?:how|what|which|whether|if|when|where|who|why)\b", re.I)
_MAX_ADVERTISED = 6


def _sentence(summary: str) -> str:
    return re.sub(r"`+", "", summary or "").strip().rstrip(".。 ").strip()


def capability(summary: str) -> str:
    """A short phrase for what a tool does, from its first description sentence.

    Korean "…X를 Y한다": the object phrase (after the last adverbial word ending in 로/으로/
    에서/에게/까지/부터) plus the verb noun: "하루마켓 주문번호로 주문 내역과 진행 단계를
    조회한다" -> "주문 내역과 진행 단계 조회". Other sentences are kept as they are (English:
    first letter lower-cased unless it starts an acronym)."""
    text = _sentence(summary)
    words = text.split()
    if korean.has_hangul(text) and words and words[-1].endswith("한다") and len(words[-1]) > 2:
        verb = words[-1][:-2]
        j = next(
            (
                i
                for i in range(len(words) - 2, -1, -1)
                if len(words[i]) > 1 and words[i][-1] in "을를"
            ),
            None,
        )
        if j is None:
            return " ".join(words[:-1] + [verb]).strip()
        start = 0
        for i in range(j):
            if words[i].endswith(_ADVERBIAL):
                start = i + 1
        return " ".join(words[start:j] + [words[j][:-1], verb])
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        text = text[0].lower() + text[1:]
    return text


def _offer(summary: str, ko: bool) -> str:
    """The reply's first sentence when asking for a value: the tool's first description
    sentence as an offer ("…를 조회한다" -> "…를 조회해 드릴게요."), or a neutral one."""
    text = _sentence(summary)
    if ko:
        words = text.split()
        if words and words[-1].endswith("한다") and len(words[-1]) > 2:
            return " ".join(words[:-1] + [words[-1][:-2] + "해"]) + " 드릴게요."
        return "확인해 드릴게요."
    return "I can look into that."


def advertised(idx: DeclIndex, ko: bool) -> tuple[list[ToolIndex], list[dict[str, str]]]:
    """The tools a customer is told about, and ``[{"tool", "why"}]`` for the others: a demo
    (:data:`playground.routing.scoring._DEMO_RE`: its description says it is not for real use) is never advertised, and
    when some tools are described in the question's language (Hangul or not) only those are
    (a Korean customer gets a Korean list)."""
    shown, hidden = [], []
    for t in idx.tools:
        if t.demo:
            hidden.append({"tool": t.name, "why": "its description says it is not for real use"})
        elif t.summary.strip():
            shown.append(t)
        else:
            hidden.append({"tool": t.name, "why": "no description"})
    same = [t for t in shown if korean.has_hangul(t.summary) == ko]
    if same and len(same) < len(shown):
        hidden += [
            {"tool": t.name, "why": "described in another language than the question"}
            for t in shown
            if t not in same
        ]
        shown = same
    return shown, hidden


def _capabilities_text(tools: list[ToolIndex], ko: bool) -> str:
    """What the tools can do, in the question's language: Korean descriptions as phrases of a
    Korean sentence; descriptions in another language quoted as written after a Korean lead-in
    (never glued into a Korean sentence with a particle); English as "I can help with: …"."""
    phrases: list[str] = []
    more = False
    quoted = ko and not any(korean.has_hangul(t.summary) for t in tools)
    for t in tools:  # distinct phrases, stopping once one more than shown is known
        p = _sentence(t.summary) if quoted else capability(t.summary)
        if p and p not in phrases:
            if len(phrases) == _MAX_ADVERTISED:
                more = True
                break
            phrases.append(p)
    if not phrases:
        return ""
    if quoted:
        return "이런 일을 도와드릴 수 있어요: " + "; ".join(phrases) + (" 등." if more else ".")
    if ko:
        body = ", ".join(phrases) + (" 등" if more else "")
        return f"{body}{korean.object_particle(body)} 도와드릴 수 있어요."
    return "I can help with: " + "; ".join(phrases) + ("; and more." if more else ".")


_SMALL_TALK_REPLIES: dict[tuple[str | None, bool], str] = {
    ("thanks", True): "천만에요! 더 도와드릴 일이 있으면 말씀해 주세요.",
    ("thanks", False): "You're welcome! Let me know if there is anything else I can help with.",
    ("bye", True): "이용해 주셔서 감사합니다. 좋은 하루 보내세요!",
    ("bye", False): "Thank you, goodbye!",
}


def no_tool_text(idx: DeclIndex, ko: bool, exp: dict[str, Any] | None = None) -> str:
    """The customer-facing answer when no tool fits: a greeting for a greeting, thanks for
    thanks, else an apology; both with what the (advertised) tools can do, in words from
    their first description sentences. No tool names: those, the scores and what was not
    advertised go into ``exp`` (keys ``small_talk``, ``advertised``, ``not_advertised``)."""
    question = (exp or {}).get("question") or ""
    kind = korean.small_talk(question)
    tools, hidden = advertised(idx, ko)
    if exp is not None:
        exp.update(small_talk=kind, advertised=[t.name for t in tools], not_advertised=hidden)
    caps = _capabilities_text(tools, ko)
    if (kind, ko) in _SMALL_TALK_REPLIES:
        return _SMALL_TALK_REPLIES[(kind, ko)]
    if kind == "greeting":
        if ko:
            return "안녕하세요! " + (caps + " " if caps else "") + "무엇을 도와드릴까요?"
        return "Hello! " + (caps + " " if caps else "") + "What can I do for you?"
    if ko:
        head = "죄송합니다. 그 문의는 제가 도와드리기 어려워요."
        return head + (" " + caps if caps else "")
    head = "Sorry, I can't help with that."
    return head + (" " + caps if caps else "")


def _label(spec: ParamSpec) -> str:
    """What to call a parameter to a customer: the head of its description ("도시 이름(영문
    소문자). 예: seoul" -> "도시 이름"), else its name with spaces ("order id")."""
    head = _LABEL_CUT_RE.split(spec.doc or "", maxsplit=1)[0].strip()
    if not head or len(head) > 40:
        head = " ".join(korean.split_identifier(spec.name)) or spec.name
    return head


def _hint(spec: ParamSpec, ko: bool) -> str:
    if spec.enum:
        values = ", ".join(say(v, ko) for v in spec.enum[:6])
        return f" ({values} 중 하나)" if ko else f" (one of: {values})"
    if spec.examples:
        return f" (예: {spec.examples[0]})" if ko else f" (e.g. {spec.examples[0]})"
    return ""


def ask_text(idx: DeclIndex, best: ScoreRow, ko: bool) -> str:
    """Ask the customer for the missing values in their words: an offer from the tool's first
    description sentence, then each value's label and an example (no tool or argument
    names; those are in the explanation's ``asks_for``)."""
    tool = next(t for t in idx.tools if t.name == best.name)
    specs = {s.name: s for s in tool.specs}
    wanted = [specs[m] if m in specs else ParamSpec(m, (), True) for m in best.missing]
    if ko:
        asks = ", ".join(_label(s) + _hint(s, ko) for s in wanted)
        last = _label(wanted[-1])
        particle = korean.object_particle(last)
        if _hint(wanted[-1], ko):
            # the particle goes after the label, before the hint: "도시 이름을 (예: seoul)" reads
            # badly, so put the hints at the end
            asks = ", ".join(_label(s) for s in wanted)
            hints = " ".join(h for h in (_hint(s, ko).strip() for s in wanted) if h)
            return f"{_offer(tool.summary, ko)} {asks}{particle} 알려 주세요 {hints}."
        return f"{_offer(tool.summary, ko)} {asks}{particle} 알려 주세요."
    said = [f"the {_english_label(s)}{_hint(s, ko)}" for s in wanted]
    asks = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    return f"{_offer(tool.summary, ko)} Please tell me {asks}."


def _english_label(spec: ParamSpec) -> str:
    """A noun phrase for an English question: the description's head without its article
    ("The loan identifier, like \"L-1001\"" -> "loan identifier"), or the parameter's name
    words when the head is not a noun phrase ("How many days ..." -> "days") or is long."""
    head = _ARTICLE_RE.sub("", _label(spec)).strip()
    if not head or _NOT_A_NOUN_RE.match(head) or len(head.split()) > 6:
        head = " ".join(korean.split_identifier(spec.name)) or spec.name
    if head[:1].isupper() and not head[1:2].isupper():
        head = head[:1].lower() + head[1:]
    return head


def say(value: Any, ko: bool, limit: int = 120) -> str:
    """``value`` as a reader sees it in a reply, never a Python repr: ``True``/``False`` ->
    예/아니오 (Korean) or yes/no, ``None`` -> 없음/none, strings as they are, numbers, lists
    and dicts as compact JSON (``ensure_ascii=False``, Korean kept), cut to ``limit``
    characters with "…". Used by the router's and the loop's reply text."""
    if isinstance(value, bool):
        return ("예" if value else "아니오") if ko else ("yes" if value else "no")
    if value is None:
        return "없음" if ko else "none"
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(
                value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str
            )
        except (TypeError, ValueError):
            text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _facts(d: dict[str, Any], ko: bool, limit: int = 8) -> str:
    parts = []
    for k, v in d.items():
        if k in {"found", "message", "note"} or (isinstance(v, (dict, list)) and not v):
            continue
        parts.append(f"{k}: {say(v, ko, 80)}")
        if len(parts) >= limit:
            break
    return ", ".join(parts)


def summarize(results: list[ToolResult], ko: bool) -> str:
    """A text reply stating the key facts of ``results`` (never inventing any): errors say what
    failed, empty / ``found: False`` say nothing was found (with the tool's own message or note)."""
    out = []
    for r in results:
        v = r.value
        if not r.ok:
            # an MCP server's own error: its text (what the model read), not the code
            said = say(r.message, ko, 200) if r.error == "raised:isError" and r.message else r.error
            extra = (
                (" 잠시 후 다시 시도해 주세요." if ko else " Please try again later.")
                if r.kind == "transient"
                else ""
            )
            out.append(
                (
                    f"{r.name} 호출이 실패했습니다 ({r.kind}): {said}."
                    if ko
                    else f"{r.name} failed ({r.kind}): {said}."
                )
                + extra
            )
            continue
        rows = rows_of(v) if isinstance(v, (list, dict)) else []
        listy = isinstance(v, list) or (
            isinstance(v, dict)
            and any(isinstance(x, list) and (not x or isinstance(x[0], dict)) for x in v.values())
        )
        note = v.get("message") or v.get("note") if isinstance(v, dict) else None
        note = say(note, ko, 200) if note else None
        empty = (
            r.kind == "empty"
            or (isinstance(v, dict) and v.get("found") is False)
            or (listy and not rows)
            or v in (None, [], {})
        )
        if empty:
            head = (
                f"{r.name}: 조회 결과 찾을 수 없습니다." if ko else f"{r.name}: nothing was found."
            )
            out.append(head + (f" {note}" if note else ""))
            continue
        if listy:
            shown = "; ".join(_facts(row, ko, 4) for row in rows[:3])
            head = f"{r.name} 결과 {len(rows)}건: " if ko else f"{r.name} found {len(rows)}: "
            out.append(head + shown + (f" ({note})" if note else ""))
        elif isinstance(v, dict):
            facts = _facts(v, ko)
            out.append(
                f"{r.name} 결과 — " + facts + (f". {note}" if note else "")
                if ko
                else f"{r.name} result — " + facts + (f". {note}" if note else "")
            )
        else:
            out.append(f"{r.name} 결과: {say(v, ko)}" if ko else f"{r.name} result: {say(v, ko)}")
    return "\n".join(out)
