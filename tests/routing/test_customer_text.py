"""Customer-facing router text: greetings, no-fit answers, asking for a value; a newcomer's tool."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from playground.routing import korean
from playground.routing.base import Turn
from playground.routing.offline import OfflineRouter
from playground.routing.replies import capability
from playground.workbench import open_playground

ROOT = Path(__file__).resolve().parents[2]
WEATHER = '''
def get_weather(city: str, days: int = 1) -> dict:
    """도시의 날씨 예보를 조회한다. 날씨·기온·비 소식을 묻는 문의에 사용한다.

    Args:
        city: 도시 이름(영문 소문자). 예: seoul
        days: 며칠 치 예보인지. 1~3. 사용자가 말하지 않으면 생략한다.
    """
    return {"city": city, "days": days, "rain": False, "alert": None}

__tools__ = [get_weather]
'''


def ask(router, decls, question):
    return router.next_move([Turn(role="user", text=question)], decls)


@pytest.fixture(scope="module")
def all_decls():
    pg = open_playground([ROOT / "tools"], wire=False)
    return pg.registry.declarations()


@pytest.fixture
def weather(tmp_path):
    (tmp_path / "weather.py").write_text(textwrap.dedent(WEATHER), encoding="utf-8")
    return open_playground([tmp_path / "weather.py"], wire=False)


def test_greeting_gets_a_greeting_without_tool_names(all_decls):
    move = ask(OfflineRouter(), all_decls, "안녕하세요")
    assert (
        move.calls == []
        and move.text.startswith("안녕하세요!")
        and move.text.endswith("무엇을 도와드릴까요?")
    )
    assert "주문 내역과 진행 단계 조회" in move.text and "현재 재고 수량 확인" in move.text
    for name in [d["name"] for d in all_decls]:
        assert name not in move.text
    exp = move.explanation
    assert exp["small_talk"] == "greeting" and exp["chosen"] is None and exp["tools"]
    hidden = {h["tool"] for h in exp["not_advertised"]}
    assert {"slow_lookup", "flaky_lookup", "empty_search", "http_lookup"} <= hidden
    assert "check_stock" in exp["advertised"] and "slow_lookup" not in exp["advertised"]


def test_thanks_bye_and_unrelated_questions(all_decls):
    router = OfflineRouter()
    assert ask(router, all_decls, "Thank you, that's all!").text.startswith("You're welcome")
    assert ask(router, all_decls, "감사합니다").text.startswith("천만에요")
    assert ask(router, all_decls, "안녕히 계세요").explanation["small_talk"] == "bye"
    sorry = ask(router, all_decls, "배송비 얼마예요?")
    assert sorry.text.startswith("죄송합니다") and "도와드릴 수 있어요" in sorry.text
    assert "track_shipping" not in sorry.text and "slow_lookup" not in sorry.text
    assert korean.small_talk("안녕하세요 HR20260604 배송 어디쯤이에요?") is None


def test_capability_phrases_and_particles():
    assert (
        capability("하루마켓 주문번호로 주문 내역과 진행 단계를 조회한다.")
        == "주문 내역과 진행 단계 조회"
    )
    assert capability("상품ID로 현재 재고 수량을 확인한다.") == "현재 재고 수량 확인"
    assert capability("Look up an order by its id.") == "look up an order by its id"
    assert [korean.object_particle(w) for w in ("확인", "주소", "상품ID", "seoul")] == [
        "을",
        "를",
        "를",
        "을",
    ]


def test_newcomer_weather_tool_is_called_with_the_city(weather):
    router = OfflineRouter()
    decls = weather.registry.declarations()
    move = ask(router, decls, "seoul 날씨 알려줘")
    assert [(c.name, c.args) for c in move.calls] == [("get_weather", {"city": "seoul"})]
    row = move.explanation["tools"][0]
    assert row["arg_evidence"]["city"]["rule"] == "word" and row["unmatched_predicates"] == []
    busan = ask(router, decls, "busan 날씨 알려줘")
    assert [(c.name, c.args) for c in busan.calls] == [("get_weather", {"city": "busan"})]
    assert busan.explanation["tools"][0]["arg_evidence"]["city"]["rule"] == "lowercase"
    # two lowercase words: which one is the city is not known, so nothing is filled
    two = ask(router, decls, "rain forecast 날씨 알려줘")
    assert two.calls == [] or "city" not in two.calls[0].args


def test_newcomer_weather_tool_asks_for_the_city_in_customer_words(weather):
    move = ask(OfflineRouter(), weather.registry.declarations(), "서울 내일 날씨 어때요?")
    assert move.calls == [] and move.explanation["asks_for"] == {
        "tool": "get_weather",
        "missing": ["city"],
    }
    assert move.text == "도시의 날씨 예보를 조회해 드릴게요. 도시 이름을 알려 주세요 (예: seoul)."
    assert "get_weather" not in move.text and "city" not in move.text


def test_weather_episode_reply_has_no_reprs(weather):
    from playground.loop.episode import run_question_episode

    weather.router = OfflineRouter()
    ep = run_question_episode(weather, "seoul 날씨 알려줘")
    assert ep.end == "answered" and ep.calls[0].args == {"city": "seoul"}
    assert "rain: 아니오" in ep.reply and "alert: 없음" in ep.reply and "False" not in ep.reply


def test_a_korean_reply_quotes_english_descriptions_after_a_korean_lead_in():
    """A tester's Korean question over English-described tools got "… returns n after waiting
    n seconds, returns n after spinning 등을 도와드릴 수 있어요": English phrases, lower-cased,
    glued to a Korean particle. They are now quoted as written after a Korean lead-in."""
    decls = [
        {
            "name": "search_catalog",
            "description": "Search the library catalog by title words.",
            "parameters": {"type": "object", "properties": {"words": {"type": "string"}}},
        },
        {
            "name": "renew_loan",
            "description": "Renew a member's loan for two more weeks.",
            "parameters": {"type": "object", "properties": {"loan_id": {"type": "string"}}},
        },
    ]
    sorry = ask(OfflineRouter(), decls, "배송비 얼마예요?")
    assert sorry.text == (
        "죄송합니다. 그 문의는 제가 도와드리기 어려워요. 이런 일을 도와드릴 수 있어요: "
        "Search the library catalog by title words; Renew a member's loan for two more weeks."
    )
    hello = ask(OfflineRouter(), decls, "Hello!")
    assert "search the library catalog by title words" in hello.text


def test_a_huge_question_is_read_up_to_its_first_4000_characters(all_decls):
    """A tester's 6 MB question took the offline router 46 s and 1.4 GB. It reads the first
    4,000 characters and its explanation says so."""
    from playground.routing.offline import MAX_QUESTION_CHARS

    question = "HR20260601 택배 어디쯤인가요? " + "a " * 500_000
    move = ask(OfflineRouter(), all_decls, question)
    assert [c.name for c in move.calls] == ["track_shipping"]
    assert move.explanation["question_cut"] == {"read": MAX_QUESTION_CHARS, "of": len(question)}
    assert len(move.explanation["question"]) == MAX_QUESTION_CHARS == 4000
    short = ask(OfflineRouter(), all_decls, "HR20260601 택배 어디쯤인가요?")
    assert "question_cut" not in short.explanation
