"""Issue 12, relevance first: whether a tool fits a question is judged from the words of its
declaration -- English words by their Snowball root, words of every script, the share of the
question's topic words a description covers -- and never from a bare number that happens to
equal an enum value.

The declarations are shaped like BFCL's (name, description, JSON Schema parameters); each
question is also put to a tool it is not about, which must not be called.
"""

from __future__ import annotations

import pytest

from playground.routing import korean
from playground.routing.offline import OfflineRouter, structured
from tests.routing.helpers import move, row

MULTIPLY = {
    "name": "multiply",
    "description": "Multiplies two integers and returns the result.",
    "parameters": {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "description": "The first integer to be multiplied."},
            "b": {"type": "integer", "description": "The second integer to be multiplied."},
        },
        "required": ["a", "b"],
    },
}
SERVICE = {
    "name": "get_service_id",
    "description": "Retrieves the unique identifier of a housekeeping service, such as "
    "cleaning or ironing.",
    "parameters": {
        "type": "object",
        "properties": {
            "service_id": {
                "type": "integer",
                "description": "The service: 1 cleaning, 2 ironing, 7 massage.",
                "enum": [1, 2, 7, 13],
            }
        },
        "required": ["service_id"],
    },
}
WEATHER = {
    "name": "Weather_1_GetWeather",
    "description": "Retrieves the weather forecast for a specified city on a particular date.",
    "parameters": {
        "type": "object",
        "properties": {
            "city": {
                "type": "string",
                "description": "The name of the city for which weather information is requested.",
            },
            "date": {
                "type": "string",
                "description": "The date for which weather information is requested, in the "
                "format of 'YYYY-MM-DD'.",
                "default": "2019-03-01",
            },
        },
        "required": ["city"],
    },
}
ARTIST = {
    "name": "play_artist",
    "description": "Initiate playback of all tracks associated with the specified artist.",
    "parameters": {
        "type": "object",
        "properties": {
            "artist_name": {
                "type": "string",
                "description": "The name of the artist whose tracks are to be played.",
            }
        },
        "required": ["artist_name"],
    },
}


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("multiplication", "multiply", (0.7, "root prefix")),
        ("execution", "executes", (0.85, "root")),
        ("arranged", "arrange", (0.85, "root")),
        ("forecast", "weather", (0.0, "")),
        ("주문", "주문번호", (0.0, "")),  # not English: Hangul matches by korean.match_quality
        ("spec", "specify", (0.0, "")),  # a root shorter than 5 letters never begins another
    ],
)
def test_english_words_match_by_their_snowball_root(a, b, want):
    assert korean.root_quality(a, b) == want


def test_roots_are_snowball_english():
    assert [korean.root(w) for w in ("multiplication", "multiplies", "executes", "sorted")] == [
        "multipl",
        "multipli",
        "execut",
        "sort",
    ]
    assert korean.root("주문") == "주문" and korean.root("HR1") == "HR1"


def test_a_generic_verb_is_told_by_its_root():
    assert korean.is_generic("calculating") and korean.is_generic("execution")
    assert not korean.is_generic("multiply") and not korean.is_generic("weather")


def test_the_multiplication_of_3_and_2_calls_multiply():
    mv = move("What is the multiplication of 3 and 2", MULTIPLY)
    assert [(c.name, c.args) for c in mv.calls] == [("multiply", {"a": 3, "b": 2})]
    matched = row(mv, "multiply")["matched"][0]
    assert (matched["word"], matched["where"], matched["how"]) == (
        "multiplication",
        "name",
        "root prefix",
    )
    assert matched["points"] == 2.1  # name 3.0 x root prefix 0.7


def test_a_small_number_equal_to_an_enum_value_does_not_make_a_tool_fit():
    # BFCL should-not pair: the question is not about housekeeping services
    mv = move("What is the multiplication of 3 and 2", SERVICE)
    assert mv.calls == []
    assert row(mv, "get_service_id")["arg_evidence"]["service_id"]["rule"] == "enum"
    assert "not about it" in mv.explanation["reason"]


