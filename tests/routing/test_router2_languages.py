"""Issue 12, second round: a parameter whose enum values or examples are language codes gets
the code of the language the question names (ISO 639 data from pycountry): "in Spanish" ->
``es-ES``; "from English to French" -> ``en`` for the source and ``fr`` for the target."""

from __future__ import annotations

from playground.routing import languages
from tests.routing.helpers import call

SPEECH = {
    "name": "text_to_speech.convert",
    "description": "Converts input text into spoken audio.",
    "parameters": {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "The text to be converted to speech."},
            "language": {
                "type": "string",
                "description": "The language of the input text, use default if nothing specified",
                "enum": ["en-US", "es-ES", "de-DE", "fr-FR", "it-IT"],
                "default": "en-US",
            },
        },
        "required": ["text"],
    },
}
TRANSLATE = {
    "name": "language_translator.translate",
    "description": "Translate text from a source language to a target language using an "
    "online translation service.",
    "parameters": {
        "type": "object",
        "properties": {
            "source_language": {
                "type": "string",
                "description": "The language code of the source text, such as 'en' for English "
                "or 'hi' for Hindi.",
                "enum": ["en", "hi", "es", "fr", "de"],
            },
            "target_language": {
                "type": "string",
                "description": "The language code for the desired target translation, such as "
                "'hi' for Hindi or 'id' for Indonesian.",
                "enum": ["hi", "id", "es", "fr", "de"],
            },
            "text": {"type": "string", "description": "The text to be translated."},
        },
        "required": ["source_language", "target_language", "text"],
    },
}


def test_a_language_named_gives_the_enum_code() -> None:
    args, evidence = call(
        "Convert the phrase 'I am a pretty girl' into spoken audio in Spanish?", SPEECH
    )
    assert args["language"] == "es-ES"
    assert evidence["language"]["detail"] == "Spanish -> es from pycountry"


def test_source_and_target_take_the_language_after_from_and_to() -> None:
    args, _evidence = call(
        "Can you help me convert this sentence from English to French: 'What is your name?'",
        TRANSLATE,
    )
    assert (args["source_language"], args["target_language"]) == ("en", "fr")
    assert args["text"] == "What is your name?"


def test_only_language_code_parameters_take_codes() -> None:
    assert languages.wants_code("language", "", ["en-US", "es-ES"])
    assert not languages.wants_code("unit", "", ["en", "fr"])  # not about a language
    assert not languages.wants_code("language", "", ["English", "Spanish"])  # not codes
    assert [n.code for n in languages.named("from German into Hindi", [])] == ["de", "hi"]
    assert languages.named("a spanish omelette", []) == []  # a proper name is capitalised
