"""Replay real recorded provider conversations through llmrelay's real adapters.

The cassettes in `<repo>/../shared/conformance/cassettes/` were recorded by other projects
(pydantic-ai, crewAI, simonw/llm and its plugins); `expected.json` says what each recorded answer
holds (see that folder's README). Every non-streaming interaction is replayed through
`llmrelay.Client(...).complete(...)`, the provider SDK underneath, and `mock_http()`:

- each interaction is one `complete()` call served by a `Replayer` holding just that interaction
  (so the streaming interactions sharing a cassette need no skipping); the request must match the
  recording's method, host and URL path (query string, body and headers are ignored: our adapters
  build their own bodies), and the recording must be used;
- the call asks what the recorded request asked: the same tools (Gemini's declarations converted to
  JSON schema), mode native_tools when it offered tools, json_schema or json_object when it asked
  for structured output, text otherwise;
- the answer must give the recorded content, tool calls (names and arguments, in order) and
  finish reason, or, for an error recording, the llmrelay error that fits its status.

Streaming interactions are the next issue's (cassette replay with `llmrelay.testing.cassette`).
Set LLMRELAY_CONFORMANCE_DIR to use another copy of the folder.
"""

from __future__ import annotations

import email.utils
import json
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

import llmrelay
from llmrelay import Completion
from llmrelay.capabilities import CapabilityLearner
from llmrelay.errors import (
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    ProviderError,
    RateLimitError,
)
from llmrelay.testing import mock_http
from llmrelay.testing._vcr import Interaction, RecordedRequest, load_cassette, parse_cassette

REPO = Path(__file__).resolve().parents[2]
CONFORMANCE = Path(os.environ.get("LLMRELAY_CONFORMANCE_DIR") or REPO.parent / "shared" / "conformance")
ROOTS = (CONFORMANCE, CONFORMANCE / "responses")
"""The chat-style set, and beside it the Responses API set of the same shape (its README: "point the
same replayer at `responses/` as its root")."""
MISSING = f"no conformance recordings: looked for {CONFORMANCE / 'expected.json'} (set LLMRELAY_CONFORMANCE_DIR)"
API_KEY = "test-key-3f9a1c"

# Hosts whose provider has its own adapter; anything else speaking /chat/completions is openai-compatible.
HOSTS = {
    "api.openai.com": "openai",
    "api.groq.com": "groq",
    "openrouter.ai": "openrouter",
    "api.anthropic.com": "anthropic",
    "generativelanguage.googleapis.com": "gemini",
}
CHAT = "/chat/completions"
RESPONSES = "/responses"

# The providers' own finish reasons, by meaning (README: "map it to llmrelay's own vocabulary in the test").
FINISH = {
    **dict.fromkeys(("stop", "end_turn", "stop_sequence", "STOP"), "stop"),
    **dict.fromkeys(("tool_calls", "tool_use"), "tool_calls"),
    **dict.fromkeys(("length", "max_tokens", "MAX_TOKENS"), "length"),
    # A safety stop, or Anthropic's refusal: the answer was withheld.
    **dict.fromkeys(
        ("content_filter", "refusal", "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII"),
        "content_filter",
    ),
}
"""Anything else a provider says (Anthropic's `pause_turn`, Gemini's `OTHER`) means "other"."""
ERRORS: dict[int, type[ProviderError]] = {
    400: BadRequestError,  # UnsupportedFeatureError is one too.
    401: AuthenticationError,
    404: NotFoundError,
    429: RateLimitError,
}


@dataclass(frozen=True)
class Target:
    """One recorded interaction to replay, and what `expected.json` says it holds."""

    file: str
    index: int
    expected: dict[str, Any]
    root: Path = CONFORMANCE
    """The set it belongs to: `file` is relative to its `cassettes/`."""

    @property
    def id(self) -> str:
        return f"{self.file}#{self.index}"

    @property
    def cassette(self) -> Path:
        return self.root / "cassettes" / self.file


def load_recordings() -> list[Target]:
    """Every recorded interaction of every set, streaming ones included."""
    return [Target(c["file"], i["index"], i, root) for root, c in expected_cassettes() for i in c["interactions"]]


def expected_cassettes() -> list[tuple[Path, dict[str, Any]]]:
    """Each cassette entry of each set's `expected.json`, with its set's root."""
    return [
        (root, cassette)
        for root in ROOTS
        if (root / "expected.json").exists()
        for cassette in json.loads((root / "expected.json").read_text())["cassettes"]
    ]


