"""Claude-style `<invoke>` markup written as text (seed 000, format 3)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

A = "anthropic_xml"
NS = "antml:"  # The namespace prefix Claude's own tool-use markup carries.


def invoke(name: str, *params: tuple[str, str], prefix: str = "") -> str:
    """One invoke with its parameters, written the way Claude writes it."""
    body = "".join(f'<{prefix}parameter name="{k}">{v}</{prefix}parameter>\n' for k, v in params)
    return f'<{prefix}invoke name="{name}">\n{body}</{prefix}invoke>\n'


M = "minimax_m2"
D = "deepseek_dsml"
LIMIT_SCHEMA = {"name": "search", "parameters": {"type": "object", "properties": {"limit": {"type": "integer"}}}}


def dsml(name: str, *params: tuple[str, str, str]) -> str:
    """One DSML invoke: (parameter, string flag, value) triples."""
    body = "".join(f'<｜DSML｜parameter name="{k}" string="{flag}">{v}</｜DSML｜parameter>\n' for k, flag, v in params)
    return f'<｜DSML｜invoke name="{name}">\n{body}</｜DSML｜invoke>\n'


def dsml_calls(*invokes: str) -> str:
    return "<｜DSML｜function_calls>\n" + "".join(invokes) + "</｜DSML｜function_calls>"


MINIMAX_CASES = [
    # Issue 16: values stay text without a schema, as vLLM's MiniMax-M2 parser keeps them.
    Case(
        "MiniMax-M2 wrapper: values stay text",
        f"<minimax:tool_call>\n{invoke('search', ('query', 'llm parsers'), ('limit', '3'))}</minimax:tool_call>",
        [("search", {"query": "llm parsers", "limit": "3"})],
        format=M,
    ),
    Case(
        "MiniMax-M2: with a schema, the schema decides",
        f"<minimax:tool_call>\n{invoke('search', ('limit', '3'))}</minimax:tool_call>",
        [("search", {"limit": 3})],
        format=M,
        tools=[LIMIT_SCHEMA],
    ),
    Case(
        "MiniMax-M2: think first, two invokes, prose before",
        "<think>Two searches.</think>\nSearching.\n<minimax:tool_call>\n"
        f"{invoke('search', ('query', 'a'))}{invoke('search', ('query', 'b'))}</minimax:tool_call>",
        [("search", {"query": "a"}), ("search", {"query": "b"})],
        content="Searching.",
        format=M,
        reasoning="Two searches.",
    ),
    Case(
        "MiniMax-M2: an invoke without a name does not hide the next one",
        f"<minimax:tool_call>\n<invoke>\n</invoke>\n{invoke('search', ('query', 'x'))}</minimax:tool_call>",
        [("search", {"query": "x"})],
        rejected=["malformed"],
        format=M,
    ),
    plain("MiniMax-M2: the wrapper named in prose", "MiniMax wraps invokes in <minimax:tool_call> tags."),
]

DSML_CASES = [
    Case(
        "DSML: string=true is text, string=false is JSON",
        dsml_calls(dsml("get_weather", ("city", "true", "杭州"), ("days", "false", "3"), ("code", "true", "007"))),
        [("get_weather", {"city": "杭州", "days": 3, "code": "007"})],
        format=D,
    ),
    Case(
        "DSML: two invokes, prose before, nested JSON",
        "Checking both.\n"
        + dsml_calls(
            dsml("get_weather", ("city", "true", "Paris")),
            dsml("book", ("guests", "false", '[{"name": "Ana", "vip": true}]')),
        ),
        [("get_weather", {"city": "Paris"}), ("book", {"guests": [{"name": "Ana", "vip": True}]})],
        content="Checking both.",
        format=D,
    ),
    Case("DSML: a call without parameters", dsml_calls(dsml("get_time")), [("get_time", {})], format=D),
    Case(
        "DSML: string=false but not JSON keeps the text",
        dsml_calls(dsml("f", ("when", "false", "tomorrow"))),
        [("f", {"when": "tomorrow"})],
        format=D,
    ),
    Case(
        "DSML: cut off inside a value",
        '<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="a" string="true">ab',
        rejected=["truncated"],
        format=D,
    ),
    Case(
        "DeepSeek V4: the tool_calls wrapper, arguments as one JSON object",
        'Checking.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="spot">\n{"city": "São Paulo", "top": 3}\n'
        "</｜DSML｜invoke>\n</｜DSML｜tool_calls>",
        [("spot", {"city": "São Paulo", "top": 3})],
        content="Checking.",
        format=D,
    ),
    Case(
        "DeepSeek V4: the tool_calls wrapper with parameter tags",
        "<｜DSML｜tool_calls>\n" + dsml("spot", ("city", "true", "SF")) + "</｜DSML｜tool_calls>",
        [("spot", {"city": "SF"})],
        format=D,
    ),
    plain("DSML: the tag named in prose", "DeepSeek V3.2 writes ｜DSML｜invoke tags; see the docs."),
    # DeepSeek V4.1 (SGLang's deepseekv41_detector, vLLM's deepseekv41_engine): a space after ｜DSML｜.
    Case(
        "DeepSeek V4.1: spaced tags in a calls wrapper, flags and a JSON body",
        'On it.\n\n<｜DSML｜ calls>\n<｜DSML｜ invoke name="book">\n'
        '<｜DSML｜ parameter name="room" string="true">12B</｜DSML｜ parameter>\n'
        '<｜DSML｜ parameter name="nights" string="false">2</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n'
        '<｜DSML｜ invoke name="notify">\n{"to": ["ana", "bo"]}\n</｜DSML｜ invoke>\n</｜DSML｜ calls>',
        [("book", {"room": "12B", "nights": 2}), ("notify", {"to": ["ana", "bo"]})],
        content="On it.",
        format=D,
    ),
    Case(
        "DeepSeek V4.1: cut off inside a value",
        '<｜DSML｜ calls>\n<｜DSML｜ invoke name="book">\n<｜DSML｜ parameter name="room" string="true">12',
        rejected=["truncated"],
        format=D,
    ),
    plain("a calls tag without the DSML prefix is no wrapper", "Put them in <calls> tags, then <invoke> them."),
]

DOTS_CASES = [
    Case(
        "dots: invokes in its wrapper, values as text, prose before",
        'Searching.\n<dots_function_call>\n<invoke name="search">\n<parameter name="query">weather in Shanghai</parameter>\n'
        '<parameter name="limit">3</parameter>\n</invoke>\n</dots_function_call>',
        [("search", {"query": "weather in Shanghai", "limit": "3"})],
        content="Searching.",
        format="dots",
    ),
    Case(
        "dots: one JSON call in the wrapper",
        '<dots_function_call>{"name": "get_time", "arguments": {"tz": "Asia/Shanghai"}}</dots_function_call>',
        [("get_time", {"tz": "Asia/Shanghai"})],
        format="dots",
    ),
    plain("dots: the wrapper named in prose", "dots.llm wraps calls in <dots_function_call> blocks."),
]

STEP = "step3"
STEP_BEGIN = "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>"


def step(name: str, *params: tuple[str, str]) -> str:
    body = "".join(f'<steptml:parameter name="{k}">{v}</steptml:parameter>' for k, v in params)
    return f'<steptml:invoke name="{name}">{body}</steptml:invoke>'


STEP3_CASES = [
    Case(
        "step3: one call in DeepSeek-style tokens, values as text",
        f"{STEP_BEGIN}{step('get_weather', ('city', 'Paris'), ('days', '3'))}<｜tool_call_end｜><｜tool_calls_end｜>",
        [("get_weather", {"city": "Paris", "days": "3"})],
        format=STEP,
    ),
    Case(
        "step3: two calls, prose before; a value holding <",
        "Running both.\n<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>"
        f"{step('run', ('code', 'if a < b: print(a)'))}<｜tool_call_end｜>"
        f"<｜tool_call_begin｜>function<｜tool_sep｜>{step('get_time')}<｜tool_call_end｜><｜tool_calls_end｜>",
        [("run", {"code": "if a < b: print(a)"}), ("get_time", {})],
        content="Running both.",
        format=STEP,
    ),
    Case(
        "step3: with a schema, the schema decides",
        f"{STEP_BEGIN}{step('search', ('limit', '3'))}<｜tool_call_end｜><｜tool_calls_end｜>",
        [("search", {"limit": 3})],
        format=STEP,
        tools=[LIMIT_SCHEMA],
    ),
    plain("step3: the tag named in prose", "Step3 wraps calls in steptml:invoke elements."),
]

CASES = [
    Case(
        "seed 000 example B: a JSON-valued parameter is decoded, a string one is kept",
        '<function_calls>\n<invoke name="search_web">\n<parameter name="query">weather today</parameter>\n'
        '<parameter name="num_results">5</parameter>\n</invoke>\n</function_calls>',
        [("search_web", {"query": "weather today", "num_results": 5})],
        format=A,
    ),
    Case(
        "several invokes; prose before, between and after",
        f"Reading both.\n<function_calls>\n{invoke('read_file', ('path', 'a.txt'))}</function_calls>\nthen\n"
        f"<function_calls>\n{invoke('read_file', ('path', 'b.txt'))}</function_calls>\nDone.",
        [("read_file", {"path": "a.txt"}), ("read_file", {"path": "b.txt"})],
        content="Reading both.\nthen\nDone.",
        format=A,
    ),
    Case(
        "namespaced tags, as Claude writes them",
        f"<{NS}function_calls>\n{invoke('read_file', ('path', 'config.json'), prefix=NS)}</{NS}function_calls>",
        [("read_file", {"path": "config.json"})],
        format=A,
    ),
    Case(
        "no wrapper, single quotes, everything on one line",
        "<invoke name='get_time'><parameter name='tz'>UTC</parameter></invoke>",
        [("get_time", {"tz": "UTC"})],
        format=A,
    ),
    Case(
        "JSON values: boolean, object, array, null, quoted string",
        invoke("f", ("on", "true"), ("opts", '{"a": 1}'), ("ids", "[1, 2]"), ("none", "null"), ("s", '"5"')),
        [("f", {"on": True, "opts": {"a": 1}, "ids": [1, 2], "none": None, "s": "5"})],
        format=A,
    ),
    Case(
        "newline padding is stripped, spaces are kept, NaN stays text",
        invoke("f", ("text", "\n  indented line\n"), ("pad", " two spaces "), ("x", "NaN")),
        [("f", {"text": "  indented line", "pad": " two spaces ", "x": "NaN"})],
        format=A,
    ),
    Case(
        "the close tags are missing after complete parameters (a stop sequence)",
        '<function_calls>\n<invoke name="read_file">\n<parameter name="path">a.txt</parameter>\n',
        [("read_file", {"path": "a.txt"})],
        format=A,
    ),
    Case(
        "a missing </parameter> is ended by the next parameter",
        '<invoke name="f"><parameter name="a">1\n<parameter name="b">two</parameter></invoke>',
        [("f", {"a": 1, "b": "two"})],
        format=A,
    ),
    Case(
        "legacy anthropic-tools format, without </function_calls>",
        "<function_calls>\n<invoke>\n<tool_name>get_weather</tool_name>\n<parameters>\n"
        "<location>San Francisco, CA</location>\n<days>3</days>\n</parameters>\n</invoke>\n",
        [("get_weather", {"location": "San Francisco, CA", "days": 3})],
        format=A,
    ),
    Case(
        "a tool name with spaces is malformed",
        '<invoke name="read file"><parameter name="path">a</parameter></invoke>',
        rejected=["malformed"],
        format=A,
    ),
    Case(
        "a parameter without a name is malformed",
        'Let me see.\n<invoke name="f"><parameter>1</parameter></invoke>',
        content="Let me see.",
        rejected=["malformed"],
        format=A,
    ),
    Case(
        "cut off inside a parameter value is truncated",
        '<function_calls>\n<invoke name="write_file">\n<parameter name="content">Once upon a ti',
        rejected=["truncated"],
        format=A,
    ),
    plain("the tag mentioned in prose", "Claude calls tools with an <invoke> tag inside <function_calls>."),
    plain("a word containing invoke", "We invoke the <invoker> only on Fridays."),
    # The JSON-array form is XmlFunctionCalls', ordered after this strategy.
    Case(
        "<function_calls> holding JSON is not this format",
        '<function_calls>[{"name": "invoke", "arguments": {}}]</function_calls>',
        [("invoke", {})],
        format="function_calls_json",
    ),
]


@pytest.mark.parametrize("case", CASES + MINIMAX_CASES + DSML_CASES + STEP3_CASES + DOTS_CASES, ids=lambda c: c.id)
def test_anthropic_xml(case: Case) -> None:
    check(case)


def test_200k_unclosed_open_tags_is_linear() -> None:
    text = "<function_calls><invoke>" * 100_000
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert (result.tool_calls, result.content) == ([], text)
    assert elapsed < NO_BLOWUP_SECONDS


def test_200k_unclosed_invokes_stop_at_the_tag_budget() -> None:
    text = '<invoke name="a">' * 200_000
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert {c.name for c in result.tool_calls} == {"a"}
    assert "not read" in result.rejected[-1].reason
    assert elapsed < NO_BLOWUP_SECONDS
