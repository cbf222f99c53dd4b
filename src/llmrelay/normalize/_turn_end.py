"""The end-of-turn tokens a local server leaves at the end of an answer, removed before it is read.

A model ends its turn with a special token (`<|im_end|>`, `<|eot_id|>`, `</s>`, …). vLLM and
llama.cpp stop generating at it and leave it out of the text; a server run with
`skip_special_tokens` off, or one that echoes its stop string, sends it as the answer's last
characters::

    It is sunny in Paris.<|im_end|>
    <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call><|im_end|>

Since the engines stop *at* the token, only tokens at the very end of the answer (one or a few,
blank space between them) are the end of the turn. The same token anywhere else is text the
model wrote, about the token or after it, and stays. Llama's `<|eom_id|>` is not among them:
it says a call to the code interpreter ends there (see `LlamaPythonTag`).
"""

from __future__ import annotations

TURN_END_TOKENS = (
    "<|im_end|>",  # ChatML: Qwen, LFM2, InternLM, Hermes, MiniCPM, Kimi
    "<|eot_id|>",  # Llama 3
    "<|eot|>",  # Llama 4
    "<|end|>",  # Phi-3/4, gpt-oss's end of message
    "<|return|>",  # gpt-oss's end of answer
    "<end_of_turn>",  # Gemma 1-3
    "<turn|>",  # Gemma 4
    "<eos>",  # Gemma
    "</s>",  # Llama 2, Mistral, ERNIE, GigaChat
    "<|endoftext|>",  # GPT-2 lineage, Phi, GLM, Qwen base
    "<|end_of_text|>",  # Llama 3 base, Granite
    "<｜end▁of▁sentence｜>",  # DeepSeek
    "<|end▁of▁sentence|>",  # DeepSeek, as some servers spell it
    "<|end_of_sentence|>",
    "<|END_OF_TURN_TOKEN|>",  # Cohere Command
    "<|end_of_turn|>",
    "<|EOT|>",  # DeepSeek Coder
    "<|endofturn|>",  # HyperCLOVA X
    "<|stop|>",  # HyperCLOVA X
    "<|eos|>",  # Hunyuan
    "<seed:eos>",  # Seed-OSS
    "<|plamo:tag|>",  # PLaMo 3
    "<|user|>",  # GLM stops where the next user turn would start
    "<|observation|>",  # GLM stops where a tool's result would start
)
_MAX_TOKENS = 8  # Models end with one or two; more are text (and hostile runs stay cheap).


def without_turn_end(text: str) -> str:
    """`text` without the end-of-turn tokens it ends with (and the blank space around them).

    `text` itself, unchanged, when it does not end with one.
    """
    last = text[-1:]
    if last != ">" and not last.isspace():
        return text  # The common case, decided without a copy: every token ends with `>`.
    end = _stripped_end(text)
    found = 0
    while found < _MAX_TOKENS and text.endswith(TURN_END_TOKENS, 0, end):
        token = next(t for t in TURN_END_TOKENS if text.endswith(t, 0, end))
        end -= len(token)
        if end and text[end - 1].isspace():
            end = len(text[:end].rstrip())
        found += 1
    return text[:end] if found else text


_LONGEST = max(map(len, TURN_END_TOKENS))


def _stripped_end(text: str) -> int:
    """`len(text.rstrip())`, without copying the text (a 1 MB answer ending in a newline): its tail, as a rule."""
    tail = text[-256:]
    if stripped := tail.rstrip():
        return len(text) - len(tail) + len(stripped)
    return len(text.rstrip())


def turn_end_tail(text: str) -> int:
    """How many characters `text` ends with that may be end-of-turn tokens, whole or still arriving.

    What a stream holds back: the answer may end there, and then they are not part of it.
    """
    end = _stripped_end(text)
    if "<" not in text[max(0, end - _LONGEST) : end]:
        return 0  # The common case: no token, whole or arriving, ends the text.
    kept = without_turn_end(text)
    start = kept.rfind("<", max(0, len(kept) - _LONGEST))
    if start != -1 and any(token.startswith(kept[start:]) for token in TURN_END_TOKENS):
        kept = kept[:start]
    return len(text) - len(kept)