RECORDINGS = load_recordings()
TARGETS = [t for t in RECORDINGS if not t.expected["streaming"]]
# The recordings name models that have since been retired; the Anthropic SDK warns about those.
pytestmark = pytest.mark.filterwarnings(r"ignore:The model '[^']+' is deprecated:DeprecationWarning")
PARAMS = [pytest.param(t, id=t.id) for t in TARGETS] or [pytest.param(None, marks=pytest.mark.skip(reason=MISSING))]
REPLAYED: set[str] = set()
"""Ids of the interactions whose recorded response was served in this session."""


# --- replay machinery ----------------------------------------------------------------------------


class Replayer:
    """Serve recorded interactions to respx: each request takes the next unused one with its key.

    The key is method, host and URL path: the query string (`?alt=sse`, `?beta=true`), body and
    headers are ignored. A request with no such interaction left is answered with an error and
    remembered, so `check_done` fails loudly even if the SDK swallowed the error.
    """

    def __init__(self, interactions: Sequence[Interaction]) -> None:
        self.pending = list(interactions)
        self.served: list[Interaction] = []
        self.unexpected: list[str] = []

    def install(self, router: respx.MockRouter) -> None:
        router.route().mock(side_effect=self)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        key = (request.method, request.url.host, request.url.path)
        for position, item in enumerate(self.pending):
            if request_key(item.request) == key:
                self.served.append(self.pending.pop(position))
                return to_httpx(item)
        self.unexpected.append(f"{request.method} {request.url}")
        raise AssertionError(f"unexpected request {request.method} {request.url}; {self.describe_pending()}")

    def check_done(self) -> None:
        assert not self.unexpected, f"requests the cassette does not have: {self.unexpected}; {self.describe_pending()}"
        assert not self.pending, f"recorded interactions never requested: {self.describe_pending()}"

    def describe_pending(self) -> str:
        waiting = [" ".join(request_key(i.request)) for i in self.pending]
        return f"still recorded: {waiting}" if waiting else "nothing left recorded"


def request_key(request: RecordedRequest) -> tuple[str, str, str]:
    url = httpx.URL(request.uri)
    return request.method, url.host, url.path


def to_httpx(item: Interaction) -> httpx.Response:
    response = item.response
    headers = [(name, value) for name, values in response.headers.items() for value in values]
    return httpx.Response(response.status, headers=headers, content=response.body)


def endpoint(request: RecordedRequest) -> tuple[str, str | None]:
    """The provider whose adapter must replay this request, and the base_url to give it (None: default)."""
    url = httpx.URL(request.uri)
    provider = HOSTS.get(url.host)
    if provider == "openai" and url.path.endswith(RESPONSES):
        return "openai-responses", None
    if url.path.endswith(CHAT) and provider not in ("openai", "groq", "openrouter"):
        # Google's OpenAI-compatible endpoint shares Gemini's host; Cerebras and the like have their own.
        return "openai-compatible", f"{url.scheme}://{url.host}{url.path[: -len(CHAT)]}"
    assert provider is not None, f"no adapter for host {url.host}"
    return provider, None


def model_of(request: RecordedRequest) -> str:
    """The model asked for: in the body, or (Gemini) in the path `/v1beta/models/<model>:generateContent`."""
    path = httpx.URL(request.uri).path
    if "/models/" in path:
        return path.rsplit("/models/", 1)[1].split(":", 1)[0]
    model = recorded_body(request).get("model")
    assert isinstance(model, str), f"no model in the recorded request to {request.uri}"
    return model


def mode_of(request: RecordedRequest, structured: bool) -> llmrelay.Mode:
    """The mode that asks what the recorded request asked: tools, strict JSON, JSON mode, or text."""
    body = recorded_body(request)
    if body.get("tools"):
        return "native_tools"
    if not structured:
        return "text"
    generation = body.get("generationConfig") or {}
    text_format = (body.get("text") or {}).get("format") or {}  # The Responses API's.
    if "json_object" in (body.get("response_format", {}).get("type"), text_format.get("type")) or (
        "responseMimeType" in generation and not {"responseSchema", "responseJsonSchema"} & set(generation)
    ):
        return "json_object"
    return "json_schema"


