"""Errors a user can act on (issue 13): each mistake a new user made, and what llmrelay now says or does.

A row per mistake: the call, and either that it now works, or the error type and the words the
message must contain (what to write instead, the tool's name, the file, the host).
"""

from __future__ import annotations

import functools
import io
import json
import re
import socket
import subprocess
import sys
from collections.abc import Callable
from contextlib import redirect_stderr
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

import llmrelay
from llmrelay import ConfigError, RetryPolicy, Tool, to_tool
from llmrelay._cli import main
from llmrelay._types import NativeCall
from llmrelay.adapters._errors import transport_error
from llmrelay.testing import FakeAdapter, mock_http


def get_weather(city: str, days: int = 1) -> str:
    """The forecast for a city."""
    return "sunny"


def untyped(city, days: int = 1) -> str:  # type: ignore[no-untyped-def]
    """No type on city."""
    return "sunny"


def fake_client(*answers: Any) -> tuple[llmrelay.Client, FakeAdapter]:
    fake = FakeAdapter(list(answers) or ["Sunny."])
    return llmrelay.Client("openai:gpt-4o-mini", adapter=fake), fake


@dataclass(frozen=True)
class Mistake:
    id: str
    run: Callable[[], Any]
    error: type[Exception] | None
    says: tuple[str, ...] = ()


def _complete(**kwargs: Any) -> Callable[[], Any]:
    def run() -> Any:
        client, fake = fake_client(NativeCall("get_weather", {"city": "Paris"}, "c1"))
        client.complete(kwargs.pop("messages", "Weather in Paris?"), **kwargs)
        return fake.requests[0]

    return run


MISTAKES = [
    Mistake("tools=one function: accepted as one tool", _complete(tools=get_weather), None),
    Mistake("tools=one dict: accepted as one tool", _complete(tools={"name": "get_weather"}), None),
    Mistake(
        "tools=a string: says what to write", _complete(tools="get_weather"), ConfigError, ("tools=[get_weather]",)
    ),
    Mistake(
        "messages=one dict: accepted as one message",
        _complete(messages={"role": "user", "content": "Weather in Paris?"}, tools=[get_weather]),
        None,
    ),
    Mistake("messages=[]: an error", _complete(messages=[]), ConfigError, ("messages is empty",)),
    Mistake(
        "a tool result without tool_call_id",
        _complete(messages=[{"role": "user", "content": "hi"}, {"role": "tool", "content": "x"}]),
        ConfigError,
        ("message 1", "tool_call_id"),
    ),
    Mistake(
        "a schema that is no JSON schema",
        lambda: to_tool({"name": "get_weather", "parameters": {"type": "objekt"}}),
        ConfigError,
        ("'get_weather'", "not a valid JSON schema", "objekt"),
    ),
    Mistake(
        "a name providers refuse",
        _complete(tools=[{"name": "get weather"}]),
        ConfigError,
        ("'get weather'", "letters, digits, '_' or '-'"),
    ),
    Mistake(
        "a name providers refuse, in run()",
        lambda: fake_client()[0].run("Hi", tools=[{"name": "get weather"}]),
        ConfigError,
        ("'get weather'",),
    ),
    Mistake("a lambda", lambda: to_tool(lambda city: city), ConfigError, ("lambda", "def")),
    Mistake("an untyped parameter", lambda: to_tool(untyped), ConfigError, ("'untyped'", "'city'", "type annotation")),
    Mistake(
        "openai/gpt-4o (LiteLLM's form)", lambda: llmrelay.Client("openai/gpt-4o"), ConfigError, ("'openai:gpt-4o'",)
    ),
    Mistake(
        "an OpenRouter id without its prefix",
        lambda: llmrelay.Client("meta-llama/llama-3.3-70b-instruct"),
        ConfigError,
        ("'openrouter:meta-llama/llama-3.3-70b-instruct'",),
    ),
    Mistake(
        "llama.cpp as a provider (no preset: the openai-compatible line)",
        lambda: llmrelay.Client("llama.cpp:qwen3"),
        llmrelay.UnknownProviderError,
        ("openai-compatible", "http://localhost:8080/v1"),
    ),
    Mistake("a misspelt preset", lambda: llmrelay.Client("olama:llama3.1"), ConfigError, ("did you mean 'ollama'",)),
    Mistake(
        "a misspelt provider", lambda: llmrelay.Client("anthropics:claude"), ConfigError, ("did you mean 'anthropic'",)
    ),
    Mistake("google for gemini", lambda: llmrelay.Client("google:gemini-2.5-flash"), ConfigError, ("'gemini'",)),
]


