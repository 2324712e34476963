"""Issue 12, the arguments side: kinds of misses found on the BFCL dev entries, each fixed in
general and checked here on tools and questions of our own (never BFCL's entries)."""

from __future__ import annotations

from typing import Any

import pytest

from playground.routing import values
from playground.routing.base import Turn
from playground.routing.fill.defaults import stated_default
from playground.routing.fill.examples import extract_examples
from playground.routing.fill.ordinals import number_order
from playground.routing.fill.specs import Fill, param_specs
from playground.routing.fill.word_series import word_series
from playground.routing.offline import OfflineRouter


def decl(name: str, description: str, required: list[str], **props: dict[str, Any]) -> dict:
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": props, "required": required},
    }


def first_call(question: str, *decls: dict) -> tuple[str, dict[str, Any]] | None:
    move = OfflineRouter().next_move([Turn(role="user", text=question)], list(decls))
    return (move.calls[0].name, move.calls[0].args) if move.calls else None


def calls(question: str, *decls: dict) -> list[dict[str, Any]]:
    move = OfflineRouter().next_move([Turn(role="user", text=question)], list(decls))
    return [c.args for c in move.calls]


# ---- a default the description states in words ----------------------------------------------


@pytest.mark.parametrize(
    ("schema", "want"),
    [
        ({"type": "boolean", "description": "Return a sorted list. Default is true."}, True),
        ({"type": "boolean", "description": "Include history. defaults to False"}, False),
        ({"type": "integer", "description": "Decimal places (default: 2)."}, 2),
        ({"type": "number", "description": "Rate. Default value is 0.5"}, 0.5),
        ({"type": "integer", "description": "Offset. Default is zero."}, 0),
        ({"type": "string", "description": "Unit system. Default is 'metric'."}, "metric"),
        ({"type": "string", "description": "Exchange, defaults to NYSE"}, "NYSE"),
        ({"type": "string", "description": "지역. 기본값은 'seoul'"}, "seoul"),
        (
            {"type": "string", "enum": ["asc", "desc"], "description": "Order. Default is 'desc'"},
            "desc",
        ),
    ],
)
def test_a_default_stated_in_the_description_fills_a_required_value(schema, want):
    spec = param_specs({"type": "object", "properties": {"x": schema}}, {})[0]
    value, words = stated_default(spec)
    assert value == want and type(value) is type(want)
    assert ("efault" in words or "기본" in words) and str(want).lower() in words.lower() + "0"


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "description": "The date. Default is the current date."},
        {"type": "boolean", "description": "Verbose output. Default is 1."},
        {"type": "integer", "description": "Year; default if nothing specified is all."},
        {"type": "string", "enum": ["a", "b"], "description": "Mode. Default is 'c'."},
        {"type": "integer", "description": "How many to return."},
    ],
)
def test_no_default_when_the_words_state_no_value_of_the_type(schema):
    spec = param_specs({"type": "object", "properties": {"x": schema}}, {})[0]
    assert stated_default(spec) is None


def test_the_stated_default_is_used_instead_of_asking():
    tool = decl(
        "factorize",
        "Find the prime factors of a number.",
        ["number", "as_text"],
        number={"type": "integer", "description": "The number to factorize."},
        as_text={"type": "boolean", "description": "Return a text if true. Default is true."},
    )
    move = OfflineRouter().next_move([Turn(role="user", text="prime factors of 360")], [tool])
    assert [(c.name, c.args) for c in move.calls] == [
        ("factorize", {"number": 360, "as_text": True})
    ]
    ev = move.explanation["tools"][0]["arg_evidence"]["as_text"]
    assert ev["rule"] == "default" and "Default is true" in ev["detail"]


