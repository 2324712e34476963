"""Secrets never at rest (issue 28 item 5): what is cut out of every stored or printed form.

Two rules, applied to records, episodes, history entries, golden files and case lines (the body
still receives the real values; only the JSON forms are redacted):

* **By name.** A value whose key means a secret — the key's last word, or its last two words
  joined, is one of :data:`SECRET_WORDS` (``password``, ``token``, ``api_key``, ``apiKey``,
  ``X-Api-Key``, ``client_secret``, ``Authorization``, ``Cookie``, …; case- and
  separator-insensitive, camelCase split) — at any depth becomes ``"[redacted]"`` (a string,
  a number; a list or object under such a key has each of its strings and numbers redacted).
  ``max_tokens`` or ``password_hint`` are not secrets: their last word is not one.
* **By look.** Any string anywhere has what looks like a key replaced: OpenAI/Anthropic-style
  ``sk-…``, GitHub ``ghp_…``/``github_pat_…``, AWS ``AKIA…``, Google ``AIza…``, Slack
  ``xox?-…``, JSON Web Tokens and the credential after ``Bearer``/``Basic``
  (:data:`KEY_PATTERN`).

The values found by name in a call's arguments (:func:`secret_values`, at least
:data:`MIN_SECRET_CHARS` long) are also cut out of every other string of the same record —
what the body printed, an error message quoting them, the canonical argument text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

REDACTED = "[redacted]"

#: The words (lower case, separators removed) that make a key a secret's name.
SECRET_WORDS = frozenset(
    {
        "password",
        "passwd",
        "passphrase",
        "pwd",
        "secret",
        "token",
        "apikey",
        "authorization",
        "auth",
        "cookie",
        "cookies",
        "setcookie",
        "credential",
        "credentials",
        "privatekey",
        "secretkey",
        "accesskey",
        "sessionkey",
        "signingkey",
        "clientsecret",
    }
)

#: Strings that look like a credential, whatever their key.
KEY_PATTERN = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    r"sk-[A-Za-z0-9_-]{8,}"  # OpenAI, Anthropic (sk-ant-...), Stripe-style
    r"|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"  # GitHub
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}"  # AWS access key ids
    r"|AIza[0-9A-Za-z_-]{30,}"  # Google API keys
    r"|xox[abeprs]-[A-Za-z0-9-]{10,}"  # Slack
    r"|eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*"  # JSON Web Tokens
    r")"
    r"|(?<=Bearer )[^\s\"',;]+|(?<=Basic )[A-Za-z0-9+/=]{8,}",
    re.IGNORECASE,
)

#: A secret value found by name is cut out of other strings when at least this long.
MIN_SECRET_CHARS = 4

_WORD_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def is_secret_name(name: object) -> bool:
    """Whether a key ``name`` means a secret (see the module's "By name" rule)."""
    if not isinstance(name, str) or not name:
        return False
    words = [w.lower() for w in _WORD_RE.findall(name)]
    if not words:
        return False
    joined = "".join(words)
    return (
        joined in SECRET_WORDS
        or words[-1] in SECRET_WORDS
        or (len(words) > 1 and words[-2] + words[-1] in SECRET_WORDS)
    )


def secret_values(value: Any) -> set[str]:
    """The strings (and numbers, as text) under secret names anywhere in ``value``, and every
    key-looking part of its strings: what must be cut out of the other forms of a call."""
    found: set[str] = set()

    def walk(v: Any, secret: bool) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, secret or is_secret_name(k))
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x, secret)
        elif isinstance(v, str):
            if secret and len(v) >= MIN_SECRET_CHARS:
                found.add(v)
            found.update(m.group() for m in KEY_PATTERN.finditer(v))
        elif secret and isinstance(v, (int, float)) and not isinstance(v, bool):
            text = str(v)
            if len(text) >= MIN_SECRET_CHARS:
                found.add(text)

    walk(value, False)
    return found


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with each of ``secrets`` (longest first) and every key-looking part replaced
    by ``[redacted]``."""
    for secret in sorted(secrets, key=len, reverse=True):
        if secret and secret in text:
            text = text.replace(secret, REDACTED)
    if _may_hold_key(text):
        text = KEY_PATTERN.sub(REDACTED, text)
    return text


def _may_hold_key(text: str) -> bool:
    """A substring pre-check for :data:`KEY_PATTERN` (a regular expression scan of megabytes
    is slow; ``in`` is not)."""
    low = text.lower()
    return any(h in low for h in _KEY_HINTS)


#: Lower-case text a secret's name could contain (a superset of :func:`is_secret_name`'s
#: words): absent from a value's JSON text → no key in it is a secret's name.
_SECRET_NAME_HINTS = (
    "pass", "pwd", "secret", "token", "key", "auth", "cookie", "credential",
)  # fmt: skip
#: Lower-case text every match of :data:`KEY_PATTERN` contains.
_KEY_HINTS = (
    "sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "akia", "asia", "aiza",
    "xox", "eyj", "bearer ", "basic ",
)  # fmt: skip


def needs_redaction(value: Any, secrets: Iterable[str] = ()) -> bool:
    """Whether :func:`redact` may change ``value``, decided on its JSON text with substring
    searches (C speed: a 30 MB result is not walked in Python when it holds nothing to
    redact). ``True`` when in doubt (a value that is not JSON, a hint of a secret's name or of
    a key anywhere)."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (ValueError, TypeError, RecursionError):
        return True
    if any(s and s in text for s in secrets):
        return True
    low = text.lower()
    return any(h in low for h in _SECRET_NAME_HINTS) or any(h in low for h in _KEY_HINTS)


