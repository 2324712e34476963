"""Issue 12, second round: an optional parameter does not take a value its description quotes
when the question names that word as a thing the user has ("the exports for my bot" is no
filterName 'Bot'); "a roast chicken" still gives 'roast'."""

from __future__ import annotations

from typing import Any

from tests.routing.helpers import args_of


def exports() -> dict[str, Any]:
    return {
        "name": "list_exports",
        "description": "Lists the exports for a bot.",
        "parameters": {
            "type": "object",
            "properties": {
                "botId": {"type": "string", "description": "The unique identifier of the bot."},
                "filterName": {
                    "type": "string",
                    "description": "The name of the field to filter the exports by. Possible "
                    "values are 'Bot', 'BotLocale', or 'CustomVocabulary'.",
                    "default": None,
                },
            },
            "required": ["botId"],
        },
    }


def test_a_word_the_user_owns_is_no_listed_option() -> None:
    args = args_of("Could you retrieve the list of exports for my bot with ID 'B12345'?", exports())
    assert args == {"botId": "B12345"}


def test_a_listed_option_said_plainly_is_taken() -> None:
    args = args_of("List the exports with ID 'B12345', filtered by Bot", exports())
    assert args == {"botId": "B12345", "filterName": "Bot"}
