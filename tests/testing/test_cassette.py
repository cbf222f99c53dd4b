"""Replaying cassettes: record modes, matching, the unmatched-request error, decorator and streams.

Recording for real (against the loopback server) is in test_cassette_record.py.
"""

from __future__ import annotations

import base64
import gzip
from pathlib import Path

import httpx
import pytest
import yaml

from llmrelay.errors import CassetteError, ConfigError, MissingCassetteError, UnmatchedRequestError
from llmrelay.testing import Cassette, cassette
from llmrelay.testing._cassette import default_record_mode, pieces

URL = "https://api.example.com/v1/chat"


def interaction(
    uri: str, answer: str | bytes, *, method: str = "POST", body: str | None = None, **response: object
) -> dict[str, object]:
    return {
        "request": {"method": method, "uri": uri, "headers": {}, "body": body},
        "response": {
            "status": {"code": response.get("status", 200), "message": "OK"},
            "headers": response.get("headers", {"Content-Type": ["application/json"]}),
            "body": {"string": answer},
        },
    }


def write(path: Path, *items: dict[str, object]) -> Path:
    path.write_text(yaml.safe_dump({"interactions": list(items), "version": 1}))
    return path


@pytest.fixture
def two_answers(tmp_path: Path) -> Path:
    """Two answers to the same request (no body): repeated requests take them in order."""
    return write(tmp_path / "two.yaml", interaction(URL, '{"n": 1}'), interaction(URL, '{"n": 2}'))


@pytest.fixture
def two_questions(tmp_path: Path) -> Path:
    return write(
        tmp_path / "two.yaml",
        interaction(URL, '{"n": 1}', body='{"q": "a", "user": "u1"}'),
        interaction(URL, '{"n": 2}', body='{"q": "b", "user": "u2"}'),
    )


STACKS = ["httpx", "httpx2"]


@pytest.mark.parametrize("stack", STACKS)
def test_repeated_requests_take_the_recorded_answers_in_order(two_answers: Path, stack: str) -> None:
    client = pytest.importorskip(stack)
    with cassette(two_answers, "none") as active:
        answers = [client.post(URL).json() for _ in range(2)]
    assert answers == [{"n": 1}, {"n": 2}]
    assert active.play_count == 2


@pytest.mark.parametrize("stack", STACKS)
async def test_async_clients_replay_too(two_answers: Path, stack: str) -> None:
    module = pytest.importorskip(stack)
    async with cassette(two_answers, "none"), module.AsyncClient() as client:
        answers = [(await client.post(URL)).json() for _ in range(2)]
    assert answers == [{"n": 1}, {"n": 2}]


@pytest.mark.parametrize(
    ("match_on", "ignore", "sent", "expected"),
    [
        (("method", "uri"), (), ['{"q": "b"}', '{"q": "a"}'], [1, 2]),  # Bodies ignored: recorded order.
        (("method", "uri", "body"), (), ['{"q": "b", "user": "u2"}', '{"user": "u1", "q": "a"}'], [2, 1]),
        (("method", "uri", "body"), ("user",), ['{"q": "b", "user": "new"}', '{"q":"a"}'], [2, 1]),
    ],
    ids=["order", "body-json", "body-ignoring-volatile-field"],
)
def test_matching_on_the_body_picks_the_recording_with_the_same_json(
    two_questions: Path, match_on: tuple[str, ...], ignore: tuple[str, ...], sent: list[str], expected: list[int]
) -> None:
    with cassette(two_questions, "none", match_on=match_on, ignore_body_fields=ignore):
        answers = [httpx.post(URL, content=body.encode()).json()["n"] for body in sent]
    assert answers == expected


@pytest.mark.parametrize(
    ("recorded", "sent", "match_on", "matches"),
    [
        ("https://h.example/p?a=1&b=2", "https://h.example/p?b=2&a=1", ("method", "uri"), True),
        ("https://h.example/p?a=1", "https://h.example/p?a=2", ("method", "uri"), False),
        ("https://h.example/p?a=1", "https://h.example/p?a=2", ("method", "path"), True),
        ("https://h.example/p", "https://h.example:443/p", ("method", "uri"), True),
        ("https://h.example/p", "https://other.example/p", ("method", "path"), True),
        ("https://h.example/p", "https://other.example/p", ("method", "host", "path"), False),
        ("https://h.example/p?key=REDACTED", "https://h.example/p?key=my-real-key", ("method", "uri"), True),
    ],
)
def test_url_matchers(tmp_path: Path, recorded: str, sent: str, match_on: tuple[str, ...], matches: bool) -> None:
    path = write(tmp_path / "c.yaml", interaction(recorded, "{}"))
    if matches:
        with cassette(path, "none", match_on=match_on):
            assert httpx.post(sent).status_code == 200
    else:
        with pytest.raises(UnmatchedRequestError), cassette(path, "none", match_on=match_on):
            httpx.post(sent)


