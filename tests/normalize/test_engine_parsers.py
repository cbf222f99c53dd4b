"""Issue 16, engines audit: parsers of vLLM, SGLang, llama.cpp and Ollama that read a covered markup.

Each row is named after the engine's parser (file or registry name) and is written from what
that parser reads, in this project's words. The parsers with a format of their own have their
rows in their strategy's table (tests/normalize/strategies/); see docs/normalizer.md for the
list of formats.
"""

from __future__ import annotations

import pytest

from .cases import Case, check

QWEN3 = "<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>"


def qwen3(name: str, **params: str) -> str:
    """One call in Qwen3-Coder's markup, each value on lines of its own."""
    body = "".join(f"<parameter={key}>\n{value}\n</parameter>\n" for key, value in params.items())
    return QWEN3.format(name=name, params=body)


CASES = [
    # vLLM qwen35coder_tool_parser.py: Qwen3-Coder's parser with another streaming loop.
    Case(
        "vllm qwen35coder: two parameters, one a block of code over several lines",
        "Patching it.\n" + qwen3("write_file", path="app.py", text="def f():\n    return 1"),
        [("write_file", {"path": "app.py", "text": "def f():\n    return 1"})],
        content="Patching it.",
        format="qwen3_coder",
    ),
    # vLLM qwen3coder_tool_parser_rl.py: the same markup; the text between calls is content.
    Case(
        "vllm qwen3coder_rl: prose between two calls stays content",
        qwen3("stat", path="a.txt") + "\nNow the second file.\n" + qwen3("stat", path="b.txt"),
        [("stat", {"path": "a.txt"}), ("stat", {"path": "b.txt"})],
        content="Now the second file.",
        format="qwen3_coder",
    ),
    # vLLM step3p5_tool_parser.py and SGLang's "step3p5" (its Qwen3CoderDetector): Step 3.5 thinks
    # in a block whose open tag the template wrote, then calls in Qwen3-Coder's markup.
    Case(
        "vllm step3p5: the close tag of the reasoning, then two calls",
        "Two lookups are needed.\n</think>\n" + qwen3("lookup", term="alpha") + "\n" + qwen3("lookup", term="beta"),
        [("lookup", {"term": "alpha"}), ("lookup", {"term": "beta"})],
        format="qwen3_coder",
        reasoning="Two lookups are needed.",
    ),
    # SGLang berrylm_detector.py (vLLM berrylm_engine): a value ends at the next <parameter= or at
    # </function> when its own close tag is missing.
    Case(
        "sglang berrylm: a parameter left unclosed is ended by the next one",
        "<tool_call>\n<function=shell>\n<parameter=cmd>\ngrep -r todo\n<parameter=cwd>\n/srv\n</function>\n</tool_call>",
        [("shell", {"cmd": "grep -r todo", "cwd": "/srv"})],
        format="qwen3_coder",
    ),
    # vLLM minicpmv_engine_tool_parser.py: MiniCPM-V writes Qwen3-Coder's markup.
    Case(
        "vllm minicpmv: a call without parameters beside one with a unicode value",
        qwen3("now") + qwen3("translate", text="¿Dónde está?"),
        [("now", {}), ("translate", {"text": "¿Dónde está?"})],
        format="qwen3_coder",
    ),
    # vLLM granite4_tool_parser.py: Granite 4 writes Hermes' blocks, text between them is content.
    Case(
        "vllm granite4: text before, between and after two blocks",
        'First.<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>Then.'
        '<tool_call>{"name": "log", "arguments": {"line": {"level": "info", "tags": []}}}</tool_call>Done.',
        [("add", {"a": 1, "b": 2}), ("log", {"line": {"level": "info", "tags": []}})],
        content="First.\nThen.\nDone.",
        format="hermes",
    ),
    # vLLM ernie45_tool_parser.py: ERNIE's thinking ends with a close tag alone, then its blocks.
    Case(
        "vllm ernie45: reasoning closed by its tag alone, then a block",
        'The user wants a quote.\n</think>\n\n\n<tool_call>\n{"name": "quote", "arguments": {"ticker": "XYZ"}}\n'
        "</tool_call>\n",
        [("quote", {"ticker": "XYZ"})],
        format="hermes",
        reasoning="The user wants a quote.",
    ),
    # vLLM hunyuan_a13b_tool_parser.py: Hunyuan-A13B's <tool_calls> holds a JSON list.
    Case(
        "vllm hunyuan_a13b: reasoning, then a list of two calls",
        '<think>Both are needed.</think>\n<tool_calls>[{"name": "a", "arguments": {"x": 1}}, '
        '{"name": "b", "arguments": {}}]</tool_calls>',
        [("a", {"x": 1}), ("b", {})],
        format="jamba",
        reasoning="Both are needed.",
    ),
    # vLLM xlam_tool_parser.py: xLAM's list in a fence, after [TOOL_CALLS] or after its reasoning.
    Case(
        "vllm xlam: the list in a json fence after the reasoning",
        '<think>One call.</think>\n```json\n[{"name": "ping", "arguments": {"host": "a.b"}}]\n```',
        [("ping", {"host": "a.b"})],
        format="fenced_json",
        reasoning="One call.",
    ),
    Case(
        "vllm xlam: the list after [TOOL_CALLS]",
        '[TOOL_CALLS][{"name": "ping", "arguments": {"host": "a.b"}}]',
        [("ping", {"host": "a.b"})],
        format="mistral",
    ),
    # SGLang spark25_detector.py: GLM's key/value pairs, the name on the open tag's line.
    Case(
        "sglang spark25: GLM's pairs, a null and a number",
        "<tool_call>search\n<arg_key>q</arg_key><arg_value>rust</arg_value>\n"
        "<arg_key>page</arg_key><arg_value>2</arg_value>\n</tool_call>",
        [("search", {"q": "rust", "page": 2})],
        format="glm",
    ),
    # Ollama cogito.go: DeepSeek R1's tokens, the arguments in a json fence.
    Case(
        "ollama cogito: prose, then one call in DeepSeek's tokens",
        "Looking it up.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>define\n```json\n"
        '{"word": "café"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("define", {"word": "café"})],
        content="Looking it up.",
        format="deepseek",
    ),
    # Ollama ministral.go and llama.cpp's MAGISTRAL: [THINK] reasoning, then [TOOL_CALLS]name[ARGS].
    Case(
        "ollama ministral: reasoning in brackets, then two calls",
        '[THINK]Two steps.[/THINK][TOOL_CALLS]add[ARGS]{"a": 1, "b": 2}[TOOL_CALLS]clock[ARGS]{}',
        [("add", {"a": 1, "b": 2}), ("clock", {})],
        format="mistral",
        reasoning="Two steps.",
    ),
    # Ollama bailing.go (Ling): GLM's grammar, the think block opened by the prompt.
    Case(
        "ollama bailing: reasoning closed by its tag alone, then GLM's pairs",
        "Needs a search.</think>\n<tool_call>search<arg_key>q</arg_key><arg_value>tides</arg_value></tool_call>",
        [("search", {"q": "tides"})],
        format="glm",
        reasoning="Needs a search.",
    ),
    # llama.cpp FIREFUNCTION_V2: ` functools[...]`.
    Case(
        "llama.cpp firefunction v2: functools and a list",
        ' functools[{"name": "add", "arguments": {"a": 1, "b": 2}}]',
        [("add", {"a": 1, "b": 2})],
        format="phi4",
    ),
    # llama.cpp FUNCTIONARY_V3_1_LLAMA_3_1: <function=name>{json}</function>.
    Case(
        "llama.cpp functionary v3.1: the name in the tag, JSON arguments",
        'Sure.<function=add>{"a": 1, "b": 2}</function>',
        [("add", {"a": 1, "b": 2})],
        content="Sure.",
        format="functionary",
    ),
    # llama.cpp LLAMA_3_X_WITH_BUILTIN_TOOLS: <|python_tag|>tool.call(...).
    Case(
        "llama.cpp llama 3.x builtin tool: a python_tag call",
        '<|python_tag|>brave_search.call(query="tide tables")',
        [("brave_search", {"query": "tide tables"})],
        format="llama",
    ),
    # SGLang minicpm4_xml_detector.py: MiniCPM-4's <function name=…><param name=…> tags.
    Case(
        "sglang minicpm4_xml: two params, one in CDATA",
        '<function name="note"><param name="title">Hi</param><param name="body"><![CDATA[a < b]]></param></function>',
        [("note", {"title": "Hi", "body": "a < b"})],
        format="minicpm",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_engine_parser(case: Case) -> None:
    check(case)
