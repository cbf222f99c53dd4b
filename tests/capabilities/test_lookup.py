"""lookup(): which entry wins, config overrides, unknown providers; and the database checks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from llmrelay.capabilities import _lookup, lookup, modes, specificity
from llmrelay.capabilities._lookup import parse_database
from llmrelay.errors import ConfigError


def table(*entries: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """A database document for provider "p": (pattern, facts) in file order."""
    return {"model": [{"provider": "p", "pattern": pattern, **facts} for pattern, facts in entries]}


RULES_DB = table(
    ("*", {"native_tools": True, "json_object": False}),
    ("gpt-4*", {"json_object": True, "context_window": 1}),
    ("gpt-4o*", {"context_window": 2}),
    ("*-mini", {"context_window": 3}),
    ("ab*", {"context_window": 4}),
    ("a?c*", {"context_window": 5}),
    ("x*", {"context_window": 6}),
    ("*y", {"context_window": 7}),
)


@pytest.fixture
def rules_db(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(_lookup, "_database", lambda: parse_database(RULES_DB, origin="test"))
    yield


@pytest.mark.parametrize(
    ("model", "context_window", "why"),
    [
        ("gpt-4o-mini", 2, "gpt-4o* has more literal characters than gpt-4* and *-mini"),
        ("gpt-4-turbo", 1, "only gpt-4* matches"),
        ("o3-mini", 3, "only *-mini matches"),
        ("abc", 4, "ab* and a?c* have two literals each; ab* has fewer wildcards"),
        ("xy", 7, "x* and *y tie on both counts; the later entry wins"),
        ("GPT-4O", 2, "model names match case-insensitively"),
        ("claude", None, "no entry matches: the provider default only"),
    ],
    ids=lambda v: str(v),
)
@pytest.mark.usefixtures("rules_db")
def test_most_specific_entry_wins(model: str, context_window: int | None, why: str) -> None:
    assert lookup("p", model).context_window == context_window, why


@pytest.mark.usefixtures("rules_db")
def test_entries_sit_on_the_provider_default_not_on_each_other() -> None:
    caps = lookup("p", "gpt-4o")
    # gpt-4* (json_object on) also matches, but only the most specific entry applies.
    assert (caps.native_tools, caps.json_object, caps.context_window) == (True, False, 2)
    assert caps.sources["native_tools"] == "models.toml: p '*'"
    assert caps.sources["context_window"] == "models.toml: p 'gpt-4o*'"


@pytest.mark.usefixtures("rules_db")
def test_provider_name_is_case_insensitive() -> None:
    assert lookup("P", "gpt-4o") == lookup("p", "gpt-4o")


def test_specificity_counts_literals_then_wildcards() -> None:
    ordered = ["*", "*y", "a?c*", "ab*", "gpt-4*", "gpt-4o*", "gpt-4o-2024-05-13"]
    assert sorted(ordered, key=specificity) == ordered


def test_unknown_provider_gets_the_conservative_default() -> None:
    caps = lookup("my-adapter", "any-model")
    assert modes(caps) == ("text",)
    assert caps.context_window is None
    assert caps.sources["native_tools"] == "default: no database entry for provider 'my-adapter'"


# --- overrides ---------------------------------------------------------------------------------


def test_override_merges_on_top_and_is_traced() -> None:
    caps = lookup("openai", "gpt-4o", {"gpt-4o*": {"json_schema": False}})
    assert modes(caps) == ("native_tools", "json_object", "text")
    assert caps.sources["json_schema"] == "config: 'gpt-4o*'"
    assert caps.context_window == 128_000  # facts the override leaves alone keep their source


def test_more_specific_override_wins_whatever_the_order_given() -> None:
    overrides = {"gpt-4o-mini": {"context_window": 2_000}, "*": {"context_window": 1_000}}
    assert lookup("openai", "gpt-4o-mini", overrides).context_window == 2_000
    assert lookup("openai", "gpt-4o", overrides).context_window == 1_000


def test_override_patterns_match_case_insensitively() -> None:
    assert lookup("openai", "gpt-4o", {"GPT-4O*": {"json_schema": False}}).json_schema is False


def test_override_that_does_not_match_changes_nothing() -> None:
    assert lookup("openai", "gpt-4o", {"claude-*": {"native_tools": False}}).native_tools is True


def test_override_teaches_an_unknown_provider() -> None:
    caps = lookup("my-adapter", "m", {"*": {"native_tools": True, "json_schema": True}})
    assert modes(caps) == ("native_tools", "json_schema", "text")


def test_override_can_say_the_context_window_is_unknown() -> None:
    assert lookup("openai", "gpt-4o", {"*": {"context_window": None}}).context_window is None


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"gpt-4o*": {"json_scheme": False}}, "unknown capability 'json_scheme'"),
        ({"claude-*": {"tools": True}}, "unknown capability 'tools'"),  # checked even when it does not match
        ({"*": {"sources": {}}}, "unknown capability 'sources'"),
        ({"*": {"native_tools": "yes"}}, "'native_tools' must be true or false, got 'yes'"),
        ({"*": {"json_object": 1}}, "'json_object' must be true or false, got 1"),
        ({"*": {"context_window": 0}}, "'context_window' must be a positive integer"),
        ({"*": {"context_window": True}}, "'context_window' must be a positive integer"),
        ({"*": {"context_window": "128k"}}, "'context_window' must be a positive integer"),
        ({"*": True}, "expected a table of capabilities, got bool"),
        ({"gpt-[45]o": {"native_tools": True}}, "bad pattern 'gpt-[45]o'"),
        ({"": {"native_tools": True}}, "bad pattern ''"),
    ],
    ids=lambda v: str(v),
)
def test_bad_overrides_are_config_errors(overrides: Mapping[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("(", r"\(")) as info:
        lookup("openai", "gpt-4o", overrides)
    assert "capability override" in str(info.value)


# --- the database checks -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"models": []}, "unknown top-level key"),
        (table(("gpt-*", {"native_tools": True})), "provider 'p' has no default entry"),
        (table(("*", {}), ("a*", {}), ("a*", {})), r"pattern\(s\) \['a\*'\] more than once"),
        (table(("*", {"native_tool": True})), "unknown capability 'native_tool'"),
        (table(("*", {"context_window": -1})), "'context_window' must be a positive integer"),
        ({"model": [{"pattern": "*"}]}, "'provider' must be a non-empty string"),
        ({"model": [{"provider": "p", "pattern": []}]}, "'pattern' must be a string or a non-empty list"),
        ({"model": [{"provider": "p", "pattern": ["*", 3]}]}, "'pattern' must be a string or a non-empty list"),
        ({"model": ["*"]}, "expected a table"),
    ],
    ids=lambda v: str(v),
)
def test_bad_database_is_rejected_naming_the_entry(document: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_database(document, origin="models.toml")


def test_a_pattern_list_makes_one_entry_per_pattern() -> None:
    db = parse_database({"model": [{"provider": "P", "pattern": ["*", "A*", "b*"], "json_object": True}]}, "t")
    assert [(e.provider, e.pattern, dict(e.facts)) for e in db["p"]] == [
        ("p", "*", {"json_object": True}),
        ("p", "a*", {"json_object": True}),
        ("p", "b*", {"json_object": True}),
    ]
