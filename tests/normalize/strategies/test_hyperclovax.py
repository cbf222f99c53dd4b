"""HyperCLOVA X SEED Think 14B: `assistant -> tool/function_call` then a JSON list (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import HyperClovaXFunctionCall
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

H = "hyperclovax"
SEOUL = ("get_weather", {"city": "Seoul"})
LIST = '[{"name": "get_weather", "arguments": {"city": "Seoul"}}]'
ROLE = "<|im_end|>\n<|im_start|>assistant -> tool/function_call\n"

CASES = [
    Case("no reasoning: the role line first", f" -> tool/function_call\n{LIST}<|im_end|>", [SEOUL], format=H),
    Case(
        "reasoning turn, then the tools' turn",
        f"/think\nThe user wants Seoul.{ROLE}{LIST}<|im_end|>",
        [SEOUL],
        format=H,
        reasoning="The user wants Seoul.",
    ),
    Case(
        "reasoning, a content turn, then two calls under `parameters`",
        f"/think\nTwo lookups.<|im_end|>\n<|im_start|>assistant\nChecking both.{ROLE}"
        '[{"name": "get_weather", "parameters": {"city": "Seoul"}}, {"name": "get_time", "parameters": {}}]',
        [SEOUL, ("get_time", {})],
        content="Checking both.",
        format=H,
        reasoning="Two lookups.",
    ),
    Case(
        "content before, no reasoning; nested JSON and unicode",
        f'검색할게요.{ROLE}[{{"name": "book", "arguments": {{"guests": [{{"name": "지민"}}], "n": 2}}}}]',
        [("book", {"guests": [{"name": "지민"}], "n": 2})],
        content="검색할게요.",
        format=H,
    ),
    Case(
        "one item that is no call does not hide the other",
        f' -> tool/function_call\n[{{"city": "Seoul"}}, {LIST[1:-1]}]',
        [SEOUL],
        rejected=["malformed"],
        format=H,
    ),
    Case("cut off inside the list", f" -> tool/function_call\n{LIST[:30]}", rejected=["truncated"], format=H),
    plain("the role line named in prose", "The 14B model writes -> tool/function_call before its calls."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_hyperclovax(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", [" -> tool/function_call\n[{", "<|im_end|>\n<|im_start|>assistant"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    HyperClovaXFunctionCall().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
