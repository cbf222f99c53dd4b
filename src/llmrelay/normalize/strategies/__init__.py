"""The built-in parsing strategies, one module per family of output formats."""

from .._types import Strategy
from .anthropic_xml import AnthropicInvoke, DeepSeekDsml, DotsXml, GigaChat35Gcml, MiniMaxXml, Step3Xml
from .command_r import CommandRAction
from .cwm import CwmToolBlock
from .deepseek import DeepSeekTokens
from .embedded_json import EmbeddedJson
from .fenced_json import FencedJson
from .function_calls_json import XmlFunctionCalls
from .functionary import Functionary
from .gemma import GemmaFunctionCall
from .gigachat import GigaChatFunctionCall
from .glm import Glm45ArgKeys, HunyuanV4Suffixed, IQuestCoderV2ArgKeys, IQuestQ1ArgKeys, K2HorizonIfm
from .granite import GraniteToolCall
from .harmony import Harmony
from .hermes import HermesToolCall, HermesWrappedJson
from .hyperclovax import HyperClovaXFunctionCall
from .inkling import InklingBlocks
from .jamba import JambaToolCalls
from .json_document import JsonDocument, LenientJsonDocument
from .kimi_xtml import KimiK3Xtml
from .llama import LlamaPythonTag
from .marker import ToolCallMarker
from .minicpm import MiniCpmXml
from .minimax_m3 import MiniMaxM3Xml
from .mistral import MistralToolCalls
from .muse_glimmer import MuseGlimmerMessages
from .nemotron import NemotronToolCall
from .phi4 import Phi4Functools
from .plamo import PlamoToolRequests
from .pythonic import PythonicCalls
from .pythonic_tags import Lfm2ToolCalls, Olmo3FunctionCalls
from .qwen3_coder import Qwen3CoderXml, SeedOssXml
from .qwen25_coder import Qwen25CoderTools
from .solar_open import SolarOpenToolCall
from .special_tokens import SpecialTokenSections
from .tagged_json import ApertusTools, InternLmAction, LongCatToolCall, PanguToolCall

# Most specific first: a loose strategy must never see text a strict one can read.
DEFAULT_STRATEGIES: tuple[Strategy, ...] = (
    # A whole answer that is valid JSON is read as JSON first, so markup quoted inside one of
    # its strings (an envelope whose content explains `<tool_call>`) is never taken for a call.
    JsonDocument(),
    # Special tokens and model-specific markup: unambiguous delimiters, nested formats before
    # the formats that wrap them (Qwen3-Coder and GLM bodies sit inside Hermes' <tool_call>).
    # MuseGlimmer frames its messages with harmony's `<|message|>` (no `<|channel|>`): before it.
    MuseGlimmerMessages(),
    Harmony(),
    # Kimi K3's argument values are raw text that may quote any other format's markup.
    KimiK3Xtml(),
    # Inkling's JSON tool blocks are typed by special tokens of their own.
    InklingBlocks(),
    # Step3 writes StepTML invokes inside DeepSeek's tokens: before DeepSeek, which reads JSON there.
    Step3Xml(),
    DeepSeekTokens(),
    SpecialTokenSections(),
    Lfm2ToolCalls(),
    GigaChatFunctionCall(),
    GemmaFunctionCall(),
    GraniteToolCall(),
    LlamaPythonTag(),
    MistralToolCalls(),
    CommandRAction(),
    Phi4Functools(),
    # The same <invoke> markup, each with its own rule for values written as text.
    MiniMaxM3Xml(),
    DeepSeekDsml(),
    GigaChat35Gcml(),
    MiniMaxXml(),
    DotsXml(),
    AnthropicInvoke(),
    SeedOssXml(),
    Qwen3CoderXml(),
    Glm45ArgKeys(),
    K2HorizonIfm(),
    HunyuanV4Suffixed(),
    MiniCpmXml(),
    Functionary(),
    HermesToolCall(),
    JambaToolCalls(),
    NemotronToolCall(),
    # Issue 16, engines audit: Qwen2.5-Coder's JSON in <tools> (no other format nests in it).
    Qwen25CoderTools(),
    # llama.cpp's Hermes 2 Pro reader: the same JSON call in <tool>, <json>, <xml>, <response>.
    HermesWrappedJson(),
    LongCatToolCall(),
    InternLmAction(),
    ApertusTools(),
    PanguToolCall(),
    # Issue 16, round three: markup of their own, unambiguous delimiters.
    CwmToolBlock(),
    PlamoToolRequests(),
    SolarOpenToolCall(),
    IQuestCoderV2ArgKeys(),
    IQuestQ1ArgKeys(),
    HyperClovaXFunctionCall(),
    XmlFunctionCalls(),
    # After the JSON and <invoke> readings of <function_calls>: OLMo 3 writes Python lines in it.
    Olmo3FunctionCalls(),
    ToolCallMarker(),
    # Loose JSON last, least specific last: malformed whole-answer JSON, a pythonic call list,
    # JSON in a markdown fence, and finally a tool-shaped object somewhere in prose.
    LenientJsonDocument(),
    PythonicCalls(),
    FencedJson(),
    EmbeddedJson(),
)

__all__ = [
    "DEFAULT_STRATEGIES",
    "AnthropicInvoke",
    "ApertusTools",
    "CommandRAction",
    "CwmToolBlock",
    "DeepSeekDsml",
    "DeepSeekTokens",
    "DotsXml",
    "EmbeddedJson",
    "FencedJson",
    "Functionary",
    "GemmaFunctionCall",
    "GigaChat35Gcml",
    "GigaChatFunctionCall",
    "Glm45ArgKeys",
    "GraniteToolCall",
    "Harmony",
    "HermesToolCall",
    "HermesWrappedJson",
    "HunyuanV4Suffixed",
    "HyperClovaXFunctionCall",
    "IQuestCoderV2ArgKeys",
    "IQuestQ1ArgKeys",
    "InklingBlocks",
    "InternLmAction",
    "JambaToolCalls",
    "JsonDocument",
    "K2HorizonIfm",
    "KimiK3Xtml",
    "LenientJsonDocument",
    "Lfm2ToolCalls",
    "LlamaPythonTag",
    "LongCatToolCall",
    "MiniCpmXml",
    "MiniMaxM3Xml",
    "MiniMaxXml",
    "MistralToolCalls",
    "MuseGlimmerMessages",
    "NemotronToolCall",
    "Olmo3FunctionCalls",
    "PanguToolCall",
    "Phi4Functools",
    "PlamoToolRequests",
    "PythonicCalls",
    "Qwen3CoderXml",
    "Qwen25CoderTools",
    "SeedOssXml",
    "SolarOpenToolCall",
    "SpecialTokenSections",
    "Step3Xml",
    "ToolCallMarker",
    "XmlFunctionCalls",
]
