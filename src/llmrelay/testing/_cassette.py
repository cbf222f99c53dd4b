"""Record and replay HTTP interactions in VCR.py cassettes, on both HTTP stacks, sync and async.

`cassette(path)` is a context manager and a decorator. While it is active, every request any
provider SDK sends (httpx or httpx2, sync or async) goes to one respx router, which either serves
a recorded interaction or, when the record mode allows, sends the request for real (`_live`) and
records what came back. Record modes are pytest-recording's:

| mode           | file exists                                  | no file                 |
|----------------|----------------------------------------------|-------------------------|
| `none`         | replay; an unrecorded request is an error    | MissingCassetteError    |
| `once`         | as `none`                                    | record everything       |
| `new_episodes` | replay what is recorded, record the rest      | record everything       |
| `all`          | record everything, replacing the file        | record everything       |

The default is `none` when the `CI` environment variable is set, `once` otherwise. Secrets are
redacted (`_redact`) before an interaction is kept, so they reach neither the file nor a message.
"""

from __future__ import annotations

import functools
import inspect
import os
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeVar, cast, get_args

from .._replay import enter_replay, leave_replay
from ..errors import CassetteError, ConfigError, MissingCassetteError, MissingDependencyError, UnmatchedRequestError

try:
    import httpx
    import respx
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(
        package="respx", extra="testing", needed_for="to record and replay cassettes (llmrelay.testing)"
    ) from exc
from . import _live
from ._exchange import pieces, recorded_request, recorded_response, replayed
from ._http import installed_stacks, on_every_stack
from ._match import DEFAULT_MATCH_ON, Matcher, closest
from ._redact import Redaction, Redactor
from ._vcr import Interaction, RecordedRequest, load_cassette
from ._vcr_write import write_cassette

RecordMode = Literal["none", "once", "new_episodes", "all"]
"""How a cassette may record: pytest-recording's modes (see the module docstring)."""
RECORD_MODES: tuple[RecordMode, ...] = get_args(RecordMode)

_F = TypeVar("_F", bound=Callable[..., Any])
_PREVIEW = 300


def default_record_mode() -> RecordMode:
    """`none` in CI (the `CI` environment variable set, and not to false), `once` elsewhere."""
    ci = os.environ.get("CI", "").strip().lower()
    return "none" if ci not in ("", "0", "false", "no") else "once"


def cassette(
    path: str | os.PathLike[str],
    record_mode: RecordMode | None = None,
    *,
    match_on: Sequence[str] = DEFAULT_MATCH_ON,
    ignore_body_fields: Sequence[str] = (),
    redact: Redaction | None = None,
    allow_playback_repeats: bool = False,
    allow_unplayed: bool = False,
    note: str | None = None,
) -> Cassette:
    """Record and replay the HTTP interactions of a block of code in a VCR.py YAML file.

    Use it as a context manager (`with cassette("tests/cassettes/weather.yaml"):`, or `async with`)
    or as a decorator on a sync or async function.

    Args:
        path: The cassette file (created when recording).
        record_mode: `none`, `once`, `new_episodes` or `all`; default `default_record_mode()`.
        match_on: Matchers a recorded request must pass: `method`, `uri`, `scheme`, `host`,
            `port`, `path`, `query`, `body`; default method, uri and the JSON body (the prompt).
            Repeated requests take the recorded ones in order.
        ignore_body_fields: JSON fields (dotted paths) the `body` matcher leaves out.
        redact: Rules added to the default redaction (credential headers and query parameters,
            cookies, and every value they carried, wherever it appears).
        allow_playback_repeats: Let a recorded interaction answer more than once.
        allow_unplayed: Do not fail when recorded interactions were never requested.
        note: Written at the top of the file as `#` comment lines when it is recorded (how it was
            made, say); YAML readers, vcrpy included, skip it.

    Raises:
        ConfigError: an unknown record mode or matcher.
    """
    return Cassette(
        path,
        record_mode,
        match_on=match_on,
        ignore_body_fields=ignore_body_fields,
        redact=redact,
        allow_playback_repeats=allow_playback_repeats,
        allow_unplayed=allow_unplayed,
        note=note,
    )


@dataclass
class _Slot:
    """A request sent for real; `interaction` is filled once its response has been read."""

    request: RecordedRequest
    response: httpx.Response | None = None
    interaction: Interaction | None = None


