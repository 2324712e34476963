"""Issue 12: the offline router on tools it has never seen -- arguments from the question by
schema, examples in every phrasing, deprecated tools yield, chaining from the declarations.

The ``ask`` cases run the real CLI (``playground ask``) over real tool modules: a small library
module written to ``tmp_path`` and the bundled ``tools/``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from playground.routing import values
from playground.routing.base import Turn
from playground.routing.fill.clauses import clauses
from playground.routing.fill.examples import extract_examples
from playground.routing.offline import OfflineRouter

REPO = Path(__file__).resolve().parents[2]

LIBRARY = '''
def renew_loan(loan_id: str, days: int) -> dict:
    """Renew a library loan for more days.

    Args:
        loan_id: The loan identifier, like "L-1001".
        days: How many days to extend the loan by.
    """
    return {"loan_id": loan_id, "days": days, "renewed": True}


__tools__ = [renew_loan]
'''


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    """No key (the offline router answers); tool bodies run in-process: these tests are about
    routing, and a worker process per ``ask`` cost about 0.4 s of CPU."""
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PLAYGROUND_IN_PROCESS", "1")


def ask_json(question: str, tools: str) -> dict:
    result = CliRunner().invoke(app, ["ask", question, "--tools", tools, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def calls(episode: dict) -> list[tuple[str, dict]]:
    return [(c["name"], c["args"]) for m in episode["moves"] for c in m["calls"]]


@pytest.fixture()
def library(tmp_path) -> str:
    path = tmp_path / "library.py"
    path.write_text(LIBRARY, encoding="utf-8")
    return str(path)


def test_renew_loan_gets_both_arguments(library):
    ep = ask_json("Please renew my loan L-1001 for 7 days", library)
    assert calls(ep) == [("renew_loan", {"loan_id": "L-1001", "days": 7})]
    row = ep["moves"][0]["explanation"]["tools"][0]
    assert row["arg_evidence"]["loan_id"]["rule"] == "example"  # like "L-1001"
    assert row["arg_evidence"]["days"]["text"] == "7"


def test_renew_loan_asks_grammatically_when_values_are_absent(library):
    ep = ask_json("Please renew my loan", library)
    assert calls(ep) == []
    text = ep["moves"][0]["text"]
    assert text.endswith("Please tell me the loan identifier (e.g. L-1001) and the days.")
    assert "the The" not in text
    assert ep["moves"][0]["explanation"]["asks_for"] == {
        "tool": "renew_loan",
        "missing": ["loan_id", "days"],
    }


def test_search_then_check_stock_with_the_found_id():
    ep = ask_json("스테인리스 진공 텀블러 500ml 재고 있어요?", str(REPO / "tools" / "shop.py"))
    assert calls(ep) == [
        ("search_products", {"keyword": "스테인리스 진공 텀블러 500ml"}),
        ("check_stock", {"product_id": "P001"}),
    ]
    assert ep["moves"][1]["explanation"]["chained_from"]["field"] == "product_id"


def test_product_information_does_not_chain_to_stock():
    ep = ask_json("에어프라이어 상품 정보 알려주세요", str(REPO / "tools" / "shop.py"))
    assert calls(ep) == [("search_products", {"keyword": "에어프라이어"})]


def test_deprecated_tool_yields_and_the_explanation_says_why():
    ep = ask_json("KB-101 서울 재고", str(REPO / "tools" / "inventory.py"))
    exp = ep["moves"][0]["explanation"]
    # limit is required (seed 003's contract) but sizes the result: the schema's maximum
    assert calls(ep)[0] == ("stock_lookup", {"sku": "KB-101", "region": "seoul", "limit": 5})
    rows = {r["name"]: r for r in exp["tools"]}
    assert rows["stock_lookup"]["arg_evidence"]["limit"]["rule"] == "default"
    assert "maximum 5" in rows["stock_lookup"]["arg_evidence"]["limit"]["detail"]
    assert "limit=5 (default)" in rows["stock_lookup"]["because"]
    assert round(rows["stock_lookup"]["score"] - rows["legacy_stock"]["score"], 4) == 1.0
    assert rows["legacy_stock"]["deprecated_penalty"] == 1.0
    assert "deprecated (예전) -1.0" in rows["legacy_stock"]["because"]
    for row in exp["tools"]:  # never "-" for a non-zero score
        assert row["score"] == 0 or row["because"], row["name"]
    with_limit = ask_json("KB-101 서울 재고 3곳만", str(REPO / "tools" / "inventory.py"))
    assert calls(with_limit)[0] == (
        "stock_lookup",
        {"sku": "KB-101", "region": "seoul", "limit": 3},
    )


def test_deprecated_tool_with_every_value_yields_to_a_current_one_that_asks():
    decls = [
        {
            "name": "stock_lookup_v1",
            "description": "Stock of one SKU in every store (legacy).",
            "parameters": {
                "type": "object",
                "properties": {"sku": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]{3}$"}},
                "required": ["sku"],
            },
        },
        {
            "name": "stock_lookup",
            "description": "Stock of one SKU in one store.",
            "parameters": {
                "type": "object",
                "properties": {
                    "sku": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]{3}$"},
                    "store": {"type": "string", "description": "store code, e.g. ST-01"},
                },
                "required": ["sku", "store"],
            },
        },
    ]
    move = OfflineRouter().next_move([Turn(role="user", text="stock of KB-101")], decls)
    assert not move.calls
    exp = move.explanation
    assert exp["passed_over"]["tool"] == "stock_lookup_v1"
    assert "deprecated (legacy)" in exp["passed_over"]["why"]
    assert exp["asks_for"] == {"tool": "stock_lookup", "missing": ["store"]}


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("required default", {"n": 20}),
        ("no default", None),
    ],
)
def test_required_value_from_the_declared_default(text, want):
    schema = {"type": "integer", "description": "page number"}
    if want:
        schema["default"] = 20
    decl = {
        "name": "list_orders",
        "description": "List the orders.",
        "parameters": {"type": "object", "properties": {"n": schema}, "required": ["n"]},
    }
    move = OfflineRouter().next_move([Turn(role="user", text="list the orders")], [decl])
    if want:
        assert move.calls[0].args == want
        ev = move.explanation["tools"][0]["arg_evidence"]["n"]
        assert ev["rule"] == "default" and "schema's default" in ev["detail"]
    else:
        assert not move.calls and move.explanation["asks_for"]["missing"] == ["n"]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("a=1, b=-3, c=2", [1, -3, 2]),
        ("between 1,000.5 and -4", [1000.5, -4]),
        ("a 5% discount", [5]),
        ("twenty five items and a dozen eggs", [25, 12]),
        ("사과 세 개, 두 번째 상자", [3, 2]),
        ("3x-1 over 1-5", [3, 1, 1, 5]),
    ],
)
def test_numbers_in_every_form(text, want):
    assert [v.value for v in values.numbers(text)] == want


def test_names_codes_urls_paths_and_quotes():
    text = "Send /tmp/a.txt to bob@example.com from New York City, see https://x.io/a and 'hello world' L-1001"
    kinds = {(v.kind, v.value) for v in values.names(text)}
    assert {
        ("path", "/tmp/a.txt"),
        ("email", "bob@example.com"),
        ("name", "New York City"),
        ("url", "https://x.io/a"),
        ("code", "L-1001"),
    } <= kinds
    assert [v.value for v in values.quoted(text)] == ["hello world"]


@pytest.mark.parametrize(
    ("doc", "want"),
    [
        ('The loan identifier, like "L-1001".', ["L-1001"]),
        ("상품ID. 예: P008", ["P008"]),
        ("검색어. 예시 텀블러", ["텀블러"]),
        ("지역. 예를 들어 seoul", ["seoul"]),
        ("A city such as Seoul or Busan", ["Seoul", "Busan"]),
        ("for example KB-101", ["KB-101"]),
        ("I like cats", []),
    ],
)
def test_examples_in_every_phrasing(doc, want):
    assert extract_examples(doc) == want


def fill(parameters: dict, question: str) -> dict:
    # the description shares a word with the question: tools no question word, id or enum
    # points at are not filled (the inverted-index pre-filter)
    decl = {
        "name": "t",
        "description": "A tool for " + max(re.findall(r"[A-Za-z]+", question), key=len) + ".",
        "parameters": parameters,
    }
    row = OfflineRouter().score(question, [decl])[0]
    return row.args


def test_arguments_by_label_sign_unit_list_boolean_and_date():
    number = {"type": "number"}
    assert fill(
        {
            "type": "object",
            "properties": {"a": number, "b": number, "c": number},
            "required": ["a", "b", "c"],
        },
        "roots of a = 3, b = -11, and c = -4",
    ) == {"a": 3, "b": -11, "c": -4}
    assert fill(
        {
            "type": "object",
            "properties": {
                "distance": {"type": "number", "description": "Distance in meters."},
                "charge": {"type": "number", "description": "Charge in coulombs."},
            },
            "required": ["distance", "charge"],
        },
        "the field 3 meters away from a charge of 2 coulombs",
    ) == {"distance": 3, "charge": 2}
    assert fill(
        {
            "type": "object",
            "properties": {"numbers": {"type": "array", "items": {"type": "integer"}}},
            "required": ["numbers"],
        },
        "the least common multiple of 18 and 12.",
    ) == {"numbers": [18, 12]}
    assert fill(
        {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "detailed": {"type": "boolean", "description": "Detailed report."},
            },
            "required": ["city"],
        },
        "A detailed weather report for Seoul",
    ) == {"city": "Seoul", "detailed": True}
    assert fill(
        {
            "type": "object",
            "properties": {"date": {"type": "string", "format": "date"}},
            "required": ["date"],
        },
        "book it for March 5th, 2027",
    ) == {"date": "2027-03-05"}


def test_a_string_never_gets_the_whole_question():
    args = fill(
        {
            "type": "object",
            "properties": {"title": {"type": "string", "description": "The book title."}},
            "required": ["title"],
        },
        "please find me something good to read tonight",
    )
    assert args == {}


def test_index_is_built_once_per_declaration_list():
    router = OfflineRouter()
    decls = [{"name": "t", "description": "A tool.", "parameters": {"type": "object"}}]
    first = router.index(decls)
    router.next_move([Turn(role="user", text="hello")], decls)
    assert router.index(decls) is first
    assert router.index([dict(decls[0])]) is not first  # a new registry version: new dicts


LOANS_KO = '''
def renew_loan(loan_id: str) -> dict:
    """도서 대출을 연장한다.

    Args:
        loan_id: 대출 번호. 예: L-1001
    """
    return {"loan_id": loan_id}


def pay_fine(receipt: str) -> dict:
    """연체료를 납부한다.

    Args:
        receipt: 영수증 번호. 예: R-77
    """
    return {"receipt": receipt}


__tools__ = [renew_loan, pay_fine]
'''


def test_synonyms_file_beside_the_tools(tmp_path):
    (tmp_path / "loans.py").write_text(LOANS_KO, encoding="utf-8")
    question = "extend my borrowing please"
    without = ask_json(question, str(tmp_path))
    assert calls(without) == [] and without["moves"][0]["explanation"]["chosen"] is None
    (tmp_path / "synonyms.json").write_text(
        json.dumps({"extend": ["연장"], "borrowing": ["대출"]}, ensure_ascii=False),
        encoding="utf-8",
    )
    with_file = ask_json(question, str(tmp_path))
    exp = with_file["moves"][0]["explanation"]
    assert exp["asks_for"] == {"tool": "renew_loan", "missing": ["loan_id"]}
    row = next(r for r in exp["tools"] if r["name"] == "renew_loan")
    assert any("via synonym" in m["how"] for m in row["matched"])


def test_a_broken_synonyms_file_is_one_line(tmp_path):
    (tmp_path / "loans.py").write_text(LOANS_KO, encoding="utf-8")
    (tmp_path / "synonyms.json").write_text('{"extend": 3}', encoding="utf-8")
    result = CliRunner().invoke(app, ["ask", "extend", "--tools", str(tmp_path)])
    assert result.exit_code == 2
    assert (
        "synonyms.json: 'extend' must map to a word or a non-empty list of words" in result.stderr
    )
    assert "Traceback" not in result.output


def test_several_calls_in_one_move_when_the_question_lists_values():
    decl = {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "The city name."}},
            "required": ["city"],
        },
    }
    move = OfflineRouter().next_move(
        [Turn(role="user", text="What is the weather in Seoul and Busan?")], [decl]
    )
    assert [(c.name, c.args, c.id) for c in move.calls] == [
        ("get_weather", {"city": "Seoul"}, "call_1"),
        ("get_weather", {"city": "Busan"}, "call_2"),
    ]
    assert move.explanation["parallel"]["calls"] == 2
    play = {
        "name": "play",
        "description": "Play songs from an artist for some minutes.",
        "parameters": {
            "type": "object",
            "properties": {
                "artist": {"type": "string", "description": "The artist."},
                "duration": {"type": "integer", "description": "Play time in minutes."},
            },
            "required": ["artist", "duration"],
        },
    }
    q = "Play songs from Taylor Swift and Maroon 5 for 20 minutes and 15 minutes respectively"
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [play])
    assert [c.args for c in move.calls] == [
        {"artist": "Taylor Swift", "duration": 20},
        {"artist": "Maroon 5", "duration": 15},
    ]


def test_a_value_that_only_fits_a_type_does_not_make_a_tool_fit():
    decl = {
        "name": "get_user",
        "description": "Retrieve details for a user by their unique identifier.",
        "parameters": {
            "type": "object",
            "properties": {"user_id": {"type": "integer", "description": "The user id."}},
            "required": ["user_id"],
        },
    }
    router = OfflineRouter()
    off_topic = router.next_move([Turn(role="user", text="Play 5 songs by Adele")], [decl])
    assert off_topic.calls == []
    on_topic = router.next_move(
        [Turn(role="user", text="Retrieve the details for user id 7890")], [decl]
    )
    assert [(c.name, c.args) for c in on_topic.calls] == [("get_user", {"user_id": 7890})]


def _decl(name: str, description: str, **props: str) -> dict:
    return {
        "name": name,
        "description": description,
        "parameters": {
            "type": "object",
            "properties": {k: {"type": t} for k, t in props.items()},
            "required": list(props),
        },
    }


def test_a_generic_verb_alone_does_not_make_a_tool_fit():
    bmi = _decl(
        "calculate_bmi", "Body mass index from height and weight.", height="number", weight="number"
    )
    speed = _decl(
        "calculate_speed",
        "Calculate the speed of a moving object.",
        distance="number",
        time="number",
    )
    q = "Calculate the speed of a car that traveled 500 meters in 25 seconds."
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [bmi])
    assert not move.calls
    row = move.explanation["tools"][0]
    assert [m["where"] for m in row["matched"]] == ["name:verb"]
    assert row["matched"][0]["points"] == 0.5  # a description word's weight, halved
    assert "only through values that fit a type" in move.explanation["reason"]
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [speed])
    assert move.calls[0].name == "calculate_speed"


def test_a_repeated_word_counts_once_per_tool():
    tool = _decl("gcd", "Greatest common divisor of two numbers.", a="integer", b="integer")
    q = "Take the number 12 and the number 18 and another number"
    row = OfflineRouter().score(q, [tool])[0]
    assert [m["word"] for m in row.matched] == ["number"]
    assert row.relevance == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("rate", "integrate", 0.0),  # an English word inside another is another word
        ("term", "determine", 0.0),
        ("locat", "location", 0.7),  # English prefixes still match (inflection)
        ("배송", "일반배송비", 0.5),  # Korean compounds keep substring matches
    ],
)
def test_english_words_do_not_match_inside_other_words(a, b, want):
    from playground.routing import korean

    assert korean.match_quality(a, b)[0] == want


def test_numbers_are_values_not_words():
    from playground.routing import korean

    assert not korean.is_content("3") and not korean.is_content("three")
    assert korean.is_content("weather")


def _typed(name: str, description: str, props: dict, required: list[str]) -> dict:
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": props, "required": required},
    }


def test_a_clause_that_asks_again_is_another_call():
    cases = _typed(
        "lawsuits_search",
        "List the lawsuits against a company.",
        {
            "company_name": {"type": "string", "description": "The company."},
            "year": {"type": "integer", "description": "The year the case was filed."},
        },
        ["company_name", "year"],
    )
    q = "List all cases against a company named 'Dara Inc' filed in 2019, Also list cases filed in the year 2018 against the same company."
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [cases])
    assert [c.args for c in move.calls] == [
        {"company_name": "Dara Inc", "year": 2019},
        {"company_name": "Dara Inc", "year": 2018},
    ]
    par = move.explanation["parallel"]
    assert par["calls"] == 2 and par["clauses"][1]["values"] == {"year": 2018}
    # a later sentence that only states a value more precisely is not another call
    q = "Show the cases against 'Dara Inc' in 2019. The year is 2019."
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [cases])
    assert len(move.calls) == 1


@pytest.mark.parametrize(
    ("doc", "question", "want"),
    [
        ("The city and state, e.g. Seattle, WA", "weather in Naples, Florida?", "Naples, Florida"),
        (
            "in the format of 'City, State', such as 'San Francisco, CA'",
            "weather in Chennai, Tamil Nadu in fahrenheit?",
            "Chennai, Tamil Nadu",
        ),
        ("The city, e.g. 'San Francisco'", "weather in Marshall, MN on March 5th?", "Marshall"),
        ("The city.", "weather in Boston, MA?", "Boston, MA"),  # nothing said: as written
    ],
)
def test_a_name_takes_the_shape_of_the_examples(doc, question, want):
    tool = _typed(
        "get_weather",
        "Current weather.",
        {"location": {"type": "string", "description": doc}},
        ["location"],
    )
    move = OfflineRouter().next_move([Turn(role="user", text=question)], [tool])
    assert [c.args for c in move.calls] == [{"location": want}]
    ev = move.explanation["tools"][0]["arg_evidence"]["location"]
    assert ev["text"] == want


def test_quoted_examples_keep_their_commas():
    assert extract_examples("such as 'San Francisco, CA' or 'Austin, TX'") == [
        "San Francisco, CA",
        "Austin, TX",
    ]
    assert extract_examples("The city and state, e.g. Seattle, WA") == ["Seattle, WA"]
    assert extract_examples("예: '텀블러', '이불커버'") == ["텀블러", "이불커버"]


@pytest.mark.parametrize(
    ("doc", "question", "want", "note"),
    [
        ("The annual interest rate.", "invest at an annual interest rate of 5%", 0.05, "fraction"),
        ("The rate as a decimal, e.g. 0.05", "at a rate of 12.5%", 0.125, "fraction"),
        ("The yearly yield as a percentage.", "a yearly yield of 7%", 7, None),
    ],
)
def test_a_percentage_goes_in_as_the_parameter_says(doc, question, want, note):
    name = (
        "annual_interest_rate"
        if "interest" in doc
        else ("rate" if "decimal" in doc else "yearly_yield")
    )
    tool = _typed(
        "future_value",
        "Future value of an investment at a rate.",
        {name: {"type": "number", "description": doc}},
        [name],
    )
    move = OfflineRouter().next_move([Turn(role="user", text="future value: " + question)], [tool])
    assert move.calls[0].args == {name: want}
    detail = move.explanation["tools"][0]["arg_evidence"][name]["detail"]
    assert (note in detail) if note else ("fraction" not in detail)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("a population of 213 million people", [213_000_000]),
        ("8.5 million square kilometers", [8_500_000]),
        ("charges of 1e-9 and 2e-9", [1e-9, 2e-9]),
    ],
)
def test_number_scales_and_exponents(text, want):
    assert [v.value for v in values.numbers(text)] == want


def test_apostrophes_are_not_quotes_and_names_end_with_their_sentence():
    text = "I'd like to change the dish called 'chicken dish' to 'extra spicy'"
    assert [v.value for v in values.quoted(text)] == ["chicken dish", "extra spicy"]
    text = "I want something directed by Simon Curtis. It should star K. Brown."
    assert [v.value for v in values.names(text)] == ["Simon Curtis", "K. Brown"]


def test_flags_and_optional_values_need_their_own_words():
    tool = _typed(
        "get_weather",
        "Current weather of a city.",
        {
            "city": {"type": "string", "description": "The city."},
            "include_forecast": {"type": "boolean", "description": "Include a forecast."},
            "time": {"type": "string", "description": "Time of the day, optional."},
        },
        ["city"],
    )
    q = "Tell me the current weather conditions, including the temperature, for London"
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [tool])
    assert move.calls[0].args == {"city": "London"}  # "including" alone is not the flag
    q = "Weather for London, and include the forecast"
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [tool])
    assert move.calls[0].args == {"city": "London", "include_forecast": True}
    ev = move.explanation["tools"][0]["arg_evidence"]["include_forecast"]
    assert ev["rule"] == "boolean" and ev["text"] == "forecast"


@pytest.mark.parametrize(
    ("doc", "question", "want"),
    [
        (
            "The date, in the format of 'YYYY-MM-DD'.",
            "weather forecast for Foster City for April 25th 2023?",
            "2023-04-25",
        ),
        ("Must be in MM-DD-YYYY format.", "birthday January 1, 2021 in California", "01-01-2021"),
        (
            "The departure time in the format of 'dd/mm/yyyy HH:MM'.",
            "a flight on the 12th of March 2023 at 3 in the afternoon",
            "12/03/2023 15:00",
        ),
        (
            "The new time in ISO-8601 format, such as '2023-04-15T13:45:00Z'.",
            "move it to the 15th of April 2021 at 1:45 pm",
            "2021-04-15T13:45:00Z",
        ),
        ("The date of the flight, e.g., 2022-04-28.", "fly for 2022-04-27 afternoon", "2022-04-27"),
    ],
)
def test_dates_are_written_in_the_format_the_parameter_says(doc, question, want):
    name = "departure_time" if "departure" in doc else ("new_datetime" if "ISO" in doc else "date")
    tool = _typed(
        "plan_trip",
        "Plan a trip: weather forecast, birthday records, flight bookings.",
        {name: {"type": "string", "description": doc}},
        [name],
    )
    move = OfflineRouter().next_move([Turn(role="user", text="plan trip " + question)], [tool])
    assert move.calls[0].args == {name: want}
    ev = move.explanation["tools"][0]["arg_evidence"][name]
    if ev["rule"] != "example":  # an ISO example's shape finds an ISO date as it is
        assert ev["rule"] == "date" and "parsed by dateutil, written as" in ev["detail"]


def test_a_bracketed_list_goes_to_the_array_it_is_labelled_for():
    num_list = {"type": "array", "items": {"type": "number"}}
    tool = _typed(
        "t_test",
        "Two-sample t-test.",
        {
            "control": {**num_list, "description": "Control."},
            "treated": {**num_list, "description": "Treated."},
        },
        ["control", "treated"],
    )
    q = "Run a two sample t-test on treated [7, 8, 9.5] vs control [3, 4, 5]."
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [tool])
    assert move.calls[0].args == {"control": [3, 4, 5], "treated": [7, 8, 9.5]}
    assert move.explanation["tools"][0]["arg_evidence"]["control"]["rule"] == "list"
    assert [v.value for v in values.lists("table [[10, 20], [30, 40]] and [print(1)]")] == [
        [[10, 20], [30, 40]]
    ]  # literals only: code is never evaluated


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("Find a fraud case from 2010 to 2015.", {"from_year": 2010, "to_year": 2015}),
        ("Find a fraud case between 2010 and 2015.", {"from_year": 2010, "to_year": 2015}),
        ("Find a fraud case until 2015, starting from 2010.", {"from_year": 2010, "to_year": 2015}),
    ],
)
def test_from_and_to_go_to_the_ends_of_a_range(question, want):
    tool = _typed(
        "law_case_search",
        "Find a law case.",
        {
            "to_year": {"type": "integer", "description": "The end year."},
            "from_year": {"type": "integer", "description": "The start year."},
        },
        ["to_year", "from_year"],
    )
    move = OfflineRouter().next_move([Turn(role="user", text=question)], [tool])
    assert move.calls[0].args == want
    assert "opens its start" in move.explanation["tools"][0]["arg_evidence"]["from_year"]["detail"]


def test_cue_skips_label_words_and_a_name_holding_its_own_word_is_its_value():
    tool = _typed(
        "get_case_details",
        "Details of a court case.",
        {"docket_number": {"type": "string", "description": "The docket number of the case."}},
        ["docket_number"],
    )
    move = OfflineRouter().next_move(
        [Turn(role="user", text="court case details for docket number 123456 in Texas")], [tool]
    )
    assert move.calls[0].args == {"docket_number": "123456"}
    museum = _typed(
        "museum_info",
        "Opening hours of a museum.",
        {"museum_name": {"type": "string", "description": "The name of the museum."}},
        ["museum_name"],
    )
    q = "What are the opening hours of the Metropolitan Museum of Art on Saturday?"
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [museum])
    assert move.calls[0].args == {"museum_name": "Metropolitan Museum of Art"}
    ev = move.explanation["tools"][0]["arg_evidence"]["museum_name"]
    assert "its own word is part of the name" in ev["detail"]


def test_a_value_introduced_by_the_parameters_word_makes_a_description_word_enough():
    tool = _typed(
        "cmd_controller_execute",
        "Executes a command on the Windows operating system.",
        {"command": {"type": "string", "description": "The command line to run."}},
        ["command"],
    )
    q = "disconnect wifi, using the command netsh wlan disconnect"
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [tool])
    assert move.calls[0].args == {"command": "netsh wlan disconnect"}
    # a command-line parameter takes the whole command (rule ``command``, router2)
    assert move.explanation["tools"][0]["arg_evidence"]["command"]["rule"] == "command"
    # without the cue, the one description word is not enough
    move = OfflineRouter().next_move([Turn(role="user", text="disconnect wifi, Command")], [tool])
    assert not move.calls


@pytest.mark.parametrize(
    ("props", "question", "want", "rule"),
    [
        (
            {
                "temp_unit": "The temperature unit ('Celsius' or 'Fahrenheit'). Default is 'Fahrenheit'."
            },
            "average temperature in Austin in celsius",
            {"temp_unit": "celsius"},
            "listed",
        ),
        (
            {"unit": "The unit of measurement for the radius. Default is 'cm'."},
            "average temperature of a radius of 4 inches",
            {"unit": "inches"},
            "unit",
        ),
        (
            {"to_unit": "The unit in which the speed should be calculated, default is m/s."},
            "average temperature speed in km/h please",
            {"to_unit": "km/h"},
            "unit",
        ),
    ],
)
def test_quoted_options_and_units_fill_optional_values(props, question, want, rule):
    schema = {k: {"type": "string", "description": d} for k, d in props.items()}
    schema["city"] = {"type": "string", "description": "The city."}
    tool = _typed("average_temperature", "Average temperature.", schema, [])
    move = OfflineRouter().next_move([Turn(role="user", text=question)], [tool])
    got = {k: v for k, v in move.calls[0].args.items() if k in want}
    assert got == want
    assert move.explanation["tools"][0]["arg_evidence"][next(iter(want))]["rule"] == rule


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("Switch the air conditioner to air dry mode", "AIR_DRY"),
        ("mark the todo task as completed", "complete"),
    ],
)
def test_an_enum_value_by_its_words(question, want):
    tool = _typed(
        "todo_and_aircon",
        "Change a todo task or the air conditioner.",
        {"mode": {"type": "string", "enum": ["AIR_CLEAN", "AIR_DRY", "COOL", "add", "complete"]}},
        ["mode"],
    )
    move = OfflineRouter().next_move([Turn(role="user", text=question)], [tool])
    assert move.calls[0].args == {"mode": want}
    ev = move.explanation["tools"][0]["arg_evidence"]["mode"]
    assert ev["rule"] == "enum_words" and repr(want) in ev["detail"]


@pytest.mark.parametrize(
    ("name", "question", "want"),
    [
        ("room_type", "Book a single room for two nights at the Plaza hotel.", "single"),
        ("field_of_law", "Get me the top landmark cases in constitutional law.", "constitutional"),
    ],
)
def test_a_required_word_from_the_modifier_of_its_noun(name, question, want):
    tool = _typed(
        "find_or_book",
        "Book hotel rooms and find landmark law cases.",
        {name: {"type": "string", "description": "What kind."}},
        [name],
    )
    move = OfflineRouter().next_move([Turn(role="user", text=question)], [tool])
    assert move.calls[0].args == {name: want}
    ev = move.explanation["tools"][0]["arg_evidence"][name]
    assert ev["rule"] == "modifier" and "the word before its noun" in ev["detail"]


def test_and_how_does_it_compare_asks_again():
    tool = _typed(
        "average_temperature",
        "Average temperature of a city.",
        {"location": {"type": "string", "description": "The city."}},
        ["location"],
    )
    q = "What is the average temperature in New York and how does it compare to Los Angeles?"
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [tool])
    assert [c.args for c in move.calls] == [{"location": "New York"}, {"location": "Los Angeles"}]
    assert [q[a:b] for a, b in clauses(q)] == [
        "What is the average temperature in New York",
        "how does it compare to Los Angeles?",
    ]


def test_a_qualifier_ends_with_its_sentence_and_an_email_address_is_not_a_place():
    weather = _typed(
        "get_current_weather",
        "Current weather.",
        {"location": {"type": "string", "description": "City, e.g. 'San Francisco, CA'"}},
        ["location"],
    )
    q = "What's the weather in Bangkok, Thailand. I prefer fahrenheit."
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [weather])
    assert move.calls[0].args == {"location": "Bangkok, Thailand"}
    mail = _typed(
        "send_email",
        "Send an email.",
        {"to_address": {"type": "string", "description": "The email address to send to."}},
        ["to_address"],
    )
    q = "Send an email to Andy at andy@gorilla.ai please"
    move = OfflineRouter().next_move([Turn(role="user", text=q)], [mail])
    assert move.calls[0].args == {"to_address": "andy@gorilla.ai"}
