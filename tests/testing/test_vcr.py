"""Reading VCR.py cassettes: the three body storage styles, the real recordings, hostile input."""

from __future__ import annotations

import base64
import datetime
import gzip
import json
import os
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from llmrelay.errors import LLMRelayError
from llmrelay.testing._vcr import (
    MAX_BODY_BYTES,
    CassetteError,
    Interaction,
    RecordedRequest,
    RecordedResponse,
    load_cassette,
    parse_cassette,
)

REPO = Path(__file__).resolve().parents[2]
CONFORMANCE = Path(os.environ.get("LLMRELAY_CONFORMANCE_DIR") or REPO.parent / "shared" / "conformance")
RECORDED = sorted(CONFORMANCE.glob("cassettes/*/*.yaml"))

# As vcrpy writes it (crewAI's openai/crewai-error-400-then-text.yaml, shortened).
VCRPY_TEXT = """\
interactions:
- request:
    body: '{"messages": [{"role": "user", "content": "What is the capital of France?"}], "model": "o1-mini"}'
    headers:
      accept:
      - application/json
      content-length:
      - '97'
    method: POST
    uri: https://api.openai.com/v1/chat/completions
  response:
    body:
      string: "{\\n  \\"error\\": {\\n    \\"type\\": \\"invalid_request_error\\"\\n  }\\n}"
    headers:
      Content-Length:
      - '196'
      Content-Type:
      - application/json
      x-request-id:
      - req_7be4715c3ee32aa406eacb68c7cc966e
    status:
      code: 400
      message: Bad Request
version: 1
"""

# As pydantic-ai's serializer writes it (groq/pydantic-ai-error-404-unknown-model.yaml, no version line).
PYDANTIC_AI_TEXT = """\
interactions:
- request:
    headers:
      content-type:
      - application/json
    method: POST
    parsed_body:
      messages:
      - content: hello
        role: user
      model: non-existent
    uri: https://api.groq.com/openai/v1/chat/completions
  response:
    headers:
      content-length:
      - '153'
      content-type:
      - application/json
      transfer-encoding:
      - chunked
    parsed_body:
      error:
        code: model_not_found
        type: invalid_request_error
    status:
      code: 404
      message: Not Found
"""

ANSWER = {"id": "chatcmpl-1", "choices": [{"message": {"content": "Paris — ✓"}}]}
ANSWER_BYTES = json.dumps(ANSWER).encode()


def test_the_text_style_as_vcrpy_writes_it() -> None:
    (interaction,) = parse_cassette(VCRPY_TEXT).interactions
    assert interaction.request == RecordedRequest(
        "POST",
        "https://api.openai.com/v1/chat/completions",
        {"accept": ["application/json"], "Content-Length": ["97"]},
        b'{"messages": [{"role": "user", "content": "What is the capital of France?"}], "model": "o1-mini"}',
    )
    body = b'{\n  "error": {\n    "type": "invalid_request_error"\n  }\n}'
    assert interaction.response == RecordedResponse(
        400,
        "Bad Request",
        {
            "Content-Type": ["application/json"],
            "x-request-id": ["req_7be4715c3ee32aa406eacb68c7cc966e"],
            "Content-Length": [str(len(body))],  # Recomputed: the recorded 196 was not this body's length.
        },
        body,
    )


def test_the_parsed_body_style_as_pydantic_ai_writes_it() -> None:
    (interaction,) = parse_cassette(PYDANTIC_AI_TEXT).interactions
    request_body = {"messages": [{"content": "hello", "role": "user"}], "model": "non-existent"}
    response_body = {"error": {"code": "model_not_found", "type": "invalid_request_error"}}
    assert interaction.request.body == json.dumps(request_body).encode()
    assert interaction.response.body == json.dumps(response_body).encode()
    assert interaction.response.status == 404
    # transfer-encoding dropped: the body is whole, and its length is known.
    assert interaction.response.headers == {
        "content-type": ["application/json"],
        "Content-Length": [str(len(interaction.response.body))],
    }


def test_the_gzip_binary_style_is_decompressed() -> None:
    compressed = gzip.compress(ANSWER_BYTES)
    text = f"""\
interactions:
- request: {{method: POST, uri: 'https://api.openai.com/v1/chat/completions', body: null, headers: {{}}}}
  response:
    body:
      string: !!binary |
        {base64.encodebytes(compressed).decode().replace(chr(10), chr(10) + " " * 8)}
    headers:
      Content-Encoding: [gzip]
      Content-Length: ['{len(compressed)}']
      Content-Type: [application/json]
    status: {{code: 200, message: OK}}
"""
    (interaction,) = parse_cassette(text).interactions
    assert interaction.response.body == ANSWER_BYTES
    assert interaction.response.headers == {
        "Content-Type": ["application/json"],
        "Content-Length": [str(len(ANSWER_BYTES))],
    }
    assert interaction.request.body is None


