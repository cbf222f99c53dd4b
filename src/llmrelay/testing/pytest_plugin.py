"""pytest plugin: record and replay a test's HTTP calls in a cassette named after the test.

Registered through the `pytest11` entry point, so it is active wherever llmrelay is installed:

```python
@pytest.mark.cassette                     # tests/cassettes/test_weather/test_paris.yaml
def test_paris():
    assert "Paris" in llmrelay.Client("openai:gpt-4o-mini").complete(...).content

def test_lyon(cassette):                  # the fixture gives the active `Cassette`
    ...
    assert cassette.play_count == 1

@pytest.mark.cassette("shared/weather.yaml", match_on=["method", "path"])  # a path, and cassette() options
def test_other(): ...
```

`--llmrelay-record-mode=none|once|new_episodes|all` sets the record mode of every cassette (it
wins over a marker's `record_mode`); without it the default is `none` in CI and `once` elsewhere.
Cassettes go under `cassettes/<test module>/` beside the test file (the `llmrelay_cassette_dir`
ini option renames the folder). Nothing heavy is imported until a test uses a cassette, and the
plugin loads without the `testing` extra (a test that uses a cassette then says what to install).
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ._cassette import Cassette

_MODES = ("none", "once", "new_episodes", "all")
_FAILED = pytest.StashKey[bool]()
_UNSAFE = re.compile(r"[^\w.\-]+")


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add `--llmrelay-record-mode` and the `llmrelay_cassette_dir` ini option."""
    group = parser.getgroup("llmrelay", "llmrelay cassettes")
    group.addoption(
        "--llmrelay-record-mode",
        choices=_MODES,
        default=None,
        help="record mode of every llmrelay cassette: none (replay only), once, new_episodes, all. "
        "Default: none when CI is set, once otherwise.",
    )
    parser.addini("llmrelay_cassette_dir", "folder beside each test file for its cassettes", default="cassettes")


def pytest_configure(config: pytest.Config) -> None:
    """Declare the `cassette` marker."""
    config.addinivalue_line(
        "markers",
        "cassette(path=None, **options): record/replay the test's HTTP calls in a VCR.py cassette "
        "(llmrelay.testing.cassette); the file is named after the test by default",
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """Remember a failed test: its cassette then skips the 'all interactions played' check."""
    report = yield
    if report.when == "call" and report.failed:
        item.stash[_FAILED] = True
    return report


@pytest.fixture
def cassette(request: pytest.FixtureRequest) -> Iterator[Cassette]:
    """The test's cassette, active for the whole test: HTTP calls are replayed from it or recorded."""
    from ..errors import MissingCassetteError
    from ._cassette import Cassette

    marker = request.node.get_closest_marker("cassette")
    args, options = (marker.args, dict(marker.kwargs)) if marker is not None else ((), {})
    path = Path(request.path).parent / args[0] if args else default_path(request)
    marker_mode = options.pop("record_mode", None)
    record_mode = request.config.getoption("--llmrelay-record-mode") or marker_mode
    active = Cassette(path, record_mode, **options)
    try:
        active.__enter__()
    except MissingCassetteError:
        missing = True
    else:
        missing = False
    if missing:  # Failed outside the `except`, so the report is the message alone.
        pytest.fail(missing_message(request, path, active.record_mode), pytrace=False)
    try:
        yield active
    finally:
        if request.node.stash.get(_FAILED, False):
            active._allow_unplayed = True  # The test failed first: that is the news, not what it left unplayed.
        problem = _exit(active)
        if problem is not None:
            pytest.fail(problem, pytrace=False)


def _exit(active: Cassette) -> str | None:
    """Leave the cassette; what went wrong with it, if anything."""
    from ..errors import CassetteError

    try:
        active.__exit__(None, None, None)
    except CassetteError as error:
        return str(error)
    return None


@pytest.fixture(autouse=True)
def _llmrelay_cassette_marker(request: pytest.FixtureRequest) -> None:
    """Tests marked `cassette` get the fixture without asking for it."""
    if request.node.get_closest_marker("cassette") is not None and "cassette" not in request.fixturenames:
        request.getfixturevalue("cassette")


def default_path(request: pytest.FixtureRequest) -> Path:
    """`<test dir>/cassettes/<module>/<Class.>test_name[params].yaml`, made safe for file systems."""
    folder = Path(request.path).parent / str(request.config.getini("llmrelay_cassette_dir"))
    name = request.node.name
    if request.cls is not None:
        name = f"{request.cls.__name__}.{name}"
    return folder / Path(request.path).stem / f"{_UNSAFE.sub('-', name).strip('-')}.yaml"


def missing_message(request: pytest.FixtureRequest, path: Path, mode: str) -> str:
    """What to do when a test's cassette does not exist and may not be recorded."""
    return (
        f"no cassette for {request.node.nodeid} at {path} (record mode {mode!r}: replay only).\n"
        "Record it once where the real API is reachable, with the API key in the environment:\n"
        f"    pytest --llmrelay-record-mode=once {request.node.nodeid!r}\n"
        "then commit the file (secrets are redacted before it is written)."
    )
