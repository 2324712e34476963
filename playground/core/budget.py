"""The size budget of a result: a warning when the wire JSON a model reads back is huge.

A tool result stays in the conversation and is re-sent on every turn (seed 000), and clients cap
it: Claude Code limits MCP tool output to 25,000 tokens by default (``MAX_MCP_OUTPUT_TOKENS``;
Claude Code docs, "Connect Claude Code to tools via MCP", "MCP output limits and warnings"). A
result over the budget is still ``ok`` — the contract's ``max_rows`` / ``max_bytes`` stay the hard
limits — but its record carries a warning that ``call``, ``probe``, ``report`` and the TUI show.

The budget is :data:`DEFAULT_TOKEN_BUDGET` approximate tokens
of the result JSON a model reads (:func:`playground.core.wire.result_tokens`), or ``PLAYGROUND_TOKEN_BUDGET`` from the environment,
or the ``Gate``'s ``token_budget``.
"""

from __future__ import annotations

#: Approximate tokens of result JSON before a result gets a warning (Claude Code's MCP default).
DEFAULT_TOKEN_BUDGET = 25_000


def token_budget_from_env() -> int:
    """``PLAYGROUND_TOKEN_BUDGET`` as a positive integer, else :data:`DEFAULT_TOKEN_BUDGET`
    when unset. Raises :class:`~playground.errors.UsageError` naming the variable for a value
    that is not a whole number above 0 (:mod:`playground.core.settings`)."""
    from playground.core.settings import setting

    budget: int = setting("PLAYGROUND_TOKEN_BUDGET", DEFAULT_TOKEN_BUDGET)
    return budget


def size_warning(tool: str, tokens: int, budget: int) -> str:
    """The warning for a result of ``tokens`` approximate tokens, or ``""`` within ``budget``."""
    if tokens <= budget:
        return ""
    return (
        f"result:over_budget: {tool} returned about {tokens:,} tokens of result JSON, over the "
        f"budget of {budget:,} (Claude Code caps MCP tool output at 25,000 tokens by default): "
        "declare max_rows / max_bytes in its returns, or give it a limit argument."
    )
