"""An MCP image or blob whose ``data`` is not base64 (the spec requires it): the record
warned of nothing, the outcome was ``ok`` and Gemini's wire JSON showed an image with
``data: ""`` — an empty picture presented as what the server sent. Now the record says the
data is not base64, and Gemini's wire leaves the block out, saying so in its place."""

from __future__ import annotations

from playground.core.wire_content import content_gaps, gemini_parts, valid_base64

BAD = {"type": "image", "data": "!!!not base64%%%", "mimeType": "image/png"}
GOOD = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}


def test_data_that_is_not_base64_is_named_and_never_an_empty_image() -> None:
    assert not valid_base64(BAD["data"]) and valid_base64(GOOD["data"])
    assert valid_base64("iVBO\nRw0K\nGgo=")  # line breaks are allowed
    assert content_gaps([GOOD, BAD]) == [
        "content[1] (image, image/png): its data is not base64, as the MCP spec requires: "
        "Gemini's wire JSON leaves the block out and says so; Anthropic's and OpenAI's carry "
        "the text as the server sent it"
    ]
    parts, notes = gemini_parts([GOOD, BAD])
    assert parts == [{"inline_data": {"mime_type": "image/png", "data": "iVBORw0KGgo="}}]
    assert notes == ["[an image block (image/png) whose data is not base64 is not carried]"]