def test_an_unmatched_request_shows_the_request_and_the_closest_recordings_and_never_goes_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(
        tmp_path / "c.yaml",
        interaction("https://api.example.com/v1/embeddings", "{}"),
        interaction("https://api.example.com/v1/chat/completions", "{}"),
        interaction("https://elsewhere.example.org/zzz", "{}", method="GET"),
    )
    with pytest.raises(UnmatchedRequestError) as caught, cassette(path, "none", allow_unplayed=True):
        httpx.post(
            "https://api.example.com/v1/chat/completion?key=sk-live-123",
            headers={"Authorization": "Bearer sk-live-123"},
            json={"model": "m"},
        )
    message = str(caught.value)
    assert "POST https://api.example.com/v1/chat/completion?key=REDACTED" in message
    assert 'body: {"model":"m"}' in message
    closest = message.split("closest recorded interactions")[1].splitlines()[1:4]
    assert closest[0].startswith("  #1 POST https://api.example.com/v1/chat/completions  [differs in uri, body")
    assert "#2 GET" in closest[2]
    assert "sk-live-123" not in message
    assert "--llmrelay-record-mode=new_episodes" in message
    assert caught.value.request == "POST https://api.example.com/v1/chat/completion?key=REDACTED"


def test_a_played_recording_is_not_served_twice_unless_repeats_are_allowed(tmp_path: Path) -> None:
    path = write(tmp_path / "c.yaml", interaction(URL, '{"n": 1}'))
    with pytest.raises(UnmatchedRequestError, match=r"already played \(repeats are off\)"), cassette(path, "none"):
        httpx.post(URL)
        httpx.post(URL)
    with cassette(path, "none", allow_playback_repeats=True):
        assert [httpx.post(URL).json() for _ in range(3)] == [{"n": 1}] * 3


def test_an_unmatched_request_swallowed_by_the_caller_still_fails_at_the_end(two_answers: Path) -> None:
    """The SDKs turn any transport error into their own connection error; the cassette still says why."""
    with pytest.raises(UnmatchedRequestError, match=r"GET https://api\.example\.com/nothing"):
        with cassette(two_answers, "none", allow_unplayed=True):
            try:
                httpx.get("https://api.example.com/nothing")
            except UnmatchedRequestError:
                pass


def test_interactions_left_unplayed_fail_unless_allowed(two_answers: Path) -> None:
    with pytest.raises(CassetteError, match=r"1 recorded interaction\(s\) never requested: #1 POST"):
        with cassette(two_answers, "none"):
            httpx.post(URL)
    with cassette(two_answers, "none", allow_unplayed=True):
        httpx.post(URL)


def test_replay_only_without_a_file_says_how_to_record(tmp_path: Path) -> None:
    with pytest.raises(MissingCassetteError, match=r"no cassette at .*missing\.yaml.*record_mode='once'"):
        with cassette(tmp_path / "missing.yaml", "none"):
            pass  # pragma: no cover


@pytest.mark.parametrize(
    ("mode", "exists", "replays", "records"),
    [
        ("none", True, True, False),
        ("once", True, True, False),
        ("once", False, False, True),
        ("new_episodes", True, True, True),
        ("new_episodes", False, True, True),
        ("all", True, False, True),
    ],
)
def test_record_modes(tmp_path: Path, mode: str, exists: bool, replays: bool, records: bool) -> None:
    path = write(tmp_path / "c.yaml", interaction(URL, "{}")) if exists else tmp_path / "c.yaml"
    active = cassette(path, mode, allow_unplayed=True)  # type: ignore[arg-type]
    with active:
        session = active._session
        assert session is not None
        assert (session.replaying, session.recording) == (replays, records)
    assert len(active.interactions) == (1 if exists and mode != "all" else 0)


@pytest.mark.parametrize(
    ("ci", "mode"), [(None, "once"), ("true", "none"), ("1", "none"), ("false", "once"), ("", "once")]
)
def test_the_default_record_mode_is_replay_only_in_ci(
    monkeypatch: pytest.MonkeyPatch, ci: str | None, mode: str
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    assert default_record_mode() == mode
    assert Cassette("x.yaml").record_mode == mode


def test_bad_options_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="record_mode: 'sometimes'"):
        cassette("x.yaml", "sometimes")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"unknown matcher\(s\) \['url'\]"):
        cassette("x.yaml", match_on=["method", "url"])


def test_as_a_decorator_each_call_replays_afresh(two_answers: Path) -> None:
    @cassette(two_answers, "none")
    def both() -> list[int]:
        return [httpx.post(URL).json()["n"] for _ in range(2)]

    assert both() == [1, 2]
    assert both() == [1, 2]


async def test_as_a_decorator_on_a_coroutine(two_answers: Path) -> None:
    @cassette(two_answers, "none")
    async def both() -> list[int]:
        async with httpx.AsyncClient() as client:
            return [(await client.post(URL)).json()["n"] for _ in range(2)]

    assert await both() == [1, 2]


