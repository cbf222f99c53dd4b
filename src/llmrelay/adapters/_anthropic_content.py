"""Anthropic request pieces of issue 14: content blocks, extended thinking, prompt-cache breakpoints.

Used by `anthropic.build_body`; see that module's docstring for the rules each follows.
"""

from __future__ import annotations

from typing import Any

from .._content import Part, TextPart
from .._effort import Reasoning
from ..errors import ConfigError


def content_block(part: Part) -> dict[str, Any]:
    """A text, image or document block: media inline (`base64`) or by `url`."""
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    source = (
        {"type": "url", "url": part.url}
        if part.url is not None
        else {"type": "base64", "media_type": part.media_type, "data": part.data}
    )
    block: dict[str, Any] = {"type": part.kind, "source": source}
    if part.kind == "document" and part.filename:
        block["title"] = part.filename
    return block


def is_blank(part: Part) -> bool:
    """A text part with nothing to send (the API refuses empty or whitespace-only text blocks)."""
    return isinstance(part, TextPart) and not part.text.strip()


CACHE_BREAKPOINTS = 4
"""Anthropic's limit of `cache_control` breakpoints per request (prompt-caching docs)."""
_EPHEMERAL = {"type": "ephemeral"}


def mark_cache_breakpoints(body: dict[str, Any]) -> None:
    """Place `cache_control` breakpoints where they pay off, at most `CACHE_BREAKPOINTS`.

    The cache is a prefix in the order tools, system, messages; a breakpoint caches everything
    before it. So: the last tool (the tools rarely change), the system prompt, and in the
    conversation the last block of the last turn (this request writes the prefix) and of the
    user turn before it (read back from the previous request). Prompts under the model's minimum
    (1024 tokens on most models) are simply not cached; the API does not refuse them.
    """
    marked: list[dict[str, Any]] = []
    if body.get("tools"):
        marked.append(body["tools"][-1])
    if isinstance(body.get("system"), str):
        body["system"] = [{"type": "text", "text": body["system"]}]
    if body.get("system"):
        marked.append(body["system"][-1])
    users = [turn for turn in body["messages"] if turn["role"] == "user" and turn["content"]]
    turns = [body["messages"][-1], *users[-2:-1]] if body["messages"] else []
    for turn in turns:
        if isinstance(turn["content"], str):  # A plain-text turn: as a block, to carry the breakpoint.
            turn["content"] = [{"type": "text", "text": turn["content"]}]
    marked += [turn["content"][-1] for turn in turns if turn["content"]]
    for block in marked[:CACHE_BREAKPOINTS]:
        if block.get("type") not in ("thinking", "redacted_thinking"):  # Those take no cache_control.
            block["cache_control"] = dict(_EPHEMERAL)


def think(body: dict[str, Any], reasoning: Reasoning, default_max_tokens: int, *, given_max_tokens: bool) -> None:
    """Turn on extended thinking, with `max_tokens` above the budget as Anthropic requires."""
    budget = reasoning.budget
    if not given_max_tokens:
        body["max_tokens"] = budget + default_max_tokens
    elif body["max_tokens"] <= budget:
        raise ConfigError(
            f"anthropic: max_tokens ({body['max_tokens']}) must be above the thinking budget ({budget}): "
            "raise max_tokens or lower reasoning="
        )
    body["thinking"] = {"type": "enabled", "budget_tokens": budget}
