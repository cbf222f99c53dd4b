"""Stream events from a json-mode answer: the envelope's content as it grows, each call once it closes.

`IncrementalParser(json_mode=True)` hands the answer here when it starts with `{`. What is shown
early, and why it is certain:

- The `content` string, decoded, as it arrives, once the object reads as the envelope (only
  envelope keys so far, or a calls array or `needsMoreWork` seen): `parse_response` reads such an
  object the same way, whole or cut short (`read_cut_envelope`).
- For each item of the calls array: `ToolCallStarted` once its `name` closed, `ToolCallDelta`s as
  its `arguments` grow (the decoded string in json_schema mode, the object's JSON text in
  json_object mode), and `ToolCallComplete` when the item's object closes, checked against the
  tools exactly as `parse_response` checks it (`accept_calls`). A call that is rejected gets its
  `ToolCallComplete` at `finish()`, with the completion's other rejections and in their order
  (a rejected call is never run; the client repairs after the end).

Indices are the calls' positions in the array. When the finished answer is not the envelope it
started as (a provider that broke JSON mode: text after the object, a second `content`, data
keys), what was shown cannot be taken back: the completion then carries a warning saying so.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .._envelope import Completion, RejectedCall, ToolCall
from .._events import StreamEvent, TextDelta, ToolCallComplete, ToolCallDelta, ToolCallStarted
from .._tools import Tool, ToolLike, to_tools
from ._budget import DEFAULT_MAX_TOOL_CALLS
from ._envelope_reader import EnvelopeItem, EnvelopeReader
from ._parse import accept_calls
from ._partial_json import GrowingArguments
from ._pieces import Pieces
from ._types import Candidate

# Arguments up to this long are sent on every piece. Longer ones are sent once they grew by an
# eighth (and read as `GrowingArguments` reads them), so a megabyte of arguments in 4-character
# chunks costs linear time, not a copy and a re-read per chunk.
_SMALL_ARGUMENTS = GrowingArguments.ALWAYS_BELOW
MISMATCH_WARNING = (
    "the streamed events do not match this completion: the answer did not stay the JSON envelope "
    "it started as ({}); this completion is the answer as parsed"
)


@dataclass(slots=True)
class _Arguments:
    """What was sent of one call's arguments, and what waits to be."""

    waiting: Pieces = field(default_factory=Pieces)  # Taken from `EnvelopeItem.arguments`, not sent.
    waiting_length: int = 0  # Its characters.
    text: str = ""
    partial: dict[str, Any] | None = None
    reader: GrowingArguments = field(default_factory=GrowingArguments)