# ---- word lists for string arrays; listed item values ----------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "a guitar with a maple neck, bone nut, and gold tuners please",
            [["maple neck", "bone nut", "gold tuners"]],
        ),
        ("shares of Nokia and Ericsson for a month", [["Nokia", "Ericsson"]]),
        ("chords D, A and Bm for 8 bars", [["D", "A", "Bm"]]),
        ("she is calm, curious, well read and kind.", [["calm", "curious", "well read", "kind"]]),
        ("hotels near Rome and Milan opening soon", [["Rome", "Milan"]]),
        ("between 3 and 4", []),
        ("A dog and a cat", []),
    ],
)
def test_word_series_lists_the_items(text, want):
    assert [[text[a:b] for a, b in s] for s in word_series(text)] == want


def test_a_required_string_array_takes_the_listed_words_not_one_name():
    tool = decl(
        "compare_shares",
        "Compare the share prices of companies over a period.",
        ["companies", "period"],
        companies={"type": "array", "items": {"type": "string"}, "description": "Companies."},
        period={"type": "string", "description": "The period, e.g. 'month'."},
    )
    _name, args = first_call("Compare the share prices of Nokia and Ericsson over a month", tool)
    assert args["companies"] == ["Nokia", "Ericsson"] and args["period"] == "month"


def test_a_name_cut_by_a_list_item_makes_no_list():
    # "San Marino, Italy and ..." : an item would cut through the name "San Marino"
    assert word_series("from San Marino, Italy and Nice") == [[(9, 15), (17, 22), (27, 31)]]
    tool = decl(
        "visit_plan",
        "Plan visits to cities.",
        ["cities"],
        cities={"type": "array", "items": {"type": "string"}, "description": "Cities."},
    )
    _name, args = first_call("Plan visits to San Marino, Italy and Nice", tool)
    assert "Marino" not in args["cities"]


def test_an_array_of_listed_values_takes_every_value_written():
    tool = decl(
        "find_flat",
        "Find a flat to rent with the features wanted.",
        ["city", "features"],
        city={"type": "string", "description": "The city."},
        features={
            "type": "array",
            "items": {"type": "string", "enum": ["balcony", "lift", "Pet Friendly", "garage"]},
            "description": "Features wanted.",
        },
    )
    name, args = first_call(
        "Find a flat to rent in Lyon with a garage, pet friendly and a balcony", tool
    )
    assert name == "find_flat"
    assert args == {"city": "Lyon", "features": ["garage", "Pet Friendly", "balcony"]}


# ---- values listed in the order of the parameters' words ("respectively") -------------------

BOX = decl(
    "box_volume",
    "Compute the volume of a box from its width, depth and height.",
    ["width", "depth", "height"],
    width={"type": "number", "description": "The width."},
    depth={"type": "number", "description": "The depth."},
    height={"type": "number", "description": "The height."},
)


@pytest.mark.parametrize(
    ("question", "want"),
    [
        (
            "Compute the volume of a box whose depth, height and width are 2m, 7m and 3m.",
            {"depth": 2, "height": 7, "width": 3},
        ),
        (
            "Volume of a box given its height and width as 9 and 4, depth 5",
            {"height": 9, "width": 4, "depth": 5},
        ),
    ],
)
def test_numbers_listed_after_the_parameters_words_follow_their_order(question, want):
    name, args = first_call(question, BOX)
    assert name == "box_volume" and args == want


def test_no_order_is_taken_when_the_words_are_not_the_parameters():
    # "cats and dogs" name no parameter: the numbers go by their own labels
    _name, args = first_call("Volume of a box for cats and dogs as 1 and 2: width 3", BOX)
    assert args.get("width") == 3


# ---- strings: a cue's span, a colon, examples inside a URL, names quoted ---------------------


def test_a_value_after_a_dash_or_a_colon_is_cut_where_it_starts():
    note = decl(
        "notes_delete",
        "Delete a note from the notebook.",
        ["content"],
        content={"type": "string", "description": "The note's content."},
    )
    _name, args = first_call("delete the note with content - buy fresh milk", note)
    assert args == {"content": "buy fresh milk"}
    order = decl(
        "order_change",
        "Change an order with a request.",
        ["change_request"],
        change_request={"type": "string", "description": "What to change."},
    )
    _name, args = first_call("Change my order with this change exactly: less salt, no sugar", order)
    assert args == {"change_request": "less salt, no sugar"}


