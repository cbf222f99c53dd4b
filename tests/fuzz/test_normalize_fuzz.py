"""Properties of the lenient JSON loader and the normalizer on damaged model output.

`tests/normalize/` holds their properties on arbitrary text and on well-formed formats; these start
from what models really send (JSON, envelopes, tool-call markup) and damage it at random.

- `loads_lenient` on damaged JSON gives a value or raises a `LenientJSONError`, nothing else; when
  the damage left valid JSON it gives exactly what `json.loads` gives.
- `parse_response` on damaged envelopes and calls never raises, keeps the text, and every call it
  accepts has dict arguments and is one of the tools; everything else it found is rejected with a reason.
"""

from __future__ import annotations

import json
import math
import tracemalloc
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmrelay import Completion, parse_response
from llmrelay.normalize import LenientJSONError, loads_lenient
from llmrelay.normalize._incremental import IncrementalParser

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
EDITS = ["", "'", '"', ",", ":", "{", "}", "[", "]", "\\", "\n", " ", "//", "#", "\u201c", "\x00"]
EDITS += ["True", "None", "NaN"]


@st.composite
def damaged(draw: st.DrawFn, text: str) -> str:
    """`text` with a few characters deleted, replaced or inserted."""
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 3)))
        text = text[:start] + draw(st.sampled_from(EDITS) | st.text(max_size=2)) + text[end:]
    return text


def same(a: Any, b: Any) -> bool:
    """Equal, with NaN equal to NaN and 1 not equal to True."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


written = st.tuples(json_values, st.sampled_from([None, 2]), st.booleans()).map(
    lambda args: json.dumps(args[0], indent=args[1], ensure_ascii=args[2])
)


@given(written.flatmap(damaged))
def test_damaged_json_is_read_or_refused_with_a_lenient_json_error(text: str) -> None:
    try:
        value = loads_lenient(text)
    except LenientJSONError:
        value = LenientJSONError
    try:
        strict = json.loads(text)
    except ValueError:
        return
    assert value is not LenientJSONError, f"valid JSON refused: {text!r}"
    assert same(value, strict)


TOOLS = [
    {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
    {"name": "add", "parameters": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}},
]
call_values = st.fixed_dictionaries(
    {"name": st.sampled_from(["get_weather", "add", "nope", ""]) | json_values},
    optional={"arguments": json_values | st.just({"city": "Paris"}) | st.just('{"a": 1}'), "id": json_values},
)


def _xml_params(call: dict[str, Any], open_tag: str, close_tag: str) -> str:
    """A call's arguments as one `open_tag…close_tag` element each (`{k}` in the tags is the name)."""
    arguments = call.get("arguments")
    items = arguments.items() if isinstance(arguments, dict) else [("value", arguments)]
    return "".join(f"{open_tag.format(k=k)}{json.dumps(v)}{close_tag}" for k, v in items)


def _python_call(call: dict[str, Any]) -> str:
    arguments = call.get("arguments")
    items = arguments.items() if isinstance(arguments, dict) else []
    return f"{call.get('name')}({', '.join(f'{k}={v!r}' for k, v in items)})"


def _python_call_quotes_unescaped(call: dict[str, Any]) -> str:
    """A Python call whose string values keep their own quotes unescaped (as models write shell commands)."""
    arguments = call.get("arguments")
    items = arguments.items() if isinstance(arguments, dict) else []
    values = (f"'{v}'" if isinstance(v, str) else repr(v) for _, v in items)
    return f"{call.get('name')}({', '.join(f'{k}={v}' for (k, _), v in zip(items, values, strict=True))})"


