"""MCP content blocks in each provider's tool-result format, and what images cost in tokens.

An MCP ``tools/call`` result carries content blocks (text, image, audio, resource_link,
embedded resource; MCP spec 2025-11-25, "Tools: tool result"). Each provider's tool-result
format carries a different subset (issue 21, item 2); where a format cannot carry a block the
wire says so in a text part in the block's place, and :func:`content_gaps` gives the warning
for the record:

* Gemini: a ``FunctionResponse`` with ``parts`` of ``inline_data`` (``FunctionResponseBlob``:
  ``mime_type``, base64 ``data``) for images and documents (Gemini API, "Function calling:
  multimodal function responses": image/png, image/jpeg, image/webp, application/pdf,
  text/plain). google-genai's JSON dump writes bytes as URL-safe base64, as here.
* Anthropic: ``tool_result.content`` as a list of ``text`` and ``image`` blocks (``source``:
  ``{"type": "base64", "media_type", "data"}``; jpeg, png, gif, webp) and ``document`` blocks
  for PDFs (Messages API, "Tool use: tool_result content"; "Vision"; "PDF support").
* OpenAI: Chat Completions ``tool`` messages carry text only, so a result with an image or a
  file is the Responses API ``function_call_output`` item, whose ``output`` is a list of
  ``input_text``, ``input_image`` (a ``data:`` URL) and ``input_file`` items (OpenAI
  Responses API reference, "function_call_output").

No provider's tool result carries audio.

Image tokens (:func:`image_tokens`), from each provider's published rule:

* Anthropic ("Vision: calculate image costs"): an image over 1568 px on its long edge is scaled
  down to it; tokens = width × height / 750.
* OpenAI ("Images and vision: calculating costs", GPT-4o / 4.1 at ``detail: high``, the
  default ``auto`` for large images): fit in 2048 × 2048, then the short side to 768; 85 + 170
  per 512 px tile.
* Gemini ("Image understanding: tokens"): 258 tokens when both sides are ≤ 384 px, else 258
  per 768 × 768 tile.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
from typing import Any

#: Image types each provider's tool result takes (the documents of the module docstring).
IMAGE_TYPES = {
    "gemini": frozenset({"image/png", "image/jpeg", "image/webp"}),
    "anthropic": frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"}),
    "openai": frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"}),
}
#: Document (file) types each provider's tool result takes.
FILE_TYPES = {
    "gemini": frozenset({"application/pdf", "text/plain"}),
    "anthropic": frozenset({"application/pdf"}),
    "openai": frozenset({"application/pdf"}),
}
_NAMES = {"gemini": "Gemini", "anthropic": "Anthropic", "openai": "OpenAI"}


def _data_of(block: dict[str, Any]) -> tuple[str, str] | None:
    """``(mimeType, base64 data)`` of a binary block (image, audio, blob resource), else None."""
    if block.get("type") in ("image", "audio"):
        return str(block.get("mimeType") or ""), str(block.get("data") or "")
    resource = block.get("resource")
    if block.get("type") == "resource" and isinstance(resource, dict) and "blob" in resource:
        return str(resource.get("mimeType") or ""), str(resource.get("blob") or "")
    return None


def has_binary(blocks: list[dict[str, Any]]) -> bool:
    """Whether any block carries binary data (so the plain-JSON result would lose it)."""
    return any(_data_of(b) is not None for b in blocks if isinstance(b, dict))


def _bytes(data: str) -> bytes:
    try:
        return base64.b64decode(data, validate=False)
    except (binascii.Error, ValueError):
        return b""


def strict_bytes(data: str) -> bytes | None:
    """The bytes of ``data`` when it is base64 (RFC 4648; line breaks and spaces allowed), as
    the MCP spec says a binary block's ``data`` / ``blob`` is; ``None`` when it is not."""
    try:
        return base64.b64decode("".join(data.split()), validate=True)
    except (binascii.Error, ValueError):
        return None


def valid_base64(data: str) -> bool:
    """Whether ``data`` is base64 (:func:`strict_bytes` decodes it)."""
    return strict_bytes(data) is not None


def _carried(provider: str, mime: str, kind: str) -> str:
    """``"image"``, ``"file"`` or ``""`` (not carried) for a binary block in ``provider``."""
    if kind == "image" and mime in IMAGE_TYPES[provider]:
        return "image"
    if mime in FILE_TYPES[provider]:
        return "file"
    return ""