def test_a_url_example_is_one_example_not_its_pieces():
    doc = "The endpoint, such as 'https://api.example.com/v2/items'."
    assert extract_examples(doc) == ["https://api.example.com/v2/items"]
    assert extract_examples("Brand. Example, 'Yamaha'") == ["Yamaha"]


def test_a_quoted_parameter_name_is_neither_an_option_nor_a_value():
    tool = decl(
        "post_create",
        "Create a blog post with a title and a summary.",
        ["Title", "Summary"],
        Title={"type": "string", "description": "The title of the post."},
        Summary={
            "type": "string",
            "description": "A short summary. If not provided, the 'Title' will be used.",
        },
    )
    spec = param_specs(tool["parameters"], {})[1]
    assert spec.listed == ()
    _name, args = first_call(
        "Create a blog post with the 'Title' field set to 'Winter Gardens' and the summary "
        "'Plants that flower in the cold months of the year'",
        tool,
    )
    assert args == {
        "Title": "Winter Gardens",
        "Summary": "Plants that flower in the cold months of the year",
    }


# ---- several calls: lists written apart pair every way; interleaved or "respectively" in order --

SCORE = decl(
    "team_score",
    "Get the average score of a team in a season.",
    ["team", "season"],
    team={"type": "string", "description": "The team name."},
    season={"type": "integer", "description": "The season year."},
)


def test_lists_written_apart_ask_for_every_pairing():
    got = calls("Get the average score of Hawks and Eagles in seasons 2019 and 2021.", SCORE)
    assert sorted((a["team"], a["season"]) for a in got) == [
        ("Eagles", 2019),
        ("Eagles", 2021),
        ("Hawks", 2019),
        ("Hawks", 2021),
    ]


def test_lists_said_respectively_pair_in_order():
    got = calls(
        "Get the average score of Hawks and Eagles in seasons 2019 and 2021 respectively.", SCORE
    )
    assert sorted((a["team"], a["season"]) for a in got) == [("Eagles", 2021), ("Hawks", 2019)]


def test_dates_written_as_the_parameter_takes_them_are_listed():
    rate = decl(
        "fx_rate",
        "Get the exchange rate of a currency on a date.",
        ["currency", "date"],
        currency={"type": "string", "description": "The currency code, e.g. 'EUR'."},
        date={"type": "string", "description": "The date in YYYY-MM-DD format."},
    )
    got = calls("Get the exchange rate of EUR on 2023-03-01 and 2023-04-01", rate)
    assert sorted(a["date"] for a in got) == ["2023-03-01", "2023-04-01"]
    assert {a["currency"] for a in got} == {"EUR"}


PAINT = decl(
    "paint_info",
    "Get information about a paint colour.",
    ["colour"],
    colour={"type": "string", "description": "The colour name."},
)


@pytest.mark.parametrize(
    ("question", "want"),
    [
        (
            "Get information about the paint colour teal, ochre and sienna",
            ["teal", "ochre", "sienna"],
        ),
        (
            'Get information about the paint colour "Teal Blue" and "Burnt Ochre"',
            ["Teal Blue", "Burnt Ochre"],
        ),
        (
            "Get information about the paint colour Ultramarine and Cobalt 2",
            ["Ultramarine", "Cobalt 2"],
        ),
    ],
)
def test_a_scalar_listed_with_others_makes_a_call_per_item(question, want):
    assert [a["colour"] for a in calls(question, PAINT)] == want


def test_no_list_of_a_name_and_a_verb_or_another_arguments_word():
    film = decl(
        "film_find",
        "Find a film by its director.",
        ["director"],
        director={"type": "string", "description": "The director's name."},
        actor={"type": "string", "description": "An actor's name."},
    )
    assert len(calls("Find a film directed by Ann Smith and acted by Bo Lee", film)) == 1
    bmi = decl(
        "bmi",
        "Calculate the body mass index.",
        ["weight", "height"],
        weight={"type": "number", "description": "The weight."},
        height={"type": "number", "description": "The height."},
        unit={"type": "string", "description": "The unit of the weight."},
    )
    assert len(calls("Calculate the body mass index for 60 kilograms and height of 170", bmi)) == 1