@dataclass
class Case:
    """One recorded response (as the writer stored it) and what reading it must give."""

    id: str
    response: dict[str, Any]
    body: bytes
    headers: dict[str, list[str]] = field(default_factory=dict)
    status: tuple[int, str] = (200, "OK")


def recorded(*, body: object = ..., headers: object = None, status: object = None, **extra: object) -> dict[str, Any]:
    response: dict[str, Any] = {"status": status or {"code": 200, "message": "OK"}, "headers": headers or {}}
    if body is not ...:
        response["body"] = body
    return {**response, **extra}


def length(body: bytes) -> dict[str, list[str]]:
    return {"Content-Length": [str(len(body))]}


def raw_deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(wbits=-zlib.MAX_WBITS)  # zlib.compress(wbits=) needs Python 3.11.
    return compressor.compress(data) + compressor.flush()


GZIP = {"Content-Encoding": ["gzip"]}
CASES = [
    Case("text", recorded(body={"string": "héllo"}), "héllo".encode()),
    Case("binary, not compressed", recorded(body={"string": b"\x00\xff"}), b"\x00\xff"),
    Case("gzip", recorded(body={"string": gzip.compress(ANSWER_BYTES)}, headers=GZIP), ANSWER_BYTES),
    Case(
        "gzip in several members",
        recorded(body={"string": gzip.compress(b"ab") + gzip.compress(b"cd")}, headers={"content-encoding": "gzip"}),
        b"abcd",
    ),
    Case("gzip header left on a decoded body", recorded(body={"string": "plain"}, headers=GZIP), b"plain"),
    Case(
        "deflate, zlib-wrapped",
        recorded(body={"string": zlib.compress(b"zz")}, headers={"Content-Encoding": ["deflate"]}),
        b"zz",
    ),
    Case(
        "deflate, raw",
        recorded(body={"string": raw_deflate(b"zz")}, headers={"Content-Encoding": ["deflate"]}),
        b"zz",
    ),
    Case(
        "brotli is kept as recorded, header included",
        recorded(body={"string": b"\x8b\x02"}, headers={"Content-Encoding": ["br"]}),
        b"\x8b\x02",
        {"Content-Encoding": ["br"]},
    ),
    Case("parsed_body mapping", recorded(parsed_body={"a": [1, "é"]}), b'{"a": [1, "\\u00e9"]}'),
    Case("parsed_body list", recorded(parsed_body=[{"a": None}]), b'[{"a": null}]'),
    Case("parsed_body wins over body", recorded(parsed_body={"a": 1}, body={"string": "x"}), b'{"a": 1}'),
    Case("null string", recorded(body={"string": None}), b""),
    Case("empty string", recorded(body={"string": ""}), b""),
    Case(
        "header values as single strings and numbers",
        recorded(body={"string": ""}, headers={"X-A": "one", "X-B": 7, "X-C": ["1", 2]}),
        b"",
        {"X-A": ["one"], "X-B": ["7"], "X-C": ["1", "2"]},
    ),
    Case(
        "recorded framing headers are replaced",
        recorded(body={"string": "abc"}, headers={"content-length": ["99"], "Transfer-Encoding": ["chunked"]}),
        b"abc",
    ),
    # pydantic-ai's newer writer: a typed body, a bare status, unquoted dates in header values.
    Case("typed json body", recorded(body={"type": "json", "content": {"a": [1, "é"]}}), b'{"a": [1, "\\u00e9"]}'),
    Case("typed text body", recorded(body={"type": "text", "content": "data: x\n\n"}), b"data: x\n\n"),
    Case(
        "a header value YAML read as a date",
        recorded(body={"string": ""}, headers={"openai-version": [datetime.date(2020, 10, 1)], "x-f": 1.5}),
        b"",
        {"openai-version": ["2020-10-01"], "x-f": ["1.5"]},
    ),
    Case("a bare status code", recorded(body={"string": ""}, status=204), b"", status=(204, "")),
    Case("status without a reason", recorded(body={"string": ""}, status={"code": 503}), b"", status=(503, "")),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_response_storage_styles(case: Case) -> None:
    response = read_one(case.response).response
    assert response.body == case.body
    assert response.headers == {**case.headers, **length(case.body)}
    assert (response.status, response.reason) == case.status


REQUEST_CASES = [
    ("text", {"body": "{}"}, b"{}"),
    ("binary", {"body": b"\x01"}, b"\x01"),
    ("none", {"body": None}, None),
    ("absent", {}, None),
    ("string mapping", {"body": {"string": "x"}}, b"x"),
    ("parsed_body", {"parsed_body": {"model": "m", "n": 1}}, b'{"model": "m", "n": 1}'),
    ("typed json body", {"body": {"type": "json", "content": {"model": "m"}}}, b'{"model": "m"}'),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in REQUEST_CASES], ids=[c[0] for c in REQUEST_CASES])
