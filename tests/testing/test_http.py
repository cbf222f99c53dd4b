from __future__ import annotations

import httpx
import pytest

from llmrelay.testing import installed_stacks, mock_http


def test_both_stacks_are_installed_in_the_dev_environment() -> None:
    assert "httpcore" in installed_stacks()


def test_one_router_answers_httpx_and_httpx2() -> None:
    httpx2 = pytest.importorskip("httpx2")
    with mock_http() as router:
        route = router.post("https://api.example.com/v1/x").respond(200, json={"ok": True})
        assert httpx.post("https://api.example.com/v1/x", json={"a": 1}).json() == {"ok": True}
        assert httpx2.post("https://api.example.com/v1/x", json={"b": 2}).json() == {"ok": True}
        assert [call.request.content for call in route.calls] == [b'{"a":1}', b'{"b":2}']


async def test_async_clients_too() -> None:
    httpx2 = pytest.importorskip("httpx2")
    with mock_http() as router:
        router.get("https://api.example.com/y").respond(204)
        async with httpx.AsyncClient() as client:
            assert (await client.get("https://api.example.com/y")).status_code == 204
        async with httpx2.AsyncClient() as client2:
            assert (await client2.get("https://api.example.com/y")).status_code == 204


def test_unmatched_requests_never_reach_the_network() -> None:
    with mock_http() as router:
        router.get("https://api.example.com/known").respond(200)
        with pytest.raises(Exception, match="not mocked"):
            httpx.get("https://api.example.com/unknown")
