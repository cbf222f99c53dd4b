"""vcrpy replays the cassettes llmrelay writes (and llmrelay replays what vcrpy writes)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from llmrelay.testing import cassette
from llmrelay.testing._wire_server import Reply, WireServer

vcr = pytest.importorskip("vcr")

SCRIPT = [Reply("Bonjour depuis Paris.", tool_calls=[("get_weather", {"city": "Paris"})]), Reply("Encore.")]


def record(path: Path, server: WireServer) -> list[tuple[int, str, bytes]]:
    url = server.base_url_for("openai") + "/chat/completions"
    answers = []
    with cassette(path, "once"):
        with httpx.Client(headers={"Authorization": "Bearer sk-secret"}) as client:
            plain = client.post(url, json={"model": "gpt-4o-mini", "messages": []})
            answers.append((plain.status_code, plain.headers["content-type"], plain.content))
            with client.stream("POST", url, json={"model": "gpt-4o-mini", "stream": True}) as streamed:
                answers.append((streamed.status_code, streamed.headers["content-type"], streamed.read()))
    return answers


def test_vcrpy_replays_a_cassette_llmrelay_recorded(tmp_path: Path) -> None:
    path = tmp_path / "by-llmrelay.yaml"
    with WireServer(script=SCRIPT) as server:
        recorded = record(path, server)
    url = server.base_url_for("openai") + "/chat/completions"
    with vcr.use_cassette(str(path), record_mode="none") as tape:
        with httpx.Client() as client:
            plain = client.post(url, json={"model": "gpt-4o-mini", "messages": []})
            streamed = client.post(url, json={"model": "gpt-4o-mini", "stream": True})
        replayed = [(r.status_code, r.headers["content-type"], r.content) for r in (plain, streamed)]
        assert tape.play_count == 2
    assert replayed == recorded
    assert json.loads(recorded[0][2])["choices"][0]["message"]["content"] == "Bonjour depuis Paris."
    assert recorded[1][2].startswith(b"data: {") and recorded[1][2].endswith(b"data: [DONE]\n\n")
    assert tape.requests[0].headers["Authorization"] == "REDACTED"


def test_llmrelay_replays_a_cassette_vcrpy_recorded(tmp_path: Path) -> None:
    path = tmp_path / "by-vcrpy.yaml"
    with WireServer(script=SCRIPT) as server:
        url = server.base_url_for("openai") + "/chat/completions"
        with vcr.use_cassette(str(path), record_mode="once"), httpx.Client() as client:
            recorded = client.post(url, json={"model": "gpt-4o-mini", "stream": True}).content
    with cassette(path, "none"), httpx.stream("POST", url, json={"other": "body"}) as response:
        pieces = list(response.iter_raw())
    assert b"".join(pieces) == recorded
    assert len(pieces) > 3, "served event by event"