@pytest.mark.parametrize(
    ("evidence", "want"),
    [
        ({"rule": "enum", "text": "2"}, False),
        ({"rule": "example", "text": "-3.5"}, False),
        ({"rule": "enum", "text": "celsius"}, True),
        ({"rule": "pattern", "text": "HR20260601"}, True),
        ({"rule": "example", "text": "L-1001"}, True),
        ({"rule": "free_text", "text": "What is your name?"}, False),
        ({"rule": "default", "text": "N/A"}, False),
        ({"rule": "position", "text": "Pacifica"}, False),
    ],
)
def test_which_evidence_shows_the_question_is_about_a_tool(evidence, want):
    assert structured(evidence) is want


def test_one_description_word_covering_the_question_fits():
    mv = move("Can you tell me the forecast for Pacifica on April 11th, 2023?", WEATHER)
    assert [(c.name, c.args) for c in mv.calls] == [
        ("Weather_1_GetWeather", {"city": "Pacifica", "date": "2023-04-11"})
    ]
    r = row(mv, "Weather_1_GetWeather")
    assert r["relevance"] == 1.0
    assert r["covered"] == [1, 1]  # forecast; the city and the date are values
    assert mv.explanation["reason"].endswith(
        "its words give relevance 1.0 and match 1 of the question's 1 topic words"
    )


def test_one_description_word_among_many_topic_words_does_not_fit():
    # the same single word, but most of what the question asks about is not in the declaration
    mv = move(
        "Could you draft an email to Andy with the subject 'Sales Forecast' and attach the "
        "quarterly revenue report?",
        WEATHER,
    )
    assert mv.calls == []
    covered, topic = row(mv, "Weather_1_GetWeather")["covered"]
    assert covered == 1 and topic >= 4


def test_a_name_with_diacritics_is_one_word_and_one_value():
    mv = move("I'd like to listen to all tracks by Käärijä.", ARTIST)
    assert [(c.name, c.args) for c in mv.calls] == [("play_artist", {"artist_name": "Käärijä"})]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("tracks by Käärijä in Zürich", ["tracks", "by", "Käärijä", "in", "Zürich"]),
        ("Москва и Αθήνα", ["Москва", "и", "Αθήνα"]),
        ("请帮我检索一下'红星科技'公司", ["请帮我检索一下", "红星科技", "公司"]),
        ("10个麦辣鸡腿堡", ["10", "个麦辣鸡腿堡"]),
        ("บริการรีดผ้า, ok", ["บริการรีดผ้า", "ok"]),
        ("P013으로 order_id", ["P013", "으로", "order", "id"]),
    ],
)
def test_words_of_every_script(text, words):
    assert [t.surface for t in korean.tokenize(text)] == words


def test_runs_of_unspaced_scripts_match_by_substring():
    assert korean.match_quality("天气", "上海天气") == (0.5, "substring")
    assert korean.match_quality("รีดผ้า", "บริการรีดผ้า") == (0.5, "substring")
    assert korean.match_quality("天气", "weather") == (0.0, "")


def test_fillers_name_no_topic():
    assert all(
        korean.is_stopword(korean.stem(w))
        for w in ("specific", "specified", "respectively", "particular")
    )


APPLIANCE = {
    "name": "ThinQ_Connect",
    "description": "Sends a command to control an appliance, one value per call.",
    "parameters": {
        "type": "object",
        "properties": {
            "body": {
                "type": "object",
                "description": "A dictionary containing the parameters for the appliance command.",
                "properties": {
                    "airConJobMode": {
                        "type": "string",
                        "description": "The current job mode of the air conditioner.",
                        "enum": ["AIR_CLEAN", "COOL", "AIR_DRY"],
                    },
                    "targetTemperature": {
                        "type": "integer",
                        "description": "The target temperature in degrees Celsius.",
                    },
                },
            }
        },
        "required": ["body"],
    },
}


def test_the_properties_of_an_object_parameter_are_read_too():
    rows = OfflineRouter().score("Is my air conditioner on?", [APPLIANCE])
    where = {m["word"]: m["where"] for m in rows[0].matched}
    assert where == {
        "air": "parameter:body.airConJobMode",
        "conditioner": "parameter:body.airConJobMode",
    }


def test_day_and_month_names_are_not_topic_words():
    mv = move(
        "Could you provide the forecast for Alameda on the upcoming Wednesday, today is Monday?",
        WEATHER,
    )
    assert [c.name for c in mv.calls] == ["Weather_1_GetWeather"]
    assert mv.calls[0].args["city"] == "Alameda"
    assert row(mv, "Weather_1_GetWeather")["covered"] == [1, 2]  # forecast, upcoming
    assert {"wednesday", "monday", "today", "오늘", "월요일"} <= korean.CALENDAR_WORDS