def redact(value: Any, secrets: Iterable[str] = ()) -> Any:
    """``value`` (JSON-like) with values under secret names replaced by ``"[redacted]"`` and
    :func:`redact_text` applied to every other string (and key). Booleans and ``None`` are
    kept; tuples become lists. ``value`` is unchanged: the result is a new value, or ``value``
    itself when nothing in it is to be redacted (:func:`needs_redaction`)."""
    cut = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not needs_redaction(value, cut):
        return value

    def walk(v: Any, secret: bool) -> Any:
        if isinstance(v, str):
            return REDACTED if secret else redact_text(v, cut)
        if isinstance(v, dict):
            return {
                (redact_text(k, cut) if isinstance(k, str) else k): walk(
                    x, secret or is_secret_name(k)
                )
                for k, x in v.items()
            }
        if isinstance(v, (list, tuple)):
            return [walk(x, secret) for x in v]
        if secret and isinstance(v, (int, float)) and not isinstance(v, bool):
            return REDACTED
        return v

    return walk(value, False)


def redact_json_text(text: str, secrets: Iterable[str] = ()) -> str:
    """A JSON document's text (``canonical_args``) redacted as :func:`redact` does, written
    back in the same compact, key-sorted form; text that is not JSON gets :func:`redact_text`."""
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return redact_text(text, secrets)
    cleaned = redact(parsed, secrets)
    if cleaned == parsed:
        return redact_text(text, secrets)
    return json.dumps(cleaned, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def redact_record(data: dict[str, Any], args: Any) -> dict[str, Any]:
    """A call record's JSON (``CallRecord`` as a dict) with the secrets of its ``args``
    (:func:`secret_values`) and every key-looking string redacted in every field;
    ``canonical_args`` stays canonical JSON (:func:`redact_json_text`)."""
    secrets = secret_values(args)
    canonical = data.get("canonical_args")
    out = {key: redact(field, secrets) for key, field in data.items()}
    if isinstance(canonical, str):
        out["canonical_args"] = redact_json_text(canonical, secrets)
    return out


#: a URL's ``scheme://user:password@``
_URL_USERINFO = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s]+@")
#: ``?name=value`` / ``&name=value`` of a URL
_QUERY_PARAM = re.compile(r"([?&;])([^=&#;\s]+)=([^&#;\s]*)")
#: ``--name=value`` / ``--name value`` / ``-name value`` of a command line
_OPTION = re.compile(r"(?<!\S)(--?[A-Za-z][\w.-]*)(=|\s+)(?!-)(\S+)")


#: Query parameter names that carry a credential beyond :func:`is_secret_name`'s: ``?key=``,
#: the Gemini API's alternative to its ``x-goog-api-key`` header.
SECRET_QUERY_NAMES = frozenset({"key"})


def is_secret_query(name: str) -> bool:
    """Whether a URL's query parameter ``name`` carries a secret: :func:`is_secret_name`, or
    one of :data:`SECRET_QUERY_NAMES` (case-insensitive)."""
    return is_secret_name(name) or name.lower() in SECRET_QUERY_NAMES


def redact_url(text: str) -> str:
    """``text`` with each URL's ``user:password@`` and the values of its query parameters that
    carry a secret (:func:`is_secret_query`: ``?key=…&api_key=…&token=…``) as
    ``[redacted]``; the rest of the text (other parameters, their encoding) is left as it is.
    The one rule for a URL shown or stored: a dry run's captured request, an MCP server's
    URL, a stored command line."""
    if "://" not in text:
        return text
    text = _URL_USERINFO.sub(rf"\1{REDACTED}@", text)
    return _QUERY_PARAM.sub(
        lambda m: f"{m[1]}{m[2]}={REDACTED}" if is_secret_query(m[2]) else m[0], text
    )


def url_secrets(url: str) -> list[str]:
    """The secret parts of ``url`` as they are written in it: the user info before ``@`` and
    the value of each query parameter that carries a secret (:func:`is_secret_query`), for
    cutting them out of text that quotes them alone."""
    found = [m[0][len(m[1]) : -1] for m in _URL_USERINFO.finditer(url)]
    found += [m[3] for m in _QUERY_PARAM.finditer(url) if is_secret_query(m[2]) and m[3]]
    return found


def redact_url_and_options(text: str) -> str:
    """``text`` with its URLs' secrets (:func:`redact_url`) and the values of command-line
    options whose names mean one (``--token=…``, ``--password …``, ``--api-key …``) as
    ``[redacted]``: an ``--mcp`` command line and an ``--mcp-url`` are stored and printed
    without them."""
    text = redact_url(text)
    if "-" in text:
        text = _OPTION.sub(
            lambda m: f"{m[1]}{m[2]}{REDACTED}" if is_secret_name(m[1].lstrip("-")) else m[0], text
        )
    return text
