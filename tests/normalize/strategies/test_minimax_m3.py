"""MiniMax M3's namespaced `<invoke>` calls, arguments as nested tags (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import MiniMaxM3Xml
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

M = "minimax_m3"
N = "]<]minimax[>["


def tag(name: str, body: str) -> str:
    """One namespaced element."""
    return f"{N}<{name}>{body}{N}</{name}>"


def invoke(name: str, *arguments: str) -> str:
    return f'{N}<invoke name="{name}">' + "".join(arguments) + f"{N}</invoke>\n"


def wrapper(*invokes: str) -> str:
    return f"{N}<tool_call>\n" + "".join(invokes) + f"{N}</tool_call>"


TRAIN = invoke("book_train", tag("from", "Lyon"), tag("to", "Nice"))
LYON_NICE = ("book_train", {"from": "Lyon", "to": "Nice"})
SCHEMA = {
    "name": "book_train",
    "parameters": {
        "type": "object",
        "properties": {"from": {"type": "string"}, "to": {"type": "string"}, "seats": {"type": "integer"}},
    },
}

CASES = [
    Case(
        "prose, then two invokes in one wrapper",
        "Booking it now.\n" + wrapper(TRAIN, invoke("get_time")),
        [LYON_NICE, ("get_time", {})],
        content="Booking it now.",
        format=M,
    ),
    Case(
        "nested tags: an object, and a list written as <item> tags",
        wrapper(
            invoke(
                "plan_trip",
                tag("stops", tag("item", "Lyon") + tag("item", "Nice")),
                tag("hotel", tag("name", "Le Parc") + tag("stars", "4")),
            )
        ),
        [("plan_trip", {"stops": ["Lyon", "Nice"], "hotel": {"name": "Le Parc", "stars": "4"}})],
        format=M,
    ),
    Case(
        "without a schema every value is the text written",
        wrapper(invoke("book_train", tag("seats", "2"), tag("flexible", "true"), tag("note", ""))),
        [("book_train", {"seats": "2", "flexible": "true", "note": ""})],
        format=M,
    ),
    Case(
        "with a schema, an integer argument is decoded",
        wrapper(invoke("book_train", tag("from", "Lyon"), tag("seats", "2"))),
        [("book_train", {"from": "Lyon", "seats": 2})],
        tools=[SCHEMA],
        format=M,
    ),
    Case(
        "a tag repeated in an object gathers a list; text beside child tags is kept",
        wrapper(
            invoke("tag_photo", tag("meta", "by Zoë " + tag("tag", "sea") + tag("tag", "sun") + tag("tag", "東京")))
        ),
        [("tag_photo", {"meta": {"tag": ["sea", "sun", "東京"], "$text": "by Zoë "}})],
        format=M,
    ),
    Case(
        "markup without the namespace token is part of a value",
        wrapper(invoke("write", tag("html", "<b>bold</b> and <invoke name='x'>"))),
        [("write", {"html": "<b>bold</b> and <invoke name='x'>"})],
        format=M,
    ),
    Case(
        "blank space between the namespace token and its tag is layout",
        f'{N}<tool_call>\n{N} <invoke name="book_train">{N}\n<from>Lyon{N}\n</from>{N} </invoke>\n{N}</tool_call>',
        [("book_train", {"from": "Lyon"})],
        format=M,
    ),
    Case(
        "reasoning in <mm:think>, then the call",
        "<mm:think>A train from Lyon.</mm:think>\n" + wrapper(TRAIN),
        [LYON_NICE],
        reasoning="A train from Lyon.",
        format=M,
    ),
    Case(
        "an invoke closed with an argument still open is rejected; the next one is read",
        wrapper(f'{N}<invoke name="book_train">{N}<from>Lyon{N}</invoke>\n', TRAIN),
        [LYON_NICE],
        rejected=["malformed"],
        format=M,
    ),
    Case(
        "cut off inside a value: the invoke before it stands",
        "Sure.\n" + f"{N}<tool_call>\n" + TRAIN + f'{N}<invoke name="book_train">{N}<from>Ly',
        [LYON_NICE],
        content="Sure.",
        rejected=["truncated"],
        format=M,
    ),
    Case(
        "an empty wrapper is markup",
        f"Nothing to book.\n{N}<tool_call>\n{N}</tool_call>",
        content="Nothing to book.",
        format=M,
    ),
    plain("the namespace token named in prose", f"M3 puts {N} before each tag, like {N}<city>."),
    plain("a wrapper tag without the token", "M3 wraps calls in <tool_call> tags behind a namespace."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_minimax_m3(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", [f"{N}<tool_call>{N}", f'{N}<invoke name="f">{N}<a>', f"{N}<a>", f"{N}</a>"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = f"{N}<tool_call>" + unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    MiniMaxM3Xml().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