def test_request_bodies(body: dict[str, Any], expected: bytes | None) -> None:
    request = read_one(recorded(body={"string": ""}), request={"method": "post", "uri": "https://h/p?q=1", **body})
    assert request.request.body == expected
    assert request.request.method == "POST"
    assert request.request.uri == "https://h/p?q=1"
    assert request.request.headers == ({} if expected is None else length(expected))


def test_header_lookup_ignores_case() -> None:
    response = read_one(recorded(body={"string": ""}, headers={"Retry-After": ["7"], "x-b": []})).response
    assert response.header("retry-after") == response.header("RETRY-AFTER") == "7"
    assert response.header("x-b") is None
    assert response.header("missing") is None


def test_several_interactions_stay_in_order() -> None:
    one, two = (recorded(body={"string": s}) for s in ("1", "2"))
    cassette = parse_cassette(yaml.safe_dump({"interactions": [interaction(one), interaction(two)], "version": 1}))
    assert [i.response.body for i in cassette.interactions] == [b"1", b"2"]
    assert parse_cassette("interactions: []\n").interactions == []


# --- every real recording -----------------------------------------------------------------------


@pytest.mark.skipif(not RECORDED, reason=f"no conformance cassettes under {CONFORMANCE}")
@pytest.mark.parametrize("path", RECORDED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_recorded_cassette_loads(path: Path) -> None:
    cassette = load_cassette(path)
    expected = EXPECTED[f"{path.parent.name}/{path.name}"]
    assert [summary(i) for i in cassette.interactions] == [
        (e["method"], e["host"], e["path"], e["status"]) for e in expected["interactions"]
    ]
    for item in cassette.interactions:
        assert item.response.header("content-length") == str(len(item.response.body))
        assert not item.response.body.startswith(b"\x1f\x8b"), "compressed bodies are given decoded"
        if "json" in (item.response.header("content-type") or ""):
            json.loads(item.response.body)


def test_the_three_styles_are_all_in_the_recordings() -> None:
    if not RECORDED:
        pytest.skip(f"no conformance cassettes under {CONFORMANCE}")
    styles = {style for c in EXPECTED.values() for style in c["body_storage"]}
    assert styles >= {"string", "binary+gzip", "parsed_body"}


# --- malformed and hostile input ------------------------------------------------------------------

GOOD_REQUEST = {"method": "GET", "uri": "https://h/"}
GOOD_RESPONSE = recorded(body={"string": ""})
BAD = [
    ("python object", "!!python/object/apply:os.system ['touch {marker}']", "python/object/apply"),
    ("python object inside", "interactions:\n- !!python/object/new:os.system ['touch {marker}']", "python/object"),
    ("python name", "interactions: !!python/name:os.system", "python/name"),
    ("not YAML", "interactions: [\n", "not a YAML cassette"),
    ("empty file", "", "the top level: expected a mapping, got nothing"),
    ("a string", "hello", "expected a mapping, got str"),
    ("an old list cassette", "- request: {}\n", "before 1.0"),
    ("no interactions", "version: 1\n", "'interactions' must be a list"),
    ("interactions not a list", "interactions: {}\n", "'interactions' must be a list"),
    ("version 2", "version: 2\ninteractions: []\n", "unsupported cassette version 2"),
    ("interaction not a mapping", "interactions: [1]\n", "interactions[0]: expected a mapping, got int"),
    ("no request", {"response": GOOD_RESPONSE}, "interactions[0].request: expected a mapping, got nothing"),
    ("no response", {"request": GOOD_REQUEST}, "interactions[0].response: expected a mapping, got nothing"),
    ("no method", {"request": {"uri": "u"}, "response": GOOD_RESPONSE}, "'method' is missing"),
    ("no uri", {"request": {"method": "GET"}, "response": GOOD_RESPONSE}, "'uri' is missing"),
    ("no status", {"request": GOOD_REQUEST, "response": {"body": {"string": ""}}}, "status: expected an HTTP status"),
    ("status out of range", {"request": GOOD_REQUEST, "response": recorded(status=999, body=None)}, "got 999"),
    ("status as text", {"request": GOOD_REQUEST, "response": recorded(status={"code": "200"}, body=None)}, "'200'"),
    ("no body", {"request": GOOD_REQUEST, "response": recorded()}, "no 'body' or 'parsed_body'"),
    ("body mapping without string", {"request": GOOD_REQUEST, "response": recorded(body={})}, "without 'string'"),
    ("body a number", {"request": GOOD_REQUEST, "response": recorded(body={"string": 5})}, "got int"),
    (
        "typed body of another type",
        {"request": GOOD_REQUEST, "response": recorded(body={"type": "xml", "content": "<a/>"})},
        "a body of type 'xml' holding str",
    ),
    ("header list of mappings", {"request": GOOD_REQUEST, "response": recorded(body=None, headers={"a": [{}]})}, "a:"),
    ("headers a list", {"request": GOOD_REQUEST, "response": recorded(body=None, headers=["a"])}, "got list"),
    (
        "parsed_body with a date",
        "interactions:\n- request: {method: GET, uri: u}\n  response: {status: 200, parsed_body: {d: 2024-01-01}}\n",
        "parsed_body: not JSON data",
    ),
    ("bad gzip", {"request": GOOD_REQUEST, "response": recorded(body={"string": b"\x1f\x8bxx"}, headers=GZIP)}, "gzip"),
    (
        "truncated gzip",
        {"request": GOOD_REQUEST, "response": recorded(body={"string": gzip.compress(b"x" * 99)[:-12]}, headers=GZIP)},
        "cut short",
    ),
    (
        "lone surrogate",
        '{interactions: [{request: {method: GET, uri: u, body: "\\ud800"}}]}',
        "not encodable|invalid Unicode",
    ),
    (
        "billion laughs",
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(9))
        + "interactions: []\n",
        "aliases expand",
    ),
    ("self reference", "interactions: &a [*a]\n", "refer to themselves"),
    ("deep nesting", "interactions: " + "[" * 100_000 + "]" * 100_000, "nested too deeply"),
]