FLIGHT = {
    "name": "book_flight",
    "description": "Books a flight based on the provided departure location, date, and time.",
    "parameters": {
        "type": "object",
        "properties": {
            "departure_location": {
                "type": "string",
                "description": "The city or airport code from which the flight will depart, "
                "such as 'JFK' for John F. Kennedy International Airport.",
            },
            "departure_date": {
                "type": "string",
                "description": "The departure date in the format of 'dd/mm/yyyy'.",
            },
        },
        "required": ["departure_location", "departure_date"],
    },
}


def test_a_word_of_the_tools_name_before_a_value_is_the_request_not_a_label():
    # "flight" stands right before JFK and is in departure_location's description, but it
    # is book_flight's own name: the question asks for a flight
    mv = move("I need to get a flight from JFK on the 16th of March 2024.", FLIGHT)
    words = {w["word"]: w["weight"] for w in mv.explanation["words"]}
    assert words["flight"] == 1.0
    matched = row(mv, "book_flight")["matched"]
    assert [(m["word"], m["where"], m["points"]) for m in matched] == [("flight", "name", 3.0)]
    assert [(c.name, c.args) for c in mv.calls] == [
        ("book_flight", {"departure_location": "JFK", "departure_date": "16/03/2024"})
    ]


def test_a_korean_request_is_not_held_against_declarations_in_english():
    # no English declaration can match 설정해 (set); the LG ThinQ name still speaks for it
    rows = OfflineRouter().score("LG ThinQ 에어컨 온도를 22도로 설정해 주세요", [APPLIANCE])
    assert rows[0].unmatched_predicates == [] and rows[0].predicate_penalty == 0.0


def test_a_korean_request_no_korean_declaration_describes_still_counts_against_all():
    shop = {
        "name": "search_products",
        "description": "하루마켓 판매 상품을 검색한다.",
        "parameters": {
            "type": "object",
            "properties": {"keyword": {"type": "string", "description": "검색어"}},
            "required": ["keyword"],
        },
    }
    rows = OfflineRouter().score("상품 리뷰 써도 되나요", [shop])
    assert (rows[0].unmatched_predicates, rows[0].predicate_penalty) == (["써도"], 0.5)


ODDS = {
    "name": "monopoly_odds_calculator",
    "description": "Calculates the probability of rolling a certain sum with two dice.",
    "parameters": {
        "type": "object",
        "properties": {
            "number": {"type": "integer", "description": "The number the odds are for."},
            "dice_number": {"type": "integer", "description": "The number of dice rolled."},
        },
        "required": ["number", "dice_number"],
    },
}


def test_a_generic_verb_alone_does_not_make_a_tool_fit():
    # seed 002: "calculate" says what a tool does, not what it is about
    question = "Calculate the discounted cash flow of a bond paying $100 annually for 5 years."
    mv = move(question, ODDS)
    assert mv.calls == []
    assert (
        "its words give relevance 0.0 without generic verbs < 1.5 x threshold"
        in (mv.explanation["reason"])
    )
    r = row(mv, "monopoly_odds_calculator")
    assert [(m["word"], m["term"], m["points"]) for m in r["matched"]] == [
        ("Calculate", "calculator", 1.275)  # name 3.0 x same root 0.85, halved as generic
    ]
    # the object decides: the same verb with the tool's own object fits
    mv = move("Calculate the odds of rolling 7 with 2 dice.", ODDS)
    assert [c.name for c in mv.calls] == ["monopoly_odds_calculator"]


def test_a_synonym_entry_serves_every_form_of_an_english_word():
    synonyms = {"arrange": ("sort",), "order": ("주문",)}
    assert korean.translations(korean.stem("arranged"), synonyms) == ("sort",)
    assert korean.translations(korean.stem("arranging"), synonyms) == ("sort",)
    assert korean.translations(korean.stem("sorted"), synonyms) == ("arrange",)
    assert korean.translations(korean.stem("orders"), synonyms) == ("주문",)
    assert korean.translations("주문", synonyms) == ("order",)
    assert korean.translations(korean.stem("arrow"), synonyms) == ()
