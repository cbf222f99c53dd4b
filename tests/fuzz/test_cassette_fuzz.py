"""Properties of the cassette reader (`parse_cassette`) on generated, mutated and hostile YAML.

Whatever the bytes, the reader gives a `Cassette` or raises `CassetteError`: never another
exception, never a crash, and never a Python object built from a YAML tag (safe loading only).
Cassettes written the three ways vcrpy and pydantic-ai write them read back as written.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st

from llmrelay.errors import CassetteError
from llmrelay.testing import Cassette, parse_cassette

# --- generated cassettes ----------------------------------------------------------------------------

header_names = st.from_regex(r"[A-Za-z][A-Za-z0-9-]{0,15}", fullmatch=True).filter(
    lambda name: name.lower() not in ("content-length", "transfer-encoding", "content-encoding")
)
header_values = st.text(st.characters(codec="utf-8", exclude_categories=["Cc", "Cs"]), max_size=20)
headers = st.dictionaries(header_names, st.lists(header_values, min_size=1, max_size=2), max_size=4)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=10,
)
bodies = st.binary(max_size=200)
STYLES = ("text", "binary", "gzip", "parsed_body")


@st.composite
def interactions(draw: st.DrawFn) -> tuple[dict[str, Any], bytes]:
    """One interaction as a writer stores it, and the response body it must read back as."""
    style = draw(st.sampled_from(STYLES))
    response: dict[str, Any] = {"status": {"code": draw(st.integers(100, 599)), "message": "OK"}}
    response_headers = draw(headers)
    if style == "parsed_body":
        value = draw(json_values)
        response["parsed_body"] = value
        expected = json.dumps(value).encode()
    elif style == "text":
        text = draw(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=100))
        response["body"] = {"string": text}
        expected = text.encode()
    else:
        expected = draw(bodies)
        stored = gzip.compress(expected) if style == "gzip" else expected
        response["body"] = {"string": stored}  # yaml.dump writes bytes as !!binary.
        if style == "gzip":
            response_headers = {**response_headers, "Content-Encoding": ["gzip"]}
    response["headers"] = response_headers
    request = {"method": draw(st.sampled_from(["get", "POST"])), "uri": "https://api.example.com/v1/x", "body": None}
    return {"request": request, "response": response}, expected


@given(st.lists(interactions(), max_size=4))
def test_a_written_cassette_reads_back(written: list[tuple[dict[str, Any], bytes]]) -> None:
    # As VCR.py writes (non-ASCII escaped): PyYAML folds a raw U+0085 in a key it wrote to a space.
    text = yaml.safe_dump({"version": 1, "interactions": [item for item, _ in written]}, sort_keys=False)
    cassette = parse_cassette(text)
    assert [i.response.body for i in cassette.interactions] == [body for _, body in written]
    for (item, _), read in zip(written, cassette.interactions, strict=True):
        assert read.request.method == item["request"]["method"].upper()
        assert read.response.status == item["response"]["status"]["code"]
        assert read.response.header("content-length") == str(len(read.response.body))
        assert read.response.header("content-encoding") is None


# --- anything else ------------------------------------------------------------------------------------


def read(text: str | bytes) -> Cassette | None:
    """The cassette, or None when it is refused with a `CassetteError` naming the source."""
    try:
        return parse_cassette(text, source="fuzzed.yaml")
    except CassetteError as error:
        assert str(error).startswith("fuzzed.yaml: ")
        return None


@given(st.binary(max_size=300) | st.text(max_size=300))
def test_random_input_is_a_cassette_or_a_cassette_error(text: str | bytes) -> None:
    read(text)


yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10) | st.binary(max_size=10),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=15,
)
KEYS = ["version", "interactions", "request", "response", "method", "uri", "headers", "body", "status", "code"]
KEYS += ["message", "string", "parsed_body", "Content-Encoding", "content-length"]


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A real cassette with one value somewhere replaced by anything YAML can hold."""
    item, _ = draw(interactions())
    document: Any = {"version": 1, "interactions": [item]}
    node, key = document, None
    for _ in range(draw(st.integers(0, 4))):  # Walk down a random path, then replace what is there.
        keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        if not isinstance(node[key], (dict, list)):
            break
        node = node[key]
    replacement = draw(yaml_values)
    if isinstance(node, dict):
        node[draw(st.sampled_from(KEYS)) if draw(st.booleans()) else (key or "interactions")] = replacement
    elif isinstance(node, list):
        node.append(replacement)
    return document


@given(mutated())
def test_a_damaged_cassette_is_a_cassette_or_a_cassette_error(document: Any) -> None:
    read(yaml.safe_dump(document, allow_unicode=True, sort_keys=False))


# YAML that would build objects, run code, or expand without bound, spliced into real cassettes.
HOSTILE = [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/apply:builtins.exec [\"open('{marker}', 'w').write('x')\"]",
    "!!python/object/new:subprocess.Popen [['touch', '{marker}']]",
    "!!python/name:os.system",
    "!!python/module:os",
    "!!python/object:pathlib.Path {{}}",
    "!!python/tuple [1, 2]",
    "!!set {{a, b}}",
    "!!timestamp 2024-01-01",
    "!<tag:yaml.org,2002:python/object/apply:os.system> ['touch {marker}']",
    "&a [*a, *a]",
    "*undefined",
    "[" * 200 + "]" * 200,
    "{{" * 200 + "}}" * 200,
]
TEMPLATE = (
    "version: 1\ninteractions:\n- request: {{method: GET, uri: 'https://h/', headers: {{a: [{slot_a}]}}}}\n"
    "  response:\n    status: {{code: 200, message: {slot_b}}}\n    body: {{string: {slot_c}}}\n"
)


@given(
    payload=st.sampled_from(HOSTILE),
    slot=st.sampled_from(["slot_a", "slot_b", "slot_c"]),
    laughs=st.integers(1, 12),
)
def test_hostile_yaml_builds_nothing_and_says_so(tmp_path_factory: Any, payload: str, slot: str, laughs: int) -> None:
    marker = Path(tmp_path_factory.mktemp("hostile")) / "pwned"
    filled = {name: "x" for name in ("slot_a", "slot_b", "slot_c")}
    filled[slot] = payload.replace("{marker}", str(marker)).replace("{{", "{").replace("}}", "}")
    aliases = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]\n" for i in range(1, laughs)
    )
    cassette = read(aliases + TEMPLATE.format(**filled))
    assert not marker.exists(), "the YAML loader must construct no Python objects"
    if cassette is not None:  # Only what plain data can be: a string, a number, a list.
        assert all(isinstance(i.response.body, bytes) for i in cassette.interactions)