def test_a_cassette_cannot_be_entered_twice_at_once(two_answers: Path) -> None:
    active = cassette(two_answers, "none", allow_unplayed=True)
    with active, pytest.raises(CassetteError, match="already active"):
        active.__enter__()


SSE = b'data: {"a":1}\n\ndata: {"b":2}\r\n\r\nevent: x\ndata: [DONE]\n\n'


@pytest.mark.parametrize(
    ("body", "content_type", "expected"),
    [
        (
            SSE,
            "text/event-stream; charset=utf-8",
            [b'data: {"a":1}\n\n', b'data: {"b":2}\r\n\r\n', b"event: x\ndata: [DONE]\n\n"],
        ),
        (b"data: 1\n\ndata: 2", "text/event-stream", [b"data: 1\n\n", b"data: 2"]),
        (b'[{"a": 1},\n\n{"b": 2}]', "application/json", [b'[{"a": 1},\n\n{"b": 2}]']),
        (b"", "text/event-stream", []),
    ],
)
def test_event_streams_are_served_event_by_event(body: bytes, content_type: str, expected: list[bytes]) -> None:
    assert pieces(body, content_type) == expected


@pytest.mark.parametrize("stack", STACKS)
async def test_a_recorded_stream_reaches_the_client_in_pieces_sync_and_async(tmp_path: Path, stack: str) -> None:
    module = pytest.importorskip(stack)
    path = write(
        tmp_path / "s.yaml", *[interaction(URL, SSE.decode(), headers={"Content-Type": ["text/event-stream"]})] * 2
    )
    with cassette(path, "none"):
        with module.stream("POST", URL) as response:
            sync_pieces = list(response.iter_raw())
        async with module.AsyncClient() as client, client.stream("POST", URL) as response:
            async_pieces = [piece async for piece in response.aiter_raw()]
    assert sync_pieces == async_pieces == pieces(SSE, "text/event-stream")
    assert b"".join(sync_pieces) == SSE


def test_gzip_binary_and_parsed_body_recordings_replay_decoded(tmp_path: Path) -> None:
    packed = gzip.compress(b'{"packed": true}')
    text = f"""\
interactions:
- request: {{method: POST, uri: '{URL}', body: null}}
  response:
    status: {{code: 200, message: OK}}
    headers: {{Content-Encoding: [gzip], Content-Length: ['999'], Content-Type: [application/json]}}
    body: {{string: !!binary "{base64.b64encode(packed).decode()}"}}
- request: {{method: POST, uri: '{URL}', parsed_body: {{q: 1}}}}
  response:
    status: {{code: 201, message: Created}}
    headers: {{content-type: [application/json]}}
    parsed_body: {{parsed: [1, 2]}}
"""
    path = tmp_path / "mixed.yaml"
    path.write_text(text)
    with cassette(path, "none"):
        first, second = httpx.post(URL), httpx.post(URL, json={"q": 1})
    assert first.json() == {"packed": True}
    assert "content-encoding" not in first.headers
    assert first.headers["content-length"] == str(len(b'{"packed": true}'))
    assert (second.status_code, second.reason_phrase, second.json()) == (201, "Created", {"parsed": [1, 2]})


def test_a_nested_mock_http_router_answers_first_and_the_cassette_takes_the_rest(two_answers: Path) -> None:
    from llmrelay.testing import mock_http

    with mock_http() as router, cassette(two_answers, "none"):
        router.get("https://api.example.com/health").respond(204)
        assert httpx.get("https://api.example.com/health").status_code == 204
        assert [httpx.post(URL).json()["n"] for _ in range(2)] == [1, 2]


# --- issue 12: the body is the prompt, matched by default --------------------------------------------


def test_by_default_a_changed_prompt_is_not_answered_with_the_recording(two_questions: Path) -> None:
    with pytest.raises(UnmatchedRequestError) as caught, cassette(two_questions, "none", allow_unplayed=True):
        httpx.post(URL, json={"q": "a", "user": "someone else"})
    assert "[differs in body: user]" in str(caught.value)
    with cassette(two_questions, "none", allow_unplayed=True):  # Key order and spacing do not count.
        assert httpx.post(URL, content=b'{"user":"u2",  "q":"b"}').json() == {"n": 2}


@pytest.mark.parametrize(
    ("live", "recorded", "expected"),
    [
        ({"a": 1}, {"a": 1}, None),
        ({"a": 1}, {"a": 2}, "a"),
        ({"m": [{"c": "x"}, {"c": "y"}]}, {"m": [{"c": "x"}, {"c": "z"}]}, "m[1].c"),
        ({"m": [1]}, {"m": [1, 2]}, "m (length)"),
        ({"a": 1, "t": 0.5}, {"a": 1}, "t (not recorded)"),
        ({"a": 1}, {"a": 1, "seed": 3}, "seed (only recorded)"),
        ([1], {"a": 1}, "the body"),
    ],
)
def test_first_difference(live: object, recorded: object, expected: str | None) -> None:
    from llmrelay.testing._match import first_difference

    assert first_difference(live, recorded) == expected