@pytest.mark.parametrize("case", MISTAKES, ids=lambda c: c.id)
def test_a_mistake_is_accepted_or_said_clearly(case: Mistake) -> None:
    if case.error is None:
        request = case.run()
        assert [tool.name for tool in request.tools] in (["get_weather"], [])
        return
    with pytest.raises(case.error) as caught:
        case.run()
    message = str(caught.value)
    assert all(text in message for text in case.says), message


def test_one_tool_gives_the_same_request_as_a_list_of_it() -> None:
    alone, listed = _complete(tools=get_weather)(), _complete(tools=[get_weather])()
    assert alone.tools == listed.tools


def test_a_partial_over_a_typed_function_is_a_tool_without_its_bound_parameters() -> None:
    tool = to_tool(functools.partial(get_weather, days=3))
    assert tool.name == "get_weather" and tool.description == "The forecast for a city."
    assert set(tool.parameters["properties"]) == {"city"}
    client, _ = fake_client(NativeCall("get_weather", {"city": "Paris"}, "c1"), "Sunny for 3 days.")
    result = client.run("Weather in Paris?", tools=[functools.partial(get_weather, days=3)])
    assert result.stop_reason == "done"


def test_dotted_names_stay_readable_by_the_normalizer_alone() -> None:
    # parse_response reads text formats, where dotted names are common: only requests check names.
    answer = llmrelay.parse_response('{"name": "fs.list", "arguments": {}}', tools=[Tool("fs.list")])
    assert [call.name for call in answer.tool_calls] == ["fs.list"]


def test_a_connection_error_names_the_host() -> None:
    client = llmrelay.Client(
        "openai-compatible:llama3", base_url="http://localhost:11434/v1", retry=RetryPolicy(max_attempts=1)
    )
    with mock_http() as router:
        router.post("http://localhost:11434/v1/chat/completions").mock(side_effect=httpx.ConnectError("refused"))
        with pytest.raises(llmrelay.ProviderConnectionError) as caught:
            client.complete("Hello")
    assert "localhost:11434" in str(caught.value)
    assert "is the local server running" in str(caught.value)  # A local host: the likely cause, said.


def test_parse_with_a_bad_tools_file_names_the_file(tmp_path: Path) -> None:
    answer, bad, wrong = tmp_path / "answer.txt", tmp_path / "bad.json", tmp_path / "wrong.json"
    answer.write_text("Hello.")
    bad.write_text("")
    wrong.write_text(json.dumps([{"name": "f", "parameters": {"type": "objekt"}}]))
    for tools in (bad, wrong):
        stderr = io.StringIO()
        with redirect_stderr(stderr):
            assert main(["parse", str(answer), "--tools", str(tools)]) == 1
        assert str(tools) in stderr.getvalue()


def test_missing_dependency_says_what_the_package_is_needed_for() -> None:
    error = llmrelay.MissingDependencyError(package="respx", extra="testing", needed_for="to mock HTTP")
    assert str(error) == "the 'respx' package is needed to mock HTTP: pip install \"llmrelay[testing]\""