class EnvelopeStream:
    """The json-mode half of `IncrementalParser`: feed it the answer, then `finish` with the completion."""

    def __init__(self, tools: Sequence[ToolLike] | None, strict: bool) -> None:
        self._tools = tools
        self._strict = strict
        self._tool_map: dict[str, Tool] | None = None
        self._reader = EnvelopeReader(keep_items=False)  # Each item is read from `touched`, then let go.
        self._emitted = Pieces()
        self._open: dict[int, str] = {}  # Calls started and not closed: the array's last item, at most.
        self._arguments: dict[int, _Arguments] = {}
        self._accepted: list[tuple[int, ToolCall]] = []
        """The first calls shown complete (as many as a completion holds), to check it against."""
        self._accepted_count = 0
        self._rejected: list[tuple[int, RejectedCall]] = []
        self._closed = 0
        """Items closed: every index below it. Items close in order (the array's), so no set of
        their indexes is kept: 20,000 calls streamed hold a few times their text, not 30 times."""

    def feed(self, chunk: str) -> list[StreamEvent]:
        """Read a piece of the answer; return the events it made certain."""
        reader = self._reader
        if reader.broken:
            return []
        reader.feed(chunk)
        events: list[StreamEvent] = []
        if reader.content and reader.content_keys == 1 and reader.envelope_likely:
            text = reader.take_content()
            self._emitted.append(text)
            events.append(TextDelta(text))
        if reader.touched:
            if not reader.odd:
                for item in reader.touched:
                    self._item_events(item, events)
            reader.touched.clear()
        return events

    def _item_events(self, item: EnvelopeItem, events: list[StreamEvent]) -> None:
        index = item.index
        if index < self._closed:
            return
        started = index in self._open
        if not started and item.name is not None:
            self._open[index], started = item.name, True
            events.append(ToolCallStarted(index, item.name))
        if started:
            self._arguments_delta(item, events)
        if not item.closed:
            return
        self._closed = index + 1
        self._open.pop(index, None)
        self._arguments.pop(index, None)  # Its arguments were sent whole: their reader is freed.
        reading = item.reading
        if isinstance(reading, Candidate):
            accepted, rejected = accept_calls([reading], self._tools_by_name(), self._strict)
        else:
            accepted, rejected = [], [reading] if reading is not None else []
        if accepted:
            call = accepted[0]
            if not started:
                events.extend(_whole_call(index, call))
            events.append(ToolCallComplete(index, call=call))
            self._accepted_count += 1
            if len(self._accepted) < DEFAULT_MAX_TOOL_CALLS:  # Past it, a completion holds none.
                self._accepted.append((index, call))
        else:
            self._rejected.extend((index, r) for r in rejected)

    def _arguments_delta(self, item: EnvelopeItem, events: list[StreamEvent]) -> None:
        state = self._arguments.get(item.index)
        if state is None:  # Not `setdefault`: its default (and that one's reader) is built on every call.
            state = self._arguments[item.index] = _Arguments()
        for piece in item.take_arguments():
            state.waiting.append(piece)
            state.waiting_length += len(piece)
        if not state.waiting_length:
            return
        small = len(state.text) + state.waiting_length <= _SMALL_ARGUMENTS
        if not (item.closed or small or state.waiting_length * 8 >= len(state.text)):
            return
        delta = state.waiting.take()
        state.waiting_length = 0
        state.text += delta
        state.partial = None  # The last reading is freed before the next is made (a megabyte of arguments: 1x).
        if item.closed and isinstance(item.reading, Candidate):
            state.partial = item.reading.arguments  # Read whole already: no second pass over a long text.
        else:
            state.partial = state.reader.read(state.text, now=item.closed)
        events.append(ToolCallDelta(item.index, delta, state.text, state.partial))

    def _tools_by_name(self) -> dict[str, Tool] | None:
        if self._tools is None:
            return None
        if self._tool_map is None:
            self._tool_map = to_tools(self._tools)
        return self._tool_map

    def finish(self, completion: Completion) -> tuple[list[StreamEvent], Completion]:
        """The events still due for the answer `completion` was parsed from, and the completion."""
        events: list[StreamEvent] = []
        problems: list[str] = []
        shown = self._emitted.text()
        if completion.content.startswith(shown):
            if rest := completion.content[len(shown) :]:
                events.append(TextDelta(rest))
        else:
            problems.append("its content differs from the text streamed")
        sent = [call for _, call in self._accepted]
        if completion.tool_calls[: len(sent)] == sent and self._accepted_count == len(sent):
            remaining = completion.tool_calls[len(sent) :]
        else:
            problems.append("calls were streamed that it does not have")
            remaining = [call for call in completion.tool_calls if call not in sent]
        # Calls still open (started, never complete) get their own index back when the name matches.
        open_calls = list(self._open.items())
        taken = set(self._open)  # With every index below `_closed`: the indexes used so far.
        fresh = self._closed

        def index_for(name: str | None) -> tuple[int, bool]:
            """An open call's index when the name matches (True: it was started), else a fresh one."""
            nonlocal fresh
            for position, (index, started) in enumerate(open_calls):
                if started == name:
                    del open_calls[position]
                    return index, True
            while fresh in taken:
                fresh += 1
            taken.add(fresh)
            return fresh, False

        for call in remaining:
            index, started = index_for(call.name)
            if not started:
                events.extend(_whole_call(index, call))
            events.append(ToolCallComplete(index, call=call))
        pending = list(self._rejected)
        for rejected in completion.rejected:
            match = next((p for p in pending if p[1] == rejected), None)
            if match is not None:
                pending.remove(match)
                index = match[0]
            else:
                index = index_for(rejected.name)[0]
            events.append(ToolCallComplete(index, rejected=rejected))
        if pending or open_calls:
            problems.append("calls were started that it does not have")
        if problems:
            warning = MISMATCH_WARNING.format("; ".join(problems))
            completion = replace(completion, warnings=[*completion.warnings, warning])
        return events, completion


def _whole_call(index: int, call: ToolCall) -> list[StreamEvent]:
    """A call shown all at once: started, its arguments in one delta (as `finish()` shows calls)."""
    arguments = json.dumps(call.arguments, ensure_ascii=False)
    return [ToolCallStarted(index, call.name, call.id), ToolCallDelta(index, arguments, arguments, call.arguments)]
