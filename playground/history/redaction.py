"""What is cut out of a history entry before it is stored: header values, API keys, secrets.

Dict entries under :data:`SECRET_KEYS`, the values of the provider key variables
(:data:`SECRET_ENV`), a URL's ``user:password@`` and secret query parameters, and the values
of secret command-line options become ``[redacted]``
(:func:`playground.core.redaction.redact_url_and_options`); then
the core's
:func:`playground.core.redaction.redact` (secret names at any depth, key-looking strings).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from playground.core import redaction

#: Dict keys whose values are never stored (compared lower-case, ``-`` read as ``_``).
SECRET_KEYS = frozenset(
    {
        "headers",
        "authorization",
        "proxy_authorization",
        "api_key",
        "apikey",
        "x_goog_api_key",
        "x_api_key",
        "cookie",
        "set_cookie",
    }
)
#: Environment variables whose values are cut out of every stored string.
SECRET_ENV = ("GEMINI_API_KEY", "GOOGLE_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY")
REDACTED = "[redacted]"


def redact(value: Any, secrets: Iterable[str] = ()) -> Any:
    """``value`` with header values and keys removed, for storing.

    Dict entries under :data:`SECRET_KEYS` become ``"[redacted]"``; every string has each of
    ``secrets`` (the values of :data:`SECRET_ENV` when set, at least 8 characters) and a URL's
    ``user:password@`` replaced by ``[redacted]``; then
    :func:`playground.core.redaction.redact`: values under secret names (``password``,
    ``token``, ``client_secret``, … at any depth) and key-looking strings. Returns a new value;
    ``value`` is unchanged.
    """
    cut = [s for s in secrets if len(s) >= 8]

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            for secret in cut:
                if secret in v:
                    v = v.replace(secret, REDACTED)
            return redaction.redact_url_and_options(v)
        if isinstance(v, dict):
            return {
                k: (
                    REDACTED
                    if isinstance(k, str) and k.lower().replace("-", "_") in SECRET_KEYS
                    else walk(x)
                )
                for k, x in v.items()
            }
        if isinstance(v, (list, tuple)):
            return [walk(x) for x in v]
        return v

    return redaction.redact(walk(value))


def env_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """The values of :data:`SECRET_ENV` set in ``environ`` (default ``os.environ``)."""
    env = os.environ if environ is None else environ
    return [env[name] for name in SECRET_ENV if env.get(name)]
