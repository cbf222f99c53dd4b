"""The memory of signatures adapters received with tool calls."""

from __future__ import annotations

from llmrelay.adapters._signatures import SignatureMemory


def test_the_oldest_is_forgotten_past_the_size() -> None:
    memory = SignatureMemory(size=2)
    for call_id, signature in (("a", "YWFh"), ("b", "YmJi"), ("c", "Y2Nj")):
        memory.keep(call_id, signature)
    assert (memory.recall("a"), memory.recall("b"), memory.recall("c")) == (None, "YmJi", "Y2Nj")


def test_a_call_kept_again_is_the_newest() -> None:
    memory = SignatureMemory(size=2)
    memory.keep("a", "one")
    memory.keep("b", "two")
    memory.keep("a", "three")
    memory.keep("c", "four")
    assert (memory.recall("a"), memory.recall("b"), memory.recall("c")) == ("three", None, "four")


def test_nothing_is_kept_without_an_id_or_a_signature() -> None:
    memory = SignatureMemory()
    memory.keep(None, "sig")
    memory.keep("", "sig")
    memory.keep("a", None)
    memory.keep("b", "")
    assert [memory.recall(key) for key in (None, "", "a", "b")] == [None, None, None, None]