# Issue 16: the shapes of the formats added in round two, each with the calls drawn.
ROUND_TWO: dict[str, Any] = {
    "think": lambda calls: "<think>Let me think.</think>\n" + json.dumps(calls),
    "lone close tag": lambda calls: "The prompt opened it.\n</think>\n\n" + json.dumps(calls),
    "end of turn": lambda calls: "".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in calls) + "<|im_end|>",
    "lfm2": lambda calls: "<|tool_call_start|>[" + ", ".join(map(_python_call, calls)) + "]<|tool_call_end|>",
    "lfm2 quotes unescaped": lambda calls: (
        "<|tool_call_start|>[" + ", ".join(map(_python_call_quotes_unescaped, calls)) + "]<|tool_call_end|>"
    ),
    "cwm": lambda calls: "".join(
        f"<tool: function>\n{c.get('name')} {json.dumps(c.get('arguments'))}\n</tool>\n" for c in calls
    ),
    "plamo": lambda calls: "".join(
        f"<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>{c.get('name')}"
        f"<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>{json.dumps(c.get('arguments'))}"
        "<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>"
        for c in calls
    ),
    "solar_open": lambda calls: "".join(
        f"<|tool_call:start|>{c.get('name')}\n"
        + _xml_params(c, "<|tool_arg:start|>{k}<|tool_arg:value|>", "<|tool_arg:end|>")
        + "<|tool_call:end|>"
        for c in calls
    ),
    "iquest_coder_v2": lambda calls: "".join(
        f"<iquestcoder_tool_call>{c.get('name')}"
        + _xml_params(c, "<arg_key>{k}</arg_key><arg_value>", "</arg_value>")
        + "</iquestcoder_tool_call>"
        for c in calls
    ),
    "rwkv": lambda calls: "".join(f"**Tool Call:**\n```json\n{json.dumps(c)}\n```\n" for c in calls),
    "hyperclovax": lambda calls: (
        f"/think\nHmm.<|im_end|>\n<|im_start|>assistant -> tool/function_call\n{json.dumps(calls)}"
    ),
    "muse_glimmer": lambda calls: (
        " to=self<|message|>Plan.<|eom|>"
        + "".join(
            f"<|start|>assistant to={c.get('name')}<|message|><atem:function_calls>"
            f'<atem:invoke name="{c.get("name")}">'
            + _xml_params(c, '<atem:parameter name="{k}">', "</atem:parameter>")
            + "</atem:invoke></atem:function_calls><|eom|>"
            for c in calls
        )
    ),
    "step_audio_2": lambda calls: "".join(
        f"<tool_call>function\n{c.get('name')}\n{json.dumps(c.get('arguments'))}</tool_call>" for c in calls
    ),
    "intern_s1": lambda calls: "".join(f"<|action_start|>\n<|plugin|>\n{json.dumps(c)}\n<|action_end|>" for c in calls),
    "olmo3": lambda calls: "<function_calls>\n" + "\n".join(map(_python_call, calls)) + "\n</function_calls>",
    "nemotron": lambda calls: f"<TOOLCALL>{json.dumps(calls)}</TOOLCALL>",
    "qwen25_coder": lambda calls: "<tools>\n" + ",\n".join(map(json.dumps, calls)) + "\n</tools>",
    "hermes_wrapped": lambda calls: "".join(f"<json>{json.dumps(c)}</json>\n" for c in calls),
    "gigachat": lambda calls: "".join(f"<|message_sep|>function call<|role_sep|>\n{json.dumps(c)}" for c in calls),
    "dsml": lambda calls: (
        "<｜DSML｜function_calls>"
        + "".join(
            f'<｜DSML｜invoke name="{c.get("name")}">'
            + _xml_params(c, '<｜DSML｜parameter name="{k}" string="false">', "</｜DSML｜parameter>")
            + "</｜DSML｜invoke>"
            for c in calls
        )
        + "</｜DSML｜function_calls>"
    ),
    "minimax_m2": lambda calls: (
        "<minimax:tool_call>"
        + "".join(
            f'<invoke name="{c.get("name")}">' + _xml_params(c, '<parameter name="{k}">', "</parameter>") + "</invoke>"
            for c in calls
        )
        + "</minimax:tool_call>"
    ),
    "gemma4": lambda calls: "".join(
        f"<|tool_call>call:{c.get('name')}{{"
        + ",".join(f'{k}:<|"|>{v}<|"|>' for k, v in (c.get("arguments") or {}).items())
        + "}<tool_call|>"
        for c in calls
        if isinstance(c.get("arguments") or {}, dict)
    ),
    "minicpm": lambda calls: "".join(
        f'<function name="{c.get("name")}">' + _xml_params(c, '<param name="{k}">', "</param>") + "</function>"
        for c in calls
    ),
    "seed_oss": lambda calls: "".join(
        f"<seed:tool_call><function={c.get('name')}>"
        + _xml_params(c, "<parameter={k}>", "</parameter>")
        + "</function></seed:tool_call>"
        for c in calls
    ),
    # Issue 16, round three.
    "kimi_k3": lambda calls: (
        "<|open|>tools<|sep|>"
        + "".join(
            f'<|open|>call tool="{c.get("name")}"<|sep|>'
            + _xml_params(c, '<|open|>argument key="{k}" type="json"<|sep|>', "<|close|>argument<|sep|>")
            + "<|close|>call<|sep|>"
            for c in calls
        )
        + "<|close|>tools<|sep|>"
    ),
    "k2_horizon": lambda calls: (
        "<ifm|tool_calls>"
        + "".join(
            f"<ifm|tool_call>{c.get('name')}"
            + _xml_params(c, "<ifm|arg_key>{k}</ifm|arg_key><ifm|arg_value>", "</ifm|arg_value>")
            + "</ifm|tool_call>"
            for c in calls
        )
        + "</ifm|tool_calls>"
    ),
    "hy_v4": lambda calls: (
        "<think:9f>Let me see.</think:9f><tool_calls:9f>"
        + "".join(
            f"<tool_call:9f>{c.get('name')}"
            + _xml_params(c, "<arg_key:9f>{k}</arg_key:9f><arg_value:9f>", "</arg_value:9f>")
            + "</tool_call:9f>"
            for c in calls
        )
        + "</tool_calls:9f>"
    ),
    "gigachat35": lambda calls: (
        "<｜GCML｜tool_calls>"
        + "".join(
            f'<｜GCML｜invoke name="{c.get("name")}">'
            + _xml_params(c, '<｜GCML｜parameter name="{k}" string="false">', "</｜GCML｜parameter>")
            + "</｜GCML｜invoke>"
            for c in calls
        )
        + "</｜GCML｜tool_calls></s>"
    ),
    "pangu": lambda calls: f"[unused11]{json.dumps(calls)}[unused12]",
    "inkling": lambda calls: "".join(
        "<|message_model|><|content_invoke_tool_json|>"
        + json.dumps({"name": c.get("name"), "args": c.get("arguments")})
        + "<|end_message|>"
        for c in calls
    ),
    "minimax_m3": lambda calls: (
        "]<]minimax[>[<tool_call>\n"
        + "".join(
            f']<]minimax[>[<invoke name="{c.get("name")}">'
            + _xml_params(c, "]<]minimax[>[<{k}>", "]<]minimax[>[</{k}>")
            + "]<]minimax[>[</invoke>\n"
            for c in calls
        )
        + "]<]minimax[>[</tool_call>"
    ),
}


