"""Properties of message conversion: `to_messages` and the adapters' message shapes.

- Chat Completions has a reader (`to_messages` reads the OpenAI shape): `Message`s written with
  `chat_messages`, sent as JSON and read back are the same messages.
- Call ids a provider would refuse are replaced, but a call and the result answering it still
  carry the same id after conversion (OpenAI, Anthropic).
- Anthropic's turns alternate user / assistant whatever the conversation, and say everything it said.
- `to_messages` on any dict shapes gives `Message`s or a `ConfigError`, never another exception.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmrelay import ToolCall
from llmrelay._messages import to_messages
from llmrelay._types import Message
from llmrelay.adapters._openai_messages import chat_messages
from llmrelay.errors import ConfigError

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=10,
)
arguments = st.dictionaries(st.text(max_size=10), json_values, max_size=4)
names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,30}", fullmatch=True)
fitting_ids = st.from_regex(r"[A-Za-z0-9_-]{1,40}", fullmatch=True)
any_ids = st.none() | fitting_ids | st.text(min_size=1, max_size=80)


def calls(ids: st.SearchStrategy[str | None]) -> st.SearchStrategy[ToolCall]:
    return st.builds(ToolCall, names, arguments, ids)


def conversations(ids: st.SearchStrategy[str | None]) -> st.SearchStrategy[list[Message]]:
    """Any sequence of turns; each tool result answers a call made earlier (or no call at all)."""

    @st.composite
    def build(draw: st.DrawFn) -> list[Message]:
        messages: list[Message] = []
        made: list[str | None] = []
        for _ in range(draw(st.integers(0, 8))):
            role = draw(st.sampled_from(["system", "user", "assistant", "tool"]))
            content = draw(st.text(max_size=30))
            if role == "assistant":
                turn_calls = tuple(draw(st.lists(calls(ids), max_size=3)))
                made += [call.id for call in turn_calls]
                messages.append(Message("assistant", content, turn_calls))
            elif role == "tool":
                answered = draw(st.sampled_from(made)) if made and draw(st.booleans()) else draw(ids)
                messages.append(Message("tool", content, tool_call_id=answered))
            else:
                messages.append(Message(role, content))
        return messages

    return build()


def comparable(message: Message) -> tuple[Any, ...]:
    return (message.role, message.content, message.tool_calls, message.tool_call_id)


@given(conversations(fitting_ids))
def test_chat_messages_read_back_as_the_same_messages(messages: list[Message]) -> None:
    wire = json.loads(json.dumps(chat_messages(messages)))  # As sent, and as a caller keeps history.
    assert [comparable(m) for m in to_messages(wire)] == [comparable(m) for m in messages]


@given(conversations(any_ids))
def test_openai_call_ids_stay_paired_with_their_results(messages: list[Message]) -> None:
    sent = chat_messages(messages)
    pairs = {}
    for original, converted in zip(messages, sent, strict=True):
        for call, chat_call in zip(original.tool_calls, converted.get("tool_calls") or [], strict=True):
            assert re.fullmatch(r"[A-Za-z0-9_-]{1,40}", chat_call["id"])
            if call.id is not None:
                pairs[call.id] = chat_call["id"]
        if original.role == "tool" and original.tool_call_id in pairs:
            assert converted["tool_call_id"] == pairs[original.tool_call_id]


@given(conversations(any_ids))
def test_anthropic_turns_alternate_and_keep_everything(messages: list[Message]) -> None:
    from llmrelay.adapters.anthropic import convert_messages

    system, turns = convert_messages(tuple(messages))
    roles = [turn["role"] for turn in turns]
    assert all(a != b for a, b in itertools.pairwise(roles)), roles
    assert all(turn["content"] for turn in turns)
    # A turn that is one text part goes as a plain string (issue 13): as one text block here.
    as_blocks = [[{"type": "text", "text": c}] if isinstance(c := turn["content"], str) else c for turn in turns]
    assert not any(isinstance(t["content"], list) and [b["type"] for b in t["content"]] == ["text"] for t in turns)
    blocks = [block for turn_blocks in as_blocks for block in turn_blocks]
    uses = [block for block in blocks if block["type"] == "tool_use"]
    results = [block for block in blocks if block["type"] == "tool_result"]
    said = [m.content for m in messages if m.role in ("user", "assistant") and m.content.strip()]
    assert [block["text"] for block in blocks if block["type"] == "text"] == said
    made = [call for m in messages if m.role == "assistant" for call in m.tool_calls]
    assert [(use["name"], use["input"]) for use in uses] == [(call.name, call.arguments) for call in made]
    assert len(results) == sum(m.role == "tool" for m in messages)
    assert system == "\n\n".join(m.content for m in messages if m.role == "system" and m.content)
    ids = {call.id: use["id"] for call, use in zip(made, uses, strict=True) if call.id is not None}
    for block in uses + results:
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", block.get("id") or block.get("tool_use_id"))
    for message, result in zip([m for m in messages if m.role == "tool"], results, strict=True):
        if message.tool_call_id in ids:
            assert result["tool_use_id"] == ids[message.tool_call_id]


# Dicts of the shapes users pass (and get wrong): OpenAI, Anthropic-ish, Gemini-ish, anything.
KEYS = ["role", "content", "tool_calls", "tool_call_id", "name", "id", "function", "arguments", "args", "input"]
KEYS += ["type", "text", "signature", "extra_content"]
ROLES = ["system", "developer", "user", "assistant", "model", "tool", "function", "bot", "", None, 1]
shapes = st.recursive(
    json_scalars | st.sampled_from(ROLES) | st.builds(ToolCall, names, arguments),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.sampled_from(KEYS), children, max_size=5),
    max_leaves=12,
)
message_like = st.fixed_dictionaries({"role": st.sampled_from(ROLES)}, optional={key: shapes for key in KEYS[1:]})


@given(st.lists(message_like | shapes, max_size=4))
def test_any_message_shape_converts_or_says_which_message_is_wrong(items: list[Any]) -> None:
    try:
        messages = to_messages(items)
    except ConfigError as error:
        assert str(error).startswith("message ")
        return
    assert len(messages) == len(items)
    for message in messages:
        assert isinstance(message, Message) and isinstance(message.content, str)
        assert all(value is None or isinstance(value, str) for value in (message.tool_call_id, message.name))
        assert all(isinstance(call.arguments, dict) and call.name for call in message.tool_calls)


BAD = [
    ("not a dict", [5], "message 0: expected a dict, Message or Completion, got int"),
    ("unknown role", [{"role": "bot", "content": "hi"}], "message 0: unknown role 'bot'"),
    # Issue 14: images and files are parts now; one without its data, or of another type, is refused.
    ("an image part without a URL", [{"role": "user", "content": [{"type": "image_url"}]}], "needs a URL"),
    ("an audio part", [{"role": "user", "content": ["hi", {"type": "input_audio"}]}], "unsupported content part"),
    (
        "a data URL not in base64",
        [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png,xx"}}]}],
        "must be base64",
    ),
    ("a call without a name", [{"role": "assistant", "tool_calls": [{"id": "c"}]}], "tool call without a name"),
    ("arguments not an object", [{"role": "assistant", "tool_calls": [{"name": "f", "arguments": "[1]"}]}], "JSON obj"),
    # Found by the property above: the name went through as a list, and on to Gemini's request.
    ("a tool result named by a list", [{"role": "tool", "content": "18C", "name": []}], "name must be text, got list"),
]


@pytest.mark.parametrize(("items", "words"), [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_a_message_that_cannot_be_read_is_a_config_error(items: list[Any], words: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(words)):
        to_messages(items)
