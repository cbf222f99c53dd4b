"""GLM-4.5/4.6/4.7 `<arg_key>`/`<arg_value>` calls inside `<tool_call>`, and K2 Horizon's IFM spelling."""

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
    # Ollama glm47_test.go `ToolCloseTagInsideArgumentValue`: the value is read to its </arg_value>.
    Case(
        "glm: a value that writes the call's own tags",
        "<tool_call>write_file<arg_key>path</arg_key><arg_value>notes.md</arg_value>"
        "<arg_key>content</arg_key><arg_value>Wrap each call in <tool_call> and </tool_call>; done."
        "</arg_value></tool_call>\nSaved.",
        [("write_file", {"path": "notes.md", "content": "Wrap each call in <tool_call> and </tool_call>; done."})],
        content="Saved.",
        format="glm",
    ),
    Case(
        "glm: an unclosed value is not read on into the next call's pairs",
        "<tool_call>f<arg_key>a</arg_key><arg_value>x</tool_call>"
        "<tool_call>g<arg_key>b</arg_key><arg_value>y</arg_value></tool_call>",
        [("g", {"b": "y"})],
        rejected=["malformed"],
        format="glm",
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

H = "k2_horizon"
IFM_WEATHER = (
    "<ifm|tool_call>get_weather\n<ifm|arg_key>city</ifm|arg_key>\n<ifm|arg_value>Oslo</ifm|arg_value>\n"
    "<ifm|arg_key>days</ifm|arg_key>\n<ifm|arg_value>4</ifm|arg_value>\n</ifm|tool_call>"
)
# Issue 16: K2 Horizon (vLLM's k2_horizon_tool_parser.py) writes GLM's pairs in IFM tags.
K2_HORIZON_CASES = [
    Case(
        "k2 horizon: untyped values stay text, prose before the wrapper",
        f"Checking Oslo.\n<ifm|tool_calls>{IFM_WEATHER}</ifm|tool_calls>",
        [("get_weather", {"city": "Oslo", "days": "4"})],
        content="Checking Oslo.",
        format=H,
    ),
    Case(
        "k2 horizon: typed values are read as their type says",
        "<ifm|tool_calls><ifm|tool_call>book<ifm|arg_key>nights</ifm|arg_key><ifm|arg_type>integer</ifm|arg_type>"
        "<ifm|arg_value>3</ifm|arg_value><ifm|arg_key>room</ifm|arg_key><ifm|arg_type>object</ifm|arg_type>"
        '<ifm|arg_value>{"beds": 2}</ifm|arg_value><ifm|arg_key>code</ifm|arg_key><ifm|arg_type>string</ifm|arg_type>'
        "<ifm|arg_value>0042</ifm|arg_value></ifm|tool_call></ifm|tool_calls>",
        [("book", {"nights": 3, "room": {"beds": 2}, "code": "0042"})],
        format=H,
    ),
    Case(
        "k2 horizon: the JSON variant, and a bare name without arguments",
        '<ifm|tool_calls><ifm|tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</ifm|tool_call>'
        "<ifm|tool_call>get_time</ifm|tool_call></ifm|tool_calls>",
        [("get_weather", {"city": "Oslo"}), ("get_time", {})],
        format=H,
    ),
    Case(
        "k2 horizon: its reasoning tags, then a call",
        f"<ifm|think_fast>Oslo, four days.</ifm|think_fast>\n<ifm|tool_calls>{IFM_WEATHER}</ifm|tool_calls>",
        [("get_weather", {"city": "Oslo", "days": "4"})],
        reasoning="Oslo, four days.",
        format=H,
    ),
    Case(
        "k2 horizon: the fast effort's reasoning closed with the default tag still ends there",
        f"<ifm|think_fast>Oslo.</ifm|think>\n<ifm|tool_calls>{IFM_WEATHER}</ifm|tool_calls>",
        [("get_weather", {"city": "Oslo", "days": "4"})],
        reasoning="Oslo.",
        format=H,
    ),
    Case(
        "k2 horizon: with a schema, an integer argument is decoded",
        f"<ifm|tool_calls>{IFM_WEATHER}</ifm|tool_calls>",
        [("get_weather", {"city": "Oslo", "days": 4})],
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                },
            }
        ],
        format=H,
    ),
    Case(
        "k2 horizon: cut off inside a value",
        "<ifm|tool_calls><ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Os",
        rejected=["truncated"],
        format=H,
    ),
    plain("k2 horizon: the tag named in prose", "K2 Horizon opens a call with <ifm|tool_call> and a name."),
]
CASES += K2_HORIZON_CASES

