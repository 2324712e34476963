"""Issue 12, second round: a string whose description gives a format of labelled parts
('track:SongName artist:ArtistName') is written in that format, each part filled from the
question as a field named by its label and placeholder."""

from __future__ import annotations

from typing import Any

import pytest

from playground.routing.base import Turn
from playground.routing.offline import OfflineRouter


def spotify(doc: str) -> dict[str, Any]:
    return {
        "name": "play_spotify_song",
        "description": "Searches for a song on Spotify and plays it.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": doc}},
            "required": ["query"],
        },
    }


ONE_WORD = spotify(
    "The search query for the song, including track and artist information, in the format "
    "'track:SongName artist:ArtistName', such as 'track:Doxy artist:Miles Davis'."
)
SPACED = spotify(
    "The search query for the song. It should be formatted as 'track:Song Name artist:Artist "
    "Name' for specific searches, or just 'Song Name' if the artist is unknown."
)


@pytest.mark.parametrize(
    ("question", "decl", "want"),
    [
        ("Play the song 'Friends' by Marshmello", ONE_WORD, "track:Friends artist:Marshmello"),
        (
            "I want to listen to 'Dil Nu' by Maninder Buttar. Can you find it on Spotify.",
            SPACED,
            "track:Dil Nu artist:Maninder Buttar",
        ),
    ],
)
def test_a_format_of_labelled_parts_is_filled_part_by_part(
    question: str, decl: dict[str, Any], want: str
) -> None:
    mv = OfflineRouter().next_move([Turn(role="user", text=question)], [decl])
    assert mv.calls[0].args == {"query": want}
    ev = mv.explanation["tools"][0]["arg_evidence"]["query"]
    assert ev["rule"] == "template"
