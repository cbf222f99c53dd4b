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
    with cassette(path, "none"), httpx.stream("POST", url, json={"model": "gpt-4o-mini", "stream": True}) as response:
        pieces = list(response.iter_raw())
    assert b"".join(pieces) == recorded
    assert len(pieces) > 3, "served event by event"


@pytest.mark.parametrize(
    ("note", "header"),
    [
        ("Made by scripts/x.py.", ["# Made by scripts/x.py."]),
        ("line one\n\nline three: 'quoted' # not a key\n", ["# line one", "#", "# line three: 'quoted' # not a key"]),
        ("\n--- !!python/object:os.system\n...", ["# --- !!python/object:os.system", "# ..."]),
    ],
)
def test_a_note_heads_the_file_as_comments_and_both_readers_still_load_it(
    tmp_path: Path, note: str, header: list[str]
) -> None:
    path = tmp_path / "noted.yaml"
    with WireServer(script=SCRIPT) as server:
        url = server.base_url_for("openai") + "/chat/completions"
        with cassette(path, "all", note=note), httpx.Client() as client:
            recorded = client.post(url, json={"model": "gpt-4o-mini", "messages": []}).content
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[: len(header)] == header
    assert lines[len(header)] == "interactions:"
    with cassette(path, "none"), httpx.Client() as client:
        assert client.post(url, json={"model": "gpt-4o-mini", "messages": []}).content == recorded
    with vcr.use_cassette(str(path), record_mode="none") as tape, httpx.Client() as client:
        assert client.post(url, json={"model": "gpt-4o-mini", "messages": []}).content == recorded
        assert tape.play_count == 1


def test_without_a_note_the_file_starts_with_the_interactions(tmp_path: Path) -> None:
    path = tmp_path / "plain.yaml"
    with WireServer(script=SCRIPT) as server, cassette(path, "all"), httpx.Client() as client:
        client.post(server.base_url_for("openai") + "/chat/completions", json={"model": "m"})
    assert path.read_text(encoding="utf-8").startswith("interactions:\n")
