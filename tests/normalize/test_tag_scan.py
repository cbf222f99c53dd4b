"""The tag markers of a text are the same whether each `<` is visited or the regex scans (`_dispatch`)."""

from __future__ import annotations

from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from llmrelay.normalize import _dispatch
from llmrelay.normalize._dispatch import plan_for
from llmrelay.normalize.strategies import DEFAULT_STRATEGIES

from .test_dispatch import SETTINGS, glued


@SETTINGS
@given(text=glued, visits=st.integers(0, 4), window=st.integers(1, 40))
def test_tags_visited_then_scanned_are_all_there_are(text: str, visits: int, window: int) -> None:
    """Past `_TAG_VISITS` `<` the rest is scanned, in windows: the markers found do not change."""
    plan = plan_for(DEFAULT_STRATEGIES)
    expected = plan.markers_in(text)
    with mock.patch.object(_dispatch, "_TAG_VISITS", visits), mock.patch.object(_dispatch, "_WINDOW", window):
        assert plan.markers_in(text) == expected
