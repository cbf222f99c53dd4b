"""GLM-4.5/4.6/4.7 `<arg_key>`/`<arg_value>` calls inside `<tool_call>`."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

G = "glm"
WEATHER = "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>"

CASES = [
    Case("single call (GLM-4.5 template)", WEATHER, [("get_weather", {"city": "Paris"})], format=G),
    Case(
        "GLM-4.7 writes no newline after the name",
        "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>",
        [("get_weather", {"city": "Paris"})],
        format=G,
    ),
    Case(
        "several calls with a bare-name call; prose before, between and after",
        f"Checking.\n{WEATHER}\nthen\n<tool_call>get_time</tool_call>\nDone.",
        [("get_weather", {"city": "Paris"}), ("get_time", {})],
        content="Checking.\nthen\nDone.",
        format=G,
    ),
    Case(
        "values: JSON when they parse (the template writes non-strings as JSON), else text",
        "<tool_call>f\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n<arg_key>opts</arg_key>\n"
        '<arg_value>{"a": [1, 2]}</arg_value>\n<arg_key>q</arg_key>\n'
        "<arg_value>weather today</arg_value>\n</tool_call>",
        [("f", {"days": 3, "opts": {"a": [1, 2]}, "q": "weather today"})],
        format=G,
    ),
    Case(
        "the last </tool_call> is missing",
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n",
        [("get_weather", {"city": "Paris"})],
        format=G,
    ),
    Case(
        "a key without a value is malformed",
        "On it.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n</tool_call>",
        content="On it.",
        rejected=["malformed"],
        format=G,
    ),
    Case(
        "a name with spaces is malformed",
        "<tool_call>get weather\n<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>",
        rejected=["malformed"],
        format=G,
    ),
    Case(
        "cut off inside a value is truncated",
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Par",
        rejected=["truncated"],
        format=G,
    ),
    plain("the tag mentioned in prose", "GLM puts each argument name in an <arg_key> tag."),
    # A block of Hermes JSON beside GLM markup is not GLM's; JSON alone is Hermes'.
    Case(
        "a JSON body is Hermes'",
        '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>',
        [("get_time", {})],
        format="hermes",
    ),
    # Issue 16: Hunyuan 3 writes GLM's pairs, the name ended by <tool_sep>, calls in <tool_calls>.
    Case(
        "hunyuan 3: <tool_sep> after the name, two calls in <tool_calls>",
        "Checking.\n<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n"
        "<arg_value>Paris</arg_value>\n</tool_call>\n<tool_call>get_time<tool_sep>\n<arg_key>tz</arg_key>\n"
        "<arg_value>UTC</arg_value>\n</tool_call>\n</tool_calls>",
        [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})],
        content="Checking.",
        format="glm",
    ),
    # Round three: models that write GLM's markup as it is.
    Case(
        "spark3: no newline after the name, a null value, the schema deciding the other types",
        "<tool_call>search_flights<arg_key>origin</arg_key><arg_value>PEK</arg_value><arg_key>max_stops</arg_key>"
        "<arg_value>1</arg_value><arg_key>airline</arg_key><arg_value>null</arg_value></tool_call>",
        [("search_flights", {"origin": "PEK", "max_stops": 1, "airline": None})],
        format=G,
        tools=[
            {
                "name": "search_flights",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "origin": {"type": "string"},
                        "max_stops": {"type": "integer"},
                    },
                },
            }
        ],
    ),
    Case(
        "spark3: a JSON object as a value, prose after",
        '<tool_call>create_event<arg_key>when</arg_key><arg_value>{"day": "Mon", "hour": 9}</arg_value></tool_call>'
        "\nScheduled it.",
        [("create_event", {"when": {"day": "Mon", "hour": 9}})],
        content="Scheduled it.",
        format=G,
    ),
    Case(
        "hyperclova x seed think: reasoning ended by a lone </think>, then two calls",
        "The user wants two cities.</think>\n\nChecking both.<tool_call>get_weather\n<arg_key>city</arg_key>\n"
        "<arg_value>Seoul</arg_value>\n</tool_call>\n<tool_call>get_weather\n<arg_key>city</arg_key>\n"
        "<arg_value>Busan</arg_value>\n</tool_call><|im_end|>",
        [("get_weather", {"city": "Seoul"}), ("get_weather", {"city": "Busan"})],
        content="Checking both.",
        format=G,
        reasoning="The user wants two cities.",
    ),
    Case(
        "hyperclova x seed think: the JSON list it writes when a schema is forced",
        'Pick one.</think>\n[{"name": "get_weather", "parameters": {"city": "Seoul"}}]',
        [("get_weather", {"city": "Seoul"})],
        format="json_document",
        reasoning="Pick one.",
    ),
]

IQ = "iquest_coder_v2"
IQUEST_V2_CASES = [
    Case(
        "iquest coder v2: its own wrapper, JSON values decoded",
        "<iquestcoder_tool_call>run_tests\n<arg_key>path</arg_key>\n<arg_value>tests/</arg_value>\n"
        "<arg_key>workers</arg_key>\n<arg_value>4</arg_value>\n</iquestcoder_tool_call>",
        [("run_tests", {"path": "tests/", "workers": 4})],
        format=IQ,
    ),
    Case(
        "iquest coder v2: a name alone, then a second call, prose before",
        "Two steps.\n<iquestcoder_tool_call>list_files</iquestcoder_tool_call>\n<iquestcoder_tool_call>read_file"
        "<arg_key>path</arg_key><arg_value>main.py</arg_value></iquestcoder_tool_call>",
        [("list_files", {}), ("read_file", {"path": "main.py"})],
        content="Two steps.",
        format=IQ,
    ),
    Case(
        "iquest coder v2: a name alone",
        "<iquestcoder_tool_call>list_files</iquestcoder_tool_call>",
        [("list_files", {})],
        format=IQ,
    ),
    Case(
        "iquest coder v2: cut off inside a value",
        "<iquestcoder_tool_call>read_file<arg_key>path</arg_key><arg_value>mai",
        rejected=["truncated"],
        format=IQ,
    ),
    plain("iquest coder v2: the tag named in prose", "iQuest wraps calls in <iquestcoder_tool_call> tags."),
    Case(
        "iquest q1: SGLang's wrapper, prose before, a bare name after",
        "On it.<iquest_tool_call>grep\n<arg_key>pattern</arg_key>\n<arg_value>TODO</arg_value>\n</iquest_tool_call>"
        "<iquest_tool_call>git_status</iquest_tool_call>",
        [("grep", {"pattern": "TODO"}), ("git_status", {})],
        content="On it.",
        format="iquest_q1",
    ),
]


@pytest.mark.parametrize("case", CASES + IQUEST_V2_CASES, ids=lambda c: c.id)
def test_glm(case: Case) -> None:
    check(case)


def test_200k_unclosed_open_tags_is_linear() -> None:
    text = "<tool_call>get_weather\n<arg_key>" * 200_000
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert result.format == G
    assert "not read" in result.rejected[-1].reason
    assert elapsed < NO_BLOWUP_SECONDS
