"""Reading providers' answer JSON: what each adapter shares with its stream reader.

A whole answer (`send`) and a streamed one (`stream`) carry the same fields, so the adapter
module and its stream reader both import these, and neither imports the other's privates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._envelope import Artifact, Usage


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


# --- Chat Completions (OpenAI and the compatible providers) -------------------------------------


def first_choice(choices: Any) -> Mapping[str, Any]:
    """Choice 0 of an answer or a stream chunk (`n>1` is not supported: only the first choice counts).

    A stream with `n=2` interleaves the choices' chunks, each marked with its `index`; a chunk of
    another choice gives `{}`.
    """
    for choice in choices if isinstance(choices, list) else ():
        if isinstance(choice, Mapping) and choice.get("index", 0) in (0, None):
            return choice
    return {}


def message_text(message: Mapping[str, Any]) -> str:
    """The answer's text: content as a string or text parts; a refusal when there is no content.

    Reasoning never counts: Groq's and OpenRouter's `reasoning`, DeepSeek's `reasoning_content`
    are fields of their own, and a `thinking` part is not a `text` part.
    """
    content = message.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = "".join(part["text"] for part in content if _is_text_part(part))
    else:
        text = ""
    refusal = message.get("refusal")
    return text or (refusal if isinstance(refusal, str) else "")


def _is_text_part(part: Any) -> bool:
    return isinstance(part, Mapping) and part.get("type", "text") == "text" and isinstance(part.get("text"), str)


REASONING_DETAILS = "reasoning_details"
"""The `Artifact.kind` of OpenRouter's `reasoning_details`, sent back on the assistant turn as they came."""


REASONING_CONTENT = "reasoning_content"
"""The `Artifact.kind` of DeepSeek's `reasoning_content` on a turn that called tools: its API refuses
(400) a later request whose tool-call turns lack it (api-docs.deepseek.com/guides/thinking_mode)."""


def chat_artifacts(provider: str, message: Mapping[str, Any], details: Any) -> tuple[Artifact, ...]:
    """What a Chat Completions answer needs back on the next turn, bound to its provider.

    OpenRouter's `reasoning_details`, and the `reasoning_content` of a turn that called tools (DeepSeek).
    """
    found = reasoning_details(provider, details)
    thought = message.get("reasoning_content")
    # Only DeepSeek documents it as required back; other hosts (vLLM...) are not sent what they never asked for.
    if provider == "deepseek" and isinstance(thought, str) and thought and message.get("tool_calls"):
        found += (Artifact(provider, REASONING_CONTENT, thought),)
    return found


def message_reasoning(message: Mapping[str, Any]) -> str:
    """The answer's reasoning text: Groq's and OpenRouter's `reasoning`, DeepSeek's `reasoning_content`."""
    for name in ("reasoning", "reasoning_content"):
        if isinstance(value := message.get(name), str) and value:
            return value
    return ""


def reasoning_details(provider: str, details: Any) -> tuple[Artifact, ...]:
    """OpenRouter's `reasoning_details` list as the artifact sent back with the turn (none if absent)."""
    if not isinstance(details, list) or not details:
        return ()
    return (Artifact(provider, REASONING_DETAILS, tuple(dict(item) for item in details if isinstance(item, Mapping))),)


def merge_details(pieces: list[dict[str, Any]], new: Any) -> None:
    """Add a stream delta's `reasoning_details` to those so far: text of the same `index` concatenated."""
    for item in new if isinstance(new, list) else ():
        if not isinstance(item, Mapping):
            continue
        same = next((p for p in pieces if "index" in item and p.get("index") == item["index"]), None)
        if same is None:
            pieces.append(dict(item))
            continue
        for key, value in item.items():
            grows = key in ("text", "summary", "data", "signature") and isinstance(same.get(key), str)
            same[key] = same[key] + value if grows and isinstance(value, str) else value


def thought_signature(call: Mapping[str, Any]) -> str | None:
    """Gemini's signature on a call from its OpenAI-compatible endpoint, `extra_content.google.thought_signature`."""
    google = _mapping(_mapping(call.get("extra_content")).get("google"))
    signature = google.get("thought_signature")
    return signature if isinstance(signature, str) and signature else None


def chat_usage(usage: Any) -> Usage:
    """prompt/completion/total tokens as `Usage`; the total is summed when missing."""
    if not isinstance(usage, Mapping):
        return Usage()
    prompt = int(usage.get("prompt_tokens") or 0)
    completion = int(usage.get("completion_tokens") or 0)
    total = int(usage.get("total_tokens") or prompt + completion)
    cached = _mapping(usage.get("prompt_tokens_details")).get("cached_tokens")
    reasoning = _mapping(usage.get("completion_tokens_details")).get("reasoning_tokens")
    return Usage(prompt, completion, total, int(cached or 0), int(reasoning or 0))


def status_in_error(error: Mapping[str, Any]) -> int | None:
    """The HTTP status an in-body error names in its `code` (OpenRouter: 429, 502, ...)."""
    code = error.get("code")
    if isinstance(code, str) and code.isdigit():
        code = int(code)
    return code if isinstance(code, int) and 400 <= code <= 599 else None


# --- Anthropic ----------------------------------------------------------------------------------


ANTHROPIC_FAMILY = "anthropic"
"""The provider of Claude's artifacts, whichever platform served it: signatures are valid on all three."""
THINKING = "thinking"
"""The `Artifact.kind` of an answer's thinking blocks (signatures included), sent back as they came."""
THINKING_BLOCKS = ("thinking", "redacted_thinking")


def thinking_artifacts(blocks: list[Mapping[str, Any]]) -> tuple[Artifact, ...]:
    """An answer's thinking blocks as the artifact sent back with it (none when there were none)."""
    return (Artifact(ANTHROPIC_FAMILY, THINKING, tuple(dict(block) for block in blocks)),) if blocks else ()


def anthropic_usage(usage: Any) -> Usage:
    """Anthropic's input (cache reads and writes included) and output tokens as `Usage`."""
    if not isinstance(usage, Mapping):
        return Usage()
    prompt = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    input_tokens = sum(int(usage.get(name) or 0) for name in prompt)
    output_tokens = int(usage.get("output_tokens") or 0)
    read = int(usage.get("cache_read_input_tokens") or 0)
    written = int(usage.get("cache_creation_input_tokens") or 0)
    # Anthropic does not count thinking tokens apart: they are in output_tokens.
    return Usage(input_tokens, output_tokens, input_tokens + output_tokens, read, 0, written)


# --- Gemini -------------------------------------------------------------------------------------


def gemini_usage(metadata: Mapping[str, Any]) -> Usage:
    """Gemini's `usageMetadata` as `Usage`."""
    prompt = int(metadata.get("promptTokenCount") or 0)
    # Thinking tokens are billed as output and counted in the total, but not in candidates.
    thoughts = int(metadata.get("thoughtsTokenCount") or 0)
    output = int(metadata.get("candidatesTokenCount") or 0) + thoughts
    cached = int(metadata.get("cachedContentTokenCount") or 0)
    return Usage(prompt, output, int(metadata.get("totalTokenCount") or prompt + output), cached, thoughts)


def refusal_explanation(message: Mapping[str, Any]) -> str | None:
    """Anthropic's words on a refusal: `stop_details.explanation` (else its category), on a `refusal` stop."""
    if message.get("stop_reason") != "refusal":
        return None
    details = _mapping(message.get("stop_details"))
    for key in ("explanation", "category"):
        if isinstance(words := details.get(key), str) and words.strip():
            return words.strip()
    return None
