"""LFM2's `<|tool_call_start|>` call lists and OLMo 3's `<function_calls>` lines (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import Lfm2ToolCalls, Olmo3FunctionCalls
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

LFM2, OLMO = "lfm2", "olmo3"
WEATHER = ("get_weather", {"city": "Paris"})
TIME = ("get_time", {"tz": "UTC"})


def lfm2(body: str) -> str:
    return f"<|tool_call_start|>{body}<|tool_call_end|>"


def olmo(*lines: str) -> str:
    return "<function_calls>\n" + "\n".join(lines) + "\n</function_calls>"


LFM2_CASES = [
    Case("one python call", lfm2('[get_weather(city="Paris")]'), [WEATHER], format=LFM2),
    Case(
        "two calls, prose before and after",
        "Checking both.\n" + lfm2('[get_weather(city="Paris"), get_time(tz="UTC")]') + "\nOne moment.",
        [WEATHER, TIME],
        content="Checking both.\nOne moment.",
        format=LFM2,
    ),
    Case(
        "the JSON variant",
        lfm2('[{"name": "get_weather", "arguments": {"city": "Paris"}}]'),
        [WEATHER],
        format=LFM2,
    ),
    Case("a call without arguments", lfm2("[list_files()]"), [("list_files", {})], format=LFM2),
    Case(
        "an empty list: no call, and no markup left",
        lfm2("[ ]") + "\nNothing to do.",
        content="Nothing to do.",
        format=LFM2,
    ),
    Case(
        "what models get wrong: a set, a zero-padded integer, a raw newline and a NUL byte in strings",
        lfm2("tag(labels={'urgent', 'bug'}, month=07, script='line 1\nline 2', raw='a\x00b')"),
        [("tag", {"labels": ["urgent", "bug"], "month": 7, "script": "line 1\nline 2", "raw": "a\x00b"})],
        format=LFM2,
    ),
    Case(
        "a dotted name; a bracket inside a string",
        lfm2("shop.order(items=[{'sku': 'A1', 'qty': 2}], note='grep -F \"]\" log')"),
        [("shop.order", {"items": [{"sku": "A1", "qty": 2}], "note": 'grep -F "]" log'})],
        format=LFM2,
    ),
    Case(
        "nested values, JSON literals and unicode",
        lfm2('[book(guests=[{"name": "Zoë", "vip": true}], note=None, city="東京")]'),
        [("book", {"guests": [{"name": "Zoë", "vip": True}], "note": None, "city": "東京"})],
        format=LFM2,
    ),
    Case(
        "one broken call does not hide the next",
        lfm2('[send(text=="it"), get_time(tz="UTC")]'),
        [TIME],
        rejected=["malformed"],
        format=LFM2,
    ),
    # Quotes of the string's own kind left unescaped inside it (shell commands): the one end
    # that makes the list Python closes the string, and the value is the text as written.
    Case(
        "a shell command quoting its own argument with the same quote",
        lfm2("[run(cmd='awk '{print $2}' data.tsv')]"),
        [("run", {"cmd": "awk '{print $2}' data.tsv"})],
        format=LFM2,
    ),
    Case(
        "nested same-kind quotes over two lines, a comma inside, another call after",
        lfm2("[run(cmd='python -c \"print('a, b')\"\nls'), get_time(tz=\"UTC\")]"),
        [("run", {"cmd": "python -c \"print('a, b')\"\nls"}), TIME],
        format=LFM2,
    ),
    Case(
        "double quotes inside double quotes",
        lfm2('[note(text="the sign says "closed" today", n=2)]'),
        [("note", {"text": 'the sign says "closed" today', "n": 2})],
        format=LFM2,
    ),
    Case(
        "escaped quotes of both kinds, and the other kind unescaped",
        lfm2('[note(a=\'it\\\'s\', b="say \\"hi\\"", c="it\'s", d=\'say "hi"\')]'),
        [("note", {"a": "it's", "b": 'say "hi"', "c": "it's", "d": 'say "hi"'})],
        format=LFM2,
    ),
    Case(
        "two ends would both make Python: ambiguous, rejected rather than guessed",
        lfm2("[f(a='x'y', b='z')]"),
        rejected=["malformed"],
        format=LFM2,
    ),
    Case(
        "the end token is missing",
        lfm2('[get_weather(city="Paris")]')[: -len("<|tool_call_end|>")],
        [WEATHER],
        format=LFM2,
    ),
    Case("cut off inside the list", '<|tool_call_start|>[get_weather(city="Pa', rejected=["truncated"], format=LFM2),
    plain("the token named in prose", "LFM2 opens calls with <|tool_call_start|> and closes them after."),
    plain("the token before prose, not a call", "<|tool_call_start|> is followed by a Python list."),
]

OLMO_CASES = [
    Case("one call per line", olmo('get_weather(city="Paris")', 'get_time(tz="UTC")'), [WEATHER, TIME], format=OLMO),
    Case(
        "JSON literals as values, prose before",
        "Sure.\n" + olmo("set_alarm(on=true, label=null, days=[1, 2])"),
        [("set_alarm", {"on": True, "label": None, "days": [1, 2]})],
        content="Sure.",
        format=OLMO,
    ),
    Case(
        "a broken line is rejected alone",
        olmo('get_weather(city="Paris"', 'get_time(tz="UTC")'),
        [TIME],
        rejected=["malformed"],
        format=OLMO,
    ),
    Case(
        "no newline after the tag; a number JSON cannot hold is refused alone",
        '<function_calls>calc(x=1e999)\nget_weather(city="Paris")</function_calls>',
        [WEATHER],
        rejected=["malformed"],
        format=OLMO,
    ),
    Case(
        "single-quoted strings with escapes, Python literals",
        "<function_calls>note(text='it\\'s \"fine\"', done=True, extra=None)</function_calls>",
        [("note", {"text": 'it\'s "fine"', "done": True, "extra": None})],
        format=OLMO,
    ),
    Case(
        "a shell command quoting with the string's own quote",
        olmo("run(cmd='grep -n 'def main' app.py')", 'get_time(tz="UTC")'),
        [("run", {"cmd": "grep -n 'def main' app.py"}), TIME],
        format=OLMO,
    ),
    Case("never closed: the model stopped", '<function_calls>\nget_weather(city="Paris")', [WEATHER], format=OLMO),
    Case(
        "never closed, prose after the calls stays",
        '<function_calls>\nget_weather(city="Paris")\nLet me know.',
        [WEATHER],
        content="Let me know.",
        format=OLMO,
    ),
    plain("the tag followed by prose", "<function_calls>\nThis tag wraps calls in OLMo 3.\n</function_calls>"),
    Case(
        "a JSON body is function_calls_json's, not this format",
        '<function_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</function_calls>',
        [WEATHER],
        format="function_calls_json",
    ),
]


@pytest.mark.parametrize("case", LFM2_CASES + OLMO_CASES, ids=lambda c: c.id)
def test_pythonic_tags(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    ("strategy", "unit"),
    [
        (Lfm2ToolCalls(), "<|tool_call_start|>[f("),
        (Lfm2ToolCalls(), "<|tool_call_start|>[f(a=1)]<|tool_call_end|>"),
        (Olmo3FunctionCalls(), "<function_calls>\nf(a=1)\n"),
        (Olmo3FunctionCalls(), "<function_calls>f("),
    ],
)
def test_hostile_repetition_is_linear(strategy: Lfm2ToolCalls | Olmo3FunctionCalls, unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    strategy.parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