@st.composite
def answers(draw: st.DrawFn) -> str:
    """An answer as models write one (an envelope, Hermes tags, a fenced block), often damaged."""
    calls = draw(st.lists(call_values, max_size=3))
    form = draw(st.sampled_from(["envelope", "hermes", "fenced", "bare", *ROUND_TWO]))
    if form in ROUND_TWO:
        text = ROUND_TWO[form](calls)
    elif form == "envelope":
        text = json.dumps({"content": draw(st.text(max_size=20)), "toolCalls": calls, "needsMoreWork": bool(calls)})
    elif form == "hermes":
        text = "".join(f"<tool_call>\n{json.dumps(call)}\n</tool_call>\n" for call in calls)
    elif form == "fenced":
        text = "Calling it now.\n```json\n" + json.dumps(calls[0] if len(calls) == 1 else calls) + "\n```"
    else:
        text = json.dumps(calls[0] if calls else {})
    return draw(damaged(text)) if draw(st.booleans()) else text


@given(answers(), st.booleans())
def test_a_damaged_answer_is_read_without_raising_and_nothing_found_is_lost(text: str, strict: bool) -> None:
    result = parse_response(text, tools=TOOLS, strict=strict)
    assert result.raw == text
    assert all(call.name in ("get_weather", "add") and isinstance(call.arguments, dict) for call in result.tool_calls)
    assert all(rejected.reason for rejected in result.rejected)


