"""Qwen3-Coder's `<function=…><parameter=…>` markup."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

Q = "qwen3_coder"
WEATHER = (
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
    "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"
)

SCHEMA = {
    "name": "get_weather",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}},
}
S = "seed_oss"
SEED_CALL = (
    "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n</seed:tool_call>"
)

SEED_CASES = [
    Case("seed-oss: one call in its wrapper", SEED_CALL, [("get_weather", {"city": "Paris"})], format=S),
    Case(
        "seed-oss: its think block is reasoning, prose stays",
        f"<seed:think>The user wants Paris.</seed:think>Checking.\n{SEED_CALL}",
        [("get_weather", {"city": "Paris"})],
        content="Checking.",
        format=S,
        reasoning="The user wants Paris.",
    ),
    Case(
        "seed-oss: two calls, unicode and a multi-line value",
        SEED_CALL + "\n<seed:tool_call>\n<function=note>\n<parameter=text>Café\nau lait</parameter>\n</function>\n"
        "</seed:tool_call>",
        [("get_weather", {"city": "Paris"}), ("note", {"text": "Café\nau lait"})],
        format=S,
    ),
    # Issue 16: an empty shell must not stay in the content.
    Case(
        "seed-oss: an empty call shell",
        "Nothing to call.\n<seed:tool_call>\n</seed:tool_call>",
        content="Nothing to call.",
        format=S,
    ),
    Case(
        "seed-oss: an empty shell beside a call",
        f"<seed:tool_call></seed:tool_call>{SEED_CALL}",
        [("get_weather", {"city": "Paris"})],
        format=S,
    ),
    Case(
        "seed-oss: cut off inside the value",
        "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Par",
        [("get_weather", {"city": "Par"})],
        format=S,
    ),
    plain("seed-oss: the wrapper named in prose", "Seed-OSS wraps calls in <seed:tool_call> tags, then closes them."),
]

CASES = [
    # Issue 16: without a schema, values stay the text written, as vLLM keeps them for an unknown tool.
    Case("single call (chat template layout)", WEATHER, [("get_weather", {"city": "Paris", "days": "3"})], format=Q),
    Case(
        "with a schema, the schema decides the value's type",
        WEATHER,
        [("get_weather", {"city": "Paris", "days": 3})],
        format=Q,
        tools=[SCHEMA],
    ),
    Case(
        "several calls; prose before, between and after",
        f"Checking.\n{WEATHER}\nand\n<tool_call>\n<function=get_time>\n</function>\n</tool_call>\nWait.",
        [("get_weather", {"city": "Paris", "days": "3"}), ("get_time", {})],
        content="Checking.\nand\nWait.",
        format=Q,
    ),
    Case(
        "no <tool_call> wrapper",
        "<function=get_time>\n<parameter=tz>\nUTC\n</parameter>\n</function>",
        [("get_time", {"tz": "UTC"})],
        format=Q,
    ),
    Case(
        "values: the text less one newline each side; null is None",
        '<function=f>\n<parameter=opts>\n{"a": [1, 2]}\n</parameter>\n<parameter=on>\ntrue\n</parameter>\n'
        "<parameter=code>\n\n    x = 1\n\n</parameter>\n<parameter=none>\nnull\n</parameter>\n</function>",
        [("f", {"opts": '{"a": [1, 2]}', "on": "true", "code": "\n    x = 1\n", "none": None})],
        format=Q,
    ),
    Case(
        "a missing </parameter> is ended by the next parameter",
        "<tool_call>\n<function=f>\n<parameter=a>\n1\n<parameter=b>\nx y\n</parameter>\n</function>\n</tool_call>",
        [("f", {"a": "1", "b": "x y"})],
        format=Q,
    ),
    Case(
        "missing </parameter> and </function> at the end are tolerated, as in vLLM",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis",
        [("get_weather", {"city": "Paris"})],
        format=Q,
    ),
    Case(
        "a missing </function> before </tool_call>",
        "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</tool_call>\nDone.",
        [("f", {"a": "1"})],
        content="Done.",
        format=Q,
    ),
    Case(
        "prose after an unclosed function stays content",
        "<function=f>\n<parameter=a>\n1\n</parameter>\nDone.",
        [("f", {"a": "1"})],
        content="Done.",
        format=Q,
    ),
    Case(
        "text that is not a parameter is malformed",
        "<tool_call>\n<function=f>\nplease run f\n</function>\n</tool_call>\nOK?",
        content="OK?",
        rejected=["malformed"],
        format=Q,
    ),
    Case(
        "cut off inside a parameter tag is truncated",
        "<tool_call>\n<function=get_weather>\n<parameter=ci",
        rejected=["truncated"],
        format=Q,
    ),
    Case(
        "cut off inside the function name is truncated",
        "Let me check.\n<tool_call>\n<function=get_wea",
        content="Let me check.",
        rejected=["truncated"],
        format=Q,
    ),
    plain("the tag mentioned in prose", "Qwen3-Coder writes <function=NAME> then one <parameter=NAME> per argument."),
    # vLLM refuses names with template characters: an unrendered Jinja tag is no call.
    plain("a phantom name from an unrendered template", "<function={{ tool.name }}>\n</function>"),
    # A JSON body is Functionary / Llama 3.1's format, ordered after this strategy.
    Case(
        "a JSON body is left to Functionary",
        '<function=get_weather>{"city": "Paris"}</function>',
        [("get_weather", {"city": "Paris"})],
        format="functionary",
    ),
    # Issue 16: MiMo-V2-Flash (vLLM's mimov2_flash_tool_parser.py) and MiMo (vllm/parser/mimo.py, a
    # Qwen3 parser with verbatim values) write this same markup, values as text.
    Case(
        "mimo v2 flash: a shell command with quotes and && kept as written; reasoning first",
        "<think>List the files.</think>\nLooking.\n<tool_call>\n<function=execute_bash>\n"
        '<parameter=command>cd "/tmp" && ls -la</parameter>\n<parameter=timeout>30</parameter>\n'
        "</function>\n</tool_call>",
        [("execute_bash", {"command": 'cd "/tmp" && ls -la', "timeout": "30"})],
        content="Looking.",
        reasoning="List the files.",
        format=Q,
    ),
    # Round three: iQuest Coder (vLLM's iquest_coder_tool_parser.py) writes this markup, with blank
    # lines between calls as scaffolding: no content from them.
    Case(
        "iquest coder: two calls separated by blank lines, the end token after",
        "\n<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/app.py\n</parameter>\n</function>\n</tool_call>\n"
        "\n<tool_call>\n<function=run>\n<parameter=cmd>\npytest -q\n</parameter>\n<parameter=timeout_ms>\n"
        "60000\n</parameter>\n</function>\n</tool_call>\n<|im_end|>",
        [("read_file", {"path": "src/app.py"}), ("run", {"cmd": "pytest -q", "timeout_ms": 60000})],
        format=Q,
        tools=[
            {"name": "read_file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}},
            {
                "name": "run",
                "parameters": {
                    "type": "object",
                    "properties": {"cmd": {"type": "string"}, "timeout_ms": {"type": "integer"}},
                },
            },
        ],
    ),
]


@pytest.mark.parametrize("case", CASES + SEED_CASES, ids=lambda c: c.id)
def test_qwen3_coder(case: Case) -> None:
    check(case)


def test_a_literal_close_tag_inside_a_value_is_kept() -> None:
    # Only a </parameter> followed by markup (or the end) closes the value, as in vLLM.
    result = parse_response("<function=write>\n<parameter=text>\nuse </parameter> here\n</parameter>\n</function>")
    assert result.tool_calls[0].arguments == {"text": "use </parameter> here"}


def test_200k_unclosed_open_tags_is_linear() -> None:
    text = "<tool_call>\n<function=f>\n<parameter=x>\n" * 200_000
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert result.format == Q
    assert "not read" in result.rejected[-1].reason
    assert elapsed < NO_BLOWUP_SECONDS