# ---- a unit parameter and numbers in several units -------------------------------------------

SPEED = decl(
    "speed_calc",
    "Calculate the speed of a trip.",
    ["distance", "duration"],
    distance={"type": "number", "description": "The distance travelled."},
    duration={"type": "number", "description": "The time taken."},
    unit={"type": "string", "description": "The unit of the result, default 'km/h'."},
)


def test_numbers_in_different_units_give_no_unit():
    _name, args = first_call("Calculate the speed of a trip of 120 kilometers in 3 hours", SPEED)
    assert args == {"distance": 120, "duration": 3}


def test_one_unit_or_a_unit_after_in_still_fills_it():
    _name, args = first_call("Calculate the speed of a trip of 120 km taking 90", SPEED)
    assert args.get("unit") == "km"
    # "over 90 km" is no duration: its parameter is "The time taken" (rule quantity_fits_unit)
    assert first_call("Calculate the speed of a trip of 120 km over 90 km", SPEED) is None
    _name, args = first_call("Calculate the speed of a trip of 120 km in 3 h, in mph", SPEED)
    assert args.get("unit") == "mph"


# ---- numbered parameters take values in the order written ------------------------------------

MIX = decl(
    "mix_dough",
    "Mix two flours into a dough.",
    ["flour1", "flour2"],
    flour1={"type": "string", "description": "The first flour."},
    flour2={"type": "string", "description": "The second flour."},
)


def test_numbered_parameters_take_a_word_list_in_order():
    _name, args = first_call("Mix rye and spelt flours into a dough", MIX)
    assert args == {"flour1": "rye", "flour2": "spelt"}


def test_numbered_parameters_given_out_of_order_are_put_in_order():
    fill = Fill(
        args={"flour1": "spelt", "flour2": "rye"},
        evidence={
            "flour1": {"rule": "string", "span": [9, 14], "text": "spelt", "detail": "x"},
            "flour2": {"rule": "string", "span": [4, 7], "text": "rye", "detail": "y"},
        },
    )
    specs = param_specs(MIX["parameters"], {})
    number_order(specs, fill)
    assert fill.args == {"flour1": "rye", "flour2": "spelt"}
    assert "in the order written" in fill.evidence["flour1"]["detail"]


# ---- optional values by weak labels; free text after a colon --------------------------------


def test_a_time_parameter_takes_no_place_name():
    trip = decl(
        "book_train",
        "Book a train from a departure station at a time; optionally a return time.",
        ["departure_station", "departure_time"],
        departure_station={"type": "string", "description": "The departure station's city."},
        departure_time={"type": "string", "description": "In the format 'dd/mm/yyyy HH:MM'."},
        return_time={
            "type": "string",
            "description": "The return time in the format 'dd/mm/yyyy HH:MM' at the location.",
        },
    )
    _name, args = first_call("Book a train from Lyon to Turin on the 3rd of May 2024 at 9 am", trip)
    assert "return_time" not in args and args["departure_time"] == "03/05/2024 09:00"


def test_the_quoted_search_text_is_not_also_an_optional_argument():
    play = decl(
        "play_track",
        "Search for a track and play it.",
        ["query"],
        query={"type": "string", "description": "The search query for the track."},
        speaker_id={"type": "string", "description": "The speaker to play the track on."},
    )
    _name, args = first_call("Can you search for the track 'Blue in Green'?", play)
    assert args == {"query": "Blue in Green"}


