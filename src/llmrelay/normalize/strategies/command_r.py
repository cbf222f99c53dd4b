"""Cohere's tool calls: Command R7B / Command A action blocks, and Command-R's `Action:` list.

Command R7B and Command A write special-token blocks (shapes learned from vLLM's
`command_tool_parser.py`, SGLang's `cohere_command4_detector.py` and llama.cpp's Command R7B
parser tests)::

    <|START_THINKING|>I will look up the weather.<|END_THINKING|><|START_ACTION|>[
        {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}
    ]<|END_ACTION|>
    <|START_RESPONSE|>It is sunny in Paris.<|END_RESPONSE|>

The action block's `tool_call_id` is kept as the call's id. The response block (`<|START_TEXT|>`
in SGLang's Command 4 reading) is content. The thinking block is the model's plan and reasoning,
which llama.cpp and Cohere's own `melody` parser read as reasoning, not content: it is not
content here either (the whole answer stays on `Completion.raw`). An answer without any call
is read for its response block alone (the content), the rest of its text kept around it.

Command-R and Command R+ write a plan, then a fenced JSON list after `Action:` (the tool-use
prompt of their chat template; Ollama's template tests show the same output)::

    Plan: I will search for the weather in Paris.
    Action: ```json
    [{"tool_name": "internet_search", "parameters": {"query": "weather Paris"}}]
    ```

The plan before `Action:` is content. An `Action:` whose JSON holds no call (another agent
framework's `{"action": …}`) is left alone; Command-R's built-in `directly_answer` tool is a call
like any other.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall
from .._budget import MAX_CALLS, too_many_calls
from .._calls import calls_in, decode_json, read_json_calls
from .._scan import find_balanced_end, json_prefix
from .._text import cut_spans, join_pieces
from .._tokens import read_token_sections
from .._types import CallReading, Candidate, Parsed

_TOKEN = re.compile(r"(<\|(?:START|END)_(?:ACTION|THINKING|RESPONSE|TEXT)\|>|<\|END_OF_TURN_TOKEN\|>)")
_RESPONSE_OPENERS = ("<|START_RESPONSE|>", "<|START_TEXT|>")
_ACTION_LINE = re.compile(r"^[ \t]*Action:\s*", re.MULTILINE)
_FENCE_INFO = re.compile(r"[ \t]*[A-Za-z]*[ \t]*\n?")


class CommandRAction:
    """Cohere's `<|START_ACTION|>[…]<|END_ACTION|>` blocks and Command-R's ``Action: ```json […]``` ``."""

    name = "command_r"
    markers = ("<|START_", "Action:")

    def detect(self, text: str) -> bool:
        """Cheap check: a Cohere action or response token, or an `Action:`, occurs."""
        return "<|START_" in text or "Action:" in text

    def parse(self, text: str) -> Parsed | None:
        """Read the token blocks if there is an action block, else the `Action:` lists."""
        if "<|START_ACTION|>" in text:
            parsed = _parse_blocks(text)
            if parsed is not None:
                return parsed
        if "Action:" in text and (parsed := _parse_action_lines(text)) is not None:
            return parsed
        return _response_only(text) if text.lstrip().startswith(_RESPONSE_OPENERS) else None


def _parse_blocks(text: str) -> Parsed | None:
    """Command R7B / Command A: sort the text into action, thinking and response blocks.

    The thinking block is the plan and reasoning: not content. The response block, and the
    text after an action's list when `<|END_ACTION|>` is missing, are. An answer without a call
    comes back whole, tokens included.
    """
    return read_token_sections(
        text, _TOKEN, ("<|START_ACTION|>",), _read_action_block, starts="{[", hidden=("<|START_THINKING|>",)
    )


def _response_only(text: str) -> Parsed:
    """An answer without a call, in blocks: the response text is content, the thinking reasoning."""
    parts = _TOKEN.split(text)
    kept, thoughts = [parts[0]], list[str]()
    for token, after in zip(parts[1::2], parts[2::2], strict=True):
        (thoughts if token == "<|START_THINKING|>" else kept).append(after)
    return Parsed(text=join_pieces(kept), reasoning=join_pieces(thoughts) or None)


def _read_action_block(_token: str, after: str, _following: str) -> tuple[list[CallReading], str] | None:
    """The calls in the JSON list an action block starts with, and the text after it."""
    found = json_prefix(after)
    return None if found is None else (read_json_calls(found[0], "in the action block"), found[1])


def _parse_action_lines(text: str) -> Parsed | None:
    """Command-R: a JSON list of calls after `Action:`, fenced or not."""
    spans: list[tuple[int, int]] = []
    readings: list[CallReading] = []
    for match in _ACTION_LINE.finditer(text):
        position = match.end()
        if (spans and match.start() < spans[-1][1]) or text[position : position + 1] not in ("`", "[", "{"):
            continue  # Inside the previous action, or prose after `Action:`.
        found = _read_action(text, position)
        if found is None:
            continue
        if len(readings) >= MAX_CALLS:
            readings.append(too_many_calls())
            spans.append((match.start(), len(text)))
            break
        readings.extend(found[0])
        spans.append((match.start(), found[1]))
    if not readings:
        return None
    return Parsed.from_readings(readings, text=cut_spans(text, spans))


def _read_action(text: str, position: int) -> tuple[list[CallReading], int] | None:
    """The calls written at `position`, after an `Action:`, and where they end; None if none."""
    if text.startswith("```", position):
        body_start = _skip(_FENCE_INFO, text, position + 3)
        close = text.find("```", body_start)
        body, end = (text[body_start:close], close + 3) if close != -1 else (text[body_start:], len(text))
    elif text[position : position + 1] in ("[", "{"):
        # A list cannot run past the next `Action:` line: that bound keeps the scan linear.
        following = _ACTION_LINE.search(text, position)
        segment = text[position : following.start() if following else len(text)]
        length = find_balanced_end(segment, 0) or len(segment)
        body, end = segment[:length], position + length
    else:
        return None
    value = decode_json(body.strip(), "after Action:")
    if isinstance(value, RejectedCall):
        return [value], end
    readings = calls_in(value, "after Action:")
    if not any(isinstance(r, Candidate) or r.name for r in readings):
        return None  # JSON, but no call in it: another agent format's `Action:`.
    return readings, end


def _skip(pattern: re.Pattern[str], text: str, position: int) -> int:
    """Where `pattern` (which may match nothing) stops matching from `position`."""
    match = pattern.match(text, position)
    return match.end() if match else position
