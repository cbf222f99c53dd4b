"""Checked by mypy (tests/test_output_typing.py), never run: what `output=` gives, as the type checker sees it."""

from __future__ import annotations

import pydantic
from typing_extensions import assert_type

from llmrelay import AsyncClient, Client, Completion


class Weather(pydantic.BaseModel):
    city: str


def sync_client(client: Client) -> None:
    resp = client.complete("Weather in Paris?", output=Weather)
    assert_type(resp, Completion[Weather])
    assert_type(resp.output, Weather)
    plain = client.complete("Hi")
    assert_type(plain.output, None)


async def async_client(client: AsyncClient) -> None:
    resp = await client.complete("Weather in Paris?", tools=[], output=Weather, temperature=0)
    assert_type(resp.output, Weather)
    assert_type((await client.complete("Hi")).output, None)
