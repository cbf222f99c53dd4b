"""Meta Llama's `<|python_tag|>`, `<|python_start|>` and `;`-joined JSON calls."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import LlamaPythonTag
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

L = "llama"
TAG, EOM, EOT = "<|python_tag|>", "<|eom_id|>", "<|eot_id|>"
START, END = "<|python_start|>", "<|python_end|>"
WEATHER_JSON = '{"name": "get_weather", "parameters": {"city": "Paris"}}'
WEATHER = ("get_weather", {"city": "Paris"})

CASES = [
    Case("3.1: a JSON call after the tag", f"{TAG}{WEATHER_JSON}{EOM}", [WEATHER], format=L),
    Case(
        "3.1: calls joined by semicolons",
        f'{TAG}{WEATHER_JSON}; {{"name": "get_time", "parameters": {{}}}}{EOM}',
        [WEATHER, ("get_time", {})],
        format=L,
    ),
    Case(
        "prose before the tag", f"Let me check.\n{TAG}{WEATHER_JSON}{EOT}", [WEATHER], content="Let me check.", format=L
    ),
    Case(
        "built-in brave search",
        f'{TAG}brave_search.call(query="weather in Paris"){EOM}',
        [("brave_search", {"query": "weather in Paris"})],
        format=L,
    ),
    Case(
        "built-in wolfram alpha",
        f'{TAG}wolfram_alpha.call(query="solve x^2 = 4"){EOM}',
        [("wolfram_alpha", {"query": "solve x^2 = 4"})],
        format=L,
    ),
    Case(
        "code for the code interpreter",
        f"{TAG}import math\nprint(math.pi){EOM}",
        [("code_interpreter", {"code": "import math\nprint(math.pi)"})],
        format=L,
    ),
    Case(
        "code whose end-of-message token the server stripped",
        f"{TAG}print(2 ** 10)",
        [("code_interpreter", {"code": "print(2 ** 10)"})],
        format=L,
    ),
    Case(
        "4: pythonic calls between the tokens",
        f'{START}[get_weather(city="Paris"), get_time()]{END}<|eot|>',
        [WEATHER, ("get_time", {})],
        format=L,
    ),
    Case(
        "4: one call without brackets, literal values",
        f'{START}search(q="x", limit=3, exact=True, tags=["a"]){END}',
        [("search", {"q": "x", "limit": 3, "exact": True, "tags": ["a"]})],
        format=L,
    ),
    Case(
        "whole answer: JSON calls joined by semicolons",
        f'{WEATHER_JSON}; {{"name": "get_time", "parameters": {{"tz": "CET"}}}}',
        [WEATHER, ("get_time", {"tz": "CET"})],
        format=L,
    ),
    Case(
        "arguments as a JSON-encoded string",
        f'{TAG}{{"name": "f", "parameters": "{{\\"a\\": 1}}"}}{EOM}',
        [("f", {"a": 1})],
        format=L,
    ),
    Case("4: the end token is missing", f'{START}[get_weather(city="Paris")]', [WEATHER], format=L),
    Case(
        "a variable is not a literal: malformed",
        f"{START}[get_weather(city=paris)]{END}",
        rejected=["malformed"],
        format=L,
    ),
    Case("positional arguments are malformed", f'{START}[get_weather("Paris")]{END}', rejected=["malformed"], format=L),
    # vLLM test_llama4_pythonic_tool_parser.py: a value JSON cannot hold rejects its call alone.
    Case(
        "llama 4: bytes and 1e999 are no JSON values, the sibling call is read",
        f"{START}[bad(x=b'z'), calc(x=1e999), get_weather(city='LA', metric='C')]{END}",
        [("get_weather", {"city": "LA", "metric": "C"})],
        rejected=["malformed", "malformed"],
        format=L,
    ),
    Case(
        "llama 4: JSON's literals and a set, read as the bare list reads them",
        f"{START}[tag(items={{'a', 'b'}}, on=true, off=null)]{END}",
        [("tag", {"items": ["a", "b"], "on": True, "off": None})],
        format=L,
    ),
    Case("unreadable JSON is malformed", f'{TAG}{{"name" => "f"}}{EOM}', rejected=["malformed"], format=L),
    Case("a pythonic call cut off is truncated", f'{START}[get_weather(city="Pa', rejected=["truncated"], format=L),
    Case(
        "a JSON call cut off is truncated",
        f'{TAG}{WEATHER_JSON}; {{"name": "f", "parameters": {{"q": "ab',
        [WEATHER],
        rejected=["truncated"],
        format=L,
    ),
    plain("the tag mentioned in prose", f"Llama 3.1 starts tool calls with {TAG} and then JSON."),
    plain("the Llama 4 token mentioned in prose", f"Use {START} tokens around pythonic calls."),
    plain("a one-word mention at the end", f"The token is {TAG}tokens"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_llama(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("text", ['{"a": 1}; {"b": 2}', '{"name": "f", "parameters": {}}', "{ not json ; }"])
def test_whole_answers_that_are_not_joined_calls_are_left_alone(text: str) -> None:
    assert LlamaPythonTag().parse(text) is None


@pytest.mark.parametrize(
    "unit", [TAG, f"{START}[", f"{TAG}{{", f"{TAG}x=1{EOM}", f"{START}f(", "{};", f"{WEATHER_JSON};"]
)
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * 200_000
    started = time.perf_counter()
    LlamaPythonTag().parse(text)
    # 0.25 s per MB (0.5 s at least): far above linear, far below what a quadratic scan takes.
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