@pytest.mark.parametrize(("source", "message"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_malformed_or_hostile_input_is_a_cassette_error(tmp_path: Path, source: object, message: str) -> None:
    marker = tmp_path / "pwned"
    assert isinstance(source, (str, dict))
    text = source.replace("{marker}", str(marker)) if isinstance(source, str) else cassette_text(source)
    with pytest.raises(CassetteError, match="<cassette>: ") as caught:
        parse_cassette(text)
    # Alternatives: PyYAML's pure-Python parser and libyaml's (used when built) word some errors apart.
    assert any(words in str(caught.value) for words in message.split("|"))
    assert not marker.exists(), "the YAML loader must construct no Python objects"
    assert isinstance(caught.value, LLMRelayError)


def test_a_decompression_bomb_is_refused() -> None:
    bomb = gzip.compress(b"\0" * (MAX_BODY_BYTES + 1), compresslevel=1)
    started = time.perf_counter()
    with pytest.raises(CassetteError, match="expands beyond"):
        read_one(recorded(body={"string": bomb}, headers=GZIP))
    assert time.perf_counter() - started < 5


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(CassetteError, match=r"missing\.yaml: cannot read"):
        load_cassette(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("interactions: 3\n")
    with pytest.raises(CassetteError, match=r"broken\.yaml: 'interactions' must be a list"):
        load_cassette(broken)


# --- helpers ----------------------------------------------------------------------------------------


def interaction(response: dict[str, Any], request: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"request": request or GOOD_REQUEST, "response": response}


def cassette_text(*items: dict[str, Any]) -> str:
    return yaml.safe_dump({"interactions": list(items)}, allow_unicode=True)


def read_one(response: dict[str, Any], request: dict[str, Any] | None = None) -> Interaction:
    (only,) = parse_cassette(cassette_text(interaction(response, request))).interactions
    return only


def summary(item: Interaction) -> tuple[str, str, str, int]:
    _scheme, _, rest = item.request.uri.partition("://")
    host, _, path = rest.partition("/")
    return item.request.method, host, "/" + path.partition("?")[0], item.response.status


def _expected() -> dict[str, dict[str, Any]]:
    path = CONFORMANCE / "expected.json"
    if not path.exists():
        return {}
    return {c["file"]: c for c in json.loads(path.read_text())["cassettes"]}


EXPECTED = _expected()