@dataclass
class _Session:
    """What one use of a cassette (one `with` block) has seen."""

    recorded: list[Interaction]
    replaying: bool
    recording: bool
    played: list[int] = field(default_factory=list)
    slots: list[_Slot] = field(default_factory=list)
    unmatched: list[UnmatchedRequestError] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Cassette:
    """A cassette file and how to use it; active inside `with` (see `cassette()`)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        record_mode: RecordMode | None = None,
        *,
        match_on: Sequence[str] = DEFAULT_MATCH_ON,
        ignore_body_fields: Sequence[str] = (),
        redact: Redaction | None = None,
        allow_playback_repeats: bool = False,
        allow_unplayed: bool = False,
        note: str | None = None,
    ) -> None:
        if record_mode is not None and record_mode not in RECORD_MODES:
            raise ConfigError(f"record_mode: {record_mode!r} is not one of {list(RECORD_MODES)}")
        self.path = Path(path)
        """The cassette file."""
        self.record_mode: RecordMode = record_mode or default_record_mode()
        """The record mode in force."""
        self._options: dict[str, Any] = {
            "match_on": match_on,
            "ignore_body_fields": ignore_body_fields,
            "redact": redact,
            "allow_playback_repeats": allow_playback_repeats,
            "allow_unplayed": allow_unplayed,
            "note": note,
        }
        self._matcher = Matcher.of(match_on, ignore_body_fields)
        self._redactor = Redactor(redact)
        self._repeats = allow_playback_repeats
        self._allow_unplayed = allow_unplayed
        self._note = note
        self._session: _Session | None = None
        self._router: respx.MockRouter | None = None
        self._active: AbstractContextManager[respx.MockRouter] | None = None

    # --- what was seen ---------------------------------------------------------------------------

    @property
    def interactions(self) -> list[Interaction]:
        """The interactions the file held (unless replaced) and those recorded since, in order."""
        session = self._session
        if session is None:
            return []
        kept = [] if self.record_mode == "all" else list(session.recorded)
        return kept + [slot.interaction for slot in session.slots if slot.interaction is not None]

    @property
    def play_count(self) -> int:
        """How many requests were answered from the recording."""
        return len(self._session.played) if self._session else 0

    @property
    def new_interactions(self) -> list[Interaction]:
        """The interactions recorded for real in this session (redacted), in request order."""
        session = self._session
        return [s.interaction for s in session.slots if s.interaction is not None] if session else []

    # --- context manager and decorator -----------------------------------------------------------

    def __enter__(self) -> Cassette:
        if self._router is not None:
            raise CassetteError(f"{self.path}: this cassette is already active")
        self._session = self._open()
        router = _CassetteRouter(self, using=installed_stacks()[0], assert_all_called=False)
        self._active = on_every_stack(router)
        self._active.__enter__()
        self._router = router
        if self._session.replaying and not self._session.recording:
            enter_replay()  # Nothing can go out: a provider needs no key (see `llmrelay._replay`).
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        assert self._active is not None and self._session is not None
        active, self._active, self._router = self._active, None, None
        active.__exit__(None, None, None)
        session = self._session
        if session.replaying and not session.recording:
            leave_replay()
        self._save(session)
        if session.unmatched:
            raise session.unmatched[0]
        if exc is None and session.replaying and not self._allow_unplayed:
            self._check_all_played(session)

    async def __aenter__(self) -> Cassette:
        return self.__enter__()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.__exit__(exc_type, exc, traceback)

    def __call__(self, func: _F) -> _F:
        """Decorate a sync or async function: each call runs inside a fresh use of this cassette."""
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def run_async(*args: Any, **kwargs: Any) -> Any:
                async with self._fresh():
                    return await func(*args, **kwargs)

            return cast(_F, run_async)

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> Any:
            with self._fresh():
                return func(*args, **kwargs)

        return cast(_F, run)

    def _fresh(self) -> Cassette:
        return Cassette(self.path, self.record_mode, **self._options)

    # --- opening and saving ----------------------------------------------------------------------

    def _open(self) -> _Session:
        exists = self.path.exists()
        mode = self.record_mode
        if mode == "none" and not exists:
            raise MissingCassetteError(
                f"no cassette at {self.path} and record_mode is 'none' (replay only). Record it once where "
                "the real API is reachable: record_mode='once' (or unset CI), or with pytest "
                "`--llmrelay-record-mode=once`; then commit the file."
            )
        recorded = load_cassette(self.path).interactions if exists and mode != "all" else []
        replaying = mode in ("none", "new_episodes") or (mode == "once" and exists)
        recording = mode in ("all", "new_episodes") or (mode == "once" and not exists)
        return _Session(recorded, replaying, recording)

    def _save(self, session: _Session) -> None:
        for slot in session.slots:  # A response nobody finished reading: keep what arrived.
            if slot.interaction is None and slot.response is not None:
                stream = slot.response.stream
                if isinstance(stream, _live.Copy):
                    stream.finish()
        if any(slot.interaction is not None for slot in session.slots):
            write_cassette(self.path, self.interactions, self._note)

    def _check_all_played(self, session: _Session) -> None:
        unplayed = [i for i in range(len(session.recorded)) if i not in session.played]
        if unplayed:
            listed = "; ".join(f"#{i} {_describe(session.recorded[i].request)}" for i in unplayed[:5])
            raise CassetteError(
                f"{self.path}: {len(unplayed)} recorded interaction(s) never requested: {listed}. "
                "Pass allow_unplayed=True if the code may skip them, or re-record the cassette."
            )

    # --- answering requests ----------------------------------------------------------------------

    def _replay(self, request: httpx.Request) -> tuple[RecordedRequest, httpx.Response | None]:
        """The redacted request, and the recorded response that answers it (None: go live or fail)."""
        session = self._session
        assert session is not None
        live = self._redactor.request(recorded_request(request))
        if not session.replaying:
            return live, None
        with session.lock:
            matching = [
                i for i, item in enumerate(session.recorded) if not self._matcher.differences(live, item.request)
            ]
            unused = [i for i in matching if i not in session.played]
            chosen = unused[0] if unused else (matching[-1] if matching and self._repeats else None)
            if chosen is None:
                return live, None
            session.played.append(chosen)
        return live, replayed(session.recorded[chosen].response)

    def _unmatched(self, live: RecordedRequest) -> UnmatchedRequestError:
        session = self._session
        assert session is not None
        lines = [
            f"{self.path}: no recorded interaction answers this request (record_mode {self.record_mode!r}):",
            f"  {_describe(live)}",
        ]
        if live.body:
            lines.append(f"  body: {_preview(live.body)}")
        recorded = [item.request for item in session.recorded]
        if recorded:
            lines.append(f"closest recorded interactions (matching on {', '.join(self._matcher.match_on)}):")
            for position, differs in closest(self._matcher, live, recorded):
                why = f"differs in {', '.join(differs)}" if differs else "already played (repeats are off)"
                if "body" in differs:
                    why += f": {self._matcher.body_difference(live, recorded[position])}"
                lines.append(f"  #{position} {_describe(recorded[position])}  [{why}]")
        else:
            lines.append("the cassette has no recorded interactions.")
        lines.append(
            "It was not sent to the network. To record it: record_mode='new_episodes' "
            "(pytest: --llmrelay-record-mode=new_episodes) where the real API is reachable."
        )
        error = UnmatchedRequestError(self._redactor.text("\n".join(lines)), request=_describe(live))
        with session.lock:
            session.unmatched.append(error)
        return error

    def _slot(self, live: RecordedRequest) -> tuple[_Slot, _live.OnClose]:
        session = self._session
        assert session is not None
        slot = _Slot(live)
        with session.lock:
            session.slots.append(slot)

        def on_close(response: httpx.Response, body: bytes) -> None:
            item = Interaction(live, recorded_response(response, body))
            slot.interaction = self._redactor.interaction(item)

        return slot, on_close

    def handle(self, request: httpx.Request) -> httpx.Response:
        """Answer one intercepted request from a sync client."""
        live, answer = self._replay(request)
        if answer is not None:
            return answer
        if self._session is None or not self._session.recording:
            raise self._unmatched(live)
        slot, on_close = self._slot(live)
        slot.response = _live.send(request, on_close)
        return slot.response

    async def ahandle(self, request: httpx.Request) -> httpx.Response:
        """Answer one intercepted request from an async client."""
        live, answer = self._replay(request)
        if answer is not None:
            return answer
        if self._session is None or not self._session.recording:
            raise self._unmatched(live)
        slot, on_close = self._slot(live)
        slot.response = await _live.asend(request, on_close)
        return slot.response

    def __repr__(self) -> str:
        return f"Cassette({os.fspath(self.path)!r}, record_mode={self.record_mode!r})"


class _CassetteRouter(respx.MockRouter):
    """A respx router whose every request is answered by a cassette (no routes)."""

    def __init__(self, owner: Cassette, **options: Any) -> None:
        super().__init__(**options)
        self._owner = owner

    def handler(self, request: httpx.Request) -> httpx.Response:
        return self._owner.handle(request)

    async def async_handler(self, request: httpx.Request) -> httpx.Response:
        return await self._owner.ahandle(request)


def _describe(request: RecordedRequest) -> str:
    return f"{request.method} {request.uri}"


def _preview(body: bytes) -> str:
    text = body.decode("utf-8", "replace")
    return text if len(text) <= _PREVIEW else text[:_PREVIEW] + f"... ({len(body)} bytes)"


__all__ = ["RECORD_MODES", "Cassette", "RecordMode", "cassette", "default_record_mode", "pieces"]