S = ":6124c78e"  # A checkpoint's suffix, as HY-V4 may add to every structural tag.
HY_ROME = (
    f"<tool_calls{S}><tool_call{S}>get_weather<arg_key{S}>city</arg_key{S}><arg_value{S}>Rome</arg_value{S}>"
    f"<arg_key{S}>days</arg_key{S}><arg_value{S}>3</arg_value{S}></tool_call{S}></tool_calls{S}>"
)
# Issue 16: Hunyuan HY-V4 (vLLM's hy_v4_tool_parser.py).
HY_V4_CASES = [
    Case(
        "hy-v4 suffixed: reasoning, prose, a call; values stay text without a schema",
        f"<think{S}>Rome, three days.</think{S}>\nChecking.{HY_ROME}",
        [("get_weather", {"city": "Rome", "days": "3"})],
        content="Checking.",
        reasoning="Rome, three days.",
        format="hy_v4",
    ),
    Case(
        "hy-v4 suffixed: with a schema, the integer is decoded",
        HY_ROME,
        [("get_weather", {"city": "Rome", "days": 3})],
        tools=[
            {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                },
            }
        ],
        format="hy_v4",
    ),
    Case(
        "hy-v4 suffixed: reasoning and a plain answer",
        f"<think{S}>Nothing to call.</think{S}>\nRome is lovely in May.",
        content="Rome is lovely in May.",
        reasoning="Nothing to call.",
        format="hy_v4",
        needs_more_work=None,
    ),
    Case(
        "hy-v4 suffixed: cut off inside a value",
        f"<tool_calls{S}><tool_call{S}>get_weather<arg_key{S}>city</arg_key{S}><arg_value{S}>Ro",
        rejected=["truncated"],
        format="hy_v4",
    ),
    Case(
        "hy-v4 unsuffixed: the same markup as GLM, read by it",
        "<tool_calls>\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Rome</arg_value>\n</tool_call>\n"
        "</tool_calls>",
        [("get_weather", {"city": "Rome"})],
        format=G,
    ),
    plain("hy-v4: a suffixed tag named in prose", "HY-V4 may write <think:6124c78e> instead of a plain think tag."),
]
CASES += HY_V4_CASES

# Issue 16: Ling 3 (vLLM's ling3_tool_parser.py) and poolside Laguna (poolside_v1_tool_parser.py)
# write GLM-4.7's markup after a <think> block: same family, these rows prove it.
CASES += [
    Case(
        "ling 3: reasoning, then GLM-4.7 pairs with no newline after the name",
        "<think>Need the forecast.</think>\n<tool_call>get_weather<arg_key>city</arg_key><arg_value>Hangzhou</arg_value>"
        "<arg_key>days</arg_key><arg_value>2</arg_value></tool_call>",
        [("get_weather", {"city": "Hangzhou", "days": 2})],
        reasoning="Need the forecast.",
        format=G,
    ),
    Case(
        "poolside laguna: a call with arguments and one without, prose after",
        "<think>Read, then list.</think>\n<tool_call>read_file<arg_key>path</arg_key><arg_value>src/app.py</arg_value>"
        "</tool_call><tool_call>list_dir</tool_call>\nReading now.",
        [("read_file", {"path": "src/app.py"}), ("list_dir", {})],
        content="Reading now.",
        reasoning="Read, then list.",
        format=G,
    ),
]


@pytest.mark.parametrize("case", CASES + IQUEST_V2_CASES, ids=lambda c: c.id)
def test_glm(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    ("unit", "format"),
    [
        ("<tool_call>get_weather\n<arg_key>", G),
        ("<ifm|tool_call>f<ifm|arg_key>a</ifm|arg_key><ifm|arg_type>", H),
        (f"<tool_call{S}>f<arg_key{S}>a</arg_key{S}>", "hy_v4"),
    ],
)
def test_8_mb_of_unclosed_open_tags_is_linear(unit: str, format: str) -> None:
    text = unit * (8_000_000 // len(unit))
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert result.format == format
    assert "not read" in result.rejected[-1].reason
    assert elapsed < NO_BLOWUP_SECONDS