def recorded_tools(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The functions the recorded request offered, in shapes llmrelay reads.

    OpenAI's `{"type": "function", ...}` and Anthropic's `{"name", "input_schema"}` are taken as
    they are; Gemini's function declarations are converted. Provider-run tools are left out.
    """
    tools: list[dict[str, Any]] = []
    for tool in body.get("tools") or []:
        declarations = tool.get("functionDeclarations") or tool.get("function_declarations")
        if declarations is not None:
            tools.extend(gemini_tool(declaration) for declaration in declarations)
        elif tool.get("type") == "function" or "input_schema" in tool:
            tools.append(tool)
    return tools


def gemini_tool(declaration: dict[str, Any]) -> dict[str, Any]:
    schema = declaration.get("parametersJsonSchema") or declaration.get("parameters_json_schema")
    if schema is None:
        schema = json_schema(declaration.get("parameters") or {"type": "object", "properties": {}})
    return {"name": declaration["name"], "description": declaration.get("description", ""), "parameters": schema}


def json_schema(schema: Any) -> Any:
    """Gemini's OpenAPI-style `parameters` (types in capitals: OBJECT, STRING) as JSON schema."""
    if isinstance(schema, dict):
        return {k: v.lower() if k == "type" and isinstance(v, str) else json_schema(v) for k, v in schema.items()}
    if isinstance(schema, list):
        return [json_schema(item) for item in schema]
    return schema


def recorded_body(request: RecordedRequest) -> dict[str, Any]:
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


@dataclass
class Replay:
    """What one replayed call gave: the answer or the error, and the interaction served."""

    provider: str
    interaction: Interaction
    result: Completion | ProviderError


@dataclass
class Setup:
    """Everything one replay needs: the interaction, the replayer, and how to build the client."""

    target: Target
    interaction: Interaction
    provider: str
    model: str
    mode: llmrelay.Mode
    tools: list[dict[str, Any]]
    options: dict[str, Any]
    replayer: Replayer

    @classmethod
    def of(cls, target: Target) -> Setup:
        interaction = load_cassette(target.cassette).interactions[target.index]
        provider, base_url = endpoint(interaction.request)
        assert provider == target.expected["provider"], f"host {interaction.request.uri} is not {provider}"
        model = model_of(interaction.request)
        mode = mode_of(interaction.request, target.expected["structured_request"])
        tools = recorded_tools(recorded_body(interaction.request))
        # A learner of its own: a recorded 400 must not teach the process-wide one.
        # One recorded answer per call: no retries, repairs or fallbacks (those are tested with scripted
        # providers), so each interaction shows exactly how the adapter reads one real answer.
        options = {
            "api_key": API_KEY,
            "base_url": base_url,
            "learner": CapabilityLearner(),
            "retry": llmrelay.RetryPolicy(max_attempts=1),
            "max_repairs": 0,
            "max_plan_steps": 1,
        }
        return cls(target, interaction, provider, model, mode, tools, options, Replayer([interaction]))

    @property
    def model_string(self) -> str:
        return f"{self.provider}:{self.model}"

    def with_headers(self, **headers: str) -> Setup:
        """The same replay, with headers added to the recorded response."""
        response = self.interaction.response
        extra = {name.replace("_", "-"): [value] for name, value in headers.items()}
        interaction = replace(self.interaction, response=replace(response, headers={**response.headers, **extra}))
        return replace(self, interaction=interaction, replayer=Replayer([interaction]))

    def with_uri(self, uri: str) -> Setup:
        """The same replay, as if the recorded request had gone to `uri`."""
        interaction = replace(self.interaction, request=replace(self.interaction.request, uri=uri))
        return replace(self, interaction=interaction, replayer=Replayer([interaction]))


MESSAGES = [{"role": "user", "content": "Replaying a recorded answer."}]


def replay(target: Target) -> Replay:
    replayed = run(Setup.of(target))
    REPLAYED.add(target.id)
    return replayed


async def areplay(target: Target) -> Replay:
    setup = Setup.of(target)
    result: Completion | ProviderError
    with mock_http() as router:
        setup.replayer.install(router)
        client = llmrelay.AsyncClient(setup.model_string, **setup.options)
        try:
            result = await client.complete(MESSAGES, tools=setup.tools or None, mode=setup.mode)
        except ProviderError as error:
            result = error
    setup.replayer.check_done()
    return Replay(setup.provider, setup.interaction, result)


def run(setup: Setup) -> Replay:
    result: Completion | ProviderError
    with mock_http() as router:
        setup.replayer.install(router)
        client = llmrelay.Client(setup.model_string, **setup.options)
        try:
            result = client.complete(MESSAGES, tools=setup.tools or None, mode=setup.mode)
        except ProviderError as error:
            result = error
    setup.replayer.check_done()
    return Replay(setup.provider, setup.interaction, result)


# --- checks ----------------------------------------------------------------------------------------


def check_answer(target: Target, replayed: Replay) -> None:
    expected = target.expected
    result = replayed.result
    assert isinstance(result, Completion), f"expected an answer, got {result!r}"
    calls = [(c["name"], c["arguments"]) for c in expected["tool_calls"]]
    thought, content = leading_thought(expected["content"])
    assert result.content == content
    if thought is not None:  # The recording keeps a `<think>` block in the text; llmrelay sets it apart.
        assert result.reasoning is not None and thought in result.reasoning
    assert [(c.name, c.arguments) for c in result.tool_calls] == calls
    assert result.rejected == [], "no recorded call may be lost"
    assert result.provider_finish_reason == expected["finish"]
    assert result.finish_reason == normalized_finish(expected["finish"], has_calls=bool(calls))
    assert (result.needs_more_work is True) == bool(calls)
    assert result.provider == replayed.provider


_THOUGHT = re.compile(r"\s*<think>(.*?)</think>\s*", re.DOTALL)


def leading_thought(content: str) -> tuple[str | None, str]:
    """The `<think>` block a recorded answer starts with (a Groq or Qwen model's), and the text after it."""
    found = _THOUGHT.match(content)
    return (found.group(1).strip(), content[found.end() :]) if found else (None, content)


def recorded(*target_ids: str) -> pytest.MarkDecorator:
    """Skip unless the recordings hold these interactions (another set, `LLMRELAY_CONFORMANCE_DIR`, may not)."""
    have = {t.id for t in RECORDINGS}
    missing = [t for t in target_ids if t not in have]
    return pytest.mark.skipif(bool(missing), reason=f"not in these recordings: {missing}")


OTHER_SET = "LLMRELAY_CONFORMANCE_DIR" in os.environ
"""The recordings are not this project's own set (its guards on what the set holds do not apply)."""


def normalized_finish(finish: str | None, *, has_calls: bool) -> str | None:
    if finish is None:
        return "tool_calls" if has_calls else None
    reason = FINISH.get(finish, "other")
    # Gemini says STOP when it calls functions: with calls, a normal stop means "go run them".
    return "tool_calls" if has_calls and reason == "stop" else reason


def check_error(target: Target, replayed: Replay) -> None:
    expected, response = target.expected, replayed.interaction.response
    error = replayed.result
    assert isinstance(error, ERRORS[expected["status"]]), f"{expected['status']} {expected['error']} gave {error!r}"
    assert error.status == expected["status"]
    assert error.provider == replayed.provider
    assert expected["error"]["message"][:40] in error.message, "the provider's words are kept"
    request_id = response.header("x-request-id") or response.header("request-id")
    if request_id is not None:
        assert error.request_id == request_id
    if (wait := retry_after(response.header("retry-after-ms"), response.header("retry-after"))) is not None:
        assert error.retry_after == pytest.approx(wait, abs=2)
    for text in (str(error), repr(error)):
        assert API_KEY not in text


def retry_after(milliseconds: str | None, value: str | None) -> float | None:
    """What the recorded headers ask to wait, in seconds (a number, or an HTTP date)."""
    if milliseconds is not None:
        return float(milliseconds) / 1000
    if value is None:
        return None
    if value.replace(".", "", 1).isdigit():
        return float(value)
    return email.utils.parsedate_to_datetime(value).timestamp() - time.time()


def check(target: Target, replayed: Replay) -> None:
    if target.expected["status"] >= 400:
        check_error(target, replayed)
    else:
        check_answer(target, replayed)


# --- the replays -----------------------------------------------------------------------------------


@pytest.mark.parametrize("target", PARAMS)
def test_replay(target: Target) -> None:
    check(target, replay(target))


@pytest.mark.parametrize("target", PARAMS)
async def test_replay_async(target: Target) -> None:
    check(target, await areplay(target))


# --- the replayer itself, against respx and both HTTP stacks ------------------------------------------

TWO_PATHS = """\
interactions:
- request: {method: POST, uri: 'https://api.example.com/v1/a?x=1', body: one}
  response: {status: {code: 200, message: OK}, headers: {}, body: {string: A1}}
- request: {method: POST, uri: 'https://api.example.com/v1/b', body: two}
  response: {status: {code: 200, message: OK}, headers: {}, body: {string: B}}
- request: {method: POST, uri: 'https://api.example.com/v1/a', body: three}
  response: {status: {code: 429, message: Too Many Requests}, headers: {retry-after: ['3']}, body: {string: A2}}
"""


def replayer_for(text: str) -> Replayer:
    return Replayer(parse_cassette(text).interactions)


@pytest.mark.parametrize("stack", ["httpx", "httpx2"])
def test_replayer_serves_in_recorded_order_per_method_and_path(stack: str) -> None:
    client = pytest.importorskip(stack)
    replayer = replayer_for(TWO_PATHS)
    with mock_http() as router:
        replayer.install(router)
        first = client.post("https://api.example.com/v1/a?other=query", content=b"not the recorded body")
        second = client.post("https://api.example.com/v1/a")
        third = client.post("https://api.example.com/v1/b")
    assert [(r.status_code, r.content) for r in (first, second, third)] == [(200, b"A1"), (429, b"A2"), (200, b"B")]
    assert second.headers["retry-after"] == "3"
    replayer.check_done()


def test_replayer_fails_loudly_on_a_request_the_cassette_does_not_have() -> None:
    replayer = replayer_for(TWO_PATHS)
    with mock_http() as router:
        replayer.install(router)
        with pytest.raises(AssertionError, match="unexpected request GET"):
            httpx.get("https://api.example.com/v1/a")
        with pytest.raises(AssertionError, match=r"unexpected request POST https://elsewhere\.example\.com/v1/a"):
            httpx.post("https://elsewhere.example.com/v1/a")
        httpx.post("https://api.example.com/v1/b")
        with pytest.raises(
            AssertionError,
            match=r"unexpected request POST \S+/v1/b; still recorded: \['POST api\.example\.com /v1/a', 'POST api\.example\.com /v1/a'\]",
        ):
            httpx.post("https://api.example.com/v1/b")
    with pytest.raises(AssertionError, match="requests the cassette does not have"):
        replayer.check_done()


def test_replayer_fails_loudly_on_leftover_interactions() -> None:
    replayer = replayer_for(TWO_PATHS)
    with mock_http() as router:
        replayer.install(router)
        httpx.post("https://api.example.com/v1/a")
    with pytest.raises(AssertionError, match=r"never requested: still recorded: \['POST api.example.com /v1/b', "):
        replayer.check_done()


@recorded("openai/llm-gzip-tool-chain.yaml#0")
def test_replayer_serves_a_recorded_gzip_cassette_through_httpx() -> None:
    replayer = Replayer(load_cassette(CONFORMANCE / "cassettes/openai/llm-gzip-tool-chain.yaml").interactions)
    with mock_http() as router:
        replayer.install(router)
        answers = [httpx.post("https://api.openai.com/v1/chat/completions").json() for _ in range(3)]
    assert [a["choices"][0]["finish_reason"] for a in answers] == ["tool_calls", "tool_calls", "stop"]
    replayer.check_done()


def test_endpoints_models_and_modes() -> None:
    def request(uri: str, body: dict[str, Any] | None = None) -> RecordedRequest:
        return RecordedRequest("POST", uri, {}, json.dumps(body).encode() if body is not None else None)

    gemini = request("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent")
    assert (endpoint(gemini), model_of(gemini)) == (("gemini", None), "gemini-2.5-flash")
    compat = request("https://generativelanguage.googleapis.com/v1beta/openai/chat/completions", {"model": "g"})
    assert endpoint(compat) == ("openai-compatible", "https://generativelanguage.googleapis.com/v1beta/openai")
    cerebras = request("https://api.cerebras.ai/v1/chat/completions", {"model": "llama-3.3-70b"})
    assert (endpoint(cerebras), model_of(cerebras)) == (
        ("openai-compatible", "https://api.cerebras.ai/v1"),
        "llama-3.3-70b",
    )
    assert endpoint(request("https://api.groq.com/openai/v1/chat/completions")) == ("groq", None)
    assert (
        mode_of(request("https://h/x", {"tools": [{}], "response_format": {"type": "json_schema"}}), True)
        == "native_tools"
    )
    assert mode_of(request("https://h/x", {"response_format": {"type": "json_object"}}), True) == "json_object"
    assert mode_of(request("https://h/x", {"response_format": {"type": "json_schema"}}), True) == "json_schema"
    assert mode_of(request("https://h/x", {"generationConfig": {"responseMimeType": "application/json"}}), True) == (
        "json_object"
    )
    assert mode_of(
        request("https://h/x", {"generationConfig": {"responseSchema": {}, "responseMimeType": "a"}}), True
    ) == ("json_schema")
    assert mode_of(request("https://h/x", {"output_format": {}}), True) == "json_schema"
    assert mode_of(request("https://h/x", {}), False) == "text"


def test_finish_reasons_and_retry_after_headers() -> None:
    assert normalized_finish("STOP", has_calls=True) == "tool_calls"
    assert normalized_finish("end_turn", has_calls=False) == "stop"
    assert normalized_finish("MAX_TOKENS", has_calls=False) == "length"
    assert normalized_finish(None, has_calls=False) is None
    assert (
        normalized_finish("SAFETY", has_calls=False)
        == normalized_finish("refusal", has_calls=False)
        == "content_filter"
    )
    assert normalized_finish("pause_turn", has_calls=False) == "other"
    assert leading_thought("<think>\nAdd them.\n</think>\n\n4") == ("Add them.", "4")
    assert leading_thought("4 <think>x</think>") == (None, "4 <think>x</think>")
    assert retry_after("1500", "9") == 1.5
    assert retry_after(None, "7") == 7.0
    assert retry_after(None, email.utils.formatdate(time.time() + 30, usegmt=True)) == pytest.approx(30, abs=2)
    assert retry_after(None, None) is None


# Real 429 bodies, with the wait a provider may announce in its headers (none was recorded).
RATE_LIMITS = [
    t.id
    for t in TARGETS
    if t.id in ("gemini/crewai-text-then-429.yaml#1", "openrouter/pydantic-ai-error-429-x3.yaml#0")
]
WAITS = [({"retry_after": "7"}, 7.0), ({"retry_after_ms": "1500"}, 1.5), ({"retry_after": "in-a-while"}, None)]


@pytest.mark.skipif(not TARGETS, reason=MISSING)
@pytest.mark.parametrize("target_id", RATE_LIMITS)
@pytest.mark.parametrize(("headers", "wait"), WAITS, ids=["seconds", "milliseconds", "unreadable"])
def test_a_recorded_rate_limit_gives_the_announced_wait(
    target_id: str, headers: dict[str, str], wait: float | None
) -> None:
    (target,) = [t for t in TARGETS if t.id == target_id]
    error = run(Setup.of(target).with_headers(**headers)).result
    assert isinstance(error, RateLimitError)
    assert error.retry_after == wait


@recorded("gemini/crewai-error-400-stream-bad-key.yaml#0")
def test_a_wrong_gemini_key_is_an_authentication_error() -> None:
    """Gemini answers a wrong key with 400 INVALID_ARGUMENT; the adapter documents it as authentication.

    It was recorded only for streaming requests, whose error answers are plain JSON, so the recorded
    answer is served to a plain call here.
    """
    (target,) = [t for t in RECORDINGS if t.id == "gemini/crewai-error-400-stream-bad-key.yaml#0"]
    setup = Setup.of(target)
    error = run(setup.with_uri(setup.interaction.request.uri.replace(":streamGenerateContent", ":generateContent")))
    assert isinstance(error.result, AuthenticationError)
    assert (error.result.status, error.result.provider) == (400, "gemini")
    assert "API key not valid" in error.result.message
    assert API_KEY not in str(error.result)


# --- last: nothing silently skipped ------------------------------------------------------------------


def test_every_non_streaming_interaction_was_replayed(request: pytest.FixtureRequest) -> None:
    if not TARGETS:
        pytest.skip(MISSING)
    everything = {t.id for t in TARGETS}
    items = [item for item in request.session.items if isinstance(item, pytest.Function)]
    selected = {item.callspec.id for item in items if item.originalname == "test_replay"}
    if selected != everything:
        pytest.skip("only some replays were selected in this run; the count needs them all")
    expected_count = sum(not i["streaming"] for _, c in expected_cassettes() for i in c["interactions"])
    print(f"\nconformance: replayed {len(REPLAYED)} of {expected_count} non-streaming recorded interactions")
    assert sorted(everything - REPLAYED) == [], "interactions not replayed"
    assert len(REPLAYED) == expected_count