def _a(word: str) -> str:
    """``word`` with its English indefinite article: "an image", "an audio", "a resource"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _not_carried(provider: str, block: dict[str, Any]) -> str:
    mime, data = _data_of(block) or ("", "")
    what = block.get("type")
    return (
        f"[{_a(str(what))} block ({mime or 'no mimeType'}, {len(_bytes(data))} bytes) is not "
        "carried: "
        f"{_NAMES[provider]} tool results take no {mime or what}]"
    )


def _text_of(block: dict[str, Any]) -> str:
    if block.get("type") == "text":
        return str(block.get("text") or "")
    if block.get("type") == "resource" and isinstance(block.get("resource"), dict):
        resource = block["resource"]
        if "text" in resource:
            return str(resource["text"])
    shown = {k: v for k, v in block.items() if k not in ("data", "_meta")}
    return json.dumps(shown, ensure_ascii=False, separators=(",", ":"))


def content_gaps(blocks: list[dict[str, Any]]) -> list[str]:
    """One warning per block a provider's tool-result format cannot carry, naming the block
    and the providers (``[]`` when every format carries every block)."""
    warnings = []
    for index, block in enumerate(blocks):
        found = _data_of(block) if isinstance(block, dict) else None
        if found is None:
            continue
        mime, data = found
        if not valid_base64(data):
            warnings.append(
                f"content[{index}] ({block.get('type')}, {mime or 'no mimeType'}): its data is not "
                "base64, as the MCP spec requires: Gemini's wire JSON leaves the block out and "
                "says so; Anthropic's and OpenAI's carry the text as the server sent it"
            )
            continue
        kind = "image" if block.get("type") == "image" else "file"
        missing = [_NAMES[p] for p in _NAMES if not _carried(p, mime, kind)]
        if missing:
            warnings.append(
                f"content[{index}] ({block.get('type')}, {mime or 'no mimeType'}) is not carried "
                f"by the {', '.join(missing)} tool-result format: its wire JSON says so in its "
                "place"
            )
    return warnings


def gemini_parts(blocks: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """``(parts, notes)``: the ``FunctionResponsePart`` list (``inline_data``) for the binary
    blocks Gemini carries, and a note for each it does not (for ``response``)."""
    parts, notes = [], []
    for block in blocks:
        found = _data_of(block)
        if found is None:
            continue
        mime, data = found
        kind = "image" if block.get("type") == "image" else "file"
        raw = strict_bytes(data)  # decoded once: a block can be megabytes
        if raw is None:  # no bytes to carry: never an empty inline_data
            notes.append(
                f"[{_a(str(block.get('type')))} block ({mime or 'no mimeType'}) whose data is "
                "not base64 is not carried]"
            )
        elif _carried("gemini", mime, kind):
            parts.append(
                {"inline_data": {"mime_type": mime, "data": base64.urlsafe_b64encode(raw).decode()}}
            )
        else:
            notes.append(_not_carried("gemini", block))
    return parts, notes


def anthropic_content(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``tool_result.content`` list: text, image (base64 source) and document blocks, a
    text block in place of what Anthropic does not take."""
    content: list[dict[str, Any]] = []
    for block in blocks:
        found = _data_of(block)
        if found is None:
            content.append({"type": "text", "text": _text_of(block)})
            continue
        mime, data = found
        kind = "image" if block.get("type") == "image" else "file"
        carried = _carried("anthropic", mime, kind)
        source = {"type": "base64", "media_type": mime, "data": data}
        if carried == "image":
            content.append({"type": "image", "source": source})
        elif carried == "file":
            content.append({"type": "document", "source": source})
        else:
            content.append({"type": "text", "text": _not_carried("anthropic", block)})
    return content


def openai_output(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Responses API ``function_call_output.output`` list: ``input_text``,
    ``input_image`` (``data:`` URL) and ``input_file`` items, an ``input_text`` in place of
    what OpenAI does not take."""
    items: list[dict[str, Any]] = []
    for index, block in enumerate(blocks):
        found = _data_of(block)
        if found is None:
            items.append({"type": "input_text", "text": _text_of(block)})
            continue
        mime, data = found
        kind = "image" if block.get("type") == "image" else "file"
        carried = _carried("openai", mime, kind)
        if carried == "image":
            items.append({"type": "input_image", "image_url": f"data:{mime};base64,{data}"})
        elif carried == "file":
            items.append(
                {
                    "type": "input_file",
                    "filename": f"content_{index}.pdf",
                    "file_data": f"data:{mime};base64,{data}",
                }
            )
        else:
            items.append({"type": "input_text", "text": _not_carried("openai", block)})
    return items


def image_size(data: str) -> tuple[int, int] | None:
    """``(width, height)`` in pixels of base64 image ``data``, read from its header by
    ``imagesize``; ``None`` when unreadable."""
    import imagesize

    raw = _bytes(data)
    if not raw:
        return None
    try:
        width, height = imagesize.get(io.BytesIO(raw))
    except Exception:
        return None
    return (width, height) if width > 0 and height > 0 else None


def image_tokens(provider: str, width: int, height: int) -> int:
    """Tokens one ``width`` × ``height`` image costs at ``provider`` (module docstring rules)."""
    if provider == "anthropic":
        scale = min(1.0, 1568 / max(width, height))
        return math.ceil((width * scale) * (height * scale) / 750)
    if provider == "openai":
        scale = min(1.0, 2048 / max(width, height))
        w, h = width * scale, height * scale
        scale = min(1.0, 768 / min(w, h))
        w, h = w * scale, h * scale
        return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)
    if width <= 384 and height <= 384:
        return 258
    return 258 * math.ceil(width / 768) * math.ceil(height / 768)


def binary_tokens(provider: str, blocks: list[dict[str, Any]]) -> int:
    """Tokens the carried images of ``blocks`` cost at ``provider`` (an image whose size
    cannot be read counts as a 512 × 512 one); documents and blocks not carried count 0
    here (their text stand-ins are counted with the JSON)."""
    total = 0
    for block in blocks:
        found = _data_of(block)
        if found is None or block.get("type") != "image":
            continue
        mime, data = found
        if not _carried(provider, mime, "image"):
            continue
        width, height = image_size(data) or (512, 512)
        total += image_tokens(provider, width, height)
    return total