def test_the_demo_without_its_extra_says_in_one_line_what_to_install(tmp_path: Path) -> None:
    # A module named like each SDK that fails to import: the demo's dependencies look missing.
    for name in ("openai", "respx"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("raise ImportError('not installed')")
    script = (
        "import importlib.util, sys\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda n, *a: None if n in ('openai', 'respx') else real(n, *a)\n"
        "from llmrelay._cli import main\n"
        "sys.exit(main(['demo']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        'llmrelay demo needs openai, respx (not installed): pip install "llmrelay[demo]"'
    ]


# --- found by a new user's first hour (session 3) -------------------------------------------------


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"timeout": 0.5}, "Client(model, timeout=...)"),
        ({"api_key": "x"}, "Client(model, api_key=...)"),
        ({"max_retries": 0}, "RetryPolicy(max_attempts=...)"),
        ({"deadline": 5, "temperature": 0}, "deadline"),
    ],
)
def test_a_client_setting_given_per_call_is_refused_not_sent_to_the_provider(params: dict[str, Any], says: str) -> None:
    client = llmrelay.Client("openai:gpt-4o-mini", adapter=FakeAdapter(["hi"]))
    with pytest.raises(ConfigError, match=re.escape(says)):
        client.complete("Hello", **params)
    with pytest.raises(ConfigError, match=re.escape(says)):
        llmrelay.Client("openai:gpt-4o-mini", params=params, adapter=FakeAdapter(["hi"])).complete("Hi")


