"""Capabilities and modes(): the order of modes, immutability, and a light import."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import FrozenInstanceError

import pytest

from llmrelay.capabilities import Capabilities, modes


@pytest.mark.parametrize(
    ("caps", "expected"),
    [
        (Capabilities(), ("text",)),
        (
            Capabilities(native_tools=True, json_schema=True, json_object=True),
            ("native_tools", "json_schema", "json_object", "text"),
        ),
        (Capabilities(json_object=True, native_tools=True), ("native_tools", "json_object", "text")),
        (Capabilities(json_schema=True), ("json_schema", "text")),
        (Capabilities(json_object=True), ("json_object", "text")),
        # Hints and parallel calls are not modes.
        (Capabilities(parallel_tool_calls=True, emits_xml_tool_calls=True, emits_special_tokens=True), ("text",)),
    ],
    ids=lambda v: repr(v) if isinstance(v, tuple) else "",
)
def test_modes_best_first_text_last(caps: Capabilities, expected: tuple[str, ...]) -> None:
    assert modes(caps) == expected


def test_is_frozen_and_keyword_only() -> None:
    caps = Capabilities(native_tools=True)
    with pytest.raises(FrozenInstanceError):
        caps.native_tools = False  # type: ignore[misc]
    with pytest.raises(TypeError):
        Capabilities(True)  # type: ignore[call-arg]


def test_sources_cannot_change_after_construction() -> None:
    given = {"native_tools": "config: '*'"}
    caps = Capabilities(native_tools=True, sources=given)
    given["native_tools"] = "tampered"
    assert caps.sources["native_tools"] == "config: '*'"
    with pytest.raises(TypeError):
        caps.sources["native_tools"] = "x"  # type: ignore[index]


def test_equal_facts_are_equal_whatever_their_sources() -> None:
    a = Capabilities(json_object=True, sources={"json_object": "models.toml: groq '*'"})
    b = Capabilities(json_object=True, sources={"json_object": "config: '*'"})
    assert a == b
    assert hash(a) == hash(b)
    assert a != Capabilities()


def test_import_stays_light() -> None:
    # The database is parsed on the first lookup, not when the package is imported.
    code = (
        "import sys, llmrelay.capabilities as c\n"
        "heavy = [m for m in ('tomllib', 'tomli', 'tempfile', 'importlib.resources') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "c.lookup('openai', 'gpt-4o')\n"
        "assert 'tomllib' in sys.modules or 'tomli' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