def test_free_text_after_a_colon_and_a_cue_of_only_punctuation():
    speak = decl(
        "speak",
        "Turn a text into speech audio.",
        ["text"],
        text={"type": "string", "description": "The text to speak."},
    )
    _name, args = first_call("Turn this into speech audio: we meet at noon", speak)
    assert args == {"text": "we meet at noon"}
    ev = OfflineRouter().score("Turn this into speech audio: we meet at noon", [speak])[0]
    assert ev.arg_evidence["text"]["detail"] == "the text after ':'"
    lookup = decl(
        "lookup_item",
        "Look up an item by its id.",
        ["item_id"],
        item_id={"type": "string", "description": "The item id."},
        shelf_id={"type": "string", "description": "The shelf id."},
    )
    _name, args = first_call("Look up the item with id 'box-7-id'", lookup)
    assert args == {"item_id": "box-7-id"}


def test_a_name_opened_by_the_parameters_own_words_drops_them():
    tool = decl(
        "project_report",
        "Get the report of a project.",
        ["project"],
        project={"type": "string", "description": "The UUID of the project."},
    )
    _name, args = first_call("Get the report of the project with UUID ALPHA9 please", tool)
    assert args == {"project": "ALPHA9"}


# ---- numbers by unit: a unit per something is not that unit; times go to a time ---------------


def test_a_unit_inside_a_compound_unit_is_not_the_values_unit():
    heat = decl(
        "heat_needed",
        "Calculate the heat needed to warm a mass of a liquid.",
        ["mass", "rise"],
        mass={"type": "number", "description": "The mass (kg)."},
        rise={"type": "number", "description": "The temperature rise (Celsius)."},
        specific_heat={"type": "number", "description": "Specific heat in kJ/kg/K of the liquid."},
    )
    _name, args = first_call("Calculate the heat needed to warm 3 kg of liquid by 40 Celsius", heat)
    assert args == {"mass": 3, "rise": 40}


def test_a_time_goes_to_the_parameter_named_for_a_time_not_one_per_year():
    grow = decl(
        "savings_growth",
        "Calculate the growth of savings with a rate, periods per year and a time.",
        ["amount", "rate", "periods_per_year", "duration"],
        amount={"type": "integer", "description": "The amount saved."},
        rate={"type": "number", "description": "The interest rate."},
        periods_per_year={"type": "integer", "description": "Times per year the rate applies."},
        duration={"type": "integer", "description": "How long the money stays."},
    )
    _name, args = first_call(
        "Calculate the growth of savings of 800 at a rate of 2% for 6 years, 12 periods per year",
        grow,
    )
    assert args == {"amount": 800, "rate": 0.02, "duration": 6, "periods_per_year": 12}


# ---- expressions, multi-word examples, "City, Country", clock times -------------------------


def test_a_term_of_an_expression_is_no_number():
    assert 3 not in [v.value for v in values.numbers("the slope of 3x^2 + 2x at x = 5")]
    slope = decl(
        "slope_at",
        "Compute the slope of a curve at a point.",
        ["curve", "point"],
        curve={"type": "string", "description": "The curve to differentiate."},
        point={"type": "integer", "description": "Where to take the slope."},
    )
    _name, args = first_call("Compute the slope of the curve 4x^3 at point 2", slope)
    assert args == {"curve": "4x^3", "point": 2}


def test_an_example_of_several_words_written_in_the_question():
    game = decl(
        "find_game",
        "Find games for a platform.",
        ["platform"],
        platform={"type": "string", "description": "The platform, e.g. Mac OS 14, Switch 2."},
    )
    _name, args = first_call("Find games that run on mac os 14 please", game)
    assert args == {"platform": "mac os 14"}


def test_city_comma_country_fills_both_when_the_tool_asks_for_both():
    clock = decl(
        "local_time",
        "Get the local time of a city.",
        ["city", "country"],
        city={"type": "string", "description": "The city."},
        country={"type": "string", "description": "The country of the city."},
    )
    _name, args = first_call("Get the local time in Lisbon, Portugal", clock)
    assert args == {"city": "Lisbon", "country": "Portugal"}


def test_a_free_form_time_takes_the_clock_time():
    tide = decl(
        "tide_level",
        "Get the tide level at a harbour and time.",
        ["harbour", "time"],
        harbour={"type": "string", "description": "The harbour."},
        time={"type": "string", "description": "The time to check."},
    )
    _name, args = first_call("Get the tide level in Brest at 3pm", tide)
    assert args == {"harbour": "Brest", "time": "15:00"}


