"""MiniMax M3's calls: every tag behind the `]<]minimax[>[` namespace token, arguments as nested tags.

M3 is not M2 with renamed tags (vLLM's `minimax_m3_tool_parser.py`, whose grammar is
`_llm_nom/m3_text.py`): one wrapper holds the invokes, and each argument is a tag named after it,
whose body is the value as text or, for objects and lists, more tags::

    Let me book it.
    ]<]minimax[>[<tool_call>
    ]<]minimax[>[<invoke name="book">]<]minimax[>[<city>Lyon]<]minimax[>[</city>]<]minimax[>[<guests>
    ]<]minimax[>[<item>Ana]<]minimax[>[</item>]<]minimax[>[<item>Bo]<]minimax[>[</item>]<]minimax[>[</guests>
    ]<]minimax[>[</invoke>
    ]<]minimax[>[</tool_call>

Without a schema vLLM keeps every value as the text written; with one, the schema decides (here
too, through the usual validation). Where the engine, without a schema, reads a tag holding only
`<item>` tags as `{"item": [...]}`, here it is the list the template wrote it from. A tag repeated
in an object gathers its values in a list, and text beside child tags is kept under `$text`, as
the engine does. Blank space between the token and its tag is layout, as SGLang's
`minimax_m3.py` reads it. Reasoning is `<mm:think>…</mm:think>` (see `_reasoning`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..._envelope import RejectedCall, RejectionKind
from .._budget import TagBudget
from .._calls import is_tool_name
from .._tags import TagBlock, tag_blocks, to_parsed
from .._types import CallReading, Candidate, Parsed

NAMESPACE = "]<]minimax[>["
_OPEN, _CLOSE = NAMESPACE + "<tool_call>", NAMESPACE + "</tool_call>"
_INVOKE, _INVOKE_END = '<invoke name="', "</invoke>"


class MiniMaxM3Xml:
    """`]<]minimax[>[<tool_call>` wrappers of namespaced `<invoke>` calls (MiniMax M3)."""

    name = "minimax_m3"
    # The tag inside the namespace, which `_OPEN` holds: the one scan for tags finds it, where the
    # whole wrapper (no `<` first) would be a search of its own in every answer with `[` and `]`.
    markers = ("<]minimax[>",)

    def detect(self, text: str) -> bool:
        """Cheap check: the namespaced wrapper occurs."""
        return _OPEN in text

    def parse(self, text: str) -> Parsed | None:
        """Read every wrapper; None when none holds a call (or is an empty shell)."""
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        budget = TagBudget()
        for block in tag_blocks(text, _OPEN, _CLOSE, r"\]", budget):
            found = _read_wrapper(text, block, budget)
            # An empty wrapper is markup too, never content.
            if found or (block.closed and not text[block.body_start : block.body_end].strip()):
                readings.extend(found)
                spans.append((block.start, block.end))
        return to_parsed(text, spans, readings, budget) if spans else None


@dataclass
class _Element:
    """An argument tag being read: its text, and its child tags once they close."""

    tag: str
    texts: list[str] = field(default_factory=list)
    children: list[tuple[str, Any]] = field(default_factory=list)

    def value(self) -> Any:
        """The text, or the object (or list of `<item>`s) the child tags make."""
        if not self.children:
            return "".join(self.texts)
        if all(tag == "item" for tag, _ in self.children):
            return [value for _, value in self.children]
        result = _merged(self.children)
        text = "".join(self.texts)
        if text.strip():  # Text beside child tags: kept under a key of its own, as the engine does.
            key = "$text"
            while key in result:
                key = "$" + key
            result[key] = text
        return result


def _merged(children: list[tuple[str, Any]]) -> dict[str, Any]:
    """Child tags as an object; a tag written more than once gathers its values in a list."""
    result: dict[str, Any] = {}
    gathered: set[str] = set()
    for tag, value in children:
        if tag in gathered:
            result[tag].append(value)
        elif tag in result:
            result[tag] = [result[tag], value]
            gathered.add(tag)
        else:
            result[tag] = value
    return result


def _read_wrapper(text: str, block: TagBlock, budget: TagBudget) -> list[CallReading]:
    """The calls of one wrapper, in the order written."""
    readings: list[CallReading] = []
    name: str | None = None
    stack: list[_Element] = []
    for written in text[block.body_start : block.body_end].split(NAMESPACE)[1:]:
        # Blank space between the token and its tag is layout (SGLang's `_normalize_tag_spacing`).
        chunk = stripped if (stripped := written.lstrip(" \t\r\n")).startswith("<") else written
        # Only the tags of calls spend the budget: layout between invokes is skipped at no cost.
        if (name is not None or chunk.startswith(_INVOKE)) and not budget.take():
            break
        if chunk.startswith(_INVOKE):
            if name is not None:
                readings.append(_unclosed(name, stack, "malformed"))
            name, stack = _invoke_name(chunk), [_Element("")]
        elif name is None:
            continue  # Layout between the invokes (a stray tag there is not part of any call).
        elif chunk.startswith(_INVOKE_END):
            readings.append(_call(name, stack))
            name = None
        elif chunk.startswith("</"):
            tag, _, rest = chunk[2:].partition(">")
            _close(stack, tag)
            stack[-1].texts.append(rest)
        elif chunk.startswith("<"):
            tag, _, rest = chunk[1:].partition(">")
            stack.append(_Element(tag, [rest] if rest else []))
        else:
            stack[-1].texts.append(chunk)
    if name is not None:
        readings.append(_unclosed(name, stack, "malformed" if block.closed else "truncated"))
    return readings


def _invoke_name(chunk: str) -> str:
    name, found, _ = chunk[len(_INVOKE) :].partition('">')
    return name if found else ""


def _close(stack: list[_Element], tag: str) -> None:
    """Close the element `tag` (and any left open inside it), giving each to its parent."""
    while len(stack) > 1:
        element = stack.pop()
        stack[-1].children.append((element.tag, element.value()))
        if element.tag == tag:
            return


def _arguments(stack: list[_Element]) -> dict[str, Any]:
    return _merged(stack[0].children)


def _call(name: str, stack: list[_Element]) -> CallReading:
    if len(stack) > 1:
        return _unclosed(name, stack, "malformed")
    if not is_tool_name(name):
        return RejectedCall(name or None, _arguments(stack), f"not a valid tool name: {name!r}", "malformed")
    return Candidate(name, _arguments(stack))


def _unclosed(name: str, stack: list[_Element], kind: RejectionKind) -> RejectedCall:
    what = f"the argument <{stack[-1].tag}> is not closed" if len(stack) > 1 else f"no {NAMESPACE}{_INVOKE_END}"
    _close(stack, "")
    return RejectedCall(name or None, _arguments(stack), f"tool call '{name}': {what}", kind)