def _closed_port() -> int:
    """A port of this machine nothing listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    ("model", "host"),
    [
        ("openai-compatible:llama3", "127.0.0.1"),
        ("openai-compatible:llama3", "localhost"),
        ("anthropic:claude", "127.0.0.1"),
    ],
)
def test_a_refused_local_connection_fails_at_once(model: str, host: str) -> None:
    # A real connection to a closed port of this machine (loopback only: no network). It used to
    # be retried for ~4-5 s; nothing starts listening in that time, so it is said at once.
    waits: list[float] = []
    port = _closed_port()
    suffix = "/v1" if model.startswith("openai") else ""
    client = llmrelay.Client(
        model, base_url=f"http://{host}:{port}{suffix}", api_key="k", retry=RetryPolicy(sleep=waits.append)
    )
    with pytest.raises(llmrelay.ProviderConnectionError) as caught:
        client.complete("Hello")
    assert waits == []
    assert f"nothing is listening at {host}:{port}" in str(caught.value)
    assert caught.value.retryable is False


def _sdk_error(url: str, os_error: OSError) -> Exception:
    """What an SDK raises when the connection fails: its error, from httpx's, from the OS's."""
    request = httpx.Request("POST", url)
    transport = httpx.ConnectError(str(os_error), request=request)
    transport.__cause__ = os_error
    sdk = RuntimeError("Connection error.")
    sdk.request = request  # type: ignore[attr-defined]
    sdk.__cause__ = transport
    return sdk


@pytest.mark.parametrize(
    ("url", "os_error", "retryable", "says"),
    [
        ("http://127.0.0.1:9/v1", ConnectionRefusedError(111, "refused"), False, "nothing is listening at 127.0.0.1:9"),
        ("http://127.0.0.2:80/v1", ConnectionRefusedError(111, "refused"), False, "nothing is listening at 127.0.0.2"),
        ("http://localhost:11434/v1", ConnectionRefusedError(111, "refused"), False, "nothing is listening"),
        ("http://[::1]:8000/v1", ConnectionRefusedError(111, "refused"), False, "nothing is listening at ::1:8000"),
        # A remote host that refuses may be restarting behind a balancer; a reset may not happen
        # again: both retried, as before.
        ("http://gpu-box.example:8000/v1", ConnectionRefusedError(111, "refused"), True, "host gpu-box.example:8000"),
        ("http://localhost:11434/v1", ConnectionResetError(104, "reset"), True, "is the local server running"),
    ],
)
def test_only_a_refused_local_connection_is_not_retried(
    url: str, os_error: OSError, retryable: bool, says: str
) -> None:
    error = transport_error(_sdk_error(url, os_error), timeout=False, provider="p", model="m", secret=None)
    assert isinstance(error, llmrelay.ProviderConnectionError)
    assert error.retryable is retryable
    assert says in str(error)


@pytest.mark.parametrize(
    ("model", "base_url", "hint"),
    [
        ("openai-compatible:llama3", "http://localhost:8000", "did you mean base_url='http://localhost:8000/v1'?"),
        ("openai-compatible:llama3", "http://localhost:8000/", "did you mean base_url='http://localhost:8000/v1'?"),
        ("openai-compatible:llama3", "http://gpu-box:8000/api", "did you mean base_url='http://gpu-box:8000/api/v1'?"),
        ("openai:gpt-4o-mini", "https://proxy.example", "did you mean base_url='https://proxy.example/v1'?"),
        # The path has its version: the 404 is about something else (the model, say), no hint.
        ("openai-compatible:llama3", "http://localhost:8000/v1", None),
        ("openai-compatible:gemini", "https://generativelanguage.googleapis.com/v1beta/openai", None),
        # Groq's SDK adds /openai/v1 to the host itself.
        ("groq:llama-3.3-70b-versatile", "https://groq-proxy.example", None),
    ],
)
def test_a_404_from_a_base_url_without_v1_suggests_it(model: str, base_url: str, hint: str | None) -> None:
    client = llmrelay.Client(model, base_url=base_url, api_key="k", retry=RetryPolicy(max_attempts=1))
    with mock_http() as router:
        router.route(method="POST").respond(404, json={"error": {"message": "Not Found"}})
        with pytest.raises(llmrelay.NotFoundError) as caught:
            client.complete("Hello")
    assert ("did you mean base_url=" in str(caught.value)) is (hint is not None)
    if hint is not None:
        assert hint in str(caught.value)


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (
            {"temprature": 0.2},
            "Client() got an unexpected keyword argument 'temprature' (did you mean 'temperature'?): "
            "a generation parameter goes in params={'temperature': 0.2}, or to each call: complete(..., temperature=0.2)",
        ),
        ({"temperature": 0.2}, "argument 'temperature': a generation parameter goes in params={'temperature': 0.2}"),
        (
            {"base_ulr": "http://x/v1"},
            "Client() got an unexpected keyword argument 'base_ulr'; did you mean base_url=?",
        ),
        ({"max_retries": 2}, "'max_retries'; retries are retry=llmrelay.RetryPolicy(max_attempts=...)"),
        ({"zzz": 1}, "Client() got an unexpected keyword argument 'zzz'"),
        ({"tiemout": 5}, "Client() got an unexpected keyword argument 'tiemout'; did you mean timeout=?"),
    ],
)
@pytest.mark.parametrize("client", [llmrelay.Client, llmrelay.AsyncClient])
def test_a_wrong_constructor_argument_names_the_client_and_the_close_match(
    client: type[llmrelay.Client], arguments: dict[str, Any], says: str
) -> None:
    with pytest.raises(TypeError) as caught:
        client("openai:gpt-4o", api_key="k", **arguments)
    assert says.replace("Client()", f"{client.__name__}()") in str(caught.value)
    assert "Pipeline" not in str(caught.value)


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ({}, 'Client() needs the model to call, "provider:model-name": Client("openai:gpt-4o-mini"); or'),
        ({"api_key": "k"}, "or Client.from_config() to read it from llmrelay.toml or LLMRELAY_MODEL"),
        ({"modle": "openai:gpt-4o"}, "unexpected keyword argument 'modle'; did you mean model=?"),
    ],
)
@pytest.mark.parametrize("client", [llmrelay.Client, llmrelay.AsyncClient])
def test_a_client_without_a_model_says_how_to_give_one(
    client: type[llmrelay.Client], arguments: dict[str, Any], says: str
) -> None:
    with pytest.raises(TypeError) as caught:
        client(**arguments)
    assert says.replace("Client", client.__name__) in str(caught.value)
    assert "Pipeline" not in str(caught.value)


def test_a_second_positional_argument_says_to_name_it() -> None:
    with pytest.raises(TypeError, match=r"Client\(\) takes the model as its only positional argument"):
        llmrelay.Client("openai:gpt-4o", "sk-key")  # type: ignore[misc]