def test_tuples_are_lists_and_numbered_arrays_take_them_in_order():
    assert [v.value for v in values.lists("from (48.85 N, 2.35 E) to (40.71 N, 74.0 W)")] == [
        [48.85, 2.35],
        [40.71, -74.0],
    ]
    route = decl(
        "great_circle",
        "Compute the great circle distance between two points.",
        ["point1", "point2"],
        point1={"type": "array", "items": {"type": "number"}, "description": "First point."},
        point2={"type": "array", "items": {"type": "number"}, "description": "Second point."},
    )
    _name, args = first_call(
        "Compute the great circle distance between two points (48.85 N, 2.35 E) and "
        "(40.71 N, 74.0 W)",
        route,
    )
    assert args == {"point1": [48.85, 2.35], "point2": [40.71, -74.0]}
    gcd = decl(
        "gcd",
        "Greatest common divisor of two numbers.",
        ["a", "b"],
        a={"type": "integer", "description": "The first number."},
        b={"type": "integer", "description": "The second number."},
    )
    _name, args = first_call("Greatest common divisor of the numbers (45, 60)", gcd)
    assert args == {"a": 45, "b": 60}


def test_a_spelled_count_of_the_things_asked_about_is_no_value():
    box = decl(
        "rect_area",
        "Calculate the area of a rectangle.",
        ["width", "length"],
        width={"type": "integer", "description": "The width of the rectangle."},
        length={"type": "integer", "description": "The length of the rectangle."},
    )
    got = calls(
        "I drew three rectangles. The first rectangle has a width of 4 and a length of 9. "
        "The second rectangle has a width of 2 and a length of 7. The third rectangle has a "
        "width of 5 and a length of 6.",
        box,
    )
    assert got == [{"width": 4, "length": 9}, {"width": 2, "length": 7}, {"width": 5, "length": 6}]
    room = decl(
        "book_room",
        "Book a hotel room.",
        ["adults"],
        adults={"type": "integer", "description": "How many adults stay in the room."},
        children={"type": "integer", "description": "How many children stay in the room."},
    )
    _name, args = first_call("Book a hotel room for two adults", room)
    assert args == {"adults": 2}


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("a table at The Ivy tonight", ["The Ivy"]),
        ("tickets for The Cure's show", ["The Cure"]),
        ("The Louvre opens at nine", ["Louvre"]),
        ("Is it open? The Louvre, I mean", ["Louvre"]),
    ],
)
def test_a_capital_the_inside_a_sentence_is_part_of_the_name(text, want):
    assert [v.value for v in values.names(text) if v.kind == "name"] == want


def test_quoted_items_listed_with_their_counts_fill_both_arrays():
    order = decl(
        "place_order",
        "Place an order of items with their quantities at a shop.",
        ["shop", "items", "quantities"],
        shop={"type": "string", "description": "The shop's name."},
        items={"type": "array", "items": {"type": "string"}, "description": "Item names."},
        quantities={
            "type": "array",
            "items": {"type": "integer"},
            "description": "Quantities, by index of the items.",
        },
    )
    _name, args = first_call(
        "Place an order of three 'bagels' and two 'iced teas' at the shop Nordic Deli", order
    )
    assert args == {
        "items": ["bagels", "iced teas"],
        "quantities": [3, 2],
        "shop": "Nordic Deli",
    }


def test_number_arrays_take_the_run_their_words_label():
    compare = decl(
        "compare_samples",
        "Compare the means of two samples.",
        ["control", "treated"],
        control={"type": "array", "items": {"type": "number"}, "description": "Control values."},
        treated={"type": "array", "items": {"type": "number"}, "description": "Treated values."},
    )
    _name, args = first_call(
        "Compare the means of two samples: treated with the values 7, 8, 9 and control with the "
        "values 1.5, 2, 3",
        compare,
    )
    assert args == {"treated": [7, 8, 9], "control": [1.5, 2, 3]}