@given(st.lists(call_values, max_size=3), st.text(max_size=20))
def test_every_call_of_an_envelope_is_accepted_or_rejected(calls: list[dict[str, Any]], content: str) -> None:
    text = json.dumps({"content": content, "toolCalls": calls, "needsMoreWork": bool(calls)})
    result = parse_response(text, tools=TOOLS)
    assert len(result.tool_calls) + len(result.rejected) == len(calls), (result.tool_calls, result.rejected)


# --- hostile shapes: linear time, bounded memory (issue 12, "Linear on anything") -----------------
# Each unit, repeated, once cost ~1 s or ~60-85 bytes of memory per input byte in the normalizer
# (nested `{"a":`, runs of `//\n` and `{"`). Their times are rows of benchmarks/parse_speed.py; here,
# the memory bound and that nothing raises, through parse_response and the stream parser alike.
HOSTILE_UNITS = [
    '{"a":',
    "//\n",
    '{"',
    '{"content":',
    "[",
    '{"a":[',
    '"\\',
    "'",
    "{'a':",
    "\u201c",
    "<tool_call>{",
    "</s>",
    "</think>",
    # Issue 12, session 4: harmony's reader held two strings per token (~14x for `to=f` bodies).
    "<|message|>to=f",
    "<|channel|>final<|message|>x<|end|>",
    "[TOOL_CALLS]",  # The token readers split the whole answer at once (7x).
    # Dense tokens the lenient loader's general way reads (issue 12): comments, quotes of several kinds.
    '[“a”, "b"], ',
    "[\"a\", 'b', // c\n",
    '{"a": 1} /* c */,',
    "{'k': \"v\"}, # c\n",
]


def peak_memory(function: Any) -> int:
    """The peak of memory traced while `function` runs, in bytes."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def streamed(text: str, size: int, json_mode: bool) -> Completion:
    parser = IncrementalParser(json_mode=json_mode)
    for start in range(0, len(text), size):
        parser.feed(text[start : start + size])
    return parser.finish()[1]


@pytest.mark.parametrize("unit", HOSTILE_UNITS)
def test_hostile_repetition_takes_memory_in_proportion_to_the_input(unit: str) -> None:
    text = unit * (200_000 // len(unit))
    limit = 10 * len(text.encode()) + 1_000_000  # 10x the input, plus the fixed cost of a first parse
    assert peak_memory(lambda: parse_response(text)) < limit
    assert peak_memory(lambda: streamed(text, 256, json_mode=False)) < limit
    assert peak_memory(lambda: streamed(text, 256, json_mode=True)) < limit


@given(
    st.sampled_from(HOSTILE_UNITS),
    st.integers(1, 3000),
    st.sampled_from(["", '{"name": "get_weather", "arguments": {"city": "Paris"}}']),
    st.integers(1, 97),
)
def test_hostile_repetition_is_read_alike_whole_and_streamed(unit: str, times: int, call: str, size: int) -> None:
    text = unit * times + call
    whole = parse_response(text)
    assert whole.raw == text
    for json_mode in (False, True):
        result = streamed(text, size, json_mode)
        assert (result.content, result.tool_calls) == (whole.content, whole.tool_calls)
